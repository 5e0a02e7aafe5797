/*
 * fungeon_roll: the participants of Fungeon conflicts (struct fungeon_part,
 * in fungeon.h) resolved from words, and the Annoying conflict played
 * through rules/fungeon/fungeon_play.h. A participant points into the
 * channel's state (the channel owns it), so it is stale once a member or
 * design is added or removed.
 */
#ifndef DELVER_FUNGEON_ROLL_H
#define DELVER_FUNGEON_ROLL_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/fungeon/fungeon.h"
#include "commands/fungeon/thwacko_style.h"
#include "commands/core/registry.h"

/* Resolves one word to a participant of one of the kinds allowed (a mask
 * of enum fungeon_pkind); "name>target" keeps the target's name for later.
 * Returns 0, or -1 with an error reply listing what exists. */
int fungeon_roll_part_resolve(struct fungeon_channel *c, const char *word, unsigned kinds,
                              struct fungeon_part *out, struct reply *err);
/* Whether word names two participants (a Fungeoneer or a player, and
 * another player or a trap or monster): then an error reply says which
 * name reaches each (as fungeon_roll_part_resolve() refuses it). */
bool fungeon_roll_names_two(struct fungeon_channel *c, const char *word, struct reply *err);
/* The name a target word ("goblin" of "Alba>goblin") stands for: the
 * Fungeoneer's or monster's own name when it names one (by either of a
 * member's names, in any case), else the word as typed (which matches no
 * one). Returns 0, or -1 with an error reply when the word names two
 * (fungeon_roll_part_resolve()). A target is then matched by that name
 * alone, byte for byte. */
int fungeon_roll_target_name(struct fungeon_channel *c, const char *word, char *name, size_t len,
                             struct reply *err);
/* Resolves a use word for the monsters the invoker directs: "monster/
 * ability" into the ability (FGP_ABILITY), "monster/none" into the monster
 * (FGP_MONSTER: it uses none). Whether the invoker directs the monster is
 * checked before its ability is looked up. Returns 0, or -1 with an error
 * reply. */
int fungeon_roll_use_resolve(struct fungeon_channel *c, const struct invocation *inv,
                             const char *word, struct fungeon_part *out, struct reply *err);
/* The participant's display name ("Alba", "pit", "wasp/sting"). */
const char *fungeon_roll_part_name(const struct fungeon_channel *c, const struct fungeon_part *p,
                                   char *buf, size_t len);
/* The obstacle a trap, monster or monster ability is (rules/fungeon/fungeon_play.h):
 * its dice, damage type, universality, what a failure brings, the XP of a
 * success and who rolls it (its maker, while in play). */
void fungeon_roll_obstacle_of(const struct fungeon_channel *c, const struct fungeon_part *p,
                              struct fungeon_play_obstacle *o);

/*
 * An Annoying conflict: obstacle o (its annoy dice, or `dice`) against the
 * members listed. fungeon_roll_annoy_check() checks dice counts and effect slots
 * (returns -1 with an error reply, nothing rolled or changed).
 * fungeon_roll_annoy_play() then has rules/fungeon/fungeon_play.h decide the outcome into *a,
 * renders every roll, and applies the outcome (XP, continuous effects);
 * the caller adds its own lines and then the narration (a->nar). turn:
 * the combat turn it is part of (then a->nar names nobody), or NULL.
 */
int fungeon_roll_annoy_check(const struct fungeon_channel *c, const struct fungeon_play_obstacle *o,
                             int dice, const int *members, int n, const char *bonus,
                             struct reply *out);
int fungeon_roll_annoy_play(struct invocation *inv, struct fungeon_channel *c,
                            const struct fungeon_play_obstacle *o, int dice, const int *members,
                            int n, const char *bonus, const struct thwacko_style *styles,
                            struct cf_turn *turn, struct fungeon_play_annoy *a, struct reply *out);
/* out[i]: whether members[i]'s class fits damage of `type`, by its class
 * type or the bonus option. */
void fungeon_roll_bonus_flags(const struct fungeon_channel *c, const char *bonus, const char *type,
                              const int *members, int n, bool *out);

#endif
