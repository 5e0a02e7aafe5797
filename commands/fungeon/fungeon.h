/*
 * fungeon: the Fungeon command family's shared types (internal to
 * commands/fungeon/). Each file's functions are declared in its own header:
 * fungeon_channel.h (the channel's state and its lookups), fungeon_roll.h
 * (participants, the Annoying conflict), fungeon_pain.h (the Painful
 * conflict), fungeon_render.h (how rolls look), fungeon_save.h (the
 * channel module) and cmd_fungeon*.h, cmd_thwacko.h, cmd_xp.h (commands).
 *
 * The per-channel state is a chanmod slot (CHANMOD_FUNGEON, module
 * fungeon_mod): the party (each member with its default Thwack-O style),
 * the xp-rule setting and the dungeon (rules/fungeon/fungeon_room.h: its
 * phase, floor and the room with its traps, monsters and treasure).
 * Continuous effects and carried treasure live in the party's members.
 * Every command first asks the rules whether the party may do it now
 * (fungeon_channel_may()); handlers validate everything before the first
 * change, so state is unchanged on every error, and call channel_touch()
 * after a change.
 *
 * Memory: struct fungeon_channel owns its members (and their styles), an
 * array of exactly as many elements as the party holds (NULL when none),
 * grown and shrunk only through fungeon_channel_member_add/remove; the
 * dungeon owns its room's pieces (fungeon_room.h). Limits are checked by
 * the handlers, with an error reply, before anything is added. Adding or
 * removing moves the arrays, so a pointer to a member or piece is stale
 * after either.
 *
 * Conflicts are decided by rules/fungeon/ into an outcome; the handlers
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

#include "commands/core/reply.h"
#include "rules/fungeon/conflict.h"
#include "rules/fungeon/fungeon.h"
#include "rules/fungeon/fungeon_cost.h"
#include "rules/fungeon/fungeon_hallway.h"
#include "rules/fungeon/fungeon_play.h"
#include "rules/fungeon/fungeon_room.h"

#define FUNGEON_FALLEN_MAX 16  /* players remembered as having lost a Fungeoneer */
#define FUNGEON_WAIVED_MAX 256 /* bytes of the waiver record, with the NUL */

struct fungeon_channel {
	int n;                       /* 0..FUNGEON_PARTY_MAX */
	struct fungeon_member *m;    /* n members, owned */
	struct thwacko_style *style; /* n default styles, one per member, owned */
	enum fungeon_xp_rule xp_rule;
	struct fungeon_dungeon d;
	/* Players whose Fungeoneer died in this dungeon: however they come
	 * back, their new one starts at floor - 1 (kept until the dungeon
	 * ends, oldest dropped past FUNGEON_FALLEN_MAX). */
	int nfallen;
	char (*fallen)[FUNGEON_KEY_MAX]; /* nfallen user keys, owned */
	/* The last room entered with points unspent, as the players waived it
	 * ("room 2: points left unspent, waived by alice: Traps 1"), or "". */
	char waived[FUNGEON_WAIVED_MAX];
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
	int member;              /* FGP_MEMBER */
	struct fungeon_piece *s; /* the trap or monster */
	int ability;             /* FGP_ABILITY: index in s->d.ab */
	int target;              /* Pain: the participant it hits ("Alba>goblin"), or -1 */
	char target_name[FUNGEON_NAME_MAX * 2 + 2];
	/* a standing order: when its target is not in the conflict, the
	 * default holds instead of an error */
	bool target_soft;
	bool held; /* FGP_MEMBER: held this turn (rolls, but its won ranks deal nothing) */
};

#endif
