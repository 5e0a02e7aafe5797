/*
 * conflict: the dice of Fungeon conflicts (RULES.md section 4), separate
 * from who the participants are.
 *
 * A roll is a list of dice groups; each group belongs to one participant
 * (a Fungeoneer, a trap, a monster) and is rolled by one player or by
 * nobody (player -1). conflict_roll() draws every die with rng_die() and
 * then places the Thwack-O dice: each player's Thwack-O die replaces one of
 * that player's regular dice, exactly one per player per roll, even when the
 * player rolls several groups (for a Fungeoneer and a trap at once): it is
 * the first die of the player's first group that has dice. It counts like
 * any die. Within a combat turn a player rolls one Thwack-O die in the
 * whole turn (struct cf_turn), in the first roll of the turn they take
 * part in.
 *
 * Resolution is separate from rolling, so tests give the dice directly:
 * conflict_annoy() (highest against highest, lower fails, equal succeeds),
 * conflict_pain() (ranks compared across all rolls, the single highest die
 * at a rank deals 1 damage; Ruling: a tie for highest deals none; a roll
 * that ran out counts 0), conflict_trigger() (one die + level each, the
 * highest total marked). conflict_narrator() names the player with the highest
 * Thwack-O value; Ruling: a tie is broken by re-rolling the tied Thwack-O
 * dice, as often as needed, every re-roll recorded so it can be shown.
 *
 * Pure: no I/O, no allocation, no globals; randomness only from the rng.
 */
#ifndef DELVER_CONFLICT_H
#define DELVER_CONFLICT_H

#include <stdbool.h>

struct rng;

/* Dice of one group: a Fungeoneer of the highest level with its whole
 * class bonus and the most magic it may carry, or a monster of the highest
 * level with an ability's most dice. */
#define CF_DICE_MAX    160
#define CF_GROUPS_MAX  16 /* groups of one roll */
#define CF_PLAYERS_MAX 8  /* players of one roll (a party) */
#define CF_ROUNDS_MAX  32 /* tie re-roll rounds before falling back to order */
#define CF_PARTS_MAX   13 /* participants of one Painful conflict */

struct cf_group {
	int player; /* who rolls it: 0..CF_PLAYERS_MAX-1, or -1 for nobody */
	int n;      /* dice, 0..CF_DICE_MAX */
	int v[CF_DICE_MAX];
	int thwacko; /* index in v of the player's Thwack-O die, or -1 */
};

struct cf_roll {
	int ng;
	struct cf_group g[CF_GROUPS_MAX];
};

/* Marks each player's Thwack-O die: the first die of the first group of
 * that player with at least one die; every other group gets -1. */
void conflict_place_thwacko(struct cf_roll *r);

/* Rolls every die of every group (group order, die order) as a die of
 * `sides` faces, then places the Thwack-O dice. */
void conflict_roll(struct rng *rng, struct cf_roll *r, int sides);

/* The highest die of g, or 0 when it has none. */
int conflict_highest(const struct cf_group *g);

/* Sorts g high to low; the Thwack-O mark stays on a die of its value. */
void conflict_sort(struct cf_group *g);

struct cf_narration {
	int value[CF_PLAYERS_MAX]; /* each player's Thwack-O value, 0 when absent */
	int nrounds;               /* tie re-roll rounds (0: no tie) */
	/* round[k][p]: player p's re-rolled Thwack-O in round k, 0 when p did
	 * not re-roll in that round */
	int round[CF_ROUNDS_MAX][CF_PLAYERS_MAX];
	int winner; /* the player who narrates, or -1 when no player rolled */
};

/* Finds who narrates: the highest Thwack-O value; the tied re-roll (one die
 * of `sides` faces each) until one is highest. After CF_ROUNDS_MAX tied
 * rounds the first tied player narrates (vanishingly rare). */
void conflict_narrator(struct rng *rng, const struct cf_roll *r, int sides,
                       struct cf_narration *out);

/* An order of n (<= CF_PLAYERS_MAX) values high to low, ties broken by
 * re-rolling the tied: only a tied group that reaches into the first
 * `upto` places is re-rolled (every such group in the same round), since
 * the order past them decides nothing; the others keep their order. */
struct cf_ranking {
	int n;
	int order[CF_PLAYERS_MAX]; /* indices, best first */
	int nrounds;
	int round[CF_ROUNDS_MAX][CF_PLAYERS_MAX]; /* as in cf_narration */
	/* group[k][p]: which tied group p re-rolled with in round k, 1 for
	 * the best placed group, 2 for the next..., 0 when p did not re-roll */
	int group[CF_ROUNDS_MAX][CF_PLAYERS_MAX];
	int value[CF_PLAYERS_MAX]; /* the values ranked */
};
void conflict_rank(struct rng *rng, const int *values, int n, int upto, int sides,
                   struct cf_ranking *out);

/*
 * The Thwack-O dice of one combat turn (text 000, lines 246-252 and 271:
 * "Only roll one Thwack-O Die, even if you are making multiple Rolls this
 * turn"): each player rolls one Thwack-O die in the whole turn, in the
 * first roll of the turn they take part in; their later rolls of the turn
 * hold regular dice only. The turn's narrator is the highest Thwack-O of
 * the turn. A zeroed cf_turn is a turn in which nobody rolled one yet.
 */
struct cf_turn {
	int value[CF_PLAYERS_MAX]; /* the Thwack-O player p rolled this turn, 0 while none */
};

/* Takes the Thwack-O dice of r (as conflict_roll() placed them) into turn
 * t: a player who rolled theirs earlier in the turn keeps a regular die in
 * r (the mark is taken off), a player's first is recorded in t. Returns
 * how many players rolled their Thwack-O die in r. */
int conflict_turn_take(struct cf_turn *t, struct cf_roll *r);

/* Who narrates so far in turn t: the player with the highest Thwack-O,
 * the first of the party among equals, or -1 when nobody rolled one;
 * *tied receives how many share that value. Rolls nothing. */
int conflict_turn_leader(const struct cf_turn *t, int *tied);

/* The turn's narrator: the highest Thwack-O of t, a tie re-rolled as
 * conflict_narrator() does; out->winner is -1 when nobody rolled one. */
void conflict_turn_narrator(struct rng *rng, const struct cf_turn *t, int sides,
                            struct cf_narration *out);

/* A roll of turn t (or alone, t NULL): conflict_roll(), then its Thwack-O
 * dice taken into t (conflict_turn_take()). */
void conflict_roll_turn(struct rng *rng, struct cf_roll *r, int sides, struct cf_turn *t);

/* The narrator of a roll of turn t: none (out->winner -1, nothing rolled),
 * since the turn names its own once it is over; alone (t NULL), the roll's
 * own (conflict_narrator()). */
void conflict_narrator_turn(struct rng *rng, const struct cf_roll *r, int sides,
                            const struct cf_turn *t, struct cf_narration *out);

/* Annoying conflict: group `obstacle` against every other group. */
struct cf_annoy {
	int obstacle_best;
	int best[CF_GROUPS_MAX];   /* each group's highest */
	bool fails[CF_GROUPS_MAX]; /* lower than the obstacle's highest */
};
void conflict_annoy(const struct cf_roll *r, int obstacle, struct cf_annoy *out);

/* Several Fungeoneers triggering one trap: group i (one die) + bonus[i];
 * avoids[i] marks the highest total, every one tied for it (the caller
 * breaks such a tie: conflict_rank()). */
struct cf_trigger {
	int total[CF_GROUPS_MAX];
	bool avoids[CF_GROUPS_MAX];
};
void conflict_trigger(const struct cf_roll *r, const int *bonus, struct cf_trigger *out);

/* One participant of a Painful conflict. */
struct cf_pain_part {
	const struct cf_group *g; /* sorted high to low (conflict_sort) */
	int side;                 /* by default a rank's point goes to the other side */
	int hits;                 /* current hits; -1: never takes damage (a trap) */
	int target;               /* participant it hits when it wins a rank, or -1 */
	bool held;                /* it may not act: a rank it wins deals no damage */
};

struct cf_pain_rank {
	int value[CF_PARTS_MAX];   /* 0 where that roll has run out or its roller fell */
	bool fallen[CF_PARTS_MAX]; /* at 0 hits before this rank: its die is gone */
	int winner;                /* the single highest, or -1 for a tie */
	int target;                /* who takes the point, or -1 (tie, held, or no one can) */
	bool held;                 /* the winner is held and deals nothing */
};

struct cf_pain {
	int n;      /* participants */
	int nranks; /* the longest roll */
	struct cf_pain_rank rank[CF_DICE_MAX];
	int dealt[CF_PARTS_MAX]; /* damage points each dealt */
	int taken[CF_PARTS_MAX];
	int hits[CF_PARTS_MAX]; /* hits after the conflict (-1 for no hits) */
};

/*
 * Resolves a Painful conflict over dice already rolled. Ranks are taken in
 * order; at each the single highest die deals 1 point to one other
 * participant that can still take damage: its chosen target when it has one
 * that can (of either side: the text lets a winner hurt any other
 * Fungeoneer or monster), else the participant of another side with the
 * lowest die at that rank (the first listed among equals); a held winner
 * may not act and deals none (its dice still take the rank). Death comes
 * at the rank that takes a participant to 0 hits (Ruling): from the next
 * rank on it is no target, and its dice count 0, as a roll that ran out
 * does, so it wins and deals nothing more. Returns 0, or -1 when n is
 * outside 1..CF_PARTS_MAX.
 */
int conflict_pain(const struct cf_pain_part *p, int n, struct cf_pain *out);

#endif
