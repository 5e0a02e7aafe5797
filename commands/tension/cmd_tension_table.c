/* /tension table, strike, unstrike: the channel's encounter and effects tables. */
#include "commands/tension/cmd_tension_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/tables/cmd_table.h"
#include "commands/tables/tables_state.h"
#include "commands/tables/tables_use.h"
#include "commands/tension/cmd_tension.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define EDITED "The GM changed the Tension tables behind the screen."

static void
show_table(const struct roll_table *t, enum tension_table k, struct reply *out)
{
	static const char *const hdr[] = {"d10+T", "entry"};
	const char *name = tension_table_name(k);

	reply_add(out, RS_BOLD, "%c%s table", name[0] - 'a' + 'A', name + 1);
	reply_add(out, RS_DIM, " (d10 + Tension)");
	reply_nl(out);
	reply_table(out, 2, hdr);
	for (size_t i = 0; i < t->n; i++) {
		char range[16], text[ROLL_TABLE_TEXT_MAX + 16];
		const char *cells[] = {range, text};

		roll_table_range_text(&t->e[i], range, sizeof(range));
		snprintf(text, sizeof(text), "%s%s", t->e[i].text,
		         t->e[i].struck ? " (struck)" : "");
		reply_row(out, false, cells);
	}
}

/* Whether the invoker may see the tables; says so when not. */
static bool
may_see(struct invocation *inv, const struct tension_state *ts, struct reply *out)
{
	if (ts->hidden && !inv->is_gm) {
		reply_line(out, 0, "The Tension tables are behind the GM's screen (hidden mode).");
		return false;
	}
	return true;
}

/* The table of kind k the channel's rolls use: its own (name into own),
 * or Tension's (own ""). Into *t. */
static void
in_use(struct invocation *inv, struct tension_state *ts, enum tension_table k, struct roll_table *t,
       char *own)
{
	if (!tables_use_kind(inv->chan, tension_table_name(k), t, own))
		*t = *tension_state_get_table(ts, k);
}

/* Keeps t where in_use() found it. */
static void
keep(struct invocation *inv, struct tension_state *ts, enum tension_table k,
     const struct roll_table *t, const char *own)
{
	char err[300];

	/* The same entries with other marks: no limit can be passed. */
	if (own[0] != '\0')
		(void)tables_state_put(tables_state_of(inv->chan), own, t, err, sizeof(err));
	else
		*tension_state_edit_table(ts, k) = *t;
	tension_state_edited(ts);
	channel_touch(inv->chan);
}

/* Says when the channel's own table of kind k is rolled instead of
 * Tension's. */
static void
own_note(struct invocation *inv, enum tension_table k, struct reply *out)
{
	struct roll_table *t = xmalloc(sizeof(*t));
	char own[ROLL_TABLE_NAME_MAX];

	if (tables_use_kind(inv->chan, tension_table_name(k), t, own)) {
		reply_add(out, RS_DIM, "The channel's own table %s is rolled instead of this one (",
		          own);
		reply_cmd(out, RS_DIM, "table show", "name", own, NULL);
		reply_add(out, RS_DIM, "); strikes go to it.");
		reply_nl(out);
	}
	free(t);
}

void
cmd_tension_table_show(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);
	const char *kind = invocation_str(inv, "kind");

	if (!may_see(inv, ts, out))
		return;
	cmd_tension_screen(inv, ts, out, NULL);
	for (int k = 0; k < TENSION_TABLE_COUNT; k++) {
		if (kind != NULL && tension_table_find(kind) != k)
			continue;
		show_table(tension_state_get_table(ts, (enum tension_table)k),
		           (enum tension_table)k, out);
		own_note(inv, (enum tension_table)k, out);
	}
}

/* Marks struck the entries of t that were struck in old with the same
 * range and text. Returns how many. */
static size_t
keep_struck(const struct roll_table *old, struct roll_table *t)
{
	size_t kept = 0;

	for (size_t i = 0; i < t->n; i++) {
		for (size_t j = 0; j < old->n; j++) {
			const struct roll_table_entry *o = &old->e[j];

			if (o->struck && o->lo == t->e[i].lo && o->hi == t->e[i].hi &&
			    strcmp(o->text, t->e[i].text) == 0) {
				t->e[i].struck = true;
				kept++;
			}
		}
	}
	return kept;
}

void
cmd_tension_table_set(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);
	enum tension_table k = (enum tension_table)tension_table_find(invocation_str(inv, "kind"));
	struct roll_table t;
	char err[200];
	size_t kept;

	if (tension_table_parse(invocation_str(inv, "text"), &t, err, sizeof(err)) < 0) {
		reply_error(out, "The %s table was not changed: %s", tension_table_name(k), err);
		return;
	}
	if (!tables_use_own(inv->chan, tension_table_name(k))) {
		struct buf b;
		int rc;

		buf_init(&b, 1 << 16);
		roll_table_write(&t, &b);
		rc = tables_use_check(inv->chan, tension_table_name(k), buf_str(&b), false, err,
		                      sizeof(err));
		buf_free(&b);
		if (rc < 0) {
			reply_error(out, "The %s table was not changed: %s", tension_table_name(k),
			            err);
			return;
		}
	}
	kept = keep_struck(tension_state_get_table(ts, k), &t);
	*tension_state_edit_table(ts, k) = t;
	tension_state_edited(ts);
	channel_touch(inv->chan);
	cmd_tension_screen(inv, ts, out, EDITED);
	reply_add(out, 0, "The %s table now has %zu %s", tension_table_name(k), t.n,
	          t.n == 1 ? "entry" : "entries");
	if (kept > 0)
		reply_add(out, 0, "; %zu unchanged %s still struck", kept,
		          kept == 1 ? "entry is" : "entries are");
	reply_add(out, 0, ".");
	reply_nl(out);
	show_table(tension_state_get_table(ts, k), k, out);
	cmd_table_missing_refs(inv, tension_table_name(k), &t, out);
	own_note(inv, k, out);
}

void
cmd_tension_table_reset(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);
	enum tension_table k = (enum tension_table)tension_table_find(invocation_str(inv, "kind"));

	tension_table_default(k, tension_state_edit_table(ts, k));
	tension_state_edited(ts);
	channel_touch(inv->chan);
	cmd_tension_screen(inv, ts, out, EDITED);
	reply_line(out, 0, "The %s table is back to its default; nothing in it is struck.",
	           tension_table_name(k));
	show_table(tension_state_get_table(ts, k), k, out);
}

/* "9-12 2d4 goblins" */
static void
entry_name(const struct roll_table_entry *e, char *buf, size_t len)
{
	char range[16];

	roll_table_range_text(e, range, sizeof(range));
	snprintf(buf, len, "%s %s", range, e->text);
}

/* Starts the reply that an entry option named no single entry: an error,
 * or behind the screen the channel's line of a change and, for the GM
 * alone, what was wrong (on IRC the GM's line is seen, and a refusal
 * there would tell the channel what the hidden tables hold). Returns the
 * style of what follows. */
static unsigned
not_one(struct invocation *inv, struct tension_state *ts, const char *what, struct reply *out)
{
	if (!ts->hidden) {
		reply_error(out, "%s", what);
		return RS_BAD;
	}
	cmd_tension_screen(inv, ts, out, EDITED);
	reply_add(out, 0, "%s", what);
	return 0;
}

/* Finds the entry named by the invocation's entry option in the table of
 * the table option (default encounter). Returns its index, or -1 with a
 * reply that none or several match (not_one). */
static int
find_entry(struct invocation *inv, struct tension_state *ts, enum tension_table *k,
           struct roll_table *t, char *own, struct reply *out)
{
	const char *what = invocation_str(inv, "entry"), *kind = invocation_str(inv, "table");
	const char *changed = ts->hidden ? ", so nothing changed" : "";
	char head[ROLL_TABLE_TEXT_MAX + 200];
	unsigned style;
	int i;

	*k = kind != NULL ? (enum tension_table)tension_table_find(kind) : TENSION_TABLE_ENCOUNTER;
	in_use(inv, ts, *k, t, own);
	i = roll_table_find(t, what);
	if (i == -1) {
		snprintf(head, sizeof(head),
		         "No %s entry matches '%s'%s; name a range like 9-12, a result like 10 or "
		         "part of an entry's text (",
		         tension_table_name(*k), what, changed);
		style = not_one(inv, ts, head, out);
		if (own[0] != '\0')
			reply_cmd(out, style, "table show", "name", own, NULL);
		else
			reply_cmd(out, style, "tension table show", "kind", tension_table_name(*k),
			          NULL);
		reply_add(out, style, ").");
	} else if (i == -2) {
		struct buf b;

		buf_init(&b, 2000);
		buf_addf(&b, "'%s' matches several %s entries (", what, tension_table_name(*k));
		for (size_t j = 0, n = 0; j < t->n; j++) {
			char name[ROLL_TABLE_TEXT_MAX + 16];

			if (strcasestr(t->e[j].text, what) == NULL)
				continue;
			entry_name(&t->e[j], name, sizeof(name));
			buf_addf(&b, "%s%s", n++ ? ", " : "", name);
		}
		buf_addf(&b, ")%s; name one by its range.", changed);
		(void)not_one(inv, ts, buf_str(&b), out);
		buf_free(&b);
	}
	if (i < 0 && ts->hidden)
		reply_nl(out);
	return i;
}

/* "the encounter table" or "the table encounter-2". */
static void
table_words(enum tension_table k, const char *own, char *buf, size_t len)
{
	if (own[0] != '\0')
		snprintf(buf, len, "the table %s", own);
	else
		snprintf(buf, len, "the %s table", tension_table_name(k));
}

void
cmd_tension_table_strike(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);
	struct roll_table *t = xmalloc(sizeof(*t));
	enum tension_table k;
	char name[ROLL_TABLE_TEXT_MAX + 16], own[ROLL_TABLE_NAME_MAX],
	    which[ROLL_TABLE_NAME_MAX + 16];
	int i = find_entry(inv, ts, &k, t, own, out);

	if (i < 0)
		goto done;
	entry_name(&t->e[i], name, sizeof(name));
	table_words(k, own, which, sizeof(which));
	if (t->e[i].struck && ts->hidden) {
		/* Behind the screen a strike that changes nothing reads to the
		 * channel as one that does (on IRC the GM's line is seen). */
		cmd_tension_screen(inv, ts, out, EDITED);
		reply_add(out, 0, "%s was already struck from %s, so nothing changed; ", name,
		          which);
		reply_cmd(out, 0, "tension unstrike", "entry", name, NULL);
		reply_add(out, 0, " restores it.");
		reply_nl(out);
		goto done;
	}
	if (t->e[i].struck) {
		reply_error(out, "%s is already struck from %s; ", name, which);
		reply_cmd(out, RS_BAD, "tension unstrike", "entry", name, NULL);
		reply_add(out, RS_BAD, " restores it.");
		goto done;
	}
	t->e[i].struck = true;
	keep(inv, ts, k, t, own);
	cmd_tension_screen(inv, ts, out, EDITED);
	reply_add(out, 0, "Struck ");
	reply_add(out, RS_STRUCK, "%s", name);
	reply_add(out, 0, " from %s: rolling it now means %s.", which,
	          k == TENSION_TABLE_ENCOUNTER ? "no encounter" : "no effect");
	reply_nl(out);
done:
	free(t);
}

/* Restores every struck entry of table k, naming them in b. */
static size_t
unstrike_all(struct roll_table *t, struct buf *b)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		char name[ROLL_TABLE_TEXT_MAX + 16];

		if (!t->e[i].struck)
			continue;
		t->e[i].struck = false;
		entry_name(&t->e[i], name, sizeof(name));
		buf_addf(b, "%s%s", b->len ? ", " : "", name);
		n++;
	}
	return n;
}

void
cmd_tension_table_unstrike(struct invocation *inv, struct reply *out)
{
	struct tension_state *ts = tension_state_of(inv->chan);
	const char *kind = invocation_str(inv, "table");
	struct roll_table *t = xmalloc(sizeof(*t));
	enum tension_table k;
	char name[ROLL_TABLE_TEXT_MAX + 16], own[ROLL_TABLE_NAME_MAX],
	    which[ROLL_TABLE_NAME_MAX + 16];
	struct buf b;
	size_t n = 0;
	int i;

	if (invocation_str(inv, "entry") != NULL) {
		if ((i = find_entry(inv, ts, &k, t, own, out)) < 0)
			goto done;
		entry_name(&t->e[i], name, sizeof(name));
		table_words(k, own, which, sizeof(which));
		if (!t->e[i].struck && ts->hidden) {
			/* As a strike of a struck entry, behind the screen. */
			cmd_tension_screen(inv, ts, out, EDITED);
			reply_line(out, 0, "%s is not struck from %s, so nothing changed.", name,
			           which);
			goto done;
		}
		if (!t->e[i].struck) {
			reply_error(out, "%s is not struck from %s.", name, which);
			goto done;
		}
		t->e[i].struck = false;
		keep(inv, ts, k, t, own);
		cmd_tension_screen(inv, ts, out, EDITED);
		reply_line(out, 0, "Restored %s to %s.", name, which);
		goto done;
	}
	buf_init(&b, 1 << 14);
	for (int j = 0; j < TENSION_TABLE_COUNT; j++) {
		size_t got;

		if (kind != NULL && tension_table_find(kind) != j)
			continue;
		in_use(inv, ts, (enum tension_table)j, t, own);
		if ((got = unstrike_all(t, &b)) > 0)
			keep(inv, ts, (enum tension_table)j, t, own);
		n += got;
	}
	/* Behind the screen, nothing to restore reads to the channel as a
	 * restore. */
	cmd_tension_screen(inv, ts, out, EDITED);
	if (n == 0) {
		reply_line(out, 0, "Nothing is struck%s%s%s.", kind ? " in the " : "",
		           kind ? kind : "", kind ? " table" : "");
	} else {
		reply_line(out, 0, "Restored %zu struck %s: %s.", n, n == 1 ? "entry" : "entries",
		           buf_str(&b));
	}
	buf_free(&b);
done:
	free(t);
}
