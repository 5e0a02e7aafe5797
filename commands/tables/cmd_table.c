/* /table: the channel's own tables: set, delete, copy, and the command table. */
#include "commands/tables/cmd_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "commands/tables/cmd_table_examples.h"
#include "commands/tables/cmd_table_hide.h"
#include "commands/tables/cmd_table_show.h"
#include "commands/tables/tables_state.h"
#include "commands/tables/tables_use.h"
#include "commands/tension/tension_state.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/tables/roll_table_name.h"

/* Bytes of entries a refused table hands back to the one who entered it. */
#define HANDED_BACK_MAX 1500

/* Adds entries (their lines) to one, on one line, "; " between them, cut
 * at HANDED_BACK_MAX bytes (one.toobig then). one is the caller's to free. */
static void
one_line(const char *entries, struct buf *one)
{
	buf_init(one, HANDED_BACK_MAX);
	for (const char *p = entries; *p != '\0';) {
		size_t n = strcspn(p, "\n");

		if (n > 0)
			buf_addf(one, "%s%.*s", one->len > 0 ? "; " : "", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* Whether the invoker may change the channel's table name: anyone while
 * nobody holds the GM seat, the GM once someone does (an error reply
 * otherwise). While Tension is hidden and the seat is empty, a player
 * changes only the tables they may read: a table behind the GM's screen is
 * a GM's alone, and with make set (a set, which makes a table of a name
 * that has none) so is every name the player may not read. A name with no
 * table and a screened one read alike to a player, so a set of either is
 * refused in the same words and saves nothing: saving one would overwrite
 * the GM's table, saving only the other would tell which is which. Entries
 * typed over several lines (a form, or lines until /table end: the seat
 * may have been claimed meanwhile) are not lost: the refusal gives them
 * back on one line, for the GM to set. */
static bool
may_change(struct invocation *inv, const char *name, bool make, struct reply *out)
{
	const char *gm = channel_gm_name(inv->seat), *entries = invocation_str(inv, "entries");
	bool unseen;

	if (inv->is_gm)
		return true;
	unseen =
	    gm == NULL && tension_state_hidden(inv->chan) &&
	    (tables_use_screened_in(inv->chan, name) || (make && !tables_use_own(inv->chan, name)));
	if (gm == NULL && !unseen)
		return true;
	if (entries != NULL && strchr(entries, '\n') != NULL) {
		struct buf one;

		one_line(entries, &one);
		if (unseen)
			reply_error(
			    out,
			    "No table you may read here is called %s, and while Tension is "
			    "hidden only the GM makes one (a table behind the GM's screen "
			    "reads as none to the players); nobody is GM here yet, so the "
			    "table was not saved; what you entered, for the GM to set: %s%s",
			    name, buf_str(&one), one.toobig ? " …" : "");
		else
			reply_error(
			    out,
			    "Only the GM, %s, changes the tables here, so the table was not "
			    "saved; what you entered, for the GM to set: %s%s",
			    gm, buf_str(&one), one.toobig ? " …" : "");
		buf_free(&one);
		return false;
	}
	if (!unseen) {
		reply_error(out, "Only the GM, %s, changes the tables here.", gm);
		return false;
	}
	reply_error(out,
	            "No table you may read here is called %s, and while Tension is hidden only "
	            "the GM makes one (a table behind the GM's screen reads as none to the "
	            "players); nobody is GM here yet; ",
	            name);
	invocation_claim_hint(out);
	return false;
}

/* Where a GM's change to a table behind the GM's screen is told: the
 * channel learns only that the GM changed one. A player's change (the seat
 * empty) is never to a screened table, nor makes one (may_change). */
static void
screen(struct invocation *inv, const char *name, struct reply *out)
{
	if (inv->is_gm)
		cmd_table_screen(inv, name, "The GM changed a table behind the screen.", out);
}

/* Keeps struck the entries of t that old (the table it replaces) had
 * struck with the same range and text. Returns how many. */
static size_t
keep_struck(const struct roll_table *old, struct roll_table *t)
{
	size_t kept = 0;

	for (size_t i = 0; i < t->n; i++)
		for (size_t j = 0; j < old->n; j++)
			if (old->e[j].struck && old->e[j].lo == t->e[i].lo &&
			    old->e[j].hi == t->e[i].hi &&
			    strcmp(old->e[j].text, t->e[i].text) == 0) {
				t->e[i].struck = true;
				kept++;
			}
	return kept;
}

struct missing {
	const struct channel *ch;
	const char *self;
	bool screen; /* the writer may not read tables behind the GM's screen */
	struct buf *names;
};

static int
note_missing(const char *name, void *ctx)
{
	struct missing *m = ctx;
	struct tables_lookup tl;
	char quoted[ROLL_TABLE_NAME_MAX + 8];

	tables_lookup_init(&tl, m->ch);
	tl.screen = m->screen;
	snprintf(quoted, sizeof(quoted), "[[%s]]", name);
	if (strcmp(name, m->self) != 0 && tables_lookup_find(&tl, name) == NULL &&
	    strstr(buf_str(m->names), quoted) == NULL)
		buf_addf(m->names, "%s%s", m->names->len ? ", " : "", quoted);
	tables_lookup_clear(&tl);
	return 0;
}

/* Adds to names (", " between) the [[references]] of text that name no
 * table here yet; with screen set (a writer who may not read them), a
 * table behind the GM's screen counts as none. */
static void
missing_names(const struct channel *ch, const char *self, const char *text, bool screen,
              struct buf *names)
{
	struct missing m = {ch, self, screen, names};

	roll_table_each_ref(text, note_missing, &m);
}

/* The references of text that name no table (missing_names with screen),
 * and, for a writer who reads behind the GM's screen while Tension is
 * hidden, those that name none the players may read (seen): what
 * missing_line tells apart. */
static void
missing_refs(const struct invocation *inv, const char *self, const char *text, bool screen,
             struct buf *missing, struct buf *seen)
{
	missing_names(inv->chan, self, text, screen, missing);
	if (!screen && tension_state_hidden(inv->chan))
		missing_names(inv->chan, self, text, true, seen);
}

/* Says which references name no table (names, from missing_names; seen
 * likewise with screen set: those the players may not read). While
 * Tension is hidden a GM's reply the channel reads (an open table's) says
 * to all which references name no table the players may read, alike
 * whether a screened table or none has the name, and to the GM alone
 * which name none at all: whether the channel's note named a reference
 * would tell the players whether a screened table of that name exists. */
static void
missing_line(struct invocation *inv, bool screen, const struct buf *names, const struct buf *seen,
             struct reply *out)
{
	const struct channel *ch = inv->chan;
	bool split = !screen && inv->is_gm && !inv->screened && tension_state_hidden(ch);

	if (names->len > 0 && screen && tension_state_hidden(ch))
		reply_line(out, RS_DIM,
		           "No table you may read here is called %s (while Tension is hidden, a "
		           "table behind the GM's screen reads as none to the players); a roll "
		           "everyone can see shows such a reference as written instead of rolling "
		           "it.",
		           buf_str(names));
	else if (split && seen->len > 0)
		reply_line(out, RS_DIM,
		           "No table the players may read here is called %s (while Tension is "
		           "hidden, a table behind the GM's screen reads as none to them); a roll "
		           "everyone can see shows such a reference as written instead of rolling "
		           "it.",
		           buf_str(seen));
	if (names->len > 0 && !(screen && tension_state_hidden(ch))) {
		if (split)
			reply_to(out, REPLY_INVOKER);
		reply_line(out, RS_DIM,
		           "No table here is called %s yet: until one is, rolls leave it as "
		           "written.",
		           buf_str(names));
		if (split)
			reply_to(out, REPLY_CHANNEL);
	}
}

void
cmd_table_missing_refs(struct invocation *inv, const char *self, const struct roll_table *t,
                       struct reply *out)
{
	struct buf text, missing, seen;

	buf_init(&text, 1024);
	buf_init(&missing, 1024);
	buf_init(&seen, 1024);
	roll_table_write(t, &text);
	missing_refs(inv, self, buf_str(&text), !inv->is_gm, &missing, &seen);
	missing_line(inv, !inv->is_gm, &missing, &seen, out);
	buf_free(&text);
	buf_free(&missing);
	buf_free(&seen);
}

/* Asks for the entries of the table name: text is NULL, or the entries
 * typed so far, kept open (struct reply_ask). */
static void
ask_for(const char *name, const char *text, struct reply *out)
{
	char line[ROLL_TABLE_NAME_MAX + 16];
	struct reply_ask ask = {.line = line,
	                        .opt = "entries",
	                        .label = "Entries, one a line (or split by ;)",
	                        .sample = "1-2: a rat\n3-5: 1d4 goblins\n6: [[loot]]",
	                        .max = TABLES_TEXT_MAX,
	                        .text = text};

	snprintf(line, sizeof(line), "table set %s", name);
	reply_ask(out, &ask);
}

/* /table set NAME alone asks for the entries: a form where the platform
 * has forms, else the invoker's next lines here until /table end. */
static void
ask_entries(const char *name, struct reply *out)
{
	ask_for(name, NULL, out);
	reply_add(out, 0,
	          "Send the entries of the table %s, one a line (or several on a line, "
	          "separated by ;), then ",
	          name);
	reply_cmd(out, 0, "table end", NULL);
	reply_add(out, 0, "; ");
	reply_cmd(out, 0, "table cancel", NULL);
	reply_add(out, 0,
	          " drops them. Other commands work meanwhile; lines of others are not "
	          "taken, and entries are dropped after 10 minutes without one.");
	reply_nl(out);
}

/* /table end and /table cancel reach a command only when nothing is being
 * entered (the transport takes them otherwise). */
static void
table_end(struct invocation *inv, struct reply *out)
{
	if (strcmp(inv->from->platform, "discord") == 0) {
		reply_error(out, "Nothing is being entered here: on Discord, ");
		reply_cmd(out, RS_BAD, "table set", "name", "NAME", NULL);
		reply_add(out, RS_BAD, " alone opens a form for the entries.");
		return;
	}
	reply_error(out, "No table is being entered here (entries are dropped after 10 minutes "
	                 "without a line); start one with ");
	reply_cmd(out, RS_BAD, "table set", "name", "NAME", NULL);
	reply_add(out, RS_BAD, ".");
}

/* Refuses to save the table name for err (a sentence), its entries at
 * fault. Entries typed line by line stay open, where they were typed: the
 * refusal says so and, when more lines can mend them (more, a gap to
 * fill), that they may follow before /table end again; else (an overlap, a
 * bad line) that only a start afresh can; and how to give up (/table
 * cancel). It gives them back on one line, to copy with a line corrected. */
static void
not_saved(const struct invocation *inv, const char *name, const char *err, const char *entries,
          bool more, struct reply *out)
{
	struct buf one;
	size_t lines = 1;

	reply_error(out, "The table %s was not saved: %s", name, err);
	if (!inv->drafted)
		return;
	for (const char *p = entries; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	reply_add(out, RS_BAD, " The %zu %s you sent %s still open: ", lines,
	          lines == 1 ? "line" : "lines", lines == 1 ? "is" : "are");
	if (more) {
		reply_add(out, RS_BAD, "send more, then ");
		reply_cmd(out, RS_BAD, "table end", NULL);
		reply_add(out, RS_BAD, " again; ");
		reply_cmd(out, RS_BAD, "table cancel", NULL);
		reply_add(out, RS_BAD, " drops them, and ");
		reply_cmd(out, RS_BAD, "table set", "name", name, NULL);
		reply_add(out, RS_BAD, " starts afresh.");
	} else {
		reply_add(out, RS_BAD, "no line sent after them can mend this; ");
		reply_cmd(out, RS_BAD, "table set", "name", name, NULL);
		reply_add(out, RS_BAD,
		          " starts afresh (paste after it the line below, the entry at fault put "
		          "right), and ");
		reply_cmd(out, RS_BAD, "table cancel", NULL);
		reply_add(out, RS_BAD, " drops them.");
	}
	reply_nl(out);
	one_line(entries, &one);
	reply_line(out, RS_DIM, "What you sent, on one line: %s%s", buf_str(&one),
	           one.toobig ? " …" : "");
	buf_free(&one);
	ask_for(name, entries, out);
}

static void
table_set(struct invocation *inv, struct reply *out)
{
	const char *entries = invocation_str(inv, "entries"), *alike;
	struct tables_state *s;
	struct roll_table *t, *old;
	char name[ROLL_TABLE_NAME_MAX], err[400];
	struct buf text, missing, seen;
	size_t kept = 0;
	int at, rc;

	if (!cmd_table_name(inv, name, out))
		return;
	/* A name that looks like a table the writer may read is answered so
	 * before may_change, which (Tension hidden, the seat empty) reads it
	 * as a name no table has; a screened look-alike is not looked at, so
	 * that answer stays the same whether one exists. While another holds
	 * the seat, that the GM alone changes tables is what counts. */
	if ((inv->is_gm || channel_gm_name(inv->seat) == NULL) &&
	    (alike = tables_use_look_alike(inv->chan, name, !inv->is_gm)) != NULL) {
		reply_error(out,
		            "The table %s was not saved: its name looks the same as the table %s's "
		            "but is spelled with a letter of another alphabet; use that table's "
		            "name, or another.",
		            name, alike);
		return;
	}
	if (!may_change(inv, name, true, out))
		return;
	if (tables_use_level_ok(name, err, sizeof(err)) < 0) {
		reply_error(out, "The table %s was not saved: %s", name, err);
		return;
	}
	if (entries == NULL) {
		ask_entries(name, out);
		return;
	}
	if (!inv->drafted)
		reply_ask_given(out);
	if (strlen(entries) > TABLES_TEXT_MAX) {
		reply_error(
		    out,
		    "The table %s was not saved: its text is %zu bytes long; a table may be "
		    "at most %d.",
		    name, strlen(entries), TABLES_TEXT_MAX);
		return;
	}
	t = xmalloc(sizeof(*t));
	old = xmalloc(sizeof(*old));
	buf_init(&text, 2 * TABLES_TEXT_MAX);
	buf_init(&missing, 1024);
	buf_init(&seen, 1024);
	if ((rc = roll_table_parse_die(entries, t, err, sizeof(err))) < 0) {
		not_saved(inv, name, err, entries, rc == -2, out);
		goto done;
	}
	s = tables_state_of(inv->chan);
	if ((at = tables_state_find(s, name)) >= 0) {
		tables_state_get(s, (size_t)at, old);
		kept = keep_struck(old, t);
	}
	roll_table_write(t, &text);
	/* as the tables stand before the change: a table a screened one names
	 * and this set makes does not pull the tables it names behind the
	 * screen for the writer's note */
	missing_refs(inv, name, buf_str(&text), !inv->is_gm, &missing, &seen);
	if (tables_use_check(inv->chan, name, buf_str(&text), !inv->is_gm, err, sizeof(err)) < 0 ||
	    tables_use_room(inv->chan, name, text.len, !inv->is_gm, err, sizeof(err)) < 0 ||
	    tables_state_put(s, name, t, err, sizeof(err)) < 0) {
		tables_state_settle(inv->chan);
		not_saved(inv, name, err, entries, false, out);
		goto done;
	}
	channel_touch(inv->chan);
	screen(inv, name, out);
	{
		char die[32];

		roll_table_die_text(t, die, sizeof(die));
		reply_add(out, 0, "%s the table ", at >= 0 ? "Replaced" : "Saved");
		reply_add(out, RS_BOLD, "%s", name);
		reply_add(out, 0, ": %s, %zu %s", die, t->n, t->n == 1 ? "entry" : "entries");
		if (kept > 0)
			reply_add(out, 0, "; %zu unchanged %s still struck", kept,
			          kept == 1 ? "entry is" : "entries are");
		reply_add(out, 0, ".");
		reply_nl(out);
	}
	missing_line(inv, !inv->is_gm, &missing, &seen, out);
	if (tables_state_named_screen(name)) {
		char used[ROLL_TABLE_NAME_MAX];
		const char *kind = strncmp(name, "effects", 7) == 0 ? "effects" : "encounter";

		if (tables_use_kind(inv->chan, kind, old, used) && strcmp(used, name) == 0)
			reply_line(out, RS_DIM,
			           "The channel's %s rolls now use it (by its own die; Tension's "
			           "rolls read a table of 1-20 with d10 + Tension).",
			           kind);
	}
done:
	buf_free(&text);
	buf_free(&missing);
	buf_free(&seen);
	free(t);
	free(old);
}

/* Names the tables that refer to name (they will leave it as written). */
static void
referrers_line(const struct tables_state *s, const char *name, struct reply *out)
{
	char quoted[ROLL_TABLE_NAME_MAX + 8];
	struct buf names;

	buf_init(&names, 2048);
	snprintf(quoted, sizeof(quoted), "[[%s]]", name);
	for (size_t i = 0; s != NULL && i < s->n; i++)
		if (strstr(s->v[i].text, quoted) != NULL)
			buf_addf(&names, "%s%s", names.len ? ", " : "", s->v[i].name);
	if (names.len > 0)
		reply_line(out, RS_DIM, "Still naming %s, which rolls now leave as written: %s.",
		           quoted, buf_str(&names));
	buf_free(&names);
}

static void
table_delete(struct invocation *inv, struct reply *out)
{
	char name[ROLL_TABLE_NAME_MAX];
	struct tables_state *s;
	int at;

	/* With the seat empty a player deletes open tables: one behind the
	 * screen reads as a name no table has. */
	if (!cmd_table_name(inv, name, out) ||
	    (channel_gm_name(inv->seat) == NULL && !cmd_table_may_read(inv, name, out)) ||
	    !may_change(inv, name, false, out))
		return;
	at = tables_state_find(tables_state_peek(inv->chan), name);
	if (at < 0 && tension_table_find(name) < 0) {
		cmd_table_unknown(inv, name, out);
		return;
	}
	if (at < 0) {
		cmd_table_none_called(name, " of the channel's own (Tension's cannot be deleted)",
		                      out);
		return;
	}
	/* Told as the table stood before: once deleted, nothing keeps it
	 * behind the screen any more. */
	screen(inv, name, out);
	s = tables_state_of(inv->chan);
	tables_state_delete(s, (size_t)at);
	channel_touch(inv->chan);
	reply_add(out, 0, "Deleted the table ");
	reply_add(out, RS_BOLD, "%s", name);
	reply_add(out, 0, "; ");
	reply_cmd(out, 0, "undo", NULL);
	reply_add(out, 0, " brings it back.");
	reply_nl(out);
	referrers_line(s, name, out);
	tables_state_settle(inv->chan);
}

/* Whether from names the invoker's private messages with the bot: "me",
 * a channel on IRC alone (there they are kept under the user's key). */
static bool
copy_from_me(const struct invocation *inv, const char *from)
{
	return strcmp(inv->from->platform, "irc") == 0 && strcasecmp(from, "me") == 0;
}

/* How replies name copy's source: from as typed, or the invoker's private
 * messages for from:me. */
static const char *
copy_where(const char *from, bool mine)
{
	return mine ? "Your private messages with delver" : from;
}

/* The refusal of from:me off IRC: on the console "me" reads as a channel
 * called me, where the GM refusal would tell of a "GM of me". */
static void
copy_me_elsewhere(struct reply *out)
{
	reply_error(out, "from:me names your private messages with delver on IRC, which this "
	                 "place does not have; name a channel where you are GM instead "
	                 "(from:#crypt).");
}

/* The channel copy reads from: its record, or NULL with an error reply.
 * from:me (IRC) reads the invoker's own private messages with the bot,
 * whose channel key is the invoker's (bot/irc): that conversation is
 * theirs, its seat theirs unless another holds it. */
static struct channel *
copy_source(struct invocation *inv, const char *from, struct reply *out)
{
	char key[KEY_MAX];
	struct channel *src = NULL;
	bool failed = false, mine = copy_from_me(inv, from), named = mine;
	const char *gm;

	if (mine)
		snprintf(key, sizeof(key), "%s", inv->from->user_key);
	else
		named = invocation_channel_named(inv, from, key);
	/* from:me off IRC (no channel on Discord, on the console one called
	 * me) is refused with the GM seat's check below, unless the invoker
	 * holds that seat. */
	if (!named && strcasecmp(from, "me") != 0) {
		reply_error(out,
		            "'%.40s' is not a channel here: name it as #channel (on Discord a "
		            "mention or its id).",
		            from);
		return NULL;
	}
	if (named)
		src = state_channel_read(inv->state, key, &failed);
	if (failed) {
		reply_error(out,
		            "The record of %.40s cannot be read just now; try again in a moment.",
		            mine ? "your private messages with delver" : from);
		return NULL;
	}
	if (src == inv->chan) {
		reply_error(out, "That is this channel; name the channel to copy tables from.");
		return NULL;
	}
	gm = src != NULL ? channel_gm(src) : NULL;
	if (mine && gm != NULL && strcmp(gm, inv->from->user_key) != 0) {
		reply_error(out,
		            "%s holds the GM seat of your private messages with delver, so their "
		            "tables are not yours to copy.",
		            channel_gm_name(src));
		return NULL;
	}
	if (!mine && (gm == NULL || strcmp(gm, inv->from->user_key) != 0)) {
		if (strcasecmp(from, "me") == 0)
			copy_me_elsewhere(out);
		else
			reply_error(out,
			            "You are not the GM of %.40s: tables are copied from a channel "
			            "where you hold the GM seat.",
			            from);
		return NULL;
	}
	if (src == NULL || tables_state_peek(src) == NULL) {
		if (mine)
			reply_error(out,
			            "Your private messages with delver have no tables of their "
			            "own to copy; make one there first (table set NAME).");
		else
			reply_error(out, "%.40s has no tables of its own to copy.", from);
		return NULL;
	}
	return src;
}

/* Puts the source's table i here (nothing struck: a copy starts fresh).
 * Returns 0, or -1 with err. */
static int
copy_one(struct invocation *inv, const struct tables_state *from, size_t i, struct roll_table *t,
         char *err, size_t errlen)
{
	const char *alike = tables_use_look_alike(inv->chan, from->v[i].name, false);

	/* the refusal is the GM's alone (a refusal is the invoker's on every
	 * platform), so it may name a table behind the screen */
	if (alike != NULL) {
		snprintf(err, errlen,
		         "its name looks the same as the table %s's here but is spelled with a "
		         "letter of another alphabet; a copy keeps its name, so delete "
		         "that table here first, or leave this one out.",
		         alike);
		return -1;
	}
	tables_state_get(from, i, t);
	for (size_t k = 0; k < t->n; k++)
		t->e[k].struck = false;
	if (tables_use_check(inv->chan, from->v[i].name, from->v[i].text, false, err, errlen) < 0 ||
	    tables_use_room(inv->chan, from->v[i].name, from->v[i].len, false, err, errlen) < 0 ||
	    tables_state_put(tables_state_of(inv->chan), from->v[i].name, t, err, errlen) < 0)
		return -1;
	/* a table behind the screen there stays behind it here */
	if (from->v[i].screened) {
		struct tables_state *to = tables_state_of(inv->chan);

		tables_state_mark(to, (size_t)tables_state_find(to, from->v[i].name), true);
	}
	return 0;
}

/* The tables copied from src (all of them, else the one at at), as they
 * stand here now that all are copied (a copied table another names is
 * behind the GM's screen while Tension is hidden): into screened those
 * behind it, into open the others (", " between names). */
static void
copied_by_screen(const struct channel *ch, const struct tables_state *src, bool all, int at,
                 struct buf *screened, struct buf *open)
{
	for (size_t i = 0; i < src->n; i++) {
		struct buf *to;

		if (!all && (int)i != at)
			continue;
		to = tables_use_screened_in(ch, src->v[i].name) ? screened : open;
		buf_addf(to, "%s%s", to->len ? ", " : "", src->v[i].name);
	}
}

static void
table_copy(struct invocation *inv, struct reply *out)
{
	const char *what = invocation_str(inv, "name"), *from = invocation_str(inv, "from");
	bool all = strcmp(what, "*") == 0;
	bool mine = copy_from_me(inv, from);
	char name[ROLL_TABLE_NAME_MAX] = "", err[400];
	const struct tables_state *src;
	struct channel *sch;
	struct roll_table *t;
	struct buf names, replaced, screened, open, texts;
	cJSON *before;
	size_t copied = 0;
	int at = -1;

	if (!all && !cmd_table_name(inv, name, out))
		return;
	if (!invocation_require_gm(inv, out) || (sch = copy_source(inv, from, out)) == NULL)
		return;
	src = tables_state_peek(sch);
	if (!all && (at = tables_state_find(src, name)) < 0) {
		reply_error(out, "%.40s %s no table called %s.", copy_where(from, mine),
		            mine ? "have" : "has", name);
		return;
	}
	before = tables_state_peek(inv->chan) != NULL
	             ? tables_mod.save(tables_state_peek(inv->chan))
	             : NULL;
	t = xmalloc(sizeof(*t));
	buf_init(&names, 4096);
	buf_init(&replaced, 4096);
	buf_init(&screened, 4096);
	buf_init(&open, 4096);
	buf_init(&texts, 2 * TABLES_BYTES_MAX);
	for (size_t i = 0; i < src->n; i++) {
		if (!all && (int)i != at)
			continue;
		if (tables_use_own(inv->chan, src->v[i].name))
			buf_addf(&replaced, "%s%s", replaced.len ? ", " : "", src->v[i].name);
		if (copy_one(inv, src, i, t, err, sizeof(err)) < 0) {
			/* all or nothing: the tables are put back as they were */
			void *back = tables_mod.create();

			if (before != NULL)
				(void)tables_mod.load(back, before, err + strlen(err), 0);
			channel_mod_set(inv->chan, CHANMOD_TABLES, back);
			tables_state_settle(inv->chan);
			reply_error(out, "Nothing was copied: the table %s: %s", src->v[i].name,
			            err);
			goto done;
		}
		buf_addf(&names, "%s%s", names.len ? ", " : "", src->v[i].name);
		buf_addf(&texts, "%s\n", src->v[i].text);
		copied++;
	}
	channel_touch(inv->chan);
	copied_by_screen(inv->chan, src, all, at, &screened, &open);
	if (screened.len > 0 && tension_state_hidden(inv->chan))
		invocation_screen(inv, out, RS_ITALIC, "The GM changed a table behind the screen.");
	reply_add(out, 0, "Copied %zu %s from ", copied, copied == 1 ? "table" : "tables");
	if (strcmp(channel_key(sch), inv->from->user_key) == 0)
		reply_add(out, 0, "your private messages");
	else
		reply_add(out, RS_CHANNEL, "%s", channel_key(sch));
	reply_add(out, 0, ": %s", buf_str(&names));
	if (replaced.len > 0)
		reply_add(out, 0, " (replacing %s here)", buf_str(&replaced));
	reply_add(out, 0, "; nothing in them is struck.");
	reply_nl(out);
	{
		struct buf missing, seen;

		buf_init(&missing, 1024);
		buf_init(&seen, 1024);
		missing_refs(inv, "", buf_str(&texts), false, &missing, &seen);
		missing_line(inv, false, &missing, &seen, out);
		buf_free(&missing);
		buf_free(&seen);
	}
	if (open.len > 0 && tension_state_hidden(inv->chan)) {
		/* the screen covers some tables, not every copied one */
		reply_add(out, RS_DIM,
		          "The players can show and roll %s here: behind the GM's screen are "
		          "only the encounter and effects tables, the tables they name and "
		          "those put there by ",
		          buf_str(&open));
		reply_cmd(out, RS_DIM, "table hide", NULL);
		reply_add(out, RS_DIM, ".");
		reply_nl(out);
	}
	if (screened.len > 0 && !tension_state_hidden(inv->chan)) {
		/* a GM who copies from a hidden channel may expect them screened */
		reply_add(out, RS_DIM,
		          "Tension is open here, so the players can show and roll %s; ",
		          buf_str(&screened));
		reply_cmd(out, RS_DIM, "tension mode", "mode", "hidden", NULL);
		reply_add(out, RS_DIM, " puts %s behind the GM's screen.",
		          screened.len > 0 && strchr(buf_str(&screened), ',') ? "them" : "it");
		reply_nl(out);
	}
done:
	cJSON_Delete(before);
	buf_free(&names);
	buf_free(&replaced);
	buf_free(&screened);
	buf_free(&open);
	buf_free(&texts);
	free(t);
}

/* Suggests the tables the channel's rolls find that the invoker may read:
 * its own, and Tension's; to a player while Tension is hidden, none behind
 * the GM's screen (Tension's own are). */
static void
complete_name(struct invocation *inv, const char *partial, struct completions *out)
{
	const struct tables_state *s = tables_state_peek(inv->chan);

	bool screen = !inv->is_gm && tension_state_hidden(inv->chan);

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; s != NULL && i < s->n; i++) {
			const char *hit = strcasestr(s->v[i].name, partial);

			if (screen && tables_use_screened_in(inv->chan, s->v[i].name))
				continue;
			if (hit != NULL && (hit == s->v[i].name) == (pass == 0))
				completions_add(out, s->v[i].name);
		}
		for (int k = 0; !screen && k < TENSION_TABLE_COUNT; k++) {
			const char *kind = tension_table_name((enum tension_table)k);
			const char *hit = strcasestr(kind, partial);

			if (hit != NULL && (hit == kind) == (pass == 0))
				completions_add(out, kind);
		}
	}
}

/* /table copy's name, for a GM here (copying is theirs): the tables of the
 * channel named by from: (the invoker's, as GM there), after "*" (every
 * one); nothing more until from: names such a channel. */
static void
complete_copy_name(struct invocation *inv, const char *partial, struct completions *out)
{
	const char *from = invocation_str(inv, "from");
	struct reply *scratch;
	struct channel *src;
	const struct tables_state *s;

	if (!inv->is_gm)
		return;
	if (strstr("*", partial) != NULL)
		completions_add(out, "*");
	if (from == NULL || *from == '\0')
		return;
	scratch = reply_new();
	src = copy_source(inv, from, scratch);
	reply_free(scratch);
	s = src != NULL ? tables_state_peek(src) : NULL;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; s != NULL && i < s->n; i++) {
			const char *hit = strcasestr(s->v[i].name, partial);

			if (hit != NULL && (hit == s->v[i].name) == (pass == 0))
				completions_add(out, s->v[i].name);
		}
}

#define NAME_OPT(what)                                                                             \
	{                                                                                          \
		.name = "name", .desc = what, .type = OPT_STRING,                                  \
		.flags = OPT_REQUIRED | OPT_AUTOCOMPLETE, .max = 4 * ROLL_TABLE_NAME_MAX,          \
		.complete = complete_name                                                          \
	}

static const struct cmd_opt set_opts[] = {
    NAME_OPT("The table's name: letters of any alphabet, digits, - and _ (loot, encounter-2)"),
    {.name = "entries",
     .desc = "Entries by ';' or line: '1-2: a rat; 3-6: 1d4 goblins', or weights '3x a rat'",
     .type = OPT_STRING,
     .flags = OPT_REST | OPT_LINES,
     .max = TABLES_TEXT_MAX},
    {0},
};

static const struct cmd_opt roll_opts[] = {
    NAME_OPT("The table to roll"),
    {.name = "secret", .desc = "Only the GM sees the result", .type = OPT_BOOL},
    {0},
};

static const struct cmd_opt name_opts[] = {
    NAME_OPT("The table"),
    {0},
};

static const struct cmd_opt copy_opts[] = {
    {.name = "name",
     .desc = "The table to copy, or * for every one",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_AUTOCOMPLETE | OPT_NAME,
     .max = 4 * ROLL_TABLE_NAME_MAX,
     .complete = complete_copy_name},
    {.name = "from",
     .desc = "The channel to copy from, where you are GM: #channel (IRC: me, your PMs)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_NAME,
     .max = 100},
    {0},
};

static const struct cmd_opt examples_opts[] = {
    {.name = "text",
     .desc = "Only the example for this rule text",
     .type = OPT_STRING,
     .choices = cmd_table_example_texts},
    {0},
};

static const struct command table_subs[] = {
    {.name = "roll",
     .desc = "Roll a table: the whole table, the rolled row marked",
     .help = "The table's own die is rolled (a d66 as two d6, tens and units; a weighted "
             "table on the sum of its weights); dice in the entry are rolled (1d4 goblins "
             "→ 3 goblins (1d4: 3)) and each [[name]] in it rolls that table in turn, at "
             "most 4 tables deep and 16 rolls in all, each shown on a line of its own. "
             "secret:true sends the result to the GM alone, as {/gmroll} does; while "
             "Tension is hidden, a roll everyone can see shows a reference to a table behind "
             "the GM's screen as written instead of rolling it. The roll goes in {/log} (a "
             "secret one in the GM's {/log kind=secret}).",
     .opts = roll_opts,
     .fn = cmd_table_roll},
    {.name = "show",
     .desc = "Show a table as text that setting it again takes back unchanged",
     .opts = name_opts,
     .fn = cmd_table_show,
     .read_only = true},
    {.name = "list",
     .desc = "The channel's tables, their dice and what rolls them",
     .fn = cmd_table_list,
     .read_only = true},
    {.name = "set",
     .desc = "Make or replace a table: 1-2: a rat; 3-6: 1d4 goblins",
     .help = "Without entries, asks for them: on Discord a form to paste the whole table "
             "into; on IRC and the console the lines you send next, until {/table end}. "
             "Entries are separated by ';' or by lines, each 'N: text' or 'N-M: text' in "
             "any order; the largest number names the die (4, 6, 8, 10, 12, 20, 66 for a "
             "d66 numbered 11-66, or 100, also written 00) and the ranges must cover it "
             "with no gap and no overlap. Or weight every entry: '3x a rat; 1x a wolf' "
             "rolls on the sum of the weights. Dice in an entry are rolled when it comes up, "
             "in {/roll}'s notation (1d20 adv too), at most 8 in an entry; "
             "[[name]] rolls the table of that name (a table may not roll itself, even "
             "through others, and a chain is at most 4 tables). Replacing a table keeps "
             "struck the entries that are unchanged. Limits: 100 entries of 160 bytes, "
             "4000 bytes a table, 32 tables a channel, 32000 bytes in the tables you may read. "
             "While someone holds "
             "the GM seat, only the GM changes tables; while Tension is hidden and nobody "
             "holds it, a player replaces only the tables they may read and makes none.",
     .opts = set_opts,
     .fn = table_set},
    {.name = "examples",
     .desc = "A complete table for each rule text, to enter as it stands",
     .help = "One for each text the bot plays: the D12 Tension text's encounter and effects "
             "tables (d10 + Tension), the exploration die's wandering monsters (with a "
             "nested table), the delving text's dungeon shifts (a d66), the safe-areas "
             "text's level 2 wandering monsters (weighted) and, for Fungeon's Traps player, "
             "rooms. {/table examples text=delving} shows one text's alone.",
     .opts = examples_opts,
     .fn = cmd_table_examples_fn,
     .read_only = true},
    {.name = "end",
     .desc = "End the entries of a table typed line by line (IRC, console)",
     .help = "After {/table set name=NAME} alone, the lines you send in this channel are "
             "the table's entries, until {/table end} saves them as {/table set} would, or "
             "{/table cancel} drops them; a table {/table end} refuses stays open for more "
             "lines. Only your own lines are taken, and not those "
             "that are commands. Starting another table drops the one under way; so do 10 "
             "minutes without a line, and a restart of the bot. On Discord, {/table set "
             "name=NAME} alone opens a form instead.",
     .fn = table_end},
    {.name = "cancel", .desc = "Drop the entries of a table typed line by line", .fn = table_end},
    {.name = "delete",
     .desc = "Delete one of the channel's tables",
     .opts = name_opts,
     .fn = table_delete},
    {.name = "hide",
     .desc = "Put one of the channel's tables behind the GM's screen",
     .help = "While Tension is hidden, a table behind the GM's screen is the GM's alone: "
             "players can neither show, roll, list nor copy it, and it reads to them as a "
             "name no table has. The encounter and effects tables (and their -N levels) are "
             "there by their names, and every table such a table names by [[reference]] "
             "joins them and stays when the reference goes; {/table hide} puts any other "
             "table there too, with the tables it names. {/undo} takes it back.",
     .role = ROLE_GM,
     .opts = name_opts,
     .fn = cmd_table_hide},
    {.name = "reveal",
     .desc = "Take one of the channel's tables out from behind the GM's screen",
     .help = "Refused while the table's name is one a procedure rolls (encounter, effects, "
             "their -N levels) or a table behind the screen still names it by [[reference]]: "
             "take that reference out first. {/table list} shows which tables are behind the "
             "screen, to you alone; {/undo} takes a reveal back.",
     .role = ROLE_GM,
     .opts = name_opts,
     .fn = cmd_table_reveal},
    {.name = "copy",
     .desc = "Copy a table (or * for all) from a channel where you are GM",
     .help = "Copies the table of that name, or with * every table, from the channel named "
             "by from: (where you hold the GM seat) into this one (where you are GM); a "
             "table of the same name here is replaced. All or nothing: when a limit or a "
             "circle of references would be passed, nothing is copied. Nothing in the "
             "copies is struck. On IRC, from:me copies from your private messages with the "
             "bot (claim the GM seat there too): a table behind the GM's screen is written "
             "there, out of the players' sight. Copying such tables into a channel whose "
             "Tension is open says that the players can read them.",
     .opts = copy_opts,
     .fn = table_copy},
    {0},
};

const struct command cmd_table = {
    .name = "table",
    .desc = "The channel's own tables: set, roll, show, list, delete, copy, hide, reveal",
    .help = "A table belongs to its channel; {/table examples} shows a complete one for "
            "each rule text. The channel's table encounter (or "
            "encounter-N on dungeon level N, {/turn level}) is what the hazard die's "
            "Encounter and Sign, the wandering checks and {/tension roll} roll, and "
            "effects is Tension's effects table; without them Tension's own tables are "
            "used. While Tension is hidden, those tables, the tables they name by "
            "[[reference]] (even once they no longer do) and those of {/table hide} are "
            "the GM's alone to show and roll, until {/table reveal}.",
    .subs = table_subs,
    .default_sub = "list",
};
