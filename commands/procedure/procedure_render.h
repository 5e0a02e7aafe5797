/*
 * procedure_render: what the dungeon-procedure commands (/hazard, /turn,
 * /light, /rest, /wander, /safe) share: who may pass turns and how the
 * bookkeeping of a turn is shown (the hazard turn itself is cmd_hazard.h's).
 */
#ifndef DELVER_PROCEDURE_RENDER_H
#define DELVER_PROCEDURE_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/procedure/procedure_state.h"
#include "commands/core/registry.h"

/* Returns true when the invoker may keep the turn procedure here (roll the
 * hazard die, rest, set the party's pace); otherwise writes the refusal,
 * "Only the GM <what> in this channel (...)", and returns false. */
bool procedure_render_may_pass(struct invocation *inv, const struct procedure_state *s,
                               struct reply *out, const char *what);

/* "torch #2 (alice)" or "torch #2"; with cap, "Torch #2 (alice)". */
void procedure_render_light_name(const struct light *l, bool cap, char *buf, size_t len);

/* "40 min", "2 h", "2 h 20 min": the game time of turns. */
void procedure_render_time_text(int turns, char *buf, size_t len);

/* One line per event of r (prefixed "Turn N:" when several turns passed),
 * read with the channel's procedure and settings s. With hidden (Tension
 * behind the GM's screen) every encounter or sign event (turn_event_topic())
 * but a safe area's and a surprise's (which goes with its encounter's line)
 * is told in a line that reads the same whatever it was: what the
 * encounter table decided, a sign's creature met, an encounter or a sign
 * with neither. procedure_render_behind() tells the GM. When more than two
 * rest events (a reminder, a skipped rest) pass, all but the last are
 * working lines (reply_working), and a brief line before the last says
 * how many a renderer short of room left out, and how often the rest was
 * skipped: what matters (a light going out, the darkness, the rest due
 * now) then keeps its place on IRC. */
void procedure_render_report(struct reply *out, const struct turn_report *r,
                             const struct procedure_state *s, bool turn_prefix, bool hidden);
/* Whether r holds an event that hidden mode tells behind the screen. */
bool procedure_render_veils(const struct turn_report *r);
/* Those events as they are, each line opened "Behind the screen:". */
void procedure_render_behind(struct reply *out, const struct turn_report *r,
                             const struct procedure_state *s);

/* The sentence that says an encounter surprises the party, for why as
 * procedure_state_surprise() answers it (not TURN_NOT_SURPRISED), without
 * its full stop: "The party is walking, so it is surprised by this
 * encounter". */
void procedure_render_surprised(struct reply *out, int why);
/* When a resting party (resting, or s's last turn a rest) would be
 * surprised by its pace were it moving (delving, walking or running, a
 * source lit), the line that says the rest spares it: "The party is
 * resting, not walking, so it is not surprised by every encounter (total
 * darkness would still do that)." Writes nothing otherwise. */
void procedure_render_rest_pace(struct reply *out, const struct procedure_state *s, bool resting);

/* The D12 encounter check's roll and comparisons, the one form every
 * command writes them in: "d12 4 ≤ exits 3 and ≤ tension 5", "d12 4 ≤
 * tension 5" (only what triggered), "d12 9 > exits 3 and > tension 5". */
void procedure_render_d12_check(struct reply *out, const struct encounter_check *c);

/* Whether the party searches in dim light (the delving text: in dim light
 * like candlelight or lantern light, searching takes two turns): delving,
 * something lit, no torch among it. */
bool procedure_render_dim(const struct procedure_state *s);
/* When procedure_render_dim(), the line that says so. */
void procedure_render_dim_line(struct reply *out, const struct procedure_state *s);

/* How the party leaves the safe area it is in, a clause in style: on level
 * 0, which is the safe area itself, by the stair ("the party leaves it by
 * the stair, /turn level 1"); elsewhere the GM ends it ("the GM ends it
 * with /safe off"). */
void procedure_render_safe_exit(struct reply *out, unsigned style, const struct procedure_state *s);

/* The darkness line: nothing is lit, and what that means under procedure
 * proc (exploration: effectively blind; delving: -10, surprised, traps
 * sprung, no map). */
void procedure_render_darkness(struct reply *out, enum procedure proc);

/* The lines that close every turn: darkness when nothing is lit, and the
 * time in the dungeon with the turns since the last rest. */
/* The status footer; show_dark says whether it has the "Darkness:" line
 * (commands/dice/rollchan.h: rollchan_show_dark()). */
void procedure_render_footer(struct reply *out, const struct procedure_state *s, bool show_dark);

/* Shows a hazard table, its row hl highlighted (-1: none). */
/* The hazard table with row hl highlighted (-1: none); with only_hl, that
 * row alone (compact output). */
void procedure_render_hazard_table(struct reply *out, const struct hazard_view *v, int hl,
                                   bool only_hl);

/* The view of table t for this channel. Returns 0, or -1 with an error
 * reply when t is custom and the channel has none. */
int procedure_render_view(const struct procedure_state *s, enum hazard_table t,
                          struct hazard_view *v, struct reply *out);

#endif
