/*
 * carry: carrying capacity (RULES.md section 6).
 *
 * Carrying capacity depends on the Strength modifier (-4..+10) and gives
 * three load bands; what each costs comes from the safe-areas text
 * (RULES.md section 6: medium, max/heavy, dragging), whose table is
 * garbled: the reading is our Ruling. The larger of these and armour's
 * penalty applies; they don't stack.
 */
#ifndef DELVER_CARRY_H
#define DELVER_CARRY_H

#define CARRY_STR_MIN (-4) /* the Strength modifiers the table covers */
#define CARRY_STR_MAX 10

enum carry_band {
	CARRY_UNENCUMBERED = 0,
	CARRY_MEDIUM,
	CARRY_HEAVY,
	CARRY_OVER, /* more than the heavy limit */
	CARRY_BAND_COUNT
};

struct carry_row {
	int str;       /* the Strength modifier */
	int light_max; /* unencumbered up to this many lb */
	int medium_max;
	int heavy_max;
};

/* The row for Strength modifier str (CARRY_STR_MIN..CARRY_STR_MAX), or NULL. */
const struct carry_row *carry_row_of(int str);
/* The band weight (lb, >= 0) falls in. */
enum carry_band carry_band_of(const struct carry_row *row, int weight);
/* "unencumbered", "medium", "heavy (max)", "dragging (over heavy)". */
const char *carry_band_name(enum carry_band b);
/* What the band costs, one sentence (the safe-areas text, our reading). */
const char *carry_penalty(enum carry_band b);

#endif
