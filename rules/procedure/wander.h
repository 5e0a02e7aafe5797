/*
 * wander: wandering-monster checks and surprise (RULES.md section 5).
 *
 * One check, several procedures: corridor (1-in-6 on entering a corridor
 * leg; they appear at its far end), rest (1-in-6 per turn resting; they come
 * through one of the room's N exits, picked at random), classic (X-in-N per
 * turn), tension (the D12 encounter check of rules/tension/encounter.h, then d10 + Tension
 * on the encounter table) and retreat (the back-to-town check of RULES.md
 * section 4, per player: an Annoy roll against as many dice as the floor,
 * rolled once for all; each failure gives that player level + floor points
 * to build a wandering monster). Annoy dice are d6 and the highest die
 * counts; a tie is a success.
 *
 * Surprise: each character makes a WIS check, d20 + modifier against DC 12;
 * reaching 12 means not surprised.
 */
#ifndef DELVER_WANDER_H
#define DELVER_WANDER_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/tension/encounter.h"
#include "rules/tables/roll_table.h"
#include "rules/tension/tension.h"
#include "rules/procedure/odds.h"

struct rng;

#define WANDER_EXITS_MAX    20 /* exits of one room */
#define RETREAT_PLAYERS_MAX 10
#define RETREAT_LEVEL_MAX   20
#define RETREAT_BONUS_MAX   10 /* extra dice (class bonus, magic) */
#define RETREAT_FLOOR_MAX   20
#define RETREAT_DICE_MAX    (RETREAT_LEVEL_MAX + RETREAT_BONUS_MAX)
#define RETREAT_NAME_MAX    64
#define SURPRISE_DC         12
#define SURPRISE_MAX        20 /* characters (or monsters) in one check */

enum wander_proc {
	WANDER_CORRIDOR = 0,
	WANDER_REST,
	WANDER_CLASSIC,
	WANDER_TENSION,
	WANDER_RETREAT,
	WANDER_COUNT
};

/* "corridor", "rest", "classic", "tension", "retreat"; and back (-1). */
const char *wander_name(enum wander_proc w);
int wander_parse(const char *name);

struct wander_check {
	enum wander_proc proc;
	int sides;      /* the die rolled: 6, N or 12 */
	int roll;       /* its result */
	bool encounter; /* wandering monsters come */
	int exits;      /* rest, tension: the room's exits */
	int entry;      /* rest, on an encounter: the exit they come through (1..exits) */
	struct encounter_check d12; /* tension */
	struct tension_pick pick;   /* tension, when the d12 triggers: d10 + Tension */
};

void wander_corridor(struct rng *r, struct wander_check *out);
/* exits 1..WANDER_EXITS_MAX. */
void wander_rest(struct rng *r, int exits, struct wander_check *out);
void wander_classic(struct rng *r, struct odds chance, struct wander_check *out);
/* exits 0..WANDER_EXITS_MAX (0: a sealed room, where only Tension can
 * trigger), tension 1..10. When the check triggers, rolls
 * encounters with tension_pick (d10 + tension on a table over 1..20; lk
 * finds the tables its entries name, may be NULL); a struck entry means no
 * encounter after all: encounter is then false and pick.struck true. With
 * encounters NULL (the encounter is already known: a sign's creature) no
 * table is rolled. */
void wander_tension(struct rng *r, int exits, int tension, const struct roll_table *encounters,
                    const struct roll_table_lookup *lk, struct wander_check *out);

struct retreat_player {
	char name[RETREAT_NAME_MAX];
	int level; /* 1..RETREAT_LEVEL_MAX */
	int bonus; /* 0..RETREAT_BONUS_MAX extra dice */
};

/* The floor's Annoy dice: rolled once for every player (as /fungeon
 * retreat does). */
struct retreat_obstacle {
	int floor; /* the number of dice */
	int dice[RETREAT_FLOOR_MAX];
	int high;
};

struct wander_retreat_roll {
	int ndice; /* level + bonus */
	int dice[RETREAT_DICE_MAX];
	int high;
	bool failed; /* high < the obstacle's high */
	int points;  /* on a failure: level + floor points for a wandering monster */
};

/*
 * Parses players written "alice:2 bob:3+1" (name:level, +N extra dice),
 * separated by spaces or commas. Returns how many (1..RETREAT_PLAYERS_MAX),
 * or -1 with one sentence in err.
 */
int wander_retreat_parse(const char *text, struct retreat_player *p, char *err, size_t errlen);

/* Rolls the floor's dice (floor 1..RETREAT_FLOOR_MAX). */
void wander_retreat_obstacle_roll(struct rng *r, int floor, struct retreat_obstacle *out);
/* One player's Annoy roll against the obstacle. */
void wander_retreat_roll(struct rng *r, const struct retreat_obstacle *o,
                         const struct retreat_player *p, struct wander_retreat_roll *out);

struct surprise_check {
	int d20;
	int total; /* d20 + modifier */
	bool surprised;
};

/* n (1..SURPRISE_MAX) WIS checks, d20 + mod against SURPRISE_DC. */
void wander_surprise_roll(struct rng *r, int n, int mod, struct surprise_check *out);

#endif
