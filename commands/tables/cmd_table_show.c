/* /table roll, show and list: reading the channel's tables. */
#include "commands/tables/cmd_table_show.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/dice/cmd_roll.h"
#include "commands/dice/roll_log.h"
#include "commands/dice/rollchan.h"
#include "commands/gm/gm_screen.h"
#include "commands/tables/tables_state.h"
#include "commands/tables/tables_use.h"
#include "commands/tension/tension_state.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"
#include "rules/tables/roll_table_roll.h"
#include "rules/tables/roll_table_name.h"

/* Bytes of a roll's result text: an entry and those its references rolled,
 * with their dice notes. */
#define RESULT_MAX 4096

bool
cmd_table_name(struct invocation *inv, char *canon, struct reply *out)
{
	const char *name = invocation_str(inv, "name");
	char quoted[4 * 40 + 4];
	size_t cut;
	int rc = roll_table_name(name, strlen(name), canon);

	if (rc == 0)
		return true;
	/* a table saved under an earlier rule for names keeps its name */
	if (strlen(name) < ROLL_TABLE_NAME_MAX &&
	    tables_state_find(tables_state_peek(inv->chan), name) >= 0) {
		snprintf(canon, ROLL_TABLE_NAME_MAX, "%s", name);
		return true;
	}
	cut = utf8_cut_text(name, strlen(name), utf8_prefix(name, strlen(name), 40));
	snprintf(quoted, sizeof(quoted), "%.*s%s", (int)cut, name, name[cut] != '\0' ? "…" : "");
	if (rc == -2)
		reply_error(out,
		            "'%s' is too long: a table's name is 1 to %d letters (of any "
		            "alphabet), digits, - and _ (loot, encounter-2).",
		            quoted, ROLL_TABLE_NAME_CHARS);
	else
		reply_error(
		    out,
		    "'%s' is not a table name: a name is 1 to %d letters (of any alphabet), "
		    "digits, - and _, with no spaces or symbols (loot, encounter-2).",
		    quoted, ROLL_TABLE_NAME_CHARS);
	return false;
}

void
cmd_table_unknown(struct invocation *inv, const char *name, struct reply *out)
{
	/* a table the invoker may read whose name looks the same: the one
	 * meant, most likely (a refusal is the invoker's alone) */
	const char *alike = tables_use_look_alike(inv->chan, name, !inv->is_gm);
	bool screen = !inv->is_gm && tension_state_hidden(inv->chan);

	if (alike != NULL) {
		reply_error(out,
		            "No table %s called %s, a name that looks the same as the table %s's "
		            "but is spelled with a letter of another alphabet; type %s to name "
		            "that table.",
		            screen ? "you may read here is" : "here is", name, alike, alike);
		return;
	}
	if (screen) {
		reply_error(out,
		            "No table you may read here is called %s (while Tension is hidden, "
		            "a table behind the GM's screen reads as none to the players); ",
		            name);
		reply_cmd(out, RS_BAD, "table list", NULL);
		reply_add(out, RS_BAD, " shows those you may read.");
		return;
	}
	cmd_table_none_called(name, "", out);
}

void
cmd_table_none_called(const char *name, const char *lacks, struct reply *out)
{
	reply_error(out, "No table here is called %s%s; ", name, lacks);
	reply_cmd(out, RS_BAD, "table list", NULL);
	reply_add(out, RS_BAD, " shows those there are.");
}

bool
cmd_table_may_read(struct invocation *inv, const char *name, struct reply *out)
{
	if (inv->is_gm || !tension_state_hidden(inv->chan) ||
	    !tables_use_screened_in(inv->chan, name))
		return true;
	cmd_table_unknown(inv, name, out);
	return false;
}

void
cmd_table_screen(struct invocation *inv, const char *name, const char *what, struct reply *out)
{
	if (!tension_state_hidden(inv->chan) || !tables_use_screened_in(inv->chan, name))
		return;
	invocation_screen(inv, out, RS_ITALIC, what);
}

/* The table called name as the channel's rolls find it, into *t; says so
 * and returns false when there is none. */
static bool
find_table(struct invocation *inv, struct tables_lookup *tl, const char *name, struct roll_table *t,
           struct reply *out)
{
	const struct roll_table *found = tables_lookup_find(tl, name);

	if (found != NULL) {
		*t = *found;
		return true;
	}
	cmd_table_unknown(inv, name, out);
	return false;
}

/* The table in a reply: each entry a row, the rolled one highlighted. */
static void
table_rows(struct reply *out, const struct roll_table *t, int hl)
{
	static const char *const hdr[] = {"roll", "entry"};

	reply_table(out, 2, hdr);
	for (size_t i = 0; i < t->n; i++) {
		char range[16], text[ROLL_TABLE_TEXT_MAX + 16];
		const char *cells[] = {range, text};

		roll_table_range_text(&t->e[i], range, sizeof(range));
		snprintf(text, sizeof(text), "%s%s", t->e[i].text,
		         t->e[i].struck ? " (struck)" : "");
		reply_row(out, (int)i == hl, cells);
	}
}

/* "Rolled 4 on the d6", "Rolled 35 on the d66 (tens 3, units 5)". */
static void
die_line(struct reply *out, const struct roll_table *t, const struct roll_table_pick *p)
{
	char die[32];

	roll_table_die_text(t, die, sizeof(die));
	reply_add(out, 0, "Rolled ");
	reply_add(out, RS_BOLD | RS_HIGHLIGHT, "%d", p->result);
	reply_add(out, 0, " on the %s", die);
	if (t->die == ROLL_TABLE_D66)
		reply_add(out, 0, " (tens %d, units %d)", p->result / 10, p->result % 10);
}

void
cmd_table_trace_lines(struct reply *out, const struct roll_table_trace *tr,
                      const struct tables_lookup *tl)
{
	for (size_t i = 0; i < tr->n; i++) {
		const struct roll_table_step *s = &tr->step[i];

		reply_add(out, RS_DIM, "%*s↳ ", 2 * (s->depth - 1), "");
		/* a table screened by name is known to be; one screened through
		 * references reads as a name no table has */
		if (s->missing && tables_lookup_withheld(tl, s->name) &&
		    tables_state_named_screen(s->name)) {
			reply_add(out, RS_DIM,
			          "[[%s]]: behind the GM's screen while Tension is hidden, so not "
			          "rolled where all see it.",
			          s->name);
		} else if (s->missing) {
			reply_add(out, RS_DIM, "[[%s]]: no table here has that name.", s->name);
		} else {
			reply_add(out, RS_DIM, "%s: ", s->name);
			if (s->pick.sides == ROLL_TABLE_D66)
				reply_add(out, RS_DIM, "d66 ");
			else
				reply_add(out, RS_DIM, "d%d ", s->pick.sides);
			reply_add(out, RS_DIM | RS_BOLD, "%d", s->pick.result);
			reply_add(out, RS_DIM, " → ");
			reply_add(out, s->pick.struck ? RS_DIM | RS_STRUCK : RS_DIM, "%s",
			          s->entry);
			if (s->pick.struck)
				reply_add(out, RS_DIM, " (struck)");
		}
		reply_nl(out);
	}
	if (tr->unlisted > 0)
		reply_line(out, RS_DIM,
		           "%zu more [[reference%s]] not listed: the lines above list at most %d.",
		           tr->unlisted, tr->unlisted == 1 ? "" : "s", ROLL_TABLE_ROLLS_MAX);
	if (tr->unrolled > 0)
		reply_line(
		    out, RS_DIM,
		    "%zu [[reference%s]] left unrolled: a roll follows at most %d tables deep "
		    "and rolls at most %d.",
		    tr->unrolled, tr->unrolled == 1 ? "" : "s", ROLL_TABLE_DEPTH_MAX,
		    ROLL_TABLE_ROLLS_MAX);
}

/* Whether step i of tr is a table tl withheld. */
static bool
withheld(const struct tables_lookup *tl, const struct roll_table_trace *tr, size_t i)
{
	return tr->step[i].missing && tables_lookup_withheld(tl, tr->step[i].name);
}

/* The table whose entry named step i of tr, or NULL for the entry first
 * rolled. */
static const char *
named_by(const struct roll_table_trace *tr, size_t i)
{
	for (size_t j = i; j-- > 0;)
		if (tr->step[j].depth == tr->step[i].depth - 1)
			return tr->step[j].name;
	return NULL;
}

void
cmd_table_behind(struct invocation *inv, const struct tables_lookup *tl,
                 const struct roll_table_trace *tr, const char *what, struct reply *out)
{
	struct tables_lookup gm;
	struct roll_table_trace *gtr;
	size_t k = 0;
	bool named = false;

	for (size_t i = 0; i < tr->n; i++)
		if (withheld(tl, tr, i)) {
			k++;
			named = named || tables_state_named_screen(tr->step[i].name);
		}
	if (k == 0 || (!named && !inv->is_gm) || !gm_screen_aside(inv, out, what))
		return;
	tables_lookup_init(&gm, inv->chan);
	gtr = xmalloc(sizeof(*gtr));
	for (size_t i = 0; i < tr->n; i++) {
		const struct roll_table *t;
		struct roll_table_pick p;
		struct buf res;
		char die[32];

		if (!withheld(tl, tr, i) || (t = tables_lookup_find(&gm, tr->step[i].name)) == NULL)
			continue;
		memset(gtr, 0, sizeof(*gtr));
		buf_init(&res, RESULT_MAX);
		roll_table_pick(inv->rng, t, 0, &p);
		if (!p.struck)
			roll_table_expand(inv->rng, t, (size_t)p.index, &gm.lk, gtr, &res);
		roll_table_die_text(t, die, sizeof(die));
		reply_add(out, 0, "Behind the screen, [[%s]] (%s", tr->step[i].name, die);
		if (named_by(tr, i) != NULL)
			reply_add(out, 0, ", named by %s", named_by(tr, i));
		reply_add(out, 0, "): ");
		reply_add(out, RS_BOLD | RS_HIGHLIGHT, "%d", p.result);
		reply_add(out, 0, " → ");
		if (p.struck)
			reply_add(out, RS_STRUCK, "%s", p.index >= 0 ? t->e[p.index].text : "");
		else
			reply_add(out, RS_BOLD, "%s%s", buf_str(&res), res.toobig ? "…" : "");
		if (p.struck)
			reply_add(out, 0, " is struck, so nothing comes of it.");
		reply_nl(out);
		cmd_table_trace_lines(out, gtr, &gm);
		buf_free(&res);
	}
	free(gtr);
	tables_lookup_clear(&gm);
	reply_to(out, REPLY_CHANNEL);
}

/* Logs the roll on the table called name (roll_log_keep): a secret
 * one (gm: the key of the GM it went to, else NULL) in the GM's secret
 * log. */
static void
log_roll(struct invocation *inv, const char *name, const char *result, const char *gm)
{
	char what[ROLLCHAN_WHAT_MAX * 2]; /* the log cuts it, on a character */

	snprintf(what, sizeof(what), "table %s", name);
	roll_log_keep(inv, what, result, gm);
}

void
cmd_table_roll(struct invocation *inv, struct reply *out)
{
	bool secret = invocation_bool(inv, "secret", false), compact = rollchan_compact(inv->chan);
	bool hidden;
	const char *gm = NULL;
	char name[ROLL_TABLE_NAME_MAX], die[32], action[ROLL_TABLE_NAME_MAX + 16];
	struct roll_table *t;
	struct roll_table_pick p;
	struct roll_table_trace tr = {0};
	struct tables_lookup tl;
	struct buf res;

	if (!cmd_table_name(inv, name, out))
		return;
	if (!cmd_table_may_read(inv, name, out))
		return;
	t = xmalloc(sizeof(*t));
	tables_lookup_init(&tl, inv->chan);
	buf_init(&res, RESULT_MAX);
	if (!find_table(inv, &tl, name, t, out))
		goto done;
	if (secret && (gm = cmd_roll_secret_to(inv, out, name)) == NULL)
		goto done;
	hidden =
	    secret || (tension_state_hidden(inv->chan) && tables_use_screened_in(inv->chan, name));
	/* a roll everyone can see rolls no table behind the screen */
	tl.screen = !hidden;
	if (!secret)
		cmd_table_screen(inv, name, "The GM rolls on a table behind the screen.", out);
	roll_table_pick(inv->rng, t, 0, &p);
	if (!p.struck)
		roll_table_expand(inv->rng, t, (size_t)p.index, &tl.lk, &tr, &res);
	roll_table_die_text(t, die, sizeof(die));
	rollchan_heading(inv->chan, out, "%s rolls on the table %s (%s)", inv->from->user_name,
	                 name, die);
	if (!compact)
		table_rows(out, t, p.index);
	die_line(out, t, &p);
	reply_add(out, 0, ": ");
	if (p.struck) {
		reply_add(out, RS_STRUCK, "%s", p.index >= 0 ? t->e[p.index].text : "");
		reply_add(out, 0, " is struck, so nothing comes of it.");
	} else {
		reply_add(out, RS_BOLD, "%s%s", buf_str(&res), res.toobig ? "…" : "");
	}
	reply_nl(out);
	cmd_table_trace_lines(out, &tr, &tl);
	cmd_table_behind(inv, &tl, &tr, "what your table roll put behind the GM's screen", out);
	/* Behind the screen, the GM who rolls it keeps it. */
	log_roll(inv, name, p.struck ? "struck" : buf_str(&res),
	         secret   ? gm
	         : hidden ? inv->from->user_key
	                  : NULL);
	snprintf(action, sizeof(action), "table roll %s", name);
	if (!secret && !compact && !reply_is_error(out))
		reply_button(out, "Roll again", action);
done:
	buf_free(&res);
	tables_lookup_clear(&tl);
	free(t);
}

void
cmd_table_show(struct invocation *inv, struct reply *out)
{
	char name[ROLL_TABLE_NAME_MAX], die[32];
	struct roll_table *t;
	struct tables_lookup tl;
	struct buf text, struck;

	if (!cmd_table_name(inv, name, out) || !cmd_table_may_read(inv, name, out))
		return;
	t = xmalloc(sizeof(*t));
	tables_lookup_init(&tl, inv->chan);
	buf_init(&text, 2 * TABLES_TEXT_MAX);
	buf_init(&struck, 1024);
	if (!find_table(inv, &tl, name, t, out))
		goto done;
	cmd_table_screen(inv, name, "The GM looks at a table behind the screen.", out);
	roll_table_die_text(t, die, sizeof(die));
	for (size_t i = 0; i < t->n; i++) {
		char r[16];

		if (!t->e[i].struck)
			continue;
		roll_table_range_text(&t->e[i], r, sizeof(r));
		buf_addf(&struck, "%s%s", struck.len ? ", " : "", r);
	}
	reply_title(out, "Table %s: %s, %zu %s%s%s%s", name, die, t->n,
	            t->n == 1 ? "entry" : "entries", struck.len ? "; struck: " : "",
	            buf_str(&struck),
	            tables_use_own(inv->chan, name) ? ""
	                                            : " (Tension's, the channel has none of "
	                                              "its own by that name)");
	roll_table_write(t, &text);
	for (const char *p = buf_str(&text); *p != '\0';) {
		size_t n = strcspn(p, "\n");

		reply_line(out, 0, "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
done:
	buf_free(&text);
	buf_free(&struck);
	tables_lookup_clear(&tl);
	free(t);
}

/* One row of /table list: the table at i, and which procedure rolls it. */
static void
list_row(const struct tables_state *s, size_t i, const char *enc, const char *eff,
         struct roll_table *t, struct reply *out)
{
	char die[32], n[16];
	const char *used = strcmp(enc, s->v[i].name) == 0
	                       ? "encounters: hazard die, wandering checks, Tension"
	                   : strcmp(eff, s->v[i].name) == 0 ? "Tension's effects"
	                                                    : "";
	const char *cells[] = {s->v[i].name, die, n, used};

	tables_state_get(s, i, t);
	roll_table_die_text(t, die, sizeof(die));
	snprintf(n, sizeof(n), "%zu", t->n);
	reply_row(out, false, cells);
}

/* Tells the GM alone, while Tension is open, which tables go behind the
 * screen once it is hidden (none: nothing). */
static void
marked_line(const struct tables_state *s, struct reply *out)
{
	struct buf names;

	buf_init(&names, 2048);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].screened)
			buf_addf(&names, "%s%s", names.len ? ", " : "", s->v[i].name);
	if (names.len > 0) {
		reply_to(out, REPLY_INVOKER);
		reply_line(out, RS_DIM, "Behind your screen once Tension is hidden: %s.",
		           buf_str(&names));
	}
	buf_free(&names);
}

/*
 * /table list. While Tension is hidden, the channel sees no row of a table
 * behind the GM's screen, only how many there are, whoever asks: the GM's
 * list is in the open too, and the names of the tables behind the screen
 * (which their change did not name to the channel) go to the GM alone,
 * after it. While Tension is open, the GM alone is told which tables
 * are marked behind the screen.
 */
void
cmd_table_list(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"table", "die", "entries", "rolled by"};
	const struct tables_state *s = tables_state_peek(inv->chan);
	char enc[ROLL_TABLE_NAME_MAX], eff[ROLL_TABLE_NAME_MAX];
	struct roll_table *t;
	size_t withheld = 0, screened_bytes = 0;
	bool hidden = tension_state_hidden(inv->chan);

	if (s == NULL || s->n == 0) {
		reply_add(out, 0, "This channel has no tables of its own yet; ");
		if (!inv->is_gm && hidden && channel_gm_name(inv->seat) == NULL) {
			/* a player makes none then (cmd_table.c, may_change) */
			reply_add(out, 0,
			          "while Tension is hidden only the GM makes one, and nobody is GM "
			          "here yet: ");
			reply_cmd(out, 0, "gm claim", NULL);
			reply_add(out, 0, " makes you the GM.");
		} else {
			reply_cmd(out, 0, "table set", "name", "NAME", "entries",
			          "1-3: text; 4-6: text", NULL);
			reply_add(out, 0, " makes one.");
		}
		reply_nl(out);
		return;
	}
	t = xmalloc(sizeof(*t));
	tables_use_kind(inv->chan, "encounter", t, enc);
	tables_use_kind(inv->chan, "effects", t, eff);
	for (size_t i = 0; i < s->n; i++)
		if (hidden && tables_use_screened_in(inv->chan, s->v[i].name)) {
			withheld++;
			screened_bytes += s->v[i].len;
		}
	/* The channel reads the size of the text it may read: the rest
	 * would tell how long the GM's hidden entries are. */
	if (withheld > 0)
		reply_title(out, "Tables here: %zu of %d; %zu bytes of text in the %zu open to all",
		            s->n, TABLES_MAX, s->bytes - screened_bytes, s->n - withheld);
	else
		reply_title(out, "Tables here: %zu of %d, %zu of %d bytes of text", s->n,
		            TABLES_MAX, s->bytes, TABLES_BYTES_MAX);
	reply_table(out, 4, hdr);
	for (size_t i = 0; i < s->n; i++)
		if (!hidden || !tables_use_screened_in(inv->chan, s->v[i].name))
			list_row(s, i, enc, eff, t, out);
	if (withheld > 0)
		reply_line(out, RS_DIM, "%zu more %s behind the GM's screen (Tension is hidden).",
		           withheld, withheld == 1 ? "is" : "are");
	if (!hidden && inv->is_gm)
		marked_line(s, out);
	if (withheld > 0 && inv->is_gm) {
		reply_to(out, REPLY_INVOKER);
		reply_line(out, 0,
		           "Behind your screen (all tables: %zu of %d bytes of text):", s->bytes,
		           TABLES_BYTES_MAX);
		reply_table(out, 4, hdr);
		for (size_t i = 0; i < s->n; i++)
			if (tables_use_screened_in(inv->chan, s->v[i].name))
				list_row(s, i, enc, eff, t, out);
	}
	free(t);
}
