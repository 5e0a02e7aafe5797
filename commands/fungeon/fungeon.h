/*
 * fungeon: the Fungeon command family's shared parts (internal to
 * commands/cmd_fungeon*.c, cmd_thwacko.c and cmd_xp.c).
 *
 * The per-channel state is a chanmod slot (CHANMOD_FUNGEON, module
 * fungeon_mod): the party, the floor, the xp-rule setting, who holds each
 * category, and the designs stored by name. Continuous effects and carried
 * treasure live in the party's members. Handlers validate everything
 * before the first change, so state is unchanged on every error, and call
 * channel_touch() after a change.
 *
 * Memory: struct fungeon_channel owns its members and designs, arrays of exactly
 * as many elements as the channel holds (NULL when none), grown and shrunk
 * only through fungeon_channel_member_add/remove and fungeon_channel_design_add/remove; the
 * limits (FUNGEON_PARTY_MAX, FUNGEON_DESIGNS_MAX) are checked by the handlers, with
 * an error reply, before those are called. Adding or removing moves the
 * array, so a pointer to a member or design is stale after either.
 *
 * Conflicts are decided by rules/fgplay.h into an outcome; the handlers
 * check their input, apply that outcome to the channel and render it:
 * each group with its Thwack-O die drawn in the player's style (members
 * first, so a player's Thwack-O die lands on their own Fungeoneer when they
 * also roll for a trap or monster), ending with the line naming who
 * narrates.
 */
#ifndef DELVER_FUNGEON_CMD_H
#define DELVER_FUNGEON_CMD_H

#include <stdint.h>

#include "commands/commands.h"
#include "commands/registry.h"
#include "rules/base/buf.h"
#include "rules/fungeon/conflict.h"
#include "rules/fungeon/fungeon_cost.h"
#include "rules/fungeon/fungeon_hallway.h"
#include "rules/fungeon/fungeon_play.h"
#include "rules/fungeon/fungeon.h"

#define FUNGEON_DESIGNS_MAX 24  /* designs of each kind stored on a channel */
#define FUNGEON_MAGIC_MAX   70  /* magic Annoy (or Pain) dice one Fungeoneer may carry */
#define FUNGEON_FALLEN_MAX  16  /* players remembered as having lost a Fungeoneer */
#define FUNGEON_WAIVED_MAX  256 /* bytes of the waiver record, with the NUL */

struct fungeon_stored {
	char name[FUNGEON_NAME_MAX + 1];
	struct fungeon_design d;
	int64_t cost;
	bool room;                        /* paid from this room's budget */
	int hits;                         /* monsters: hits left */
	char taken[FUNGEON_NAME_MAX + 1]; /* treasure: the Fungeoneer who took it, or "" */
	bool sprung; /* traps: sprung (one without Unlimited Use springs once) */
	bool passed; /* traps: triggered, disarmed or sidestepped at least once */
	bool left;   /* treasure: left by a dead Fungeoneer, to plunder */
};

struct fungeon_channel {
	int n;                    /* 0..FUNGEON_PARTY_MAX */
	struct fungeon_member *m; /* n members, owned */
	int floor;                /* 0: the entrance, Party Min */
	enum fungeon_xp_rule xp_rule;
	char holder[FUNGEON_CAT_COUNT][FUNGEON_KEY_MAX]; /* user keys, "" for nobody */
	int rooms;                                       /* hallways run */
	/* The room's budgets, fixed in its hallway (valid once rooms > 0). */
	struct fungeon_budgets room;
	/* Choosing categories: the draw's order (member indices, best first;
	 * kept right when a member leaves) and the choices made so far (holder
	 * above holds them). */
	int norder;
	int order[FUNGEON_PARTY_MAX];
	int picks_made;
	/* Players whose Fungeoneer died in this dungeon: however they come
	 * back, their new one starts at floor - 1 (kept until the party is
	 * empty, oldest dropped past FUNGEON_FALLEN_MAX). */
	int nfallen;
	char (*fallen)[FUNGEON_KEY_MAX]; /* nfallen user keys, owned */
	/* The last room left with points unspent, as the players waived it
	 * ("room 2: Traps 1 unspent, waived by alice"), or "". */
	char waived[FUNGEON_WAIVED_MAX];
	int nd[FUNGEON_KIND_COUNT];                   /* 0..FUNGEON_DESIGNS_MAX each */
	struct fungeon_stored *d[FUNGEON_KIND_COUNT]; /* nd[k] designs of kind k, owned */
};

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
/* The choosing of categories as rules/fghall.h sees it. */
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

/* The lines naming who narrates, from a narration found by rules/ (with
 * any Thwack-O tie re-rolls shown); nothing when no player rolled. */
void fungeon_render_narration_lines(struct reply *out, const struct cf_narration *n,
                                    const struct fungeon_channel *c,
                                    const struct thwacko_style *styles, const char *what);

/* The subcommand handlers, by file. */
/* cmd_fungeon.c */
void cmd_fungeon_join(struct invocation *inv, struct reply *out);
void cmd_fungeon_leave(struct invocation *inv, struct reply *out);
void cmd_fungeon_sheet(struct invocation *inv, struct reply *out);
void cmd_fungeon_party(struct invocation *inv, struct reply *out);
void cmd_fungeon_floor(struct invocation *inv, struct reply *out);
void cmd_fungeon_damage(struct invocation *inv, struct reply *out);
void cmd_fungeon_heal(struct invocation *inv, struct reply *out);
void cmd_fungeon_xp(struct invocation *inv, struct reply *out);
void cmd_fungeon_xprule(struct invocation *inv, struct reply *out);
/* cmd_fungeon_design.c */
extern const struct command fungeon_cost_subs[], fg_trap_subs[], fg_monster_subs[],
    fg_treasure_subs[], fg_town_subs[];
void cmd_fungeon_design_take(struct invocation *inv, struct reply *out);
void cmd_fungeon_design_use(struct invocation *inv, struct reply *out);
/* cmd_fungeon_conflict.c */
void cmd_fungeon_conflict_annoy(struct invocation *inv, struct reply *out);
void cmd_fungeon_conflict_find(struct invocation *inv, struct reply *out);
void cmd_fungeon_conflict_trigger(struct invocation *inv, struct reply *out);
void cmd_fungeon_conflict_pain(struct invocation *inv, struct reply *out);
/* cmd_fungeon_combat.c */
void cmd_fungeon_combat(struct invocation *inv, struct reply *out);
void cmd_fungeon_combat_retreat(struct invocation *inv, struct reply *out);
/* cmd_fungeon_hallway.c */
void cmd_fungeon_hallway(struct invocation *inv, struct reply *out);
void cmd_fungeon_hallway_pick(struct invocation *inv, struct reply *out);
void cmd_fungeon_hallway_entrance(struct invocation *inv, struct reply *out);

/* Budget, spent and left for kind k this room (extra: a design being
 * priced), as one line. */
void fungeon_channel_budget_line(struct reply *out, const struct fungeon_channel *c,
                                 enum fungeon_kind k, int64_t extra);

/* A participant of a conflict, resolved from a word. */
enum fungeon_pkind {
	FGP_MEMBER = 1 << 0,
	FGP_TRAP = 1 << 1,
	FGP_MONSTER = 1 << 2,
	FGP_ABILITY = 1 << 3, /* "monster/ability" */
};

struct fungeon_part {
	enum fungeon_pkind kind;
	int member;               /* FGP_MEMBER */
	struct fungeon_stored *s; /* the trap or monster */
	int ability;              /* FGP_ABILITY: index in s->d.ab */
	int target;               /* Pain: the participant it hits ("Alba>goblin"), or -1 */
	char target_name[FUNGEON_NAME_MAX * 2 + 2];
};

/* Resolves one word to a participant of one of the kinds allowed (a mask
 * of enum fungeon_pkind); "name>target" keeps the target's name for later.
 * Returns 0, or -1 with an error reply listing what exists. */
int fungeon_roll_part_resolve(struct fungeon_channel *c, const char *word, unsigned kinds,
                              struct fungeon_part *out, struct reply *err);
/* The participant's display name ("Alba", "pit", "wasp/sting"). */
const char *fungeon_roll_part_name(const struct fungeon_channel *c, const struct fungeon_part *p,
                                   char *buf, size_t len);
/* The category whose holder rolls for it (members: none, -1). */
int fungeon_roll_part_category(const struct fungeon_part *p);
/* The obstacle a trap, monster or monster ability is (rules/fgplay.h):
 * its dice, damage type, universality, what a failure brings, the XP of a
 * success and who rolls it (inv may be NULL). */
void fungeon_roll_obstacle_of(const struct fungeon_channel *c, const struct fungeon_part *p,
                              const struct invocation *inv, struct fungeon_play_obstacle *o);

/*
 * An Annoying conflict: obstacle o (its annoy dice, or `dice`) against the
 * members listed. fungeon_roll_annoy_check() checks dice counts and effect slots
 * (returns -1 with an error reply, nothing rolled or changed).
 * fungeon_roll_annoy_play() then has rules/fgplay.h decide the outcome into *a,
 * renders every roll, and applies the outcome (XP, continuous effects);
 * the caller adds its own lines and then the narration (a->nar).
 */
int fungeon_roll_annoy_check(const struct fungeon_channel *c, const struct fungeon_play_obstacle *o,
                             int dice, const int *members, int n, const char *bonus,
                             struct reply *out);
int fungeon_roll_annoy_play(struct invocation *inv, struct fungeon_channel *c,
                            const struct fungeon_play_obstacle *o, int dice, const int *members,
                            int n, const char *bonus, const struct thwacko_style *styles,
                            struct fungeon_play_annoy *a, struct reply *out);
/* out[i]: whether members[i]'s class fits, by the bonus option. */
void fungeon_roll_bonus_flags(const struct fungeon_channel *c, const char *bonus,
                              const int *members, int n, bool *out);

/* A Painful conflict among parts[0..n): fungeon_pain_check validates (and puts
 * members first, resolving targets); fungeon_pain_run has rules/fgplay.h decide
 * the outcome, shows the rank-by-rank table and the outcome, applies it
 * (damage, deaths, XP, monsters' hits) and names the narrator. */
int fungeon_pain_check(struct fungeon_channel *c, struct fungeon_part *parts, int n,
                       const char *bonus, struct reply *out);
void fungeon_pain_run(struct invocation *inv, struct fungeon_channel *c, struct fungeon_part *parts,
                      int n, const char *bonus, const struct thwacko_style *styles,
                      struct reply *out);

/* Renders an Annoying conflict's outcome: the obstacle's roll, then each
 * member's with its result and XP. */
void fungeon_render_annoy(struct reply *out, const struct fungeon_channel *c,
                          const struct fungeon_play_obstacle *o, const struct fungeon_play_annoy *a,
                          const struct thwacko_style *styles);

/* Copies src into dst[size], cut short on a character boundary. */
void fungeon_render_fit_label(char *dst, size_t size, const char *src);
/* Renders group g as "label: 6 ◆4 1" (the Thwack-O die in its player's
 * style), then the suffix; ends the line. */
void fungeon_render_group_line(struct reply *out, const struct cf_group *g, const char *label,
                               const struct thwacko_style *styles, const char *suffix);

/* Renders one continuous-effect roll (hallway step 3, combat step 1). */
void fungeon_render_cont(struct reply *out, const struct fungeon_channel *c,
                         const struct fungeon_cont *k, const struct thwacko_style *styles);

/* The rank-by-rank table of a Painful conflict: a row per rank with each
 * roll's die there (0 once it ran out; the Thwack-O die carries its
 * player's mark), the winner and the damage point it dealt. */
void fungeon_render_pain_table(struct reply *out, const char *const *names,
                               const struct cf_group *const *g, int n, const struct cf_pain *res,
                               const struct thwacko_style *styles, const struct fungeon_channel *c);

#endif
