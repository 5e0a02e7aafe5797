/*
 * light: the party's light sources and how long they last (RULES.md
 * section 2).
 *
 * exploration: a torch lasts 6 turns, a lantern 36 (one flask), a candle 6.
 * delving: torches last until a Burn result; candles and lanterns last the
 * expedition, 8 hours (48 turns). Every lit source burns one turn per turn
 * passed. A source keeps the turns it has burned, not the turns it has
 * left, so a change of procedure changes every source's life at once.
 *
 * Sources are kept in the order they were lit (oldest first) and named by a
 * small id that stays the same while the source burns; ids start again at
 * 1 once no source is lit. A struct lights is a plain value.
 */
#ifndef DELVER_LIGHT_H
#define DELVER_LIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/procedure/hazard.h"

#define LIGHT_MAX         20 /* lit sources per channel */
#define LIGHT_WHO_MAX     64 /* who carries it, with the NUL */
#define LIGHT_EXPEDITION  48 /* delving: 8 hours of 10-minute turns */
#define LIGHT_LOW_DEFAULT 6  /* turns of oil a Light result leaves a lantern: an hour */
#define LIGHT_LOW_MAX     LIGHT_EXPEDITION

enum light_kind {
	LIGHT_TORCH = 0,
	LIGHT_LANTERN,
	LIGHT_CANDLE,
	LIGHT_KIND_COUNT
};

struct light {
	int id;
	enum light_kind kind;
	int burned;              /* turns it has burned */
	char who[LIGHT_WHO_MAX]; /* "" when nobody was named */
};

struct lights {
	size_t n;
	int next_id;
	struct light l[LIGHT_MAX]; /* by id: oldest first */
};

/* A source that burned down this turn: out, or one turn from going out. */
struct light_change {
	struct light light;
	bool out;
};

/* "torch", "lantern", "candle"; and back from a name or its plural (-1:
 * unknown). */
const char *light_kind_name(enum light_kind k);
int light_kind_parse(const char *name);

/* Turns a fresh source of kind k lasts in procedure p; 0 means until a
 * Burn result (a torch when delving). */
int light_life(enum light_kind k, enum procedure p);
/* Turns a source has left, or -1 when it lasts until a Burn. */
int light_left(const struct light *l, enum procedure p);

/* Lights count sources of kind k carried by who (may be NULL). Returns 0,
 * or -1 with one sentence in err when they would pass LIGHT_MAX. */
int light_add(struct lights *ls, enum light_kind k, int count, const char *who, char *err,
              size_t errlen);

/*
 * Selects sources by which: an id ("2" or "#2"), a kind ("torch" or
 * "torches": every lit one) or "all". Writes their indexes to idx (room for
 * LIGHT_MAX) and returns how many, or -1 with one sentence in err.
 */
int light_select(const struct lights *ls, const char *which, size_t *idx, char *err, size_t errlen);

/* Removes the source at index i. */
void light_remove(struct lights *ls, size_t i);
/* Puts a source back where its id belongs (the GM ruled it only
 * flickered); it gets a new id when its own was given to another. Returns
 * its index, or -1 when LIGHT_MAX sources are lit. */
int light_restore(struct lights *ls, const struct light *l);

/*
 * Burns every lit source one turn in procedure p. Sources that reach their
 * life go out (they are removed); those left with one turn are warned
 * about. Writes the changes to ch (room for LIGHT_MAX), returns how many.
 */
size_t light_burn(struct lights *ls, enum procedure p, struct light_change *ch);

/* Puts out every source whose life in procedure p is spent already (a
 * change of procedure can leave a source past its life: a candle lit for
 * 8 turns of delving lasts 6 in exploration). Writes copies of them to out
 * (room for LIGHT_MAX), returns how many. */
size_t light_spent(struct lights *ls, enum procedure p, struct light *out);

/* Puts out every lit torch (a Burn). Writes copies of them to out (room
 * for LIGHT_MAX), returns how many. */
size_t light_burn_torches(struct lights *ls, struct light *out);

/* Running blows every lit candle out. Writes copies of them to out (room
 * for LIGHT_MAX), returns how many. */
size_t light_blow_candles(struct lights *ls, struct light *out);

/* What a Light result did to the oldest lit source. */
enum light_flag {
	LIGHT_FLAG_NONE = 0, /* nothing is lit */
	LIGHT_FLAG_OUT,      /* a torch or candle sputtered out (removed) */
	LIGHT_FLAG_LOW,      /* a lantern's oil ran low */
	LIGHT_FLAG_FLICKER,  /* it was just lit: it only flickers, unchanged */
};

/*
 * A Light result: the oldest lit source sputters. One lit just before this
 * turn (burned at most 1 turn, as time passes before the result) only
 * flickers. Otherwise a torch or candle goes out, and a lantern's oil runs
 * low: it is left at most low turns (1..LIGHT_LOW_MAX; a lantern with
 * less keeps what it has). Copies the source as it was before to *before.
 */
enum light_flag light_flag_oldest(struct lights *ls, enum procedure p, int low,
                                  struct light *before);

#endif
