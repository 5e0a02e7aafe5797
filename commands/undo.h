/*
 * undo: /undo, and the channel's undo history (module slot CHANMOD_UNDO).
 *
 * The history keeps, in memory, the saved encodings of the channel's game
 * modules (Tension, Fungeon, the dungeon procedure) as the last command
 * left them (undo_before() makes them when missing). After a command that
 * touched the channel, undo_after() encodes the modules again and, when
 * any changed, records one step: who ran what, and the previous encoding
 * of each module it changed. A command that touches nothing encodes
 * nothing (every change is followed by channel_touch(), see state.h). /undo restores the newest
 * step's modules; only the one who made that change or the GM may.
 *
 * Bounded: a channel keeps its last UNDO_STEPS steps and at most
 * UNDO_BYTES bytes of previous encodings, oldest dropped first; a change
 * whose previous encodings alone pass UNDO_BYTES clears the history (older
 * steps could no longer be taken back in order). The history is saved with
 * the channel's record, so a restart keeps it.
 *
 * Not undoable (never recorded): rolls and /log, saved rolls (/save,
 * /saved), /settings, the GM seat (/gm), /help and /undo itself.
 *
 * Ownership: the history belongs to its channel record (channel_mod()); an
 * undo_snap is the caller's.
 */
#ifndef DELVER_UNDO_H
#define DELVER_UNDO_H

#include <stdbool.h>

#include "commands/registry.h"

#define UNDO_STEPS    10          /* changes a channel can take back */
#define UNDO_BYTES    (256 << 10) /* bytes of previous encodings a channel keeps */
#define UNDO_PATH_MAX 100         /* bytes of a step's command path, with the NUL */
#define UNDO_WHAT_MAX 160         /* bytes of a step's typed values, with the NUL */

/* The game modules a step may restore. */
#define UNDO_NMODS 3

struct undo_snap {
	bool active; /* the command may leave a step */
};

/* Before inv runs: marks whether it is undoable and makes sure the
 * history holds the modules' current encodings. */
void undo_before(struct invocation *inv, struct undo_snap *snap);
/* After inv ran: records the step when it changed a game module. */
void undo_after(struct invocation *inv, struct undo_snap *snap);

/* How many steps the channel's history holds (tests). */
size_t undo_depth(const struct channel *ch);

extern const struct command cmd_undo;
extern const struct chanmod undo_mod;

#endif
