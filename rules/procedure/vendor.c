/* vendor: vendors and bargaining; see vendor.h. */
#include "rules/procedure/vendor.h"

#include <stdio.h>
#include <string.h>

#include "rules/base/rng.h"
#include "rules/base/utf8.h"

static const struct vendor_bargain_row bargains[] = {
    {INT_MIN, -30, 10, 1000}, {-29, -25, 20, 700},    {-24, -20, 30, 500}, {-19, -15, 40, 350},
    {-14, -10, 50, 250},      {-9, -5, 60, 200},      {-4, 0, 70, 150},    {1, 5, 80, 125},
    {6, 10, 90, 110},         {11, 15, 100, 100},     {16, 20, 125, 90},   {21, 25, 150, 80},
    {26, 30, 175, 65},        {31, INT_MAX, 200, 50},
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

const struct vendor_bargain_row *
vendor_bargain_table(size_t *n)
{
	*n = sizeof(bargains) / sizeof(bargains[0]);
	return bargains;
}

size_t
vendor_bargain_row_of(int64_t margin)
{
	size_t n = sizeof(bargains) / sizeof(bargains[0]);

	/* the first row is open below, the last open above */
	for (size_t i = 0; i < n; i++)
		if ((i == 0 || margin >= bargains[i].lo) &&
		    (i == n - 1 || margin <= bargains[i].hi))
			return i;
	return n - 1;
}

bool
vendor_tried(const struct vendor *v, const char *item)
{
	for (int i = 0; i < v->ntried; i++)
		if (utf8_casecmp(v->tried[i], item) == 0)
			return true;
	return false;
}

int
vendor_try(struct vendor *v, const char *item, char *err, size_t errlen)
{
	for (int i = 0; i < v->ntried; i++) {
		if (utf8_casecmp(v->tried[i], item) != 0)
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
vendor_bargain(const struct vendor *v, int64_t roll, struct vendor_deal *out)
{
	int64_t m;

	if (__builtin_sub_overflow(roll, (int64_t)v->stock.skill, &m))
		m = roll < 0 ? INT64_MIN : INT64_MAX;
	out->roll = roll;
	out->skill = v->stock.skill;
	out->margin = m;
	out->row = vendor_bargain_row_of(out->margin);
}
