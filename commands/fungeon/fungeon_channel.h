/*
 * fungeon_channel: a channel's Fungeon state (struct fungeon_channel, in
 * fungeon.h): created on first use, members added and removed, and the
 * lookups every Fungeon command makes over it (members by name or key, the
 * room's pieces, holders, budgets, fallen players), with the one door to
 * the rules' verdict on what the party may do now.
 *
 * Memory: the state belongs to its channel (a chanmod slot, freed with
 * fungeon_channel_free by the module in fungeon_save.c); the arrays it owns
 * move when a member or piece is added or removed, so a pointer to one is
 * stale after either. Returned names and lists are written into the
 * caller's buffers.
 */
#ifndef DELVER_FUNGEON_CHANNEL_H
#define DELVER_FUNGEON_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/registry.h"
#include "commands/fungeon/fungeon.h"
#include "commands/fungeon/thwacko_style.h"
#include "rules/base/buf.h"

/* This channel's Fungeon state (created on first use), or, for peek, NULL
 * when the channel never used Fungeon. Its players are named as the
 * platform knows them now (the module's names_now, fungeon_save.c, which
 * the dispatcher runs before each command). */
struct fungeon_channel *fungeon_channel(struct invocation *inv);
const struct fungeon_channel *fungeon_channel_peek(const struct channel *ch);

/* Whether the party may do a now (rules/fungeon/fungeon_room.h); else an
 * error reply (one sentence, naming the command to type instead) and
 * false. */
bool fungeon_channel_may(const struct fungeon_channel *c, enum fungeon_act a, struct reply *out);
/* The command path that does a ("fungeon enter"), or NULL. */
const char *fungeon_channel_act_command(enum fungeon_act a);

/* Appends a zeroed member whose default Thwack-O style is style, and
 * returns it (the caller checked FUNGEON_PARTY_MAX). */
struct fungeon_member *fungeon_channel_member_add(struct fungeon_channel *c,
                                                  const struct thwacko_style *style);
/* Frees member i and closes the gap, keeping the others' order (and the
 * room's choosing order and trap marks in step). */
void fungeon_channel_member_remove(struct fungeon_channel *c, int i);
/* Frees everything c owns, and c. */
void fungeon_channel_free(struct fungeon_channel *c);
/* Bytes of memory c holds: the struct and every array it owns (what the
 * allocator adds aside). */
size_t fungeon_channel_bytes(const struct fungeon_channel *c);

/* The member index of a user key, or -1. */
int fungeon_channel_member_of(const struct fungeon_channel *c, const char *user_key);
/* The member called `name` (its Fungeoneer's or its player's name,
 * case-insensitive; a Fungeoneer's name spelled byte for byte first, for
 * two saved before names were folded in full that read alike now), or
 * -1. */
int fungeon_channel_member_named(const struct fungeon_channel *c, const char *name);
/* The member other than but (-1: none) whose Fungeoneer is called name
 * (case folded), or -1. */
int fungeon_channel_called(const struct fungeon_channel *c, const char *name, int but);
/*
 * The member nobody could name any more were member j's player (a
 * joiner's, j < 0) called player: one whose Fungeoneer is called player
 * while its player's name is another Fungeoneer's, or j itself when its
 * Fungeoneer is called as another player is while player is another's
 * Fungeoneer's name. Both its names would then name two
 * (fungeon_channel_name_clash()), the GM's commands included. Returns
 * that member, *k the other member whose Fungeoneer holds its player's
 * name; or -1.
 */
int fungeon_channel_strands(const struct fungeon_channel *c, int j, const char *player, int *k);
/* Whether name, which names member i's Fungeoneer, is also the name of
 * another member's player (one who joined after the Fungeoneer took the
 * name): then an error reply names both and how to say which (the first
 * by its player's name, the second by its Fungeoneer's), as a command
 * must not pick one silently. */
bool fungeon_channel_name_clash(const struct fungeon_channel *c, int i, const char *name,
                                struct reply *out);
/* The room's piece of that kind and name, or NULL. */
struct fungeon_piece *fungeon_channel_piece(struct fungeon_channel *c, enum fungeon_kind k,
                                            const char *name);
/* Whether name is taken here (case-insensitive) by a Fungeoneer, a player
 * or a piece of the room, the member of user key `self` aside (a player may
 * name a Fungeoneer after themself, or keep its name); a name is looked up
 * as a Fungeoneer before a player, so that these never clash. When taken,
 * an error reply says by what. */
bool fungeon_channel_name_used(const struct fungeon_channel *c, const char *name, const char *self,
                               struct reply *out);

/* Appends "Alba (alice), Brom (bob)" or "nobody yet" to b. */
void fungeon_channel_list_members(const struct fungeon_channel *c, struct buf *b);
/* Appends the names of the room's pieces of kind k, or "none". */
void fungeon_channel_list_pieces(const struct fungeon_channel *c, enum fungeon_kind k,
                                 struct buf *b);

void fungeon_channel_party(const struct fungeon_channel *c, struct fungeon_party *p);
/* The floor the party is on: the dungeon's, or in town the floor the next
 * dungeon's entrance would open on (Party Min). */
int fungeon_channel_floor(const struct fungeon_channel *c);
/* The room's budget and points spent for kind k. */
int64_t fungeon_channel_budget(const struct fungeon_channel *c, enum fungeon_kind k);
int64_t fungeon_channel_spent(const struct fungeon_channel *c, enum fungeon_kind k);

/* Remembers that user_key's Fungeoneer died in this dungeon. */
void fungeon_channel_fallen_add(struct fungeon_channel *c, const char *user_key);
bool fungeon_channel_fallen(const struct fungeon_channel *c, const char *user_key);
/* Forgets them all (a new dungeon). */
void fungeon_channel_fallen_clear(struct fungeon_channel *c);

/* The dead flags of the party before a conflict is applied, and after it:
 * each Fungeoneer that died leaves its treasure in the room and its player
 * is remembered as fallen. Returns how many died. */
void fungeon_channel_dead_before(const struct fungeon_channel *c, bool *dead);
int fungeon_channel_deaths(struct fungeon_channel *c, const bool *dead_before);
/* Standing orders (/fungeon orders) lapse with those they concern: member
 * gone (when not -1), fallen or leaving, takes along its own aim, every aim
 * at it and the orders of the monsters its player made, which follow the
 * defaults from then on; a defeated monster takes its orders and every aim
 * at it. fungeon_channel_deaths() calls it for each death. */
void fungeon_channel_orders_lapse(struct fungeon_channel *c, int gone);

/* Ends every Continuous Hold whose monster no longer stands in the room,
 * a line each in out ("Brinks is free of spider/web's hold: spider is
 * defeated."), saying when the same ability's continuous damage goes on.
 * Returns how many ended. */
int fungeon_channel_lift_holds(struct fungeon_channel *c, struct reply *out);

/* The member holding category cat in this room, or -1. */
int fungeon_channel_holder(const struct fungeon_channel *c, enum fungeon_category cat);
/* A new room: the Fungeoneers' standing aims are forgotten. */
void fungeon_channel_new_room(struct fungeon_channel *c);

/* Every member's Thwack-O style: the one its player chose, else the default
 * it was given when it joined (stable: others joining or leaving change
 * nothing). No two members' dice share a mark: a player's chosen style
 * applies in every channel, so where its mark is another member's die's
 * already (a default, or chosen by one who joined before), that player's
 * die keeps its party default here, or the first mark free. */
void fungeon_channel_styles(const struct fungeon_channel *c, struct state *st,
                            struct thwacko_style *out);
/* The default style a player joining now gets: distinct from the party's
 * styles where possible. */
void fungeon_channel_new_style(const struct fungeon_channel *c, struct state *st,
                               const char *user_key, struct thwacko_style *out);

/* Splits a list of names ("alba, brom carol") into words. Returns how many
 * (at most max), or -1 when there are more or a word is too long, with an
 * error reply unless out is NULL. */
int fungeon_channel_split_names(const char *s, char words[][FUNGEON_NAME_MAX * 2 + 2], int max,
                                struct reply *out);

/* The members named in a list ("Alba bob"), or with who NULL every one in
 * play. Returns how many, or -1 with an error reply. */
int fungeon_channel_members_named(const struct fungeon_channel *c, const char *who, int *idx,
                                  struct reply *out);

/* Whether member i's class fits a conflict with damage of `type`: named in
 * the bonus option ("all", or names), or its class type is that type. */
bool fungeon_channel_bonus_for(const struct fungeon_channel *c, const char *bonus, int i,
                               const char *type);
/* Checks that every name in the bonus option is a member; else an error. */
int fungeon_channel_bonus_check(const struct fungeon_channel *c, const char *bonus,
                                struct reply *out);

/* Replies with the Fungeoneer named or an error listing them; -1 then. */
int fungeon_channel_need_member(const struct fungeon_channel *c, const char *name,
                                struct reply *out);
/* Appends to out, in style, how one with no Fungeoneer here makes one
 * ("/fungeon join NAME CLASS LEVEL"), then tail (" makes one."). */
void fungeon_channel_join_how(struct reply *out, unsigned style, const char *tail);
/* When word, given where a name goes, holds a colon (no name does), it is
 * an option the command does not have ("foo:"): replies so and returns
 * true; else returns false. */
bool fungeon_channel_option_word(const char *word, struct reply *out);
/* The invoker's member, or an error reply and -1. */
int fungeon_channel_need_self(const struct fungeon_channel *c, const struct invocation *inv,
                              struct reply *out);

/* Budget, spent and left for kind k this room (extra: a design being
 * priced), as one line whose figures are those the room's hallway used. */
void fungeon_channel_budget_line(struct reply *out, const struct fungeon_channel *c,
                                 enum fungeon_kind k, int64_t extra);

/* "die" or "dice" for n. */
const char *fungeon_channel_dice_word(int64_t n);

#endif
