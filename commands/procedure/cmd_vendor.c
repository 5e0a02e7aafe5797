/* /vendor, /bargain, /encumbrance: safe-area trade and carrying capacity. */
#include "commands/procedure/cmd_vendor.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "commands/procedure/procedure_state.h"
#include "commands/dice/rollchan.h"
#include "rules/dice/dice.h"
#include "rules/procedure/carry.h"
#include "rules/procedure/vendor.h"

static void
stock_lines(struct reply *out, const struct vendor_stock *v)
{
	reply_add(out, 0, "Hoards of goods: 1d6 = ");
	reply_add(out, RS_BOLD, "%d", v->hoards);
	reply_add(out, 0, ", each generated at the level the dungeon is on");
	reply_nl(out);
	reply_add(out, 0, "Rations: 2d6 x 100 = (%d + %d) x 100 = ", v->rations_d[0],
	          v->rations_d[1]);
	reply_add(out, RS_BOLD, "%d", v->rations);
	reply_add(out, 0, ", at 1 gp each");
	reply_nl(out);
	reply_add(out, 0, "Trades for salvage: 1d10 x 10%% = %d x 10%% = ", v->coin_d10);
	reply_add(out, RS_BOLD, "%d%%", v->coin_percent);
	reply_add(out, 0, " of its coins");
	reply_nl(out);
	reply_add(out, 0, "Bargaining skill: 1d10 + 5 = %d + 5 = ", v->skill_d10);
	reply_add(out, RS_BOLD, "%d", v->skill);
	reply_nl(out);
}

static bool
vendor_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > VENDOR_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x21 || s[i] == 0x7f)
			return false;
	return true;
}

/* A vendor's room is a safe area; says so when the channel is not in one. */
static void
safe_hint(struct reply *out, const struct procedure_state *s)
{
	if (s->safe)
		return;
	reply_add(out, RS_DIM, "A vendor's room is a safe area: the GM marks it with ");
	reply_cmd(out, RS_DIM, "safe on", NULL);
	reply_line(out, RS_DIM, ".");
}

static void
vendor_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	const char *name = invocation_str(inv, "name");
	struct vendor_stock st;
	struct vendor *v;

	if (name == NULL) {
		vendor_roll(inv->rng, &st);
		reply_title(out, "A vendor's stock");
		stock_lines(out, &st);
		reply_add(out, RS_DIM, "Name the vendor (");
		reply_cmd(out, RS_DIM, "vendor", "name", "NAME", NULL);
		reply_add(out, RS_DIM, ") so the bot remembers it and rolls each deal with ");
		reply_cmd(out, RS_DIM, "bargain", "vendor", "NAME", "item", "ITEM", "deal",
		          "sell|buy", NULL);
		reply_line(out, RS_DIM, ".");
		safe_hint(out, s);
		return;
	}
	if ((v = procedure_state_vendor(s, name)) != NULL) {
		reply_title(out, "%s's stock (met before)", v->name);
		stock_lines(out, &v->stock);
		reply_line(out, RS_DIM, "%d item%s or lot%s dealt on so far.", v->ntried,
		           v->ntried == 1 ? "" : "s", v->ntried == 1 ? "" : "s");
		return;
	}
	if (!vendor_name_ok(name)) {
		reply_error(out, "A vendor's name is 1 to %d bytes without spaces.",
		            VENDOR_NAME_MAX);
		return;
	}
	if (s->nvendors == VENDORS_MAX) {
		reply_error(out, "This channel remembers %d vendors already, the most it can.",
		            VENDORS_MAX);
		return;
	}
	v = procedure_state_vendor_add(s);
	snprintf(v->name, sizeof(v->name), "%s", name);
	vendor_roll(inv->rng, &v->stock);
	channel_touch(inv->chan);
	reply_title(out, "%s's stock", v->name);
	stock_lines(out, &v->stock);
	reply_add(out, RS_DIM, "Each deal is tried once: ");
	reply_cmd(out, RS_DIM, "bargain", "vendor", v->name, "item", "ITEM", "deal", "sell|buy",
	          "roll", "ROLL", NULL);
	reply_line(out, RS_DIM, " rolls it against this skill.");
	safe_hint(out, s);
}

static void
margin_text(const struct vendor_bargain_row *r, char *buf, size_t len)
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

/* The player's bargaining roll: a dice expression, or a bare modifier
 * ("+3", "-1") added to 1d20 (our reading of "a roll or modifier"). */
static int
bargain_roll(struct invocation *inv, const char *text, int64_t *total, char *shown, size_t len,
             struct reply *out)
{
	char expr[80], err[DICE_ERR_MAX];
	struct dice_result *res;
	const struct dice_expr *e;
	bool modifier = (text[0] == '+' || text[0] == '-') && text[1] != '\0' &&
	                strspn(text + 1, "0123456789") == strlen(text + 1);

	snprintf(expr, sizeof(expr), "%s%.60s", modifier ? "1d20" : "", text);
	if (dice_roll(expr, strlen(expr), inv->rng, &res, err, sizeof(err)) != DICE_OK) {
		reply_error(out, "%s", err);
		return -1;
	}
	e = dice_result_expr(res, 0);
	if (dice_result_nexprs(res) != 1 || e->nrepeats != 1) {
		dice_result_free(res);
		reply_error(out, "A bargaining roll is one expression, like 1d20+3 or +3.");
		return -1;
	}
	*total = e->repeats[0].total;
	{
		/* "1d20+3: [14] + 3": every die shown, as in /roll */
		size_t used = 0;
		int r = snprintf(shown, len, "%s:", e->source);

		used = r < 0 ? 0 : (size_t)r < len ? (size_t)r : len - 1;
		for (size_t i = 0; i < e->repeats[0].nitems && used + 1 < len; i++) {
			const struct dice_item *it = &e->repeats[0].items[i];

			if (it->kind == DICE_ITEM_TEXT) {
				r = snprintf(shown + used, len - used, "%s%s", i ? "" : " ",
				             it->text);
			} else {
				r = snprintf(shown + used, len - used, "%s[", i ? "" : " ");
				for (size_t k = 0; k < it->group->ndice && r >= 0; k++) {
					used += (size_t)r < len - used ? (size_t)r : len - used - 1;
					r = snprintf(shown + used, len - used, "%s%lld",
					             k ? ", " : "",
					             (long long)it->group->dice[k].value);
				}
				if (r >= 0) {
					used += (size_t)r < len - used ? (size_t)r : len - used - 1;
					r = snprintf(shown + used, len - used, "]");
				}
			}
			if (r >= 0)
				used += (size_t)r < len - used ? (size_t)r : len - used - 1;
		}
	}
	dice_result_free(res);
	return 0;
}

static void
bargain_fn(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"margin", "player sells at", "player buys at"};
	struct procedure_state *s = procedure_state_of(inv->chan);
	const char *vname = invocation_str(inv, "vendor"), *item = invocation_str(inv, "item");
	const char *deal = invocation_str(inv, "deal"), *rolltext = invocation_str(inv, "roll");
	bool selling = strcmp(deal, "sell") == 0;
	struct vendor *v = procedure_state_vendor(s, vname);
	struct vendor_deal b;
	char shown[160], err[200];
	int64_t total;
	size_t n;
	const struct vendor_bargain_row *t = vendor_bargain_table(&n);

	if (v == NULL) {
		reply_error(out, "There is no vendor '%.24s' here; ", vname);
		reply_cmd(out, RS_BAD, "vendor", "name", vname, NULL);
		reply_add(out, RS_BAD, " meets one.");
		return;
	}
	if (vendor_tried(v, item)) {
		vendor_try(v, item, err, sizeof(err));
		reply_error(out, "%s", err);
		return;
	}
	if (bargain_roll(inv, rolltext != NULL ? rolltext : "1d20", &total, shown, sizeof(shown),
	                 out) < 0)
		return;
	if (vendor_try(v, item, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		return;
	}
	channel_touch(inv->chan);
	vendor_bargain(v, total, &b);
	/* Compact output: the heading opens the roll's line, and the table
	 * has the rolled row alone. */
	rollchan_heading(inv->chan, out, "Bargaining with %s: %s %s", v->name,
	                 selling ? "selling" : "buying", item);
	reply_add(out, 0, "%s rolls %s = ", inv->from->user_name, shown);
	reply_add(out, RS_BOLD, "%lld", (long long)b.roll);
	reply_add(out, 0, " against %s's skill %d: margin ", v->name, b.skill);
	reply_add(out, RS_BOLD, "%+lld", (long long)b.margin);
	reply_add(out, 0, ".");
	reply_nl(out);
	reply_table(out, 3, hdr);
	for (size_t i = 0; i < n; i++) {
		char m[32], sell[16], buy[16];
		const char *cells[3] = {m, sell, buy};

		margin_text(&t[i], m, sizeof(m));
		snprintf(sell, sizeof(sell), "%d%%", t[i].sell_percent);
		snprintf(buy, sizeof(buy), "%d%%", t[i].buy_percent);
		if (i != b.row && rollchan_compact(inv->chan))
			continue;
		reply_row(out, i == b.row, cells);
	}
	reply_add(out, 0, "The price: ");
	reply_add(out, RS_BOLD, "%d%%", selling ? t[b.row].sell_percent : t[b.row].buy_percent);
	reply_add(out, 0,
	          " of the item's value. This is the one try on %s with %s; a rejected "
	          "price ends the deal for good.",
	          item, v->name);
	reply_nl(out);
}

static void
encumbrance_fn(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"load", "pounds"};
	int str = (int)invocation_int(inv, "str", 0),
	    weight = (int)invocation_int(inv, "weight", 0);
	const struct carry_row *row = carry_row_of(str);
	enum carry_band band = carry_band_of(row, weight);
	char r[CARRY_BAND_COUNT][32];

	snprintf(r[CARRY_UNENCUMBERED], sizeof(r[0]), "0-%d", row->light_max);
	snprintf(r[CARRY_MEDIUM], sizeof(r[0]), "%d-%d", row->light_max + 1, row->medium_max);
	snprintf(r[CARRY_HEAVY], sizeof(r[0]), "%d-%d", row->medium_max + 1, row->heavy_max);
	snprintf(r[CARRY_OVER], sizeof(r[0]), "%d or more", row->heavy_max + 1);
	reply_title(out, "Carrying capacity: Str %+d, %d lb", str, weight);
	reply_table(out, 2, hdr);
	for (int b = 0; b < CARRY_BAND_COUNT; b++) {
		const char *cells[2] = {carry_band_name(b), r[b]};

		reply_row(out, b == (int)band, cells);
	}
	reply_add(out, RS_BOLD, "%d", weight);
	reply_add(out, 0, " lb is ");
	reply_add(out, RS_BOLD | (band == CARRY_UNENCUMBERED ? RS_GOOD : RS_BAD), "%s",
	          carry_band_name(band));
	reply_add(out, 0, ".");
	reply_nl(out);
	reply_line(out, 0, "%s", carry_penalty(band));
}

static const char *const deal_choices[] = {"sell", "buy", NULL};

static const struct cmd_opt vendor_opts[] = {
    {.name = "name",
     .desc = "The vendor's name: remembered with its stock and skill",
     .type = OPT_STRING,
     .max = VENDOR_NAME_MAX},
    {0},
};

static const struct cmd_opt bargain_opts[] = {
    {.name = "vendor",
     .desc = "The vendor met (named with the vendor command)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = VENDOR_NAME_MAX},
    {.name = "item",
     .desc = "The item or lot dealt on (each is tried once)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = VENDOR_ITEM_MAX},
    {.name = "deal",
     .desc = "sell or buy",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = deal_choices},
    {.name = "roll",
     .desc = "Your bargaining roll: dice (1d20+3) or a modifier (+3, added to 1d20)",
     .type = OPT_STRING,
     .max = 60},
    {0},
};

static const struct cmd_opt encumbrance_opts[] = {
    {.name = "str",
     .desc = "Strength modifier (-4 to +10)",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = CARRY_STR_MIN,
     .max = CARRY_STR_MAX},
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
            "10% of its coins for salvage, and bargains with skill 1d10 + 5. Named, it is "
            "remembered in this channel with its stock and skill, rolled once. Vendor rooms "
            "are safe areas ({/safe on}). Ruling: the bot rolls how many hoards; what is in "
            "each the GM generates at the dungeon's level (the text points to an online loot "
            "generator).",
    .opts = vendor_opts,
    .fn = vendor_fn,
};

const struct command cmd_bargain = {
    .name = "bargain",
    .desc = "Roll a deal with a vendor met: your roll against its skill sets the price",
    .help = "The bot rolls your bargaining roll against the vendor's remembered skill (1d10 "
            "+ 5); the margin picks the price from the table. Ruling: the roll is dice you "
            "give (1d20+3), or a modifier added to 1d20 (+3), 1d20 by default; the vendor's "
            "skill is rolled once, when the vendor is named. A buy or sell of an item (or lot) is "
            "attempted once: a second try on the "
            "same one is refused, and a rejected price ends that deal for good. Vendors "
            "won't bargain with a character using magic or gear they know helps the roll. "
            "Ruling: the bot knows no character's gear, so refusing such a deal is the GM's "
            "call.",
    .opts = bargain_opts,
    .fn = bargain_fn,
};

const struct command cmd_encumbrance = {
    .name = "encumbrance",
    .desc = "The load band for a Strength modifier and a weight, and its penalty",
    .help = "The safe-areas text's penalties (Ruling: its table is garbled; this is our "
            "reading; and at Str +10 it puts 1000 lb in both medium and heavy, which we read "
            "as medium, heavy starting at 1001). Medium: movement -5 ft, Encumbrance 3 (a negative "
            "trait that offsets "
            "Dex), 1 Fatigue at the end of each room. Heavy (max): movement 5 ft, Dex "
            "incapacitated, 3 Fatigue at the end of each room. Dragging (over heavy): "
            "movement 5 ft, Dex incapacitated, 1 Fatigue per round. The larger of these and "
            "armour's penalty applies; they don't stack.",
    .opts = encumbrance_opts,
    .fn = encumbrance_fn,
    .read_only = true,
};
