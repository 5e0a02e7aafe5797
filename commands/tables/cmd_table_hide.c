/* cmd_table_hide: /table hide and /table reveal; see cmd_table_hide.h. */
#include "commands/tables/cmd_table_hide.h"

#include <stdio.h>
#include <string.h>

#include "commands/core/invocation.h"
#include "commands/tables/cmd_table_show.h"
#include "commands/tables/tables_state.h"
#include "commands/tension/tension_state.h"
#include "rules/base/buf.h"
#include "rules/tables/roll_table.h"
#include "rules/tables/roll_table_name.h"
#include "rules/tension/tension.h"

/* The channel's own table the GM names for hide or reveal, its index, or
 * -1 with the refusal (the GM reads that no table has the name). */
static int
own_table(struct invocation *inv, char *name, struct reply *out)
{
	int at;

	if (!cmd_table_name(inv, name, out))
		return -1;
	at = tables_state_find(tables_state_peek(inv->chan), name);
	if (at < 0 && tension_table_find(name) >= 0)
		cmd_table_none_called(name,
		                      " of the channel's own (Tension's are behind the screen "
		                      "by their names)",
		                      out);
	else if (at < 0)
		cmd_table_unknown(inv, name, out);
	return at;
}

/* Adds to names (", " between) the tables other than table me that s
 * marks behind the screen and base did not (base: a copy of each mark). */
static void
newly_marked(const struct tables_state *s, const bool *base, size_t me, struct buf *names)
{
	for (size_t i = 0; i < s->n; i++)
		if (i != me && s->v[i].screened && !base[i])
			buf_addf(names, "%s%s", names->len ? ", " : "", s->v[i].name);
}

/* What the channel reads of a change to the marks while Tension is open:
 * which tables go behind the screen once it is hidden is the GM's alone
 * to read, so the rest of the reply goes to the GM (the change is made
 * behind the screen, as /undo tells it: undo_screen.h). */
static void
marks_open(struct invocation *inv, struct reply *out)
{
	invocation_screen(inv, out, RS_ITALIC,
	                  "The GM changed which tables go behind the screen while Tension is "
	                  "hidden.");
}

void
cmd_table_hide(struct invocation *inv, struct reply *out)
{
	char name[ROLL_TABLE_NAME_MAX];
	bool base[TABLES_MAX];
	struct tables_state *s;
	struct buf with;
	int at;

	if ((at = own_table(inv, name, out)) < 0)
		return;
	s = tables_state_of(inv->chan);
	if (s->v[at].screened) {
		const char *keeper = tables_state_keeper(s, (size_t)at);

		if (keeper != NULL && keeper[0] == '\0') {
			reply_error(out,
			            "The table %s is behind the GM's screen already, by its name "
			            "(a procedure rolls it while Tension is hidden).",
			            name);
			return;
		}
		reply_error(out, "The table %s is behind the GM's screen already; ", name);
		reply_cmd(out, RS_BAD, "table list", NULL);
		reply_add(out, RS_BAD, " shows you which tables are.");
		return;
	}
	for (size_t i = 0; i < s->n; i++)
		base[i] = s->v[i].screened;
	tables_state_mark(s, (size_t)at, true);
	channel_touch(inv->chan);
	buf_init(&with, 2048);
	newly_marked(s, base, (size_t)at, &with);
	if (tension_state_hidden(inv->chan))
		invocation_screen(inv, out, RS_ITALIC, "The GM put a table behind the screen.");
	else
		marks_open(inv, out);
	reply_add(out, 0, "Put the table ");
	reply_add(out, RS_BOLD, "%s", name);
	if (with.len > 0)
		reply_add(out, 0,
		          " behind the GM's screen, with %s, which it names: ", buf_str(&with));
	else
		reply_add(out, 0, " behind the GM's screen: ");
	reply_add(out, 0,
	          "while Tension is hidden, the players can neither show, roll nor "
	          "list %s; ",
	          with.len > 0 ? "them" : "it");
	reply_cmd(out, 0, "table reveal", "name", name, NULL);
	reply_add(out, 0, " takes it out.");
	reply_nl(out);
	buf_free(&with);
}

struct still_ctx {
	const struct tables_state *s;
	struct buf *names;
};

static int
note_still(const char *name, void *ctx)
{
	struct still_ctx *c = ctx;
	int i = tables_state_find(c->s, name);
	char quoted[ROLL_TABLE_NAME_MAX + 2];

	snprintf(quoted, sizeof(quoted), " %s,", name);
	if (i >= 0 && c->s->v[i].screened && strstr(buf_str(c->names), quoted) == NULL)
		buf_addf(c->names, " %s,", name);
	return 0;
}

/* Tells the GM which tables that table i names stay behind the screen
 * (privately while Tension is hidden: the channel may not learn of them). */
static void
still_named(struct invocation *inv, const struct tables_state *s, size_t i, struct reply *out)
{
	struct buf names;
	struct still_ctx c = {s, &names};

	buf_init(&names, 2048);
	roll_table_each_ref(s->v[i].text, note_still, &c);
	if (names.len > 0) {
		if (tension_state_hidden(inv->chan))
			reply_to(out, REPLY_INVOKER);
		reply_line(out, RS_DIM,
		           "Still behind the screen among the tables %s names:%.*s (reveal each "
		           "you mean to open).",
		           s->v[i].name, (int)(names.len - 1), buf_str(&names));
	}
	buf_free(&names);
}

void
cmd_table_reveal(struct invocation *inv, struct reply *out)
{
	char name[ROLL_TABLE_NAME_MAX];
	struct tables_state *s;
	const char *keeper;
	int at;

	if ((at = own_table(inv, name, out)) < 0)
		return;
	s = tables_state_of(inv->chan);
	keeper = tables_state_keeper(s, (size_t)at);
	if (keeper != NULL && keeper[0] == '\0') {
		reply_error(out,
		            "The table %s stays behind the GM's screen by its name: a procedure "
		            "rolls it while Tension is hidden (encounter, effects and their -N "
		            "tables), and ",
		            name);
		reply_cmd(out, RS_BAD, "tension mode", "mode", "open", NULL);
		reply_add(out, RS_BAD, " shows every table.");
		return;
	}
	if (keeper != NULL) {
		reply_error(out,
		            "The table %s stays behind the GM's screen while the table %s, "
		            "behind it too, names it by [[%s]]; take that reference out of %s "
		            "first.",
		            name, keeper, name, keeper);
		return;
	}
	if (!s->v[at].screened) {
		reply_error(out, "The table %s is not behind the GM's screen; ", name);
		reply_cmd(out, RS_BAD, "table hide", "name", name, NULL);
		reply_add(out, RS_BAD, " puts it there.");
		return;
	}
	tables_state_mark(s, (size_t)at, false);
	channel_touch(inv->chan);
	if (!tension_state_hidden(inv->chan))
		marks_open(inv, out);
	reply_add(out, 0, "Took the table ");
	reply_add(out, RS_BOLD, "%s", name);
	reply_add(out, 0,
	          " out from behind the GM's screen: the players can show and roll it "
	          "whether Tension is hidden or open.");
	reply_nl(out);
	still_named(inv, s, (size_t)at, out);
}
