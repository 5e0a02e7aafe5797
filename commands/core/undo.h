/*
 * undo: /undo, and the channel's undo history (module slot CHANMOD_UNDO).
 *
 * The history keeps no copy of the modules' current encodings. Before an
 * undoable command, undo_before() takes the texts of the channel's game
 * modules (Tension, Fungeon, the dungeon procedure, the tables) into the
 * caller's undo_snap: those the channel keeps (channel_kept_text(), left by the
 * command before), else fresh encodings (chanmod_write()); after a command
 * that touched the channel, undo_after() encodes them again, leaves those
 * texts with the channel (for its record and the next command) and, when
 * any changed, records one step: who ran what, and for
 * each module it changed a delta (undo_delta.h) that rebuilds the earlier
 * encoding from the one the step left, or "no state before". A command that
 * touches nothing records nothing (every change is followed by
 * channel_touch(), see state.h). /undo encodes the modules as they are now
 * and rebuilds the newest step's earlier encodings from them; the next
 * /undo rebuilds from those. Only the one who made that change or the GM
 * may undo it, except that rolls stand: a step during which the command
 * drew from the dice (the RNG; no command marks it) is undone only by the
 * GM who held the seat when it was made and holds it still, and by nobody
 * when the seat was empty then. A step made
 * behind the GM's screen (undo_screen.h) is told of and undone only by the
 * GM behind whose screen it was made. A delta refuses an encoding other than the one it was made
 * against, so a state changed outside the history is never patched wrongly.
 *
 * Bounded: a channel keeps its last UNDO_STEPS steps and at most
 * UNDO_BYTES bytes of deltas, oldest dropped first; a change whose deltas
 * alone pass UNDO_BYTES clears the history (older steps could no longer be
 * taken back in order). The history is saved with the channel's record
 * ("deltas"; version-2 records' whole encodings, "mods", are turned into
 * deltas on loading, bot/store/store_record.c), so a restart keeps it.
 *
 * Not undoable (never recorded): rolls and /log, saved rolls (/save,
 * /saved), /settings, the GM seat (/gm), /help and /undo itself. A command
 * marked read_only (registry.h) is not encoded before it runs at all.
 *
 * The steps themselves are kept by undo_hist.h.
 *
 * Ownership: the history belongs to its channel record (channel_mod()); an
 * undo_snap is the caller's.
 */
#ifndef DELVER_UNDO_H
#define DELVER_UNDO_H

#include <stdbool.h>
#include <stdint.h>

#include "commands/core/registry.h"

#define UNDO_STEPS    10          /* changes a channel can take back */
#define UNDO_BYTES    (256 << 10) /* bytes of deltas a channel keeps */
#define UNDO_PATH_MAX 100         /* bytes of a step's command path, with the NUL */
#define UNDO_WHAT_MAX 160         /* bytes of a step's typed values, with the NUL */

/* The game modules a step may restore. */
#define UNDO_NMODS 4

struct undo_snap {
	bool active;              /* the command may leave a step */
	uint64_t draws;           /* rng_draws() before it ran */
	char *before[UNDO_NMODS]; /* the modules' encodings before it (owned), NULL: none */
	size_t before_len[UNDO_NMODS];
};

/* Before inv runs: marks whether it is undoable and, when it is, encodes
 * the modules into snap. */
void undo_before(struct invocation *inv, struct undo_snap *snap);
/* After inv ran, answered with out: records the step when it changed a
 * game module, or when the GM ran it behind the screen (inv->screened,
 * while Tension is hidden) whatever it changed, marked public when the
 * channel read all of it (undo_hist.h's UNDO_PUBLIC), and frees what snap
 * holds (call it after every undo_before()). */
void undo_after(struct invocation *inv, struct undo_snap *snap, const struct reply *out);

/* How many steps the channel's history holds (tests). */
size_t undo_depth(const struct channel *ch);

extern const struct command cmd_undo;
extern const struct chanmod undo_mod;

#endif
