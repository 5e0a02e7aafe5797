/*
 * fungeon_hallway: the Fungeon hallway between rooms and the rolls it is made of
 * (RULES.md section 4, "Hallway"), in this order:
 *   1. a player whose Fungeoneer died makes a new one at level floor - 1
 *      (minimum 1): the bot reports the replacements due and those made;
 *   2. the XP level-up check (several levels at once);
 *   3. continuous-damage rolls for those suffering it (holds end with the
 *      fight, so the hallway lifts them);
 *   4. every player rolls one die for the categories; the highest picks
 *      first among Traps, Monsters and Treasure, ties re-rolled; with fewer
 *      than three players someone picks again, with more someone gets none.
 * If Party Min rose during the hallway, the Traps player must place a
 * downward stair.
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
 * Fungeoneer's; a success ends it; a Continuous Damage failure then takes
 * the Pain roll (the effect deals damage but never takes any). */
struct fungeon_cont {
	int member;
	struct fungeon_effect effect; /* as rolled */
	struct cf_roll annoy; /* group 0: the effect (rolled by nobody), 1: the Fungeoneer */
	struct cf_narration annoy_nar;
	struct cf_annoy annoy_res;
	bool success;
	bool pained;
	struct cf_roll pain; /* as annoy, each group sorted high to low */
	struct cf_pain pain_res;
	struct cf_narration pain_nar;
	int hits_before, hits_after;
	bool died;
};

/* Rolls effect ei of party member mi; with `bonus` the class bonus counts
 * in the Annoy roll. Removes the effect on a success, applies the damage of
 * a failure. Dice counts are bounded by construction (designs and carried
 * magic are limited so that no roll passes CF_DICE_MAX). */
void fungeon_hallway_cont_roll(struct rng *rng, struct fungeon_member *party, int mi, int ei,
                               bool bonus, struct fungeon_cont *out);

/* The category draw: group i is player i's single die, their Thwack-O. */
struct fungeon_draw {
	int n;
	struct cf_roll roll;
	struct cf_ranking rank;
	int holder[FUNGEON_CAT_COUNT]; /* the member who picks each category */
};

void fungeon_hallway_draw_categories(struct rng *rng, int n, struct fungeon_draw *out);

/* Entering the dungeon when the players don't agree on it: each of the n
 * players rolls one die (their Thwack-O) and the highest describes the
 * entrance, ties re-rolled (the same roll as the category draw: out->rank
 * .order[0] describes). */
void fungeon_hallway_entrance(struct rng *rng, int n, struct fungeon_draw *out);

enum fungeon_hall_kind {
	FUNGEON_HALL_DUE,       /* step 1: member died; a new one is due at `level` */
	FUNGEON_HALL_FRESH,     /* step 1: member is a replacement made since the last hallway */
	FUNGEON_HALL_LEVELUP,   /* step 2: `up` */
	FUNGEON_HALL_HOLD_ENDS, /* step 3: a hold on member lifted (`effect`) */
	FUNGEON_HALL_CONT,      /* step 3: `cont` */
	FUNGEON_HALL_DRAW,      /* step 4: `draw` */
	FUNGEON_HALL_STAIR, /* Party Min rose from `level` to `to`: member (Traps) places a stair */
};

struct fungeon_hall_event {
	enum fungeon_hall_kind kind;
	int member;
	int level, to;
	const struct fungeon_levelup *up;
	const struct fungeon_effect *effect;
	const struct fungeon_cont *cont;
	const struct fungeon_draw *draw;
};

/*
 * Runs the hallway over party m[0..n) (n <= FUNGEON_PARTY_MAX) on the given floor
 * (the one in play), calling fn for each event in order. Clears the fresh
 * marks. The order in which players choose categories is in the
 * FUNGEON_HALL_DRAW event's draw. *room receives the next room's budgets,
 * computed once from the party after steps 1 and 2 (replacements and
 * level-ups), so that a death in step 3 or later in the room changes
 * nothing: the caller keeps them for the whole room.
 */
void fungeon_hallway(struct rng *rng, struct fungeon_member *m, int n, enum fungeon_xp_rule rule,
                     int floor, struct fungeon_budgets *room,
                     void (*fn)(const struct fungeon_hall_event *ev, void *ctx), void *ctx);

/*
 * Choosing categories (RULES.md section 4): the highest roller of the draw
 * chooses first among the categories left, then the next highest, and so
 * on; a player chooses more than once only when there are fewer players
 * than categories (the choosing then goes round again in the same order),
 * so with more players than categories the last ones get none. The last
 * category left goes to whoever would choose it next.
 */
struct fungeon_picks {
	int n;                         /* players in the draw, 0..FUNGEON_PARTY_MAX */
	int order[FUNGEON_PARTY_MAX];  /* member indices, best first */
	int holder[FUNGEON_CAT_COUNT]; /* the member holding each category, or -1 */
	int made;                      /* choices made so far */
};

/* Starts the choosing in the draw's order, nothing held yet. */
void fungeon_hallway_picks_start(struct fungeon_picks *p, const struct fungeon_draw *d);
/* The member who chooses next, or -1 when every category is held. */
int fungeon_hallway_picks_next(const struct fungeon_picks *p);
/* Member `who` chooses category k. Returns 0 (and gives the last category
 * left to the next in order), or -1 with one sentence in err naming whose
 * turn it is or who holds k; names[i] is member i's player. */
int fungeon_hallway_picks_choose(struct fungeon_picks *p, int who, enum fungeon_category k,
                                 const char *const *names, char *err, size_t errlen);

#endif
