/*
 * undo_hist: the steps of a channel's undo history (commands/core/undo.h),
 * packed, bounded, saved and loaded (the module slot CHANMOD_UNDO).
 *
 * A step holds who made the change (user key and name), the command as
 * typed (path and values), the key of the one behind the GM's screen when
 * it was made ("" when nobody was: the seat was empty and the maker was no
 * GM) and whether that one held the GM seat (UNDO_SEATED), whether it
 * rolled dice (UNDO_ROLLED), whether the GM made it behind the screen
 * (UNDO_SCREENED), whether Tension was open or hidden once it was made
 * (UNDO_OPEN, UNDO_SHUT), whether the channel read all of it
 * (UNDO_PUBLIC), and for each game module it changed a delta
 * (undo_delta.h) that rebuilds the module's earlier encoding, or "no
 * state before". Only a step made behind the screen may have changed no
 * module: it is kept so that its being there tells players nothing.
 *
 * Ownership: a history belongs to its channel record; a step returned by
 * undo_hist_step() points into it and stays valid until the history next
 * changes. undo_step_pack() returns a step the caller owns (freed by
 * undo_hist_push(), or with free()).
 */
#ifndef DELVER_UNDO_HIST_H
#define DELVER_UNDO_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/state.h"
#include "commands/core/undo.h"
#include "commands/core/undo_delta.h"

/* A step's flags. */
#define UNDO_ROLLED 0x01u /* its outcome came from dice the bot rolled */
/* The one behind the GM's screen then (UNDO_SCREEN) held the GM seat. */
#define UNDO_SEATED 0x02u
/* The GM made it behind the screen (invocation_screen marked it). */
#define UNDO_SCREENED 0x04u
/* Tension was open (UNDO_OPEN) or hidden (UNDO_SHUT) once it was made,
 * as it will be when /undo next finds it the newest step; neither in a
 * step saved before this was kept. */
#define UNDO_OPEN 0x08u
#define UNDO_SHUT 0x10u
/* Fully public: the channel read all there was of it when it was made
 * (not made behind the screen, no part for the invoker or the GM alone,
 * Tension and the tables untouched), so /undo names it to everyone
 * (undo_screen.h); never in a step saved before this was kept. */
#define UNDO_PUBLIC 0x20u

/* A step's texts. */
enum undo_text {
	UNDO_WHO,    /* the maker's user key */
	UNDO_NAME,   /* the maker's display name */
	UNDO_PATH,   /* the command path, "tension set" */
	UNDO_ARGS,   /* the values as typed, "8 # ambush" */
	UNDO_SCREEN, /* the user key of the one behind the GM's screen then, or "" */
	UNDO_TEXTS
};

/* The game modules a step may restore (in this order), and how a reply
 * names them. */
extern const enum chanmod_id undo_ids[UNDO_NMODS];
extern const char *const undo_labels[UNDO_NMODS];

struct undo_step;
struct undo_hist;

/* What a step is made of, before it is packed. */
struct undo_parts {
	const char *text[UNDO_TEXTS];
	uint8_t has;   /* bit m: module m changed */
	uint8_t none;  /* bit m: it had no state before */
	uint8_t whole; /* bit m: its delta holds the whole previous encoding */
	uint8_t flags; /* UNDO_ROLLED, UNDO_SEATED, UNDO_SCREENED, UNDO_OPEN, UNDO_SHUT,
	                  UNDO_PUBLIC */
	struct undo_delta d[UNDO_NMODS];
};

/* Packs parts into one new step of *size bytes (the caller's). */
struct undo_step *undo_step_pack(const struct undo_parts *in, size_t *size);
/* The step's text i. */
const char *undo_step_text(const struct undo_step *s, enum undo_text i);
uint8_t undo_step_flags(const struct undo_step *s);
/* Bit m: module m changed in the step. */
uint8_t undo_step_has(const struct undo_step *s);
/* Whether the step keeps a delta for module m (it changed m, which had a
 * state before). */
bool undo_step_has_delta(const struct undo_step *s, int m);
/* The step's deltas into d[] (those of modules with one; their operations
 * point into the step). */
void undo_step_deltas(const struct undo_step *s, struct undo_delta d[UNDO_NMODS]);

/* How many steps h holds; step i, 0 the oldest. */
size_t undo_hist_count(const struct undo_hist *h);
struct undo_step *undo_hist_step(const struct undo_hist *h, size_t i);
/* Adds s (size bytes, freed here) as the newest step, keeping the bounds. */
void undo_hist_push(struct undo_hist *h, struct undo_step *s, size_t size);
/* Removes the newest step. */
void undo_hist_pop(struct undo_hist *h);

#endif
