/*
 * fungeon_rights: who may do what at a Fungeon table now: which Fungeoneers
 * are in play (not dead, not a replacement waiting for the hallway), who
 * is held and may not act, who directs a monster and rolls for a piece,
 * and who may move the party on; each refusal is an error reply of one
 * sentence that says what to do instead.
 *
 * Pure lookups over a channel's Fungeon state (fungeon_channel.h): nothing
 * here changes it.
 */
#ifndef DELVER_FUNGEON_RIGHTS_H
#define DELVER_FUNGEON_RIGHTS_H

#include <stdbool.h>

#include "commands/core/registry.h"
#include "commands/fungeon/fungeon.h"
#include "rules/base/buf.h"

/* The member whose player rolls for what user key `maker` made: that
 * player's Fungeoneer while it is alive and in play, else -1 (nobody: a
 * player out of the game rolls nothing). */
int fungeon_rights_roller(const struct fungeon_channel *c, const char *maker);
/*
 * Who decides what. A player decides for their own Fungeoneer; the player
 * who made a monster (the room's Monsters player, or whoever built a
 * wandering one) directs it, its abilities and its targets, while their
 * Fungeoneer is in play. A monster whose maker has left the party follows
 * the defaults, as one whose maker is out of the game does (a Ruling: no
 * player inherits a monster to fight against themself). The GM, where a
 * channel has one, may decide for anyone.
 */
/* The member directing monster p, or -1. */
int fungeon_rights_director(const struct fungeon_channel *c, const struct fungeon_piece *p);
/* Whether the invoker decides for participant p (a member, a monster or
 * a monster's ability); else, when out is not NULL, an error naming who
 * does. */
bool fungeon_rights_may_direct(const struct fungeon_channel *c, const struct invocation *inv,
                               const struct fungeon_part *p, struct reply *out);
/* Whether the invoker may move the party on by a (a combat turn, the
 * hallway, going in, heading back, the stair): the GM, or a player of the
 * party whose Fungeoneer is in play (in town, any player of the party). A
 * dead Fungeoneer's player is out until the next hallway, as is one whose
 * replacement waits for it; when nobody of the party is in play, though,
 * any of its players goes on to that hallway (entering the room made for
 * it, and the hallway itself), or on the way back heads on to town. Else
 * an error reply. */
bool fungeon_rights_may_move(const struct fungeon_channel *c, const struct invocation *inv,
                             enum fungeon_act a, struct reply *out);
/* Whether a living player has a wandering monster left to build in the
 * room re-entered: returns -1 with an error reply naming the first (the
 * room's monsters are all built before the party fights or goes on), else
 * 0. */
int fungeon_rights_wanderers_due(const struct fungeon_channel *c, struct reply *out);
/* Whether member i is alive and in play (not a replacement waiting for the
 * hallway). */
bool fungeon_rights_in_play(const struct fungeon_channel *c, int i);
/* Whether some member is in play. */
bool fungeon_rights_anyone_in_play(const struct fungeon_channel *c);
/* Whether participant `who` (named name) may aim its won ranks at target:
 * a Fungeoneer at anyone else, a monster or its ability only at a
 * Fungeoneer (text 000, line 136: the Monsters player is "required to have
 * them attack the Players"). Else, when out is not NULL, an error naming
 * the Fungeoneers in play it may aim at. */
bool fungeon_rights_may_aim(const struct fungeon_channel *c, const char *name,
                            const struct fungeon_part *who, const struct fungeon_part *target,
                            struct reply *out);
/* Appends to b the party's dead with no new Fungeoneer made yet, as "al's
 * Al, bo's Bo and cy's Cy"; returns how many. */
int fungeon_rights_fallen(const struct fungeon_channel *c, struct buf *b);
/* In town, a line of out (in style) saying who makes a new Fungeoneer
 * before the hallway: "al's Al died: al makes a new Fungeoneer here in
 * town (/fungeon join NAME CLASS) before the hallway."; nothing when
 * nobody is dead. Returns how many are. */
int fungeon_rights_town_fallen(const struct fungeon_channel *c, struct reply *out, unsigned style);
/* Until when a player whose Fungeoneer falls now is out of the game: "the
 * next hallway", or on the way back, where no hallway is ahead, "the party
 * reaches town". */
const char *fungeon_rights_out_until(const struct fungeon_channel *c);
/* The same, else an error reply saying why member i is out of play (dead,
 * or a replacement waiting for the next hallway) and, when nobody of the
 * party is in play, what comes first (the fallen's new Fungeoneers, then
 * the hallway; on the way back, town). */
bool fungeon_rights_need_in_play(const struct fungeon_channel *c, int i, struct reply *out);
/* Whether the invoker may act as a player of the party now: the GM
 * always, a user without a Fungeoneer in the party too (what they may do
 * is checked where they do it); a player whose Fungeoneer is out of play
 * (dead, or a replacement waiting) is out of the game until the next
 * hallway, and may neither act for it nor for the traps and monsters they
 * made (text 000, line 254). Else an error as fungeon_rights_need_in_play
 * gives. */
bool fungeon_rights_need_invoker_in_play(const struct fungeon_channel *c,
                                         const struct invocation *inv, struct reply *out);
/* The Continuous Hold member i suffers from a monster standing in the
 * room, or NULL. A held Fungeoneer may not act (line 175) until a roll in
 * a combat turn breaks the hold, or its monster falls. */
const struct fungeon_effect *fungeon_rights_held_by(const struct fungeon_channel *c, int i);
/* Whether member i may act of itself (search, disarm, get past a trap,
 * take, use): not held; else an error reply. */
bool fungeon_rights_need_free(const struct fungeon_channel *c, int i, struct reply *out);
/* The same for every member of idx[0..n): else one error reply naming
 * each held one and what holds it. */
bool fungeon_rights_need_all_free(const struct fungeon_channel *c, const int *idx, int n,
                                  struct reply *out);
/* Appends to b which members of idx[0..n) are held and by what, as one
 * clause ("Al is held by vine/grab", "Al and Bo are held by vine/grab",
 * "Al is held by vine/grab and Bo by ogre/bite"); returns how many are
 * held (none: b is unchanged). */
int fungeon_rights_held_clause(const struct fungeon_channel *c, const int *idx, int n,
                               struct buf *b);

#endif
