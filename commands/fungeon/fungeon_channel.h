/*
 * fungeon_channel: a channel's Fungeon state (struct fungeon_channel, in
 * fungeon.h): created on first use, members and designs added and removed,
 * and the lookups every Fungeon command makes over it (members by name or
 * key, designs, holders, budgets, fallen players).
 *
 * Memory: the state belongs to its channel (a chanmod slot, freed with
 * fungeon_channel_free by the module in fungeon_save.c); the arrays it owns
 * move when a member or design is added or removed, so a pointer to one is
 * stale after either. Returned names and lists are written into the
 * caller's buffers.
 */
#ifndef DELVER_FUNGEON_CHANNEL_H
#define DELVER_FUNGEON_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/fungeon/fungeon.h"
#include "commands/fungeon/thwacko_style.h"
#include "commands/core/registry.h"
#include "rules/base/buf.h"

/* This channel's Fungeon state (created on first use), or, for peek, NULL
 * when the channel never used Fungeon. */
struct fungeon_channel *fungeon_channel(struct invocation *inv);
const struct fungeon_channel *fungeon_channel_peek(const struct channel *ch);

/* Appends a zeroed member and returns it (the caller checked
 * FUNGEON_PARTY_MAX). */
struct fungeon_member *fungeon_channel_member_add(struct fungeon_channel *c);
/* Frees member i and closes the gap, keeping the others' order. */
void fungeon_channel_member_remove(struct fungeon_channel *c, int i);
/* Appends a zeroed design of kind k and returns it (the caller checked
 * FUNGEON_DESIGNS_MAX). */
struct fungeon_stored *fungeon_channel_design_add(struct fungeon_channel *c, enum fungeon_kind k);
/* Removes design i of kind k, keeping the others' order. */
void fungeon_channel_design_remove(struct fungeon_channel *c, enum fungeon_kind k, int i);
/* Frees everything c owns, and c. */
void fungeon_channel_free(struct fungeon_channel *c);
/* Bytes of memory c holds: the struct and every array it owns (what the
 * allocator adds aside). */
size_t fungeon_channel_bytes(const struct fungeon_channel *c);

/* The member index of a user key, or -1. */
int fungeon_channel_member_of(const struct fungeon_channel *c, const char *user_key);
/* The member called `name` (its Fungeoneer's or its player's name,
 * case-insensitive), or -1. */
int fungeon_channel_member_named(const struct fungeon_channel *c, const char *name);
/* The stored design of that kind and name, or NULL. */
struct fungeon_stored *fungeon_channel_design(struct fungeon_channel *c, enum fungeon_kind k,
                                              const char *name);
/* Whether name is taken by any Fungeoneer or design. */
bool fungeon_channel_name_used(const struct fungeon_channel *c, const char *name);

/* Appends "Alba (alice), Brom (bob)" or "nobody yet" to b. */
void fungeon_channel_list_members(const struct fungeon_channel *c, struct buf *b);
/* Appends the names of the stored designs of kind k, or "none". */
void fungeon_channel_list_designs(const struct fungeon_channel *c, enum fungeon_kind k,
                                  struct buf *b);

void fungeon_channel_party(const struct fungeon_channel *c, struct fungeon_party *p);
int fungeon_channel_floor(const struct fungeon_channel *c);
/* Budget and points spent this room for kind k. */
int64_t fungeon_channel_budget(const struct fungeon_channel *c, enum fungeon_kind k);
int64_t fungeon_channel_spent(const struct fungeon_channel *c, enum fungeon_kind k);

/* A dead member i's treasure stays in the room for the others to plunder
 * when the member record goes (a replacement, or the player leaving): each
 * item becomes a stored treasure marked left (outside every budget).
 * Returns how many items were lost because the channel holds
 * FUNGEON_DESIGNS_MAX treasures already. */
int fungeon_channel_leave_behind(struct fungeon_channel *c, int i);

/* Remembers that user_key's Fungeoneer died in this dungeon. */
void fungeon_channel_fallen_add(struct fungeon_channel *c, const char *user_key);
bool fungeon_channel_fallen(const struct fungeon_channel *c, const char *user_key);
/* Forgets them all (a new dungeon). */
void fungeon_channel_fallen_clear(struct fungeon_channel *c);
/* The choosing of categories as rules/fungeon/fungeon_hallway.h sees it. */
void fungeon_channel_picks(const struct fungeon_channel *c, struct fungeon_picks *p);
/* Stores p's holders and choices made back as user keys. */
void fungeon_channel_picks_store(struct fungeon_channel *c, const struct fungeon_picks *p);

/* The member picking category cat, or -1. */
int fungeon_channel_holder(const struct fungeon_channel *c, enum fungeon_category cat);
/* Who rolls for an obstacle of category cat: its holder, else the invoker
 * when in the party (inv may be NULL), else nobody (-1). */
int fungeon_channel_roller(const struct fungeon_channel *c, enum fungeon_category cat,
                           const struct invocation *inv);

/* Every member's Thwack-O style, distinct where possible. */
void fungeon_channel_styles(const struct fungeon_channel *c, struct state *st,
                            struct thwacko_style *out);

/* Splits a list of names ("alba, brom carol") into words. Returns how many
 * (at most max), or -1 when there are more or a word is too long, with an
 * error reply unless out is NULL. */
int fungeon_channel_split_names(const char *s, char words[][FUNGEON_NAME_MAX * 2 + 2], int max,
                                struct reply *out);

/* The members named in a list ("Alba bob"), or with who NULL every living
 * one. Returns how many, or -1 with an error reply. */
int fungeon_channel_members_named(const struct fungeon_channel *c, const char *who, int *idx,
                                  struct reply *out);

/* Whether member i is named in the bonus option ("all", or names). */
bool fungeon_channel_bonus_for(const struct fungeon_channel *c, const char *bonus, int i);
/* Checks that every name in the bonus option is a member; else an error. */
int fungeon_channel_bonus_check(const struct fungeon_channel *c, const char *bonus,
                                struct reply *out);

/* Replies with the Fungeoneer named or an error listing them; -1 then. */
int fungeon_channel_need_member(const struct fungeon_channel *c, const char *name,
                                struct reply *out);
/* The invoker's member, or an error reply and -1. */
int fungeon_channel_need_self(const struct fungeon_channel *c, const struct invocation *inv,
                              struct reply *out);

/* Budget, spent and left for kind k this room (extra: a design being
 * priced), as one line. */
void fungeon_channel_budget_line(struct reply *out, const struct fungeon_channel *c,
                                 enum fungeon_kind k, int64_t extra);

#endif
