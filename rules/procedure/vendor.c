/* vendor: vendors, bargaining and carrying capacity; see vendor.h. */
#include "rules/procedure/vendor.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/base/rng.h"

static const struct bargain_row bargains[] = {
    {INT_MIN, -30, 10, 1000}, {-29, -25, 20, 700},    {-24, -20, 30, 500}, {-19, -15, 40, 350},
    {-14, -10, 50, 250},      {-9, -5, 60, 200},      {-4, 0, 70, 150},    {1, 5, 80, 125},
    {6, 10, 90, 110},         {11, 15, 100, 100},     {16, 20, 125, 90},   {21, 25, 150, 80},
    {26, 30, 175, 65},        {31, INT_MAX, 200, 50},
};

static const struct carry_row carry[] = {
    {-4, 6, 13, 20},    {-3, 13, 26, 40},    {-2, 20, 40, 60},      {-1, 26, 53, 80},
    {0, 33, 66, 100},   {1, 43, 86, 130},    {2, 58, 116, 175},     {3, 76, 153, 230},
    {4, 100, 200, 300}, {5, 133, 266, 400},  {6, 173, 346, 520},    {7, 233, 466, 700},
    {8, 306, 613, 920}, {9, 400, 800, 1200}, {10, 500, 1000, 1600},
};

void
vendor_roll(struct rng *r, struct vendor_stock *out)
{
	out->hoards = (int)rng_die(r, 6);
	out->rations_d[0] = (int)rng_die(r, 6);
	out->rations_d[1] = (int)rng_die(r, 6);
	out->rations = (out->rations_d[0] + out->rations_d[1]) * 100;
	out->coin_d10 = (int)rng_die(r, 10);
	out->coin_percent = out->coin_d10 * 10;
	out->skill_d10 = (int)rng_die(r, 10);
	out->skill = out->skill_d10 + 5;
}

const struct bargain_row *
bargain_table(size_t *n)
{
	*n = sizeof(bargains) / sizeof(bargains[0]);
	return bargains;
}

size_t
bargain_row_of(int margin)
{
	size_t n = sizeof(bargains) / sizeof(bargains[0]);

	for (size_t i = 0; i < n; i++)
		if (margin >= bargains[i].lo && margin <= bargains[i].hi)
			return i;
	return n - 1;
}

const struct carry_row *
carry_row_of(int str)
{
	if (str < STR_MOD_MIN || str > STR_MOD_MAX)
		return NULL;
	return &carry[str - STR_MOD_MIN];
}

enum load_band
load_band_of(const struct carry_row *row, int weight)
{
	if (weight <= row->light_max)
		return LOAD_UNENCUMBERED;
	if (weight <= row->medium_max)
		return LOAD_MEDIUM;
	if (weight <= row->heavy_max)
		return LOAD_HEAVY;
	return LOAD_OVER;
}

const char *
load_band_name(enum load_band b)
{
	static const char *const names[LOAD_BAND_COUNT] = {"unencumbered", "medium", "heavy (max)",
	                                                   "dragging (over heavy)"};

	return (unsigned)b < LOAD_BAND_COUNT ? names[b] : "?";
}

const char *
load_penalty(enum load_band b)
{
	static const char *const penalties[LOAD_BAND_COUNT] = {
	    "No penalty.",
	    "Movement -5 ft, Encumbrance 3 (offsets Dex), 1 Fatigue at the end of each room.",
	    "Movement 5 ft, Dex incapacitated, 3 Fatigue at the end of each room.",
	    "Movement 5 ft, Dex incapacitated, 1 Fatigue per round.",
	};

	return (unsigned)b < LOAD_BAND_COUNT ? penalties[b] : "?";
}

bool
vendor_tried(const struct vendor *v, const char *item)
{
	for (int i = 0; i < v->ntried; i++)
		if (strcasecmp(v->tried[i], item) == 0)
			return true;
	return false;
}

int
vendor_try(struct vendor *v, const char *item, char *err, size_t errlen)
{
	for (int i = 0; i < v->ntried; i++) {
		if (strcasecmp(v->tried[i], item) != 0)
			continue;
		snprintf(err, errlen,
		         "%s has already dealt on %s: a buy or sell of an item or lot is tried "
		         "once, and a rejected price ends it for good.",
		         v->name, v->tried[i]);
		return -1;
	}
	if (v->ntried == VENDOR_TRIED_MAX) {
		snprintf(err, errlen,
		         "%s has dealt on %d items or lots, the most the bot remembers for one "
		         "vendor.",
		         v->name, VENDOR_TRIED_MAX);
		return -1;
	}
	snprintf(v->tried[v->ntried++], sizeof(v->tried[0]), "%.32s", item);
	return 0;
}

void
vendor_bargain(const struct vendor *v, int64_t roll, struct bargain *out)
{
	int64_t m = roll - v->stock.skill;

	out->roll = roll;
	out->skill = v->stock.skill;
	out->margin = (int)(m < -MARGIN_LIMIT  ? -MARGIN_LIMIT
	                    : m > MARGIN_LIMIT ? MARGIN_LIMIT
	                                       : m);
	out->row = bargain_row_of(out->margin);
}
