/*
 * fungeon_play: the outcomes of Fungeon's conflicts (RULES.md section 4), decided
 * here and only rendered by the commands.
 *
 * Each play is one pure function that takes the party (read-only), what it
 * faces and the rng, and returns an outcome: the dice as rolled, who failed
 * or was caught, the damage, deaths, XP and continuous effects it brings,
 * and who narrates. Nothing changes until the caller applies the outcome
 * with the matching _apply() function, which changes the party exactly as
 * the outcome says and nothing else; the state a play names outside the
 * party (a monster's hits, a trap sprung) is in the outcome for the caller
 * to store.
 *
 *   fungeon_play_annoy():   an Annoying conflict: an obstacle's Annoy dice
 *                     against each resisting Fungeoneer's (lower fails);
 *   fungeon_play_pain():    a Painful conflict by ranks;
 *   fungeon_play_retreat(): the back-to-town check before a room: an Annoy roll
 *                     against as many dice as the floor; each failure gives
 *                     its player one wandering monster of Level + floor
 *                     points (never pooled, at least the floor).
 *
 * The rng is drawn in a fixed order (every die of the roll in group order,
 * then the Thwack-O tie re-rolls), so a seeded rng gives exact outcomes.
 * A play within a combat turn is given the turn (struct cf_turn): its roll
 * holds the Thwack-O dice of the players who had none in the turn yet
 * (conflict_turn_take()), and it names no narrator of its own (nar.winner
 * is -1, no tie re-rolled): the turn's narrator is found once the turn is
 * over. Given NULL, a play is its own occasion: every player's Thwack-O in
 * its roll, and its own narrator.
 * Pure: no I/O, no globals, no allocation; randomness only from the rng.
 */
#ifndef DELVER_FUNGEON_PLAY_H
#define DELVER_FUNGEON_PLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/fungeon/conflict.h"
#include "rules/fungeon/fungeon.h"

struct rng;

/* An obstacle Fungeoneers resist: a trap, a monster's ability, the floor. */
struct fungeon_play_obstacle {
	char label[FUNGEON_SOURCE_MAX]; /* "pit", "wasp/sting", "floor 2" */
	int annoy, pain;                /* its dice (monster abilities: level included) */
	char type[FUNGEON_TYPE_MAX + 1];
	bool universal;                /* no class bonus, no magic, on Annoy and Pain */
	bool no_magic;                 /* not a trap or monster (the floor): magic adds nothing */
	bool hold, continuous;         /* what a failure brings */
	enum fungeon_effect_from from; /* a trap or a monster's ability */
	int64_t xp;                    /* XP for each success against it (a trap: its cost) */
	int roller;                    /* the member whose player rolls it, or -1 */
	char maker[FUNGEON_KEY_MAX];   /* its maker's user key, kept by the effects it starts */
};

/* An Annoying conflict's outcome. Groups 0..n-1 of roll are the members'
 * in the order given, group n the obstacle's. */
struct fungeon_play_annoy {
	int n;
	int member[FUNGEON_PARTY_MAX];
	struct cf_roll roll;
	struct cf_annoy res;
	bool fails[FUNGEON_PARTY_MAX];
	int64_t xp[FUNGEON_PARTY_MAX];  /* XP each member earns */
	bool capped[FUNGEON_PARTY_MAX]; /* applying it reached FUNGEON_XP_MAX */
	bool effect[FUNGEON_PARTY_MAX]; /* the obstacle's continuous effects start on it */
	/* applying them found it carrying FUNGEON_EFFECTS_MAX others: one of
	 * them was not started (the rolls count all the same) */
	bool full[FUNGEON_PARTY_MAX];
	int neff;                     /* 0..2: a hold and/or continuous damage */
	struct fungeon_effect eff[2]; /* those effects */
	struct cf_narration nar;
};

/* The dice member m rolls against o: level, + class bonus when `bonus`
 * (the class fits) and o is not universal, + matching magic Annoy dice
 * unless o is universal or no trap or monster (magic Annoy dice count
 * "when facing a Trap or Monster", the text's line 228). */
int fungeon_play_annoy_dice(const struct fungeon_member *m, bool bonus,
                            const struct fungeon_play_obstacle *o);

/*
 * Rolls o with `dice` Annoy dice against members[0..n) of party m; bonus[i]
 * says whether members[i]'s class fits; turn: the combat turn it is part
 * of, or NULL. Returns 0, or -1 with one sentence
 * in err (nothing rolled) when dice is outside 1..CF_DICE_MAX, a member
 * would roll more, n is outside 1..FUNGEON_PARTY_MAX, or a member is dead.
 */
int fungeon_play_annoy(struct rng *rng, const struct fungeon_member *m, const int *members, int n,
                       const bool *bonus, const struct fungeon_play_obstacle *o, int dice,
                       struct cf_turn *turn, struct fungeon_play_annoy *out, char *err,
                       size_t errlen);
/* Adds each member's XP and starts the effects the outcome names; marks
 * in a->capped whose XP reached FUNGEON_XP_MAX. */
void fungeon_play_annoy_apply(struct fungeon_member *m, struct fungeon_play_annoy *a);

/* One participant of a Painful conflict. */
struct fungeon_play_part {
	int member;    /* >= 0: that Fungeoneer of the party; -1: an obstacle */
	int dice;      /* an obstacle's Pain dice (ignored for members) */
	int hits;      /* an obstacle's hits left, -1 when it never takes damage */
	int64_t worth; /* XP each point of damage dealt to it earns (a monster's cost) */
	int player;    /* who rolls an obstacle: a member index, or -1 */
	int target;    /* the participant it hits when it wins a rank, or -1 */
	bool bonus;    /* a member's class fits */
	bool held;     /* a member held this turn: it rolls, but a rank it wins deals nothing */
};

/* The Pain dice member f rolls as participant p against damage of `type`
 * (universal or not): level, + class bonus (p->bonus) and matching magic
 * Pain dice unless the damage is universal, less `resist` Resist dice
 * taken from those added dice; *resisted says how many were taken away. */
int fungeon_play_member_dice(const struct fungeon_member *f, const struct fungeon_play_part *p,
                             const char *type, bool universal, int resist, int *resisted);

/* A Painful conflict's outcome; group i of roll is participant i's dice,
 * sorted high to low. */
struct fungeon_play_pain {
	int n;
	struct cf_roll roll;
	struct cf_pain res;
	int64_t xp[CF_PARTS_MAX];    /* XP each member participant earns */
	bool capped[CF_PARTS_MAX];   /* applying it reached FUNGEON_XP_MAX */
	int resisted[CF_PARTS_MAX];  /* a member's dice taken away by Resist dice */
	int hits[CF_PARTS_MAX];      /* hits after (-1: takes no damage) */
	bool died[CF_PARTS_MAX];     /* a member who dies of it */
	bool defeated[CF_PARTS_MAX]; /* an obstacle with hits brought to 0 */
	struct cf_narration nar;
};

/*
 * Rolls a Painful conflict among p[0..n) (members first). Members roll
 * level, + class bonus and matching magic Pain dice unless the damage they
 * face is universal; `type` is the damage type they face. Resist dice:
 * `resist` of those added dice (the most Resist dice an opponent has
 * against `type`) are taken away from each member; they never add dice to
 * anyone. A monster's attacks deal universal damage, so against them a
 * member rolls its level alone. A held member may not act: it rolls its dice (making a roll it
 * is forced to is no action), but a rank it wins deals no damage. Each
 * rank's winner hurts its target
 * when that one can take damage (any other participant, of either side),
 * else the participant of the other side with the lowest die there. A
 * member earns the worth of the participant it deals each point to.
 * turn: the combat turn it is part of, or NULL. Returns 0, or -1 with one sentence in err (nothing
 * rolled) when n is outside 2..CF_PARTS_MAX, a member is dead or anyone would roll more than
 * CF_DICE_MAX dice.
 */
int fungeon_play_pain(struct rng *rng, const struct fungeon_member *m,
                      const struct fungeon_play_part *p, int n, const char *type, bool universal,
                      int resist, struct cf_turn *turn, struct fungeon_play_pain *out, char *err,
                      size_t errlen);
/* Applies the members' damage, deaths and XP (marking in o->capped whose
 * XP reached FUNGEON_XP_MAX). */
void fungeon_play_pain_apply(struct fungeon_member *m, const struct fungeon_play_part *p,
                             struct fungeon_play_pain *o);

/* The back-to-town check before one room. */
struct fungeon_play_retreat {
	int floor;
	struct fungeon_play_annoy annoy;
	int64_t wander[FUNGEON_PARTY_MAX]; /* points of the ONE monster each failure builds */
};

/* The floor's obstacle on the way back: floor Annoy dice, rolled by
 * nobody, no magic against it. */
void fungeon_play_floor_obstacle(int floor, struct fungeon_play_obstacle *o);

int fungeon_play_retreat(struct rng *rng, const struct fungeon_member *m, const int *members, int n,
                         const bool *bonus, int floor, struct fungeon_play_retreat *out, char *err,
                         size_t errlen);
/* Gives each failing player one wandering monster of its points (kept
 * apart from any earlier one: see fg_member.wander). */
void fungeon_play_retreat_apply(struct fungeon_member *m, struct fungeon_play_retreat *r);

#endif
