/*
 * fungeon_pain: the Painful conflicts of a combat turn among Fungeoneers,
 * monsters and monsters' special abilities. The participants are the
 * caller's array; the outcome is applied to the channel's state, which the
 * channel owns.
 */
#ifndef DELVER_FUNGEON_PAIN_H
#define DELVER_FUNGEON_PAIN_H

#include "commands/core/registry.h"
#include "commands/fungeon/fungeon.h"
#include "commands/fungeon/thwacko_style.h"

/* A Painful conflict among parts[0..n): fungeon_pain_check validates (and
 * puts members first, resolving targets: a winner may hurt any other
 * participant named as its target); fungeon_pain_run has
 * rules/fungeon/fungeon_play.h decide the outcome, shows the rank-by-rank
 * table and the outcome, applies it (damage, deaths and the treasure the
 * dead leave, XP, monsters' hits) and names the narrator; within a combat
 * turn (turn not NULL) its Thwack-O dice are the turn's and it names none. */
int fungeon_pain_check(struct fungeon_channel *c, struct fungeon_part *parts, int n,
                       const char *bonus, struct reply *out);
void fungeon_pain_run(struct invocation *inv, struct fungeon_channel *c, struct fungeon_part *parts,
                      int n, const char *bonus, const struct thwacko_style *styles,
                      struct cf_turn *turn, struct reply *out);

#endif
