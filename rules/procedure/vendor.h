/*
 * vendor: safe-area vendors and bargaining (RULES.md section 6).
 *
 * A vendor has 1d6 hoards of goods, 2d6 x 100 rations (1 gp each), trades
 * 1d10 x 10% of its coins for salvage, and bargains with skill 1d10 + 5.
 * A deal is attempted once; the player's margin of success picks a row of
 * the bargain table. Carrying capacity is in carry.h.
 */
#ifndef DELVER_VENDOR_H
#define DELVER_VENDOR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rng;

struct vendor_stock {
	int hoards;       /* 1d6 */
	int rations_d[2]; /* the 2d6 */
	int rations;      /* (2d6) x 100 */
	int coin_d10;     /* the 1d10 */
	int coin_percent; /* 1d10 x 10 */
	int skill_d10;    /* the 1d10 */
	int skill;        /* 1d10 + 5 */
};

void vendor_roll(struct rng *r, struct vendor_stock *out);

#define VENDOR_NAME_MAX  24 /* bytes of a vendor's name, without the NUL */
#define VENDOR_ITEM_MAX  32 /* bytes of an item's or lot's name, without the NUL */
#define VENDOR_TRIED_MAX 32 /* items or lots remembered for one vendor */
#define VENDORS_MAX      16 /* vendors remembered in one channel */

/* A vendor the channel met: its stock (the skill rolled once) and every
 * item or lot already dealt on, each tried once. */
struct vendor {
	char name[VENDOR_NAME_MAX + 1];
	struct vendor_stock stock;
	int ntried;
	char tried[VENDOR_TRIED_MAX][VENDOR_ITEM_MAX + 1];
};

/* Whether item was dealt on with v already (case folded: utf8_casecmp). */
bool vendor_tried(const struct vendor *v, const char *item);
/* Records a deal on item. Returns 0, or -1 with one sentence in err when
 * it was tried already or v remembers VENDOR_TRIED_MAX deals. */
int vendor_try(struct vendor *v, const char *item, char *err, size_t errlen);

/* A deal: the player's bargaining roll against the vendor's skill. */
struct vendor_deal {
	int64_t roll;   /* the player's total */
	int skill;      /* the vendor's, 1d10 + 5 as remembered */
	int64_t margin; /* roll - skill (INT64_MIN or INT64_MAX past the range) */
	size_t row;     /* the bargain table's row for the margin */
};
void vendor_bargain(const struct vendor *v, int64_t roll, struct vendor_deal *out);

struct vendor_bargain_row {
	int lo, hi;       /* margins covered; INT_MIN / INT_MAX at the open ends */
	int sell_percent; /* the player sells at this % of the price */
	int buy_percent;  /* the player buys at this % */
};

/* The whole table, lowest margin first; *n gets its length. */
const struct vendor_bargain_row *vendor_bargain_table(size_t *n);
/* The index of the row for margin. */
size_t vendor_bargain_row_of(int64_t margin);

#endif
