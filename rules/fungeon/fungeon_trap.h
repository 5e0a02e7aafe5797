/*
 * fungeon_trap: what Fungeoneers do with a room's trap (the rule text's
 * "Traps"), decided here and only rendered by the commands.
 *
 *   search   Annoy rolls against as many dice as the trap's cost; a success
 *            finds it (and earns its cost in XP), a failure leaves that
 *            Fungeoneer in blissful ignorance. Ruling: one who failed may
 *            not search the same trap again; once found it is not searched
 *            for again.
 *   trigger  stumbling into the trap or trying to get past it: one
 *            Fungeoneer makes an Annoy roll against its Annoy dice, the
 *            class bonus counting when the class fits (text 000, line 260:
 *            the Fire Mage against a Flaming Column); several at once each
 *            roll one die + level, the highest avoids it (a tie for
 *            highest re-rolled among the tied, one die each, until one is
 *            highest: "whoever rolls highest", line 94) and the others make
 *            the Annoy roll. A success sidesteps it
 *            and earns its cost in XP; a failure forces the trap's Pain roll
 *            against that Fungeoneer alone (the class bonus counting when
 *            the class fits, as in every Painful conflict), and starts its
 *            continuous damage. The trap springs: without Unlimited Use,
 *            once.
 *   disarm   the same roll by one Fungeoneer, the class bonus counting when
 *            the class fits. Ruling: a trap must be found first. A success
 *            disarms it (XP); a failure is a triggering.
 * Magic Annoy and Pain dice of the trap's type count unless it deals
 * Universal Damage, which also cancels the class bonus. Ruling: the
 * Fungeoneer of the trap's maker earns no XP against it (the player knows
 * where it is and what it does).
 *
 * fungeon_trap_check() says whether an action may be taken against the
 * trap now; fungeon_trap_play() rolls it into an outcome; nothing changes
 * until fungeon_trap_apply() applies it to the party and the trap. Pure:
 * no I/O, no globals; randomness only from the rng.
 */
#ifndef DELVER_FUNGEON_TRAP_H
#define DELVER_FUNGEON_TRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/fungeon/fungeon_play.h"
#include "rules/fungeon/fungeon_room.h"

struct rng;

enum fungeon_trap_act {
	FUNGEON_TRAP_SEARCH = 0,
	FUNGEON_TRAP_TRIGGER,
	FUNGEON_TRAP_DISARM,
};

/* The obstacle trap t is (its roller: the member index of its maker, or
 * -1). */
void fungeon_trap_obstacle(const struct fungeon_piece *t, int roller,
                           struct fungeon_play_obstacle *o);

/*
 * Whether members[0..n) of party m may take action a against trap t now:
 * its state, each one living, in the room (not a replacement waiting for
 * the hallway), named once, not searching it again after failing, a
 * disarm by exactly one. Returns 0, or -1 with one sentence in err.
 */
int fungeon_trap_check(const struct fungeon_piece *t, enum fungeon_trap_act a,
                       const struct fungeon_member *m, const int *members, int n, char *err,
                       size_t errlen);

/* One Pain roll the trap makes against a Fungeoneer who failed. */
struct fungeon_trap_pain {
	int member;
	struct fungeon_play_part part[2]; /* the Fungeoneer, the trap */
	struct fungeon_play_pain roll;
};

struct fungeon_trap_out {
	enum fungeon_trap_act act;
	struct fungeon_play_obstacle o;
	int n;
	int member[FUNGEON_PARTY_MAX];
	/* trigger by several: one die + level each; the highest avoids it, a
	 * tie for highest re-rolled among the tied (one die each) until one is
	 * highest */
	bool several;
	struct cf_roll draw;
	int level[FUNGEON_PARTY_MAX];
	struct cf_trigger t;          /* t.avoids: the one who avoids it */
	bool tied[FUNGEON_PARTY_MAX]; /* tied for the highest total */
	struct cf_ranking tie;        /* the re-rolls of the tied (tie.nrounds 0: none) */
	struct cf_narration draw_nar;
	bool caught[FUNGEON_PARTY_MAX];
	/* the Annoy roll of those caught (every one, unless several) */
	bool annoyed;
	int annoy_of[FUNGEON_PARTY_MAX]; /* member i's group in annoy, or -1 */
	struct fungeon_play_annoy annoy;
	/* the Pain rolls of those who failed */
	int npain;
	struct fungeon_trap_pain pain[FUNGEON_PARTY_MAX];
	/* the trap after */
	enum fungeon_trap_state state;
	bool passed;
	uint32_t unaware; /* members who failed a search, added to the trap's */
};

/*
 * Rolls action a of members[0..n) of party m against trap t (checked with
 * fungeon_trap_check()); bonus[i] says whether members[i]'s class fits (it
 * counts in every Annoy roll and every Pain roll unless t is universal). roller is the
 * member whose player rolls for the trap, or -1. Returns 0, or -1 with one sentence in err (nothing
 * rolled) when a roll would pass CF_DICE_MAX dice.
 */
int fungeon_trap_play(struct rng *rng, const struct fungeon_member *m, const int *members, int n,
                      const bool *bonus, const struct fungeon_piece *t, int roller,
                      enum fungeon_trap_act a, struct fungeon_trap_out *out, char *err,
                      size_t errlen);

/* Applies the outcome: XP, damage, deaths, continuous effects, and the
 * trap's state. Marks in out whose XP reached FUNGEON_XP_MAX. */
void fungeon_trap_apply(struct fungeon_member *m, struct fungeon_piece *t,
                        struct fungeon_trap_out *out);

#endif
