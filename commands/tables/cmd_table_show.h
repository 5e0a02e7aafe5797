/*
 * cmd_table_show: the subcommands of /table that read the channel's
 * tables (roll, show, list), and what the others share with them.
 */
#ifndef DELVER_CMD_TABLE_SHOW_H
#define DELVER_CMD_TABLE_SHOW_H

#include <stdbool.h>

#include "commands/core/registry.h"

struct roll_table_trace;
struct tables_lookup;

/* The name option's canonical table name into canon
 * (ROLL_TABLE_NAME_MAX bytes); an error reply and false when it is none. */
bool cmd_table_name(struct invocation *inv, char *canon, struct reply *out);

/* The refusal of name when no table the invoker may read has it. While
 * Tension is hidden a player reads the same sentence whether a table
 * behind the GM's screen has the name or none does, so that guessed names
 * tell nothing; the GM, and anyone in an open channel, reads that no
 * table has it. */
void cmd_table_unknown(struct invocation *inv, const char *name, struct reply *out);
/* The open reading of that refusal, with what the table the name asks
 * for lacks said after it: "No table here is called NAME<lacks>; /table
 * list shows those there are." (lacks "" for nothing more). */
void cmd_table_none_called(const char *name, const char *lacks, struct reply *out);

/* When the table called name is behind the GM's screen (Tension hidden,
 * the table screened), the channel reads what (a GM's act behind the
 * screen, in italics) and the rest of the reply goes to the invoker
 * alone (invocation_screen); else nothing. For the GM's use of a table:
 * a player never reads a screened one (cmd_table_may_read). */
void cmd_table_screen(struct invocation *inv, const char *name, const char *what,
                      struct reply *out);

/* Whether the invoker may see the table called name: not one behind the
 * GM's screen while Tension is hidden, unless the GM (cmd_table_unknown's
 * refusal otherwise, a secret roll's too). */
bool cmd_table_may_read(struct invocation *inv, const char *name, struct reply *out);

/*
 * The GM's side of a roll all see (tl's screen set) whose [[references]]
 * left tables behind the GM's screen as written (trace tr): each such
 * table rolled and expanded, to the one behind the screen
 * (gm_screen_aside, named what for a player who rolled), and out back to
 * the channel. A player's roll whose withheld tables are all screened
 * through references alone (read by the players as names no table has)
 * sends nothing, as even a word that something went behind the screen
 * would tell them such a table exists.
 */
void cmd_table_behind(struct invocation *inv, const struct tables_lookup *tl,
                      const struct roll_table_trace *tr, const char *what, struct reply *out);

/* The tables a roll's [[references]] rolled (trace tr, looked up in tl),
 * one line each under the roll's, "↳ loot: d6 5 → a key"; a table tl
 * withheld reads as behind the screen when screened by name, else as a
 * name no table has. */
void cmd_table_trace_lines(struct reply *out, const struct roll_table_trace *tr,
                           const struct tables_lookup *tl);

void cmd_table_roll(struct invocation *inv, struct reply *out);
void cmd_table_show(struct invocation *inv, struct reply *out);
void cmd_table_list(struct invocation *inv, struct reply *out);

#endif
