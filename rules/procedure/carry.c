/* carry: carrying capacity and load bands; see carry.h. */
#include "rules/procedure/carry.h"

#include <stddef.h>

static const struct carry_row carry[] = {
    {-4, 6, 13, 20},    {-3, 13, 26, 40},    {-2, 20, 40, 60},      {-1, 26, 53, 80},
    {0, 33, 66, 100},   {1, 43, 86, 130},    {2, 58, 116, 175},     {3, 76, 153, 230},
    {4, 100, 200, 300}, {5, 133, 266, 400},  {6, 173, 346, 520},    {7, 233, 466, 700},
    {8, 306, 613, 920}, {9, 400, 800, 1200}, {10, 500, 1000, 1600},
};

const struct carry_row *
carry_row_of(int str)
{
	if (str < CARRY_STR_MIN || str > CARRY_STR_MAX)
		return NULL;
	return &carry[str - CARRY_STR_MIN];
}

enum carry_band
carry_band_of(const struct carry_row *row, int weight)
{
	if (weight <= row->light_max)
		return CARRY_UNENCUMBERED;
	if (weight <= row->medium_max)
		return CARRY_MEDIUM;
	if (weight <= row->heavy_max)
		return CARRY_HEAVY;
	return CARRY_OVER;
}

const char *
carry_band_name(enum carry_band b)
{
	static const char *const names[CARRY_BAND_COUNT] = {"unencumbered", "medium", "heavy (max)",
	                                                    "dragging (over heavy)"};

	return (unsigned)b < CARRY_BAND_COUNT ? names[b] : "?";
}

const char *
carry_penalty(enum carry_band b)
{
	static const char *const penalties[CARRY_BAND_COUNT] = {
	    "No penalty.",
	    "Movement -5 ft, Encumbrance 3 (offsets Dex), 1 Fatigue at the end of each room.",
	    "Movement 5 ft, Dex incapacitated, 3 Fatigue at the end of each room.",
	    "Movement 5 ft, Dex incapacitated, 1 Fatigue per round.",
	};

	return (unsigned)b < CARRY_BAND_COUNT ? penalties[b] : "?";
}
