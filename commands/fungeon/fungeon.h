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
 * Memory: struct fg_chan owns its members and designs, arrays of exactly
 * as many elements as the channel holds (NULL when none), grown and shrunk
 * only through fgchan_member_add/remove and fgchan_design_add/remove; the
 * limits (FG_PARTY_MAX, FG_DESIGNS_MAX) are checked by the handlers, with
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
#include "rules/fungeon/fgcost.h"
#include "rules/fungeon/fghall.h"
#include "rules/fungeon/fgplay.h"
#include "rules/fungeon/fungeon.h"

#define FG_DESIGNS_MAX 24  /* designs of each kind stored on a channel */
#define FG_MAGIC_MAX   70  /* magic Annoy (or Pain) dice one Fungeoneer may carry */
#define FG_FALLEN_MAX  16  /* players remembered as having lost a Fungeoneer */
#define FG_WAIVED_MAX  256 /* bytes of the waiver record, with the NUL */

struct fg_stored {
	char name[FG_NAME_MAX + 1];
	struct fg_design d;
	int64_t cost;
	bool room;                   /* paid from this room's budget */
	int hits;                    /* monsters: hits left */
	char taken[FG_NAME_MAX + 1]; /* treasure: the Fungeoneer who took it, or "" */
	bool sprung;                 /* traps: sprung (one without Unlimited Use springs once) */
	bool passed;                 /* traps: triggered, disarmed or sidestepped at least once */
	bool left;                   /* treasure: left by a dead Fungeoneer, to plunder */
};

struct fg_chan {
	int n;               /* 0..FG_PARTY_MAX */
	struct fg_member *m; /* n members, owned */
	int floor;           /* 0: the entrance, Party Min */
	enum fg_xp_rule xp_rule;
	char holder[FG_CAT_COUNT][FG_KEY_MAX]; /* user keys, "" for nobody */
	int rooms;                             /* hallways run */
	/* The room's budgets, fixed in its hallway (valid once rooms > 0). */
	struct fg_budgets room;
	/* Choosing categories: the draw's order (member indices, best first;
	 * kept right when a member leaves) and the choices made so far (holder
	 * above holds them). */
	int norder;
	int order[FG_PARTY_MAX];
	int picks_made;
	/* Players whose Fungeoneer died in this dungeon: however they come
	 * back, their new one starts at floor - 1 (kept until the party is
	 * empty, oldest dropped past FG_FALLEN_MAX). */
	int nfallen;
	char (*fallen)[FG_KEY_MAX]; /* nfallen user keys, owned */
	/* The last room left with points unspent, as the players waived it
	 * ("room 2: Traps 1 unspent, waived by alice"), or "". */
	char waived[FG_WAIVED_MAX];
	int nd[FG_KIND_COUNT];              /* 0..FG_DESIGNS_MAX each */
	struct fg_stored *d[FG_KIND_COUNT]; /* nd[k] designs of kind k, owned */
};

/* This channel's Fungeon state (created on first use), or, for peek, NULL
 * when the channel never used Fungeon. */
struct fg_chan *fgchan(struct invocation *inv);
const struct fg_chan *fgchan_peek(const struct channel *ch);

/* Appends a zeroed member and returns it (the caller checked
 * FG_PARTY_MAX). */
struct fg_member *fgchan_member_add(struct fg_chan *c);
/* Frees member i and closes the gap, keeping the others' order. */
void fgchan_member_remove(struct fg_chan *c, int i);
/* Appends a zeroed design of kind k and returns it (the caller checked
 * FG_DESIGNS_MAX). */
struct fg_stored *fgchan_design_add(struct fg_chan *c, enum fg_kind k);
/* Removes design i of kind k, keeping the others' order. */
void fgchan_design_remove(struct fg_chan *c, enum fg_kind k, int i);
/* Frees everything c owns, and c. */
void fgchan_free(struct fg_chan *c);
/* Bytes of memory c holds: the struct and every array it owns (what the
 * allocator adds aside). */
size_t fgchan_bytes(const struct fg_chan *c);

/* The member index of a user key, or -1. */
int fgchan_member_of(const struct fg_chan *c, const char *user_key);
/* The member called `name` (its Fungeoneer's or its player's name,
 * case-insensitive), or -1. */
int fgchan_member_named(const struct fg_chan *c, const char *name);
/* The stored design of that kind and name, or NULL. */
struct fg_stored *fgchan_design(struct fg_chan *c, enum fg_kind k, const char *name);
/* Whether name is taken by any Fungeoneer or design. */
bool fgchan_name_used(const struct fg_chan *c, const char *name);

/* Appends "Alba (alice), Brom (bob)" or "nobody yet" to b. */
void fgchan_list_members(const struct fg_chan *c, struct buf *b);
/* Appends the names of the stored designs of kind k, or "none". */
void fgchan_list_designs(const struct fg_chan *c, enum fg_kind k, struct buf *b);

void fgchan_party(const struct fg_chan *c, struct fg_party *p);
int fgchan_floor(const struct fg_chan *c);
/* Budget and points spent this room for kind k. */
int64_t fgchan_budget(const struct fg_chan *c, enum fg_kind k);
int64_t fgchan_spent(const struct fg_chan *c, enum fg_kind k);

/* A dead member i's treasure stays in the room for the others to plunder
 * when the member record goes (a replacement, or the player leaving): each
 * item becomes a stored treasure marked left (outside every budget).
 * Returns how many items were lost because the channel holds
 * FG_DESIGNS_MAX treasures already. */
int fgchan_leave_behind(struct fg_chan *c, int i);

/* Remembers that user_key's Fungeoneer died in this dungeon. */
void fgchan_fallen_add(struct fg_chan *c, const char *user_key);
bool fgchan_fallen(const struct fg_chan *c, const char *user_key);
/* Forgets them all (a new dungeon). */
void fgchan_fallen_clear(struct fg_chan *c);
/* The choosing of categories as rules/fghall.h sees it. */
void fgchan_picks(const struct fg_chan *c, struct fg_picks *p);
/* Stores p's holders and choices made back as user keys. */
void fgchan_picks_store(struct fg_chan *c, const struct fg_picks *p);

/* The member picking category cat, or -1. */
int fgchan_holder(const struct fg_chan *c, enum fg_category cat);
/* Who rolls for an obstacle of category cat: its holder, else the invoker
 * when in the party (inv may be NULL), else nobody (-1). */
int fgchan_roller(const struct fg_chan *c, enum fg_category cat, const struct invocation *inv);

/* Every member's Thwack-O style, distinct where possible. */
void fgchan_styles(const struct fg_chan *c, struct state *st, struct ustyle *out);

/* Splits a list of names ("alba, brom carol") into words. Returns how many
 * (at most max), or -1 when there are more or a word is too long, with an
 * error reply unless out is NULL. */
int fg_split_names(const char *s, char words[][FG_NAME_MAX * 2 + 2], int max, struct reply *out);

/* The members named in a list ("Alba bob"), or with who NULL every living
 * one. Returns how many, or -1 with an error reply. */
int fg_members_named(const struct fg_chan *c, const char *who, int *idx, struct reply *out);

/* Whether member i is named in the bonus option ("all", or names). */
bool fg_bonus_for(const struct fg_chan *c, const char *bonus, int i);
/* Checks that every name in the bonus option is a member; else an error. */
int fg_bonus_check(const struct fg_chan *c, const char *bonus, struct reply *out);

/* Replies with the Fungeoneer named or an error listing them; -1 then. */
int fg_need_member(const struct fg_chan *c, const char *name, struct reply *out);
/* The invoker's member, or an error reply and -1. */
int fg_need_self(const struct fg_chan *c, const struct invocation *inv, struct reply *out);

/* The lines naming who narrates, from a narration found by rules/ (with
 * any Thwack-O tie re-rolls shown); nothing when no player rolled. */
void fg_narration_lines(struct reply *out, const struct cf_narration *n, const struct fg_chan *c,
                        const struct ustyle *styles, const char *what);

/* The subcommand handlers, by file. */
/* cmd_fungeon.c */
void fg_join(struct invocation *inv, struct reply *out);
void fg_leave(struct invocation *inv, struct reply *out);
void fg_sheet(struct invocation *inv, struct reply *out);
void fg_party_cmd(struct invocation *inv, struct reply *out);
void fg_floor_cmd(struct invocation *inv, struct reply *out);
void fg_damage_cmd(struct invocation *inv, struct reply *out);
void fg_heal_cmd(struct invocation *inv, struct reply *out);
void fg_xp_cmd(struct invocation *inv, struct reply *out);
void fg_xprule_cmd(struct invocation *inv, struct reply *out);
/* cmd_fungeon_design.c */
extern const struct command fg_cost_subs[], fg_trap_subs[], fg_monster_subs[], fg_treasure_subs[],
    fg_town_subs[];
void fg_take(struct invocation *inv, struct reply *out);
void fg_use(struct invocation *inv, struct reply *out);
/* cmd_fungeon_conflict.c */
void fg_annoy(struct invocation *inv, struct reply *out);
void fg_find(struct invocation *inv, struct reply *out);
void fg_trigger(struct invocation *inv, struct reply *out);
void fg_pain(struct invocation *inv, struct reply *out);
/* cmd_fungeon_combat.c */
void fg_combat(struct invocation *inv, struct reply *out);
void fg_retreat(struct invocation *inv, struct reply *out);
/* cmd_fungeon_hallway.c */
void fg_hallway_cmd(struct invocation *inv, struct reply *out);
void fg_pick(struct invocation *inv, struct reply *out);
void fg_entrance_cmd(struct invocation *inv, struct reply *out);

/* Budget, spent and left for kind k this room (extra: a design being
 * priced), as one line. */
void fg_budget_line(struct reply *out, const struct fg_chan *c, enum fg_kind k, int64_t extra);

/* A participant of a conflict, resolved from a word. */
enum fg_pkind {
	FGP_MEMBER = 1 << 0,
	FGP_TRAP = 1 << 1,
	FGP_MONSTER = 1 << 2,
	FGP_ABILITY = 1 << 3, /* "monster/ability" */
};

struct fg_part {
	enum fg_pkind kind;
	int member;          /* FGP_MEMBER */
	struct fg_stored *s; /* the trap or monster */
	int ability;         /* FGP_ABILITY: index in s->d.ab */
	int target;          /* Pain: the participant it hits ("Alba>goblin"), or -1 */
	char target_name[FG_NAME_MAX * 2 + 2];
};

/* Resolves one word to a participant of one of the kinds allowed (a mask
 * of enum fg_pkind); "name>target" keeps the target's name for later.
 * Returns 0, or -1 with an error reply listing what exists. */
int fg_part_resolve(struct fg_chan *c, const char *word, unsigned kinds, struct fg_part *out,
                    struct reply *err);
/* The participant's display name ("Alba", "pit", "wasp/sting"). */
const char *fg_part_name(const struct fg_chan *c, const struct fg_part *p, char *buf, size_t len);
/* The category whose holder rolls for it (members: none, -1). */
int fg_part_category(const struct fg_part *p);
/* The obstacle a trap, monster or monster ability is (rules/fgplay.h):
 * its dice, damage type, universality, what a failure brings, the XP of a
 * success and who rolls it (inv may be NULL). */
void fg_obstacle_of(const struct fg_chan *c, const struct fg_part *p, const struct invocation *inv,
                    struct fgp_obstacle *o);

/*
 * An Annoying conflict: obstacle o (its annoy dice, or `dice`) against the
 * members listed. fg_annoy_check() checks dice counts and effect slots
 * (returns -1 with an error reply, nothing rolled or changed).
 * fg_annoy_play() then has rules/fgplay.h decide the outcome into *a,
 * renders every roll, and applies the outcome (XP, continuous effects);
 * the caller adds its own lines and then the narration (a->nar).
 */
int fg_annoy_check(const struct fg_chan *c, const struct fgp_obstacle *o, int dice,
                   const int *members, int n, const char *bonus, struct reply *out);
int fg_annoy_play(struct invocation *inv, struct fg_chan *c, const struct fgp_obstacle *o, int dice,
                  const int *members, int n, const char *bonus, const struct ustyle *styles,
                  struct fgp_annoy *a, struct reply *out);
/* out[i]: whether members[i]'s class fits, by the bonus option. */
void fg_bonus_flags(const struct fg_chan *c, const char *bonus, const int *members, int n,
                    bool *out);

/* A Painful conflict among parts[0..n): fg_pain_check validates (and puts
 * members first, resolving targets); fg_pain_run has rules/fgplay.h decide
 * the outcome, shows the rank-by-rank table and the outcome, applies it
 * (damage, deaths, XP, monsters' hits) and names the narrator. */
int fg_pain_check(struct fg_chan *c, struct fg_part *parts, int n, const char *bonus,
                  struct reply *out);
void fg_pain_run(struct invocation *inv, struct fg_chan *c, struct fg_part *parts, int n,
                 const char *bonus, const struct ustyle *styles, struct reply *out);

/* Renders an Annoying conflict's outcome: the obstacle's roll, then each
 * member's with its result and XP. */
void fg_annoy_render(struct reply *out, const struct fg_chan *c, const struct fgp_obstacle *o,
                     const struct fgp_annoy *a, const struct ustyle *styles);

/* Copies src into dst[size], cut short on a character boundary. */
void fg_fit_label(char *dst, size_t size, const char *src);
/* Renders group g as "label: 6 ◆4 1" (the Thwack-O die in its player's
 * style), then the suffix; ends the line. */
void fg_group_line(struct reply *out, const struct cf_group *g, const char *label,
                   const struct ustyle *styles, const char *suffix);

/* Renders one continuous-effect roll (hallway step 3, combat step 1). */
void fg_cont_render(struct reply *out, const struct fg_chan *c, const struct fg_cont *k,
                    const struct ustyle *styles);

/* The rank-by-rank table of a Painful conflict: a row per rank with each
 * roll's die there (0 once it ran out; the Thwack-O die carries its
 * player's mark), the winner and the damage point it dealt. */
void fg_pain_table(struct reply *out, const char *const *names, const struct cf_group *const *g,
                   int n, const struct cf_pain *res, const struct ustyle *styles,
                   const struct fg_chan *c);

#endif
