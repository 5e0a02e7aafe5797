/* /vendor, /bargain, /encumbrance: safe-area trade and carrying capacity. */
#include <limits.h>
#include <stdio.h>

#include "commands/commands.h"
#include "rules/procedure/vendor.h"

static void
vendor_fn(struct invocation *inv, struct reply *out)
{
	struct vendor_stock v;

	vendor_roll(inv->rng, &v);
	reply_title(out, "A vendor's stock");
	reply_add(out, 0, "Hoards of goods: 1d6 = ");
	reply_add(out, RS_BOLD, "%d", v.hoards);
	reply_nl(out);
	reply_add(out, 0, "Rations: 2d6 x 100 = (%d + %d) x 100 = ", v.rations_d[0],
	          v.rations_d[1]);
	reply_add(out, RS_BOLD, "%d", v.rations);
	reply_add(out, 0, ", at 1 gp each");
	reply_nl(out);
	reply_add(out, 0, "Trades for salvage: 1d10 x 10%% = %d x 10%% = ", v.coin_d10);
	reply_add(out, RS_BOLD, "%d%%", v.coin_percent);
	reply_add(out, 0, " of its coins");
	reply_nl(out);
	reply_add(out, 0, "Bargaining skill: 1d10 + 5 = %d + 5 = ", v.skill_d10);
	reply_add(out, RS_BOLD, "%d", v.skill);
	reply_nl(out);
	reply_add(out, RS_DIM, "Each deal is tried once: ");
	reply_cmd(out, RS_DIM, "bargain", "margin", "<margin>", NULL);
	reply_line(out, RS_DIM, " gives the prices for the player's margin of success.");
}

static void
margin_text(const struct bargain_row *r, char *buf, size_t len)
{
	if (r->lo == INT_MIN)
		snprintf(buf, len, "%d or less", r->hi);
	else if (r->hi == INT_MAX)
		snprintf(buf, len, "+%d or more", r->lo);
	else if (r->lo > 0)
		snprintf(buf, len, "+%d to +%d", r->lo, r->hi);
	else
		snprintf(buf, len, "%d to %d", r->lo, r->hi);
}

static void
bargain_fn(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"margin", "player sells at", "player buys at"};
	int margin = (int)inv_int(inv, "margin", 0);
	size_t n, hl = bargain_row_of(margin);
	const struct bargain_row *t = bargain_table(&n);

	reply_title(out, "Bargain: margin of success %+d", margin);
	reply_table(out, 3, hdr);
	for (size_t i = 0; i < n; i++) {
		char m[32], sell[16], buy[16];
		const char *cells[3] = {m, sell, buy};

		margin_text(&t[i], m, sizeof(m));
		snprintf(sell, sizeof(sell), "%d%%", t[i].sell_percent);
		snprintf(buy, sizeof(buy), "%d%%", t[i].buy_percent);
		reply_row(out, i == hl, cells);
	}
	reply_add(out, 0, "The player sells at ");
	reply_add(out, RS_BOLD, "%d%%", t[hl].sell_percent);
	reply_add(out, 0, " and buys at ");
	reply_add(out, RS_BOLD, "%d%%", t[hl].buy_percent);
	reply_add(out, 0, " of the price.");
	reply_nl(out);
	reply_line(out, RS_DIM, "A rejected price ends that deal for good.");
}

static void
encumbrance_fn(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"load", "pounds"};
	int str = (int)inv_int(inv, "str", 0), weight = (int)inv_int(inv, "weight", 0);
	const struct carry_row *row = carry_row_of(str);
	enum load_band band = load_band_of(row, weight);
	char r[LOAD_BAND_COUNT][32];

	snprintf(r[LOAD_UNENCUMBERED], sizeof(r[0]), "0-%d", row->light_max);
	snprintf(r[LOAD_MEDIUM], sizeof(r[0]), "%d-%d", row->light_max + 1, row->medium_max);
	snprintf(r[LOAD_HEAVY], sizeof(r[0]), "%d-%d", row->medium_max + 1, row->heavy_max);
	snprintf(r[LOAD_OVER], sizeof(r[0]), "%d or more", row->heavy_max + 1);
	reply_title(out, "Carrying capacity: Str %+d, %d lb", str, weight);
	reply_table(out, 2, hdr);
	for (int b = 0; b < LOAD_BAND_COUNT; b++) {
		const char *cells[2] = {load_band_name(b), r[b]};

		reply_row(out, b == (int)band, cells);
	}
	reply_add(out, RS_BOLD, "%d", weight);
	reply_add(out, 0, " lb is ");
	reply_add(out, RS_BOLD | (band == LOAD_UNENCUMBERED ? RS_GOOD : RS_BAD), "%s",
	          load_band_name(band));
	reply_add(out, 0, ".");
	reply_nl(out);
	reply_line(out, 0, "%s", load_penalty(band));
}

static const struct cmd_opt bargain_opts[] = {
    {.name = "margin",
     .desc = "The player's margin of success (-999 to +999)",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = -MARGIN_LIMIT,
     .max = MARGIN_LIMIT},
    {0},
};

static const struct cmd_opt encumbrance_opts[] = {
    {.name = "str",
     .desc = "Strength modifier (-4 to +10)",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = STR_MOD_MIN,
     .max = STR_MOD_MAX},
    {.name = "weight",
     .desc = "Load carried, in pounds (0-100000)",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = 0,
     .max = 100000},
    {0},
};

const struct command cmd_vendor = {
    .name = "vendor",
    .desc = "Roll a vendor's stock: hoards, rations, coin for salvage, bargaining skill",
    .help = "A vendor has 1d6 hoards of goods, 2d6 x 100 rations (1 gp each), trades 1d10 x "
            "10% of its coins for salvage, and bargains with skill 1d10 + 5. Vendor rooms are "
            "safe areas ({/safe on}).",
    .fn = vendor_fn,
};

const struct command cmd_bargain = {
    .name = "bargain",
    .desc = "The sell and buy price for a margin of success",
    .help = "A buy or sell of an item (or lot) is attempted once; the player's margin of "
            "success sets the price. A rejected price ends that deal for good.",
    .opts = bargain_opts,
    .fn = bargain_fn,
};

const struct command cmd_encumbrance = {
    .name = "encumbrance",
    .desc = "The load band for a Strength modifier and a weight, and its penalty",
    .help = "Ruling: the source gives the bands but not what they cost; ours follows the d20 "
            "tradition the table comes from. Medium: speed drops by a third, at most +3 from "
            "Dex, -3 to Str- and Dex-based checks. Heavy: speed drops by a third, at most +1 "
            "from Dex, -6. Over the heavy limit: cannot move until something is dropped.",
    .opts = encumbrance_opts,
    .fn = encumbrance_fn,
};
