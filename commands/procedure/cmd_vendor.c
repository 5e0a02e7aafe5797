/* /vendor, /bargain, /encumbrance: safe-area trade and carrying capacity. */
#include "commands/procedure/cmd_vendor.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/core/registry_parse.h"
#include "commands/procedure/procedure_state.h"
#include "commands/dice/rollchan.h"
#include "commands/dice/roll_line.h"
#include "rules/dice/dice.h"
#include "rules/procedure/carry.h"
#include "rules/procedure/vendor.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

/* The stock's lines; level is the dungeon level the channel tracks when
 * the vendor is met (named with the hoards), else -1. */
static void
stock_lines(struct reply *out, const struct vendor_stock *v, int level)
{
	reply_add(out, 0, "Hoards of goods: 1d6 = ");
	reply_add(out, RS_BOLD, "%d", v->hoards);
	reply_add(out, 0, ", each generated at the level the dungeon is on");
	if (level >= 0)
		reply_add(out, 0, " (the party is on level %d)", level);
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

/* A name of 1 to VENDOR_NAME_MAX bytes, words parted by single spaces,
 * with no invisible character (which would show as nothing, or as another
 * vendor's name). */
static bool
vendor_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > VENDOR_NAME_MAX || s[0] == ' ' || s[n - 1] == ' ' ||
	    textsafe_invisible_in(s, n, NULL, NULL))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f ||
		    (s[i] == ' ' && s[i + 1] == ' ') || s[i] == '"')
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
		stock_lines(out, &st, s->level);
		reply_add(out, RS_DIM, "Name the vendor (");
		reply_cmd(out, RS_DIM, "vendor meet", "name", "NAME", NULL);
		reply_add(out, RS_DIM, ") so the bot remembers it and rolls each deal with ");
		reply_cmd(out, RS_DIM, "bargain", "vendor", "NAME", "item", "ITEM", "deal",
		          "sell|buy", NULL);
		reply_line(out, RS_DIM, ".");
		safe_hint(out, s);
		return;
	}
	if ((v = procedure_state_vendor(s, name)) != NULL) {
		reply_title(out, "%s's stock (met before)", v->name);
		stock_lines(out, &v->stock, -1);
		reply_line(out, RS_DIM, "%d item%s or lot%s dealt on so far.", v->ntried,
		           v->ntried == 1 ? "" : "s", v->ntried == 1 ? "" : "s");
		return;
	}
	if (!vendor_name_ok(name)) {
		char got[TEXTSAFE_NAME_MAX + 80];

		reply_error(out,
		            "A vendor's name is 1 to %d bytes, words parted by single spaces, with "
		            "no \" in it (quotes group its words, as in ",
		            VENDOR_NAME_MAX);
		reply_cmd(out, RS_BAD, "bargain", "vendor", "Old Greta", "item", "rope", "deal",
		          "buy", NULL);
		reply_add(out, RS_BAD, "; got %s).",
		          textsafe_quoted(got, sizeof(got), name, strlen(name), 40));
		return;
	}
	if (s->nvendors == VENDORS_MAX) {
		reply_error(out,
		            "This channel remembers %d vendors already, the most it can; the GM "
		            "forgets one with ",
		            VENDORS_MAX);
		reply_cmd(out, RS_BAD, "vendor forget", "name", "NAME", NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	v = procedure_state_vendor_add(s);
	snprintf(v->name, sizeof(v->name), "%s", name);
	vendor_roll(inv->rng, &v->stock);
	channel_touch(inv->chan);
	reply_title(out, "%s's stock", v->name);
	stock_lines(out, &v->stock, s->level);
	reply_add(out, RS_DIM, "Each deal is tried once: ");
	reply_cmd(out, RS_DIM, "bargain", "vendor", v->name, "item", "ITEM", "deal", "sell|buy",
	          "roll", "ROLL", NULL);
	reply_line(out, RS_DIM, " rolls it against this skill.");
	safe_hint(out, s);
}

/* /vendor list: the vendors met here, with their skill and deals. */
static void
vendor_list_fn(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"vendor", "skill", "deals tried"};
	struct procedure_state *s = procedure_state_of(inv->chan);

	if (s->nvendors == 0) {
		reply_add(out, 0, "No vendor met here yet; ");
		reply_cmd(out, 0, "vendor meet", "name", "NAME", NULL);
		reply_line(out, 0, " meets one.");
		return;
	}
	reply_title(out, "Vendors met here (%d of at most %d)", s->nvendors, VENDORS_MAX);
	reply_table(out, 3, hdr);
	for (int i = 0; i < s->nvendors; i++) {
		const struct vendor *v = &s->vendors[i];
		char skill[8], deals[16];
		const char *cells[3] = {v->name, skill, deals};

		snprintf(skill, sizeof(skill), "%d", v->stock.skill);
		snprintf(deals, sizeof(deals), "%d of %d", v->ntried, VENDOR_TRIED_MAX);
		reply_row(out, false, cells);
	}
}

/* /vendor forget: the GM forgets a vendor met, its stock and its deals. */
static void
vendor_forget_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	const char *name = invocation_str(inv, "name");
	struct vendor *v = procedure_state_vendor(s, name);
	char was[VENDOR_NAME_MAX + 1];

	if (v == NULL) {
		reply_error(out, "There is no vendor '%.24s' here to forget; ", name);
		reply_cmd(out, RS_BAD, "vendor list", NULL);
		reply_add(out, RS_BAD, " shows those met.");
		return;
	}
	snprintf(was, sizeof(was), "%s", v->name);
	procedure_state_vendor_forget(s, v);
	channel_touch(inv->chan);
	reply_line(out, 0,
	           "%s is forgotten, with its stock and its deals; meeting a vendor of that "
	           "name again rolls a new one.",
	           was);
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

/*
 * Refuses the bargaining roll text, whose roll failed with err: the
 * sentence names the roll, counts columns in it as typed (a modifier,
 * read with 1d20 before it, is checked alone, so "+9999..." is faulted
 * where it was typed, not 4 columns on), and gives the forms a roll takes:
 * "column 1" alone read as the command's first column (recheck9 F9).
 */
static void
bad_roll(const char *text, bool modifier, char *err, struct reply *out)
{
	char alone[DICE_ERR_MAX], got[200], digits[80];
	bool sign = text[0] == '+' || text[0] == '-';
	size_t len;

	/* the modifier's number where it was typed: its sign a blank */
	snprintf(digits, sizeof(digits), "%s%.60s", sign ? " " : "", text + sign);
	if (modifier && dice_check(digits, strlen(digits), alone, sizeof(alone)) != DICE_OK)
		snprintf(err, DICE_ERR_MAX, "%s", alone);
	len = strlen(err);
	if (len > 0 && err[len - 1] == '.')
		err[--len] = '\0';
	if (isupper((unsigned char)err[0]))
		err[0] = (char)tolower((unsigned char)err[0]);
	reply_error(out,
	            "The bargaining roll %s is no roll: %s; give dice (1d20+3) or a modifier added "
	            "to 1d20 (+3).",
	            textsafe_quoted(got, sizeof(got), text, strlen(text), 60), err);
}

/* The player's bargaining roll: a dice expression, or a bare modifier
 * ("+3", "-1", or "3" without a sign, as the help says a number there
 * is: F11) added to 1d20 (our reading of "a roll or modifier", rules
 * 004). Returns the roll (the caller frees it), or NULL with an error
 * reply. */
static struct dice_result *
bargain_roll(struct invocation *inv, const char *text, struct reply *out)
{
	char expr[80], err[DICE_ERR_MAX];
	struct dice_result *res;
	bool sign = text[0] == '+' || text[0] == '-';
	bool modifier =
	    text[sign] != '\0' && strspn(text + sign, "0123456789") == strlen(text + sign);

	snprintf(expr, sizeof(expr), "%s%.60s", modifier ? (sign ? "1d20" : "1d20+") : "", text);
	if (dice_roll(expr, strlen(expr), inv->rng, &res, err, sizeof(err)) != DICE_OK) {
		bad_roll(text, modifier, err, out);
		return NULL;
	}
	if (dice_result_nexprs(res) != 1 || dice_result_expr(res, 0)->nrepeats != 1) {
		dice_result_free(res);
		reply_error(out, "A bargaining roll is one expression, like 1d20+3 or +3.");
		return NULL;
	}
	return res;
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
	struct dice_result *res;
	char err[200];
	size_t n;
	const struct vendor_bargain_row *t = vendor_bargain_table(&n);

	if (v == NULL) {
		reply_error(out, "There is no vendor '%.24s' here; ", vname);
		reply_cmd(out, RS_BAD, "vendor meet", "name", vname, NULL);
		reply_add(out, RS_BAD, " meets one.");
		return;
	}
	if (registry_parse_blank(item)) {
		reply_error(out, "The item is blank; name the item or lot dealt on, as in ");
		reply_cmd(out, RS_BAD, "bargain", "vendor", v->name, "item", "rope", "deal", deal,
		          NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	if (vendor_tried(v, item)) {
		vendor_try(v, item, err, sizeof(err));
		reply_error(out, "%s", err);
		return;
	}
	if ((res = bargain_roll(inv, rolltext != NULL ? rolltext : "1d20", out)) == NULL)
		return;
	if (vendor_try(v, item, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		dice_result_free(res);
		return;
	}
	channel_touch(inv->chan);
	vendor_bargain(v, dice_result_expr(res, 0)->repeats[0].total, &b);
	/* Compact output: the heading opens the roll's line, and the table
	 * has the rolled row alone. */
	rollchan_heading(inv->chan, out, "Bargaining with %s: %s %s", v->name,
	                 selling ? "selling" : "buying", item);
	reply_add(out, 0, "%s rolls ", inv->from->user_name);
	roll_line_repeat(out, dice_result_expr(res, 0), 0);
	dice_result_free(res);
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

/* The n words at w joined by single blanks into buf (len bytes), cut to
 * len - 1 bytes. */
static void
join_words(const char *const *w, size_t n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++) {
		int r = snprintf(buf + at, len - at, "%s%s", i ? " " : "", w[i]);

		if (r < 0)
			break;
		at += (size_t)r;
	}
}

/* The one vendor met here whose name begins with the words of start and
 * has more ("Old Greta" of "Old Greta the Fence"), case aside; NULL when
 * none or several do. */
static const struct vendor *
vendor_begun(const struct procedure_state *s, const char *start)
{
	const struct vendor *found = NULL;

	for (int i = 0; i < s->nvendors; i++) {
		const char *name = s->vendors[i].name;

		for (const char *sp = strchr(name, ' '); sp != NULL; sp = strchr(sp + 1, ' ')) {
			char head[VENDOR_NAME_MAX + 1];

			snprintf(head, sizeof(head), "%.*s", (int)(sp - name), name);
			if (utf8_casecmp(head, start) != 0)
				continue;
			if (found != NULL)
				return NULL;
			found = &s->vendors[i];
			break;
		}
	}
	return found;
}

/* The refusal of a /bargain line whose first words begin the name of
 * vendor v (met here) and do not name it whole: the line with v's name
 * quoted, and after it the words up to the deal (pos[k] to pos[deal]) as
 * the item. */
static void
vendor_begun_refusal(const struct vendor *v, const char *typed, const char *const *pos, size_t k,
                     size_t deal, const char *roll, struct reply *out)
{
	char item[CMD_LINE_MAX + 1];

	join_words(pos + k, deal - k, item, sizeof(item));
	reply_error(out,
	            "'%.40s' is the start of the name of '%.40s', a vendor met here; a name of "
	            "several words is typed whole, in quotes: ",
	            typed, v->name);
	if (roll != NULL)
		reply_cmd(out, RS_BAD, "bargain", "vendor", v->name, "item", item, "deal",
		          pos[deal], "roll", roll, NULL);
	else
		reply_cmd(out, RS_BAD, "bargain", "vendor", v->name, "item", item, "deal",
		          pos[deal], NULL);
	reply_add(out, RS_BAD, ".");
}

/*
 * /bargain's refused line read again with the channel's vendors
 * (registry.h, misread): "/bargain Old Gus sword sell" bound Old to vendor,
 * Gus to item, and refused sword as the deal. The words up to the first
 * of the deal option's choices (sell or buy) are read as the vendors met
 * here read them: the longest run of words from the start that names one
 * is the vendor, the words after it the item. When that vendor or that
 * item is several words, the refusal says to quote them and shows the line
 * so typed. A line that names its vendor or item with vendor: or item:, or
 * has more words after the deal than its roll, is left to the registry.
 */
static bool
bargain_misread(struct invocation *inv, struct reply *out)
{
	char store[CMD_LINE_MAX + 1 + REGISTRY_WORDS_MAX], vendor[CMD_LINE_MAX + 1],
	    item[CMD_LINE_MAX + 1];
	const char *w[REGISTRY_WORDS_MAX], *pos[REGISTRY_WORDS_MAX], *roll = NULL;
	struct procedure_state *s = channel_mod_peek(inv->chan, CHANMOD_PROC);
	int nw = registry_parse_words(inv->line, inv->line_len, store, w),
	    o = registry_opt_index(inv->cmd, "deal", strlen("deal"));
	size_t n = 0, deal, k;

	if (s == NULL || nw < 1 || inv->line_len > CMD_LINE_MAX || o < 0)
		return false;
	for (int i = 1; i < nw; i++) {
		const char *colon = strchr(w[i], ':');

		if (colon == NULL || registry_opt_index(inv->cmd, w[i], (size_t)(colon - w[i])) < 0)
			pos[n++] = w[i];
		else if (strncasecmp(w[i], "roll:", 5) == 0 && roll == NULL)
			roll = colon + 1;
		else
			return false;
	}
	for (deal = 2; deal < n; deal++)
		if (registry_parse_choice(&inv->cmd->opts[o], pos[deal]))
			break;
	if (deal >= n || n - deal - 1 > (roll == NULL ? 1u : 0u))
		return false;
	if (roll == NULL && deal + 1 < n)
		roll = pos[deal + 1];
	for (k = deal - 1; k > 0; k--) {
		join_words(pos, k, vendor, sizeof(vendor));
		if (procedure_state_vendor(s, vendor) != NULL)
			break;
	}
	/* no vendor named: the start of one's name (recheck3 F4) */
	for (size_t b = deal - 1; k == 0 && b > 0; b--) {
		const struct vendor *v;

		join_words(pos, b, vendor, sizeof(vendor));
		if ((v = vendor_begun(s, vendor)) != NULL) {
			vendor_begun_refusal(v, vendor, pos, b, deal, roll, out);
			return true;
		}
	}
	if (k == 0 || (k == 1 && deal - k == 1))
		return false;
	join_words(pos + k, deal - k, item, sizeof(item));
	if (k > 1 && deal - k > 1)
		reply_error(out,
		            "The vendor '%.40s' (met here) and the item '%.40s' are several words "
		            "each; quote them: ",
		            vendor, item);
	else
		reply_error(
		    out, "The %s '%.40s'%s is several words; quote it: ", k > 1 ? "vendor" : "item",
		    k > 1 ? vendor : item, k > 1 ? " (met here)" : "");
	if (roll != NULL)
		reply_cmd(out, RS_BAD, "bargain", "vendor", vendor, "item", item, "deal", pos[deal],
		          "roll", roll, NULL);
	else
		reply_cmd(out, RS_BAD, "bargain", "vendor", vendor, "item", item, "deal", pos[deal],
		          NULL);
	reply_add(out, RS_BAD, ".");
	return true;
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
     .flags = OPT_REST | OPT_NAME,
     .max = VENDOR_NAME_MAX},
    {0},
};

static const struct cmd_opt forget_opts[] = {
    {.name = "name",
     .desc = "The vendor met to forget",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_REST | OPT_NAME,
     .max = VENDOR_NAME_MAX},
    {0},
};

static const struct command vendor_subs[] = {
    {.name = "meet",
     .desc = "Meet a vendor: its stock is rolled once, then remembered",
     .help = "Without a name, rolls a vendor's stock once and remembers nothing. Named (words "
             "may have spaces: {/vendor meet name=\"Old Gus\"}), the vendor is remembered in "
             "this channel with its stock and skill, rolled once; meeting it again shows "
             "them.",
     .opts = vendor_opts,
     .fn = vendor_fn},
    {.name = "list",
     .desc = "The vendors met here, their skill and deals",
     .fn = vendor_list_fn,
     .read_only = true},
    {.name = "forget",
     .desc = "Forget a vendor met, with its deals (GM)",
     .help = "A channel remembers at most 16 vendors, each with at most 32 deals; the GM "
             "forgets one that is gone for good. Its deals go with it: a vendor met again "
             "under that name is a new one, with a new skill.",
     .role = ROLE_GM,
     .opts = forget_opts,
     .fn = vendor_forget_fn},
    {0},
};

static const struct cmd_opt bargain_opts[] = {
    {.name = "vendor",
     .desc = "The vendor met (named with the vendor command)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_NAME,
     .max = VENDOR_NAME_MAX},
    {.name = "item",
     .desc = "The item or lot dealt on (each is tried once)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_NAME,
     .max = VENDOR_ITEM_MAX},
    {.name = "deal",
     .desc = "sell or buy",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = deal_choices},
    {.name = "roll",
     .desc = "Your bargaining roll: dice (1d20+3) or a modifier (+3 or 3, added to 1d20)",
     .type = OPT_STRING,
     .flags = OPT_NAME,
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
            "generator). A channel remembers at most 16 vendors, with 32 deals each; the GM "
            "forgets one with {/vendor forget}.",
    .subs = vendor_subs,
    .default_sub = "meet",
};

const struct command cmd_bargain = {
    .name = "bargain",
    .desc = "Roll a deal with a vendor met: your roll against its skill sets the price",
    .help = "The bot rolls your bargaining roll against the vendor's remembered skill (1d10 "
            "+ 5); the margin picks the price from the table. Ruling: the roll is dice you "
            "give (1d20+3), or a modifier added to 1d20 (+3, or 3), 1d20 by default; the "
            "vendor's skill is rolled once, when the vendor is named. A buy or sell of an item "
            "(or lot) is attempted once: a second try on the same one is refused, and a "
            "rejected price ends that deal for good. Vendors won't bargain with a character "
            "using magic or gear they know helps the roll. Ruling: the bot knows no "
            "character's gear, so refusing such a deal is the GM's call.",
    .opts = bargain_opts,
    .fn = bargain_fn,
    .misread = bargain_misread,
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
