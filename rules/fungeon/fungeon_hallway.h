/*
 * fungeon_hallway: the Fungeon hallway between rooms and the rolls it is made of
 * (the rule text's "Playing Fungeon"), in this order:
 *   1. a player whose Fungeoneer died makes a new one at level floor - 1
 *      (minimum 1): the bot reports the replacements due and those made,
 *      each joining at this hallway's floor - 1 (one made on a floor
 *      before the party went deeper is raised to it);
 *   2. the XP level-up check (several levels at once);
 *   3. continuous-damage rolls for those suffering it, from a trap or a
 *      monster (holds end with the fight, so the hallway lifts them); a
 *      successful Annoy roll ends it, and earns XP when a trap caused it;
 *   4. every player whose Fungeoneer is alive rolls one die for the
 *      categories; the highest picks first among Traps, Monsters and
 *      Treasure, ties re-rolled; with fewer players than categories the
 *      choosing goes round again, with more someone gets none. A player
 *      whose Fungeoneer died in step 3 is out until the next hallway.
 * If Party Min rose during the hallway, the Traps player must place a
 * downward stair. Ruling: it rose when the Party Min the room's budgets are
 * counted at passes the one the room before was counted at (or, with no
 * room before, the party's as the hallway began), so a rise between two
 * hallways (a player leaving, the lowest dying without a replacement)
 * brings the stair too.
 *
 * fungeon_hallway() mutates the party and reports each step, in order, to a
 * callback (which renders it; tests record the order). Pure apart from the
 * callback: randomness from the rng only.
 */
#ifndef DELVER_FUNGEON_HALLWAY_H
#define DELVER_FUNGEON_HALLWAY_H

#include "rules/fungeon/conflict.h"
#include "rules/fungeon/fungeon.h"

enum fungeon_category {
	FUNGEON_CAT_TRAPS = 0,
	FUNGEON_CAT_MONSTERS,
	FUNGEON_CAT_TREASURE,
	FUNGEON_CAT_COUNT
};

const char *fungeon_hallway_category_name(enum fungeon_category c);

/* One roll of a continuous effect: the effect's Annoy dice against the
 * Fungeoneer's; a success ends it (and earns the effect's XP); a failure
 * of a hold loses the turn, of continuous damage takes the Pain roll (the
 * effect deals damage but never takes any). */
struct fungeon_cont {
	int member;
	struct fungeon_effect effect; /* as rolled */
	bool hold;                    /* continuous damage rolled for its source's hold too */
	bool bonus;                   /* the class bonus counted (the class fits its type) */
	struct cf_roll annoy;         /* group 0: the Fungeoneer, 1: the effect (its maker's) */
	struct cf_narration annoy_nar;
	struct cf_annoy annoy_res;
	bool success;
	int64_t xp; /* earned by the success */
	bool xp_capped;
	bool pained;
	struct cf_roll pain; /* as annoy, each group sorted high to low */
	struct cf_pain pain_res;
	struct cf_narration pain_nar;
	int hits_before, hits_after;
	bool died;
};

/*
 * Rolls effect ei of party member mi; roller is the member whose player
 * rolls for the effect (its maker), or -1. The class bonus counts, in the
 * Annoy roll and the Pain roll alike, when the class fits the effect's
 * type and it is not universal: a trap's re-roll is its Annoy roll again
 * (text 000, line 125), which counts the class bonus when triggered (line
 * 260), and a monster ability's is an Annoying conflict against the
 * ability. Magic counts as it does when triggered: of the effect's type,
 * not against universal damage. Removes the effect
 * on a success and adds its XP; applies the damage of a failure. Dice
 * counts are bounded by construction (designs and carried magic are
 * limited so that no roll passes CF_DICE_MAX).
 *
 * One Annoy roll a source: continuous damage rolled while mi also suffers
 * a hold from the same ability is that hold's roll too (out->hold): a
 * success ends both, a failure holds mi and brings the Pain roll. A hold
 * alone is rolled by itself. Pointers to mi's effects are stale after.
 * turn: the combat turn whose first step it is (fungeon_play.h), or NULL
 * in the hallway.
 */
void fungeon_hallway_cont_roll(struct rng *rng, struct fungeon_member *party, int mi, int ei,
                               int roller, struct cf_turn *turn, struct fungeon_cont *out);

/* The category draw: group i is member[i]'s single die, their Thwack-O;
 * order lists the members best first (the ties among the first three
 * places re-rolled, rank.round by group; the others keep party order). */
struct fungeon_draw {
	int n;
	int member[FUNGEON_PARTY_MAX];
	struct cf_roll roll;
	struct cf_ranking rank;
	int order[FUNGEON_PARTY_MAX];
};

/* Members[0..n) each roll one die (n <= FUNGEON_PARTY_MAX). */
void fungeon_hallway_draw(struct rng *rng, const int *members, int n, struct fungeon_draw *out);

/* Entering the dungeon when the players don't agree on it: each of the
 * members rolls one die (their Thwack-O) and the highest describes the
 * entrance, a tie for the highest re-rolled (order[0] describes; the
 * places below it are not re-rolled). */
void fungeon_hallway_entrance(struct rng *rng, const int *members, int n, struct fungeon_draw *out);

enum fungeon_hall_kind {
	FUNGEON_HALL_DUE,       /* step 1: member died; a new one is due at `level` */
	FUNGEON_HALL_FRESH,     /* step 1: member is a replacement made since the last hallway */
	FUNGEON_HALL_LEVELUP,   /* step 2: `up` */
	FUNGEON_HALL_HOLD_ENDS, /* step 3: a hold on member lifted (`effect`) */
	FUNGEON_HALL_CONT,      /* step 3: `cont` */
	FUNGEON_HALL_OUT,       /* step 4: member died in step 3 and draws no category */
	FUNGEON_HALL_DRAW,      /* step 4: `draw` */
	FUNGEON_HALL_NOBODY,    /* step 4: no Fungeoneer is alive to draw */
};

struct fungeon_hall_event {
	enum fungeon_hall_kind kind;
	int member;
	int level;
	int was; /* FUNGEON_HALL_FRESH: the level it was made at, when not level */
	const struct fungeon_levelup *up;
	const struct fungeon_effect *effect;
	const struct fungeon_cont *cont;
	const struct fungeon_draw *draw;
};

/* What a hallway decided for the room after it. */
struct fungeon_hallway_out {
	struct fungeon_party before;  /* the party as the hallway found it */
	int min_from;                 /* the Party Min a rise is counted from */
	struct fungeon_party counted; /* after steps 1 and 2: the room's budgets count it */
	struct fungeon_budgets budgets;
	bool rose; /* Party Min rose */
	/* and the floor is not FUNGEON_FLOOR_MAX: the Traps player places a
	 * downward stair */
	bool stair;
	struct fungeon_draw draw;
	int ndead; /* members who died in step 3 */
	int dead[FUNGEON_PARTY_MAX];
};

/*
 * Runs the hallway over party m[0..n) (n <= FUNGEON_PARTY_MAX) on the given
 * floor, calling fn for each event in order; roller_of(e, ctx) names the
 * member whose player rolls for effect e (its maker), or -1. Clears the
 * fresh marks. The room's budgets are computed once from the party after
 * steps 1 and 2, so that a death in step 3 or later in the room changes
 * nothing; out receives them, the draw and who died in step 3. last_min is
 * the Party Min the room before was counted at, or 0 when there is none.
 */
void fungeon_hallway(struct rng *rng, struct fungeon_member *m, int n, enum fungeon_xp_rule rule,
                     int floor, int last_min,
                     int (*roller_of)(const struct fungeon_effect *e, void *ctx),
                     void (*fn)(const struct fungeon_hall_event *ev, void *ctx), void *ctx,
                     struct fungeon_hallway_out *out);

/*
 * Choosing categories: the highest roller of the draw chooses first among
 * the categories left, then the next highest, and so on; a player chooses
 * more than once only when there are fewer players than categories (the
 * choosing then goes round again in the same order), so with more players
 * than categories the last ones get none. The last category left goes to
 * whoever would choose it next; a lone player holds all three at once.
 */
struct fungeon_picks {
	int n;                         /* players in the draw, 0..FUNGEON_PARTY_MAX */
	int order[FUNGEON_PARTY_MAX];  /* member indices, best first */
	int holder[FUNGEON_CAT_COUNT]; /* the member holding each category, or -1 */
	int made;                      /* choices made so far */
};

/* Starts the choosing in the draw's order, nothing held yet (everything
 * held by a lone player). */
void fungeon_hallway_picks_start(struct fungeon_picks *p, const struct fungeon_draw *d);
/* The member who chooses next, or -1 when every category is held. */
int fungeon_hallway_picks_next(const struct fungeon_picks *p);
/* Member `who` chooses category k. Returns 0 (and gives the last category
 * left to the next in order), or -1 with one sentence in err naming whose
 * turn it is or who holds k; names[i] is member i's player. */
int fungeon_hallway_picks_choose(struct fungeon_picks *p, int who, enum fungeon_category k,
                                 const char *const *names, char *err, size_t errlen);

#endif
