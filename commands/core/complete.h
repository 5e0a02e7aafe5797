/*
 * complete: autocomplete, the command layer's second entry point beside
 * dispatch (transports call complete_invocation and never touch channel
 * state), and the command families' completers (see struct cmd_opt's
 * complete). Each suggests values containing the partly typed text, those
 * starting with it first, and changes nothing. A list option ("alba, brom")
 * completes its last word and keeps the words before.
 */
#ifndef DELVER_COMPLETE_H
#define DELVER_COMPLETE_H

#include <stdint.h>

#include "commands/core/dispatch.h"
#include "commands/core/registry.h"

/*
 * Fills out with the suggestions for the option named option of inv, whose
 * command path (and the options typed so far, except the one being typed)
 * the transport bound; partial is the text typed so far. The channel's
 * record is read (loaded by d's state loader when it is not in memory) but
 * never created, nor is a user record, and nothing is changed: a channel
 * with no record completes as an empty channel (inv->chan NULL for the
 * completers), and a channel whose record cannot be loaded gives no
 * suggestions at all. A GM-only command suggests nothing to anyone but the
 * GM. Clears inv's values afterwards.
 */
void complete_invocation(struct dispatch *d, const struct origin *o, struct invocation *inv,
                         const char *option, const char *partial, int64_t now,
                         struct completions *out);

/* The completers below may get inv->chan and inv->user NULL. */

/* Fungeoneers of this channel (character names); who lists too. */
void complete_fg_who(struct invocation *inv, const char *partial, struct completions *out);
/* The room's monsters' abilities as monster/ability (lists too). */
void complete_fg_abilities(struct invocation *inv, const char *partial, struct completions *out);
/* The room's traps. */
void complete_fg_trap(struct invocation *inv, const char *partial, struct completions *out);
/* The room's monsters, and its treasure (one name). */
void complete_fg_monster(struct invocation *inv, const char *partial, struct completions *out);
void complete_fg_treasure(struct invocation *inv, const char *partial, struct completions *out);
/* Stored monsters (a list). */
void complete_fg_monsters(struct invocation *inv, const char *partial, struct completions *out);
/* The Tension table's entries (the table option's, else encounter): not
 * struck for /tension strike, struck for /tension unstrike. */
void complete_tension_entry(struct invocation *inv, const char *partial, struct completions *out);
void complete_tension_struck(struct invocation *inv, const char *partial, struct completions *out);

#endif
