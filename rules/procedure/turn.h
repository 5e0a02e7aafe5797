/*
 * turn: the turn clock of a delve and the bookkeeping that follows each
 * turn (RULES.md section 2).
 *
 * A turn is 10 minutes. Each turn passes in one of three ways: with a
 * hazard roll (its result's effect is applied), as a rest, or unrolled (the
 * GM advancing time). turn_pass() does one turn and reports what happened,
 * in this order: first what the hazard result did (a torch sputters out, a
 * sign's creature is remembered, ...), then what time did (pending delving
 * Fatigue resolved, sources burning down or out, the rest clock).
 *
 * The rest clock: after 6 turns without a rest the party is reminded. In
 * exploration, a seventh turn without rest means each character makes a
 * CON save against FATIGUE_SAVE_DC (hazard.h; 1 Fatigue on a failure) and
 * the count starts again; in delving the reminder repeats every 6 turns (delving Fatigue comes from
 * the hazard die instead).
 *
 * A struct turn_clock is a plain value; every function here is pure.
 */
#ifndef DELVER_TURN_H
#define DELVER_TURN_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/procedure/hazard.h"
#include "rules/procedure/light.h"
#include "rules/tension/tension.h"

#define TURN_MINUTES     10
#define TURN_REST_DUE    6       /* turns without a rest before the reminder */
#define TURN_ADVANCE_MAX 144     /* turns one advance may pass: a day */
#define TURN_MAX         1000000 /* the counter stops here (about 19 years) */
#define TURN_EVENTS_MAX  64
#define TURN_SIGN_MAX    ROLL_TABLE_TEXT_MAX

/* The party's movement (the delving speeds): crawling detects traps and
 * maps; walking is surprised by every encounter and springs every trap;
 * running too, without a map, and blows candles out. */
enum turn_pace {
	PACE_CRAWLING = 0,
	PACE_WALKING,
	PACE_RUNNING,
	PACE_COUNT
};

/* What this turn's Light result left (turn_light_fails, turn_flicker);
 * saved as the fields "flagged", "flickered" and "flicker_ruled". */
enum turn_light_result {
	TURN_LIGHT_NONE = 0,  /* none this turn, or it is forgotten (turn_flag_clear) */
	TURN_LIGHT_FLAGGED,   /* it put out or dimmed a source: the GM may rule it a flicker */
	TURN_LIGHT_FLICKERED, /* it fell on a source lit just before, which only flickered */
	TURN_LIGHT_RULED,     /* the GM ruled it only a flicker */
};

struct turn_clock {
	int turn;                 /* turns passed since the expedition began */
	int since_rest;           /* turns since the last rest (or the start) */
	int rest_mark;            /* since_rest when the rest count last started again */
	bool fatigue_due;         /* delving Fatigue: damage unless the next turn is a rest */
	int fatigue_asked;        /* exploration: the last turn's Fatigue asked for a rest
	                             now: 1, for its CON save; 2, for the hourly rest's
	                             save too (the rest fell due); 0, none */
	bool sign_set;            /* a sign's creature is remembered as the next encounter */
	int sign_turn;            /* the turn its sign was met */
	char sign[TURN_SIGN_MAX]; /* that creature, "" until someone names it */
	struct lights lights;
	enum turn_light_result light_result; /* what this turn's Light result left */
	/* TURN_LIGHT_FLAGGED: the source before it sputtered; FLICKERED,
	 * RULED: the id of the source that only flickered, the rest zero */
	struct light light_was;
	enum turn_pace pace; /* how the party moves; running blows candles out */
};

enum turn_event_kind {
	/* what the hazard result did */
	TE_ENCOUNTER,        /* a wandering monster appears */
	TE_SIGN_MET,         /* the encounter is the remembered sign's creature */
	TE_ENCOUNTER_ROLLED, /* delving: the encounter table's creature (in sign, pick) */
	TE_ENCOUNTER_STRUCK, /* delving: the table's roll was struck: no encounter */
	TE_SAFE_AREA,        /* no encounter: this is a safe area */
	TE_SIGN_HINT,        /* exploration sign: a hint of danger */
	TE_SIGN_REMEMBERED,  /* delving sign: its creature is the next encounter */
	TE_SIGN_STRUCK,      /* delving sign: the table's roll was struck: no creature */
	TE_SIGN_SAFE,        /* delving sign in a safe area: none, as no monster comes */
	TE_FLAG_OUT,         /* Light: a torch or candle sputters out */
	TE_FLAG_LOW,         /* Light: a lantern's oil runs low (value: turns left) */
	TE_FLAG_FLICKER,     /* Light: the source was just lit: it only flickers */
	TE_FLAG_NONE,        /* Light: nothing is lit */
	TE_BURN_OUT,         /* Burn: a torch burns out */
	TE_BURN_NONE,        /* Burn: no torch is lit */
	TE_FATIGUE_CHOICE,   /* exploration Fatigue: rest now or CON save */
	TE_FATIGUE_RESTING,  /* exploration Fatigue on a rest turn: this rest is it */
	TE_FATIGUE_PENDING,  /* delving Fatigue: rest next turn or 1 damage each */
	TE_FATIGUE_IGNORED,  /* delving Fatigue on a rest turn */
	TE_SHIFT,            /* delving: the environment changes */
	TE_SURPRISED,        /* delving: the party is surprised by this encounter
	                        (value: its pace, or -1 for total darkness) */
	/* what time did */
	TE_FATIGUE_AVOIDED, /* the party rested after Fatigue (value: 0 delving;
	                       exploration, the saves it answered, as fatigue_asked) */
	TE_FATIGUE_DAMAGE,  /* it did not: 1 damage to each member */
	TE_LIGHT_WARN,      /* a source has one turn left */
	TE_LIGHT_OUT,       /* a source burned out */
	TE_CANDLE_BLOWN,    /* the party runs: a lit candle is blown out */
	TE_RESTED,          /* this turn was a rest */
	TE_REST_DUE,        /* value turns without a rest: the reminder */
	TE_REST_SKIPPED,    /* exploration: the due rest was skipped: CON save */
	TE_KIND_COUNT       /* the number of kinds, not a kind */
};

/* What an event is about: an encounter (the creature met, or that none
 * comes, and whether it surprises the party), the sign of one, or
 * something else (light, Fatigue, rest, time, the environment). Every
 * kind has its topic here. */
enum turn_topic {
	TURN_TOPIC_OTHER = 0,
	TURN_TOPIC_ENCOUNTER,
	TURN_TOPIC_SIGN,
};
enum turn_topic turn_event_topic(enum turn_event_kind k);

struct turn_event {
	enum turn_event_kind kind;
	int turn;           /* the turn it happened on */
	int value;          /* TE_SIGN_MET: the sign's turn; TE_REST_*: turns unrested;
	                       TE_FLAG_LOW: the lantern's turns left */
	struct light light; /* TE_FLAG_*, TE_BURN_OUT, TE_LIGHT_*: the source */
};

/* Whether an event is a routine reminder: a rest due, a rest taken, a
 * source with one turn left. A full report gives such an event's place to
 * any other (turn_report), so a light going out, an encounter or a
 * skipped rest's save is never the one lost. */
bool turn_event_routine(enum turn_event_kind k);

/* The events of one or more turns, in order, at most TURN_EVENTS_MAX. When
 * one more comes to a full report, a routine event (turn_event_routine)
 * is not kept, and any other takes the place of the oldest routine one
 * kept, the order of the rest unchanged; only a report whose every kept
 * event matters loses one that matters (counted in dropped_key). */
struct turn_report {
	size_t n;
	size_t dropped;     /* events not kept */
	size_t dropped_key; /* of those, events that are not routine */
	struct turn_event ev[TURN_EVENTS_MAX];
	/* TE_SIGN_MET, TE_SIGN_REMEMBERED, TE_ENCOUNTER_ROLLED: the creature, ""
	 * when unnamed */
	char sign[TURN_SIGN_MAX];
	/* TE_SIGN_REMEMBERED, TE_SIGN_STRUCK, TE_ENCOUNTER_ROLLED,
	 * TE_ENCOUNTER_STRUCK with a table: its roll, and the table's name
	 * (how->table, "" for Tension's) */
	struct tension_pick pick;
	char table[ROLL_TABLE_NAME_MAX];
	/* TE_SIGN_MET: the creature the hazard entry named (how->creature),
	 * which the sign's creature came instead of; "" when it named none */
	char passed[TURN_SIGN_MAX];
};

/* How one turn passes. */
struct turn_how {
	enum hazard_effect effect; /* the hazard result; HZ_NOTHING when unrolled */
	bool resting;              /* the party spends the turn resting */
	bool safe;                 /* in a safe area: no wandering monsters */
	int lantern_low;           /* a Light result leaves a lantern this many turns
	                              (1..LIGHT_LOW_MAX; 0: LIGHT_LOW_DEFAULT) */
	/* A delving Sign (and Encounter) rolls encounters for its creature
	 * (with rng): d10 + tension on a table over 1..20 when tension >= 1,
	 * else the table's own die (tension_pick); lookup finds the tables its
	 * entries name (may be NULL). With encounters NULL the GM names the
	 * creature (turn_sign_set). */
	const struct roll_table *encounters;
	int tension;
	const struct roll_table_lookup *lookup;
	struct rng *rng;
	/* encounters is the dungeon's own table (its name, for the report):
	 * every procedure's Encounter and Sign roll it, the exploration die's
	 * too (whose Sign then names the next encounter as delving's does). */
	bool own;
	const char *table;
	/* An Encounter entry of a custom die that names its own creature
	 * (hazard_entry_creature(), its dice rolled), or NULL: that creature
	 * is the encounter, and no table is rolled. One encounter per result:
	 * a remembered sign's creature comes instead (text 003: the next
	 * encounter rolled is that creature). */
	const char *creature;
};

/* "crawling", "walking", "running"; and back (-1: unknown). */
const char *turn_pace_name(enum turn_pace p);
int turn_pace_parse(const char *name);

/* Sets how the party moves. In delving (p), starting to run blows every
 * lit candle out at once: copies go to out (room for LIGHT_MAX) and the
 * count is returned; while it runs, each delving turn blows out any candle
 * lit since (TE_CANDLE_BLOWN). The exploration text's rushing blows none. In delving, an encounter
 * met while walking, running or in total darkness catches the party by surprise (TE_SURPRISED). A
 * turn of rest is not a turn of moving: it blows no candle out, and only
 * darkness surprises the party then. */
size_t turn_set_pace(struct turn_clock *c, enum turn_pace pace, enum procedure p,
                     struct light *out);

/* Whether an encounter met now catches the party by surprise (delving:
 * walking, running or total darkness): its pace, -1 for total darkness,
 * or TURN_NOT_SURPRISED. A party that rests (resting) is not moving, so
 * only darkness catches it. */
#define TURN_NOT_SURPRISED (-2)
int turn_surprise(const struct turn_clock *c, enum procedure p, bool resting);

/* Whether the turn passed last was a rest: the party is resting now, until
 * the next turn passes (a new expedition's turn 0 is none). Within
 * turn_pass() it still tells the turn before. */
bool turn_resting(const struct turn_clock *c);

/* A fresh expedition: turn 0, nothing lit, nothing remembered. */
void turn_clock_init(struct turn_clock *c);

/* Empties r (call before the first turn_pass of a report). */
void turn_report_init(struct turn_report *r);

/* Passes one turn as how says, in procedure p, adding to r. The counter
 * stops at TURN_MAX. */
void turn_pass(struct turn_clock *c, enum procedure p, const struct turn_how *how,
               struct turn_report *r);

/* Passes n unrolled, unrested turns (1..TURN_ADVANCE_MAX). */
void turn_advance(struct turn_clock *c, enum procedure p, int n, struct turn_report *r);

/* A Light result: the hazard die's Light, and a tension roll's dungeon
 * event "a non-magical light source fails" (text 001), which are the same
 * words with the same effect. The oldest lit source sputters
 * (light_flag_oldest(): a torch or candle goes out, a lantern's oil runs
 * low to low turns, LIGHT_LOW_DEFAULT when low is 0; one lit at most a
 * turn ago only flickers), reported in r as a TE_FLAG_* event of the
 * current turn. Until the next turn the GM may rule it a flicker
 * (turn_flicker). */
void turn_light_fails(struct turn_clock *c, enum procedure p, int low, struct turn_report *r);

/* The GM rules the last Light result only flickered. Returns what that
 * result had left: TURN_LIGHT_FLAGGED when it is ruled a flicker now (the
 * source is as it was, copied to *l); TURN_LIGHT_FLICKERED when it fell
 * on a source lit just before the turn, which therefore already only
 * flickered (copied to *l, unchanged); TURN_LIGHT_RULED when the GM
 * already ruled it a flicker (copied to *l, unchanged); TURN_LIGHT_NONE
 * when there is nothing to rule (no Light result this turn, or the lights
 * changed since). */
enum turn_light_result turn_flicker(struct turn_clock *c, struct light *l);

/* Forgets this turn's Light result (call on any change to the lights). */
void turn_flag_clear(struct turn_clock *c);

/* An encounter met outside a turn (a wandering check, a tension roll) is
 * the creature a Sign announced, when one is remembered: returns true with
 * its name (as named, "" when the GM never named it; out has
 * TURN_SIGN_MAX bytes) and the turn of its sign, and forgets it. Returns
 * false when none is remembered. */
bool turn_sign_meet(struct turn_clock *c, char *out, int *sign_turn);

/* Names the remembered sign's creature (remembering one now if none is),
 * cut to TURN_SIGN_MAX - 1 bytes on a character boundary; name "" forgets
 * it. */
void turn_sign_set(struct turn_clock *c, const char *name);

#endif
