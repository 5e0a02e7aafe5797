/*
 * complete: Discord autocomplete for the command families' options (see
 * struct cmd_opt's complete). Each suggests values containing the partly
 * typed text, those starting with it first, and changes nothing. A list
 * option ("alba, brom") completes its last word and keeps the words before.
 */
#ifndef DELVER_COMPLETE_H
#define DELVER_COMPLETE_H

#include "commands/registry.h"

/* Fungeoneers of this channel (character names); who lists too. */
void complete_fg_who(struct invocation *inv, const char *partial, struct completions *out);
/* Stored traps, and each stored monster's abilities as monster/ability. */
void complete_fg_obstacle(struct invocation *inv, const char *partial, struct completions *out);
/* Stored traps. */
void complete_fg_trap(struct invocation *inv, const char *partial, struct completions *out);
/* Stored monsters (a list). */
void complete_fg_monsters(struct invocation *inv, const char *partial, struct completions *out);
/* The Tension table's entries (the table option's, else encounter): not
 * struck for /tension strike, struck for /tension unstrike. */
void complete_tension_entry(struct invocation *inv, const char *partial, struct completions *out);
void complete_tension_struck(struct invocation *inv, const char *partial, struct completions *out);

#endif
