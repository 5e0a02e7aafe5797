/*
 * fungeon: the Fungeon command family's shared types (internal to
 * commands/fungeon/). Each file's functions are declared in its own header:
 * fungeon_channel.h (the channel's state and its lookups), fungeon_roll.h
 * (participants, the Annoying conflict), fungeon_pain.h (the Painful
 * conflict), fungeon_render.h (how rolls look), fungeon_save.h (the
 * channel module) and cmd_fungeon*.h, cmd_thwacko.h, cmd_xp.h (commands).
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
 * Conflicts are decided by rules/fungeon/fungeon_play.h into an outcome; the handlers
 * check their input, apply that outcome to the channel and render it:
 * each group with its Thwack-O die drawn in the player's style (members
 * first, so a player's Thwack-O die lands on their own Fungeoneer when they
 * also roll for a trap or monster), ending with the line naming who
 * narrates.
 */
#ifndef DELVER_FUNGEON_CMD_H
#define DELVER_FUNGEON_CMD_H

#include <stdbool.h>
#include <stdint.h>

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

#endif
