/*
 * fungeon_room: a Fungeon dungeon's life cycle and the room the party is in
 * (the rule text's "Playing Fungeon", "Heading Back to Town").
 *
 * A party is in one phase at a time:
 *   town      no dungeon under way: before the first, or back from one;
 *             treasure is traded here (and the healer sells healing magic);
 *   entrance  at a dungeon's entrance, which opens on floor Party Min;
 *   hallway   between rooms: the hallway's steps ran, the players choose
 *             categories and make room N's traps, monsters and treasure;
 *   room      in room N, with what was made for it;
 *   retreat   heading back to town, in a room re-entered on the way (it
 *             holds only the wandering monsters built before entering it).
 * The moves: town -> entrance (the entrance roll) -> hallway (the hallway)
 * -> room (entering) -> hallway (the next hallway) ...; from the entrance,
 * a hallway or a room the party may head back: it re-enters each room it
 * came through, nearest first, and reaches town after room 1.
 *
 * fungeon_dungeon_may() is the one place that says what a party may do in
 * its phase; a refusal is one sentence, with the action that would help
 * (the commands render it as the command to type).
 *
 * A room holds its pieces: each trap with its state (hidden, found,
 * disarmed, sprung), each monster with its hits, each treasure (taken by
 * whom, or left by a dead Fungeoneer). Only the Traps player of the room
 * makes its traps, and so on: the categories and their holders belong to
 * the room. The pieces of earlier rooms are gone: a new room starts empty.
 *
 * Memory: a room owns its piece arrays, of exactly as many elements as it
 * holds (NULL when none); fungeon_room_clear() frees them. A room may be
 * moved but not copied (the copy would share the arrays). Allocation
 * follows rules/base/mem.h (it never fails). Pure: no I/O, no globals.
 */
#ifndef DELVER_FUNGEON_ROOM_H
#define DELVER_FUNGEON_ROOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/fungeon/fungeon.h"
#include "rules/fungeon/fungeon_hallway.h"

#define FUNGEON_DESIGNS_MAX 24 /* pieces of each kind made for one room */
/* Treasure a room can hold: what was made for it and every item the party
 * brought in, should all of it be left by the dead. */
#define FUNGEON_ROOM_TREASURE_MAX (FUNGEON_DESIGNS_MAX + FUNGEON_PARTY_MAX * FUNGEON_ITEMS_MAX)
/* Monsters a room can hold: those made for it and one wanderer for each
 * failure of every player before it. */
#define FUNGEON_ROOM_MONSTERS_MAX (FUNGEON_DESIGNS_MAX + FUNGEON_PARTY_MAX * FUNGEON_WANDERERS_MAX)
#define FUNGEON_PATH_MAX          64 /* floor changes one dungeon remembers */

enum fungeon_phase {
	FUNGEON_TOWN = 0,
	FUNGEON_ENTRANCE,
	FUNGEON_HALLWAY,
	FUNGEON_ROOM,
	FUNGEON_RETREAT,
	FUNGEON_PHASE_COUNT
};

/* "town", "entrance", "hallway", "room", "retreat" (as saved). */
const char *fungeon_phase_name(enum fungeon_phase p);
/* The phase of that name, or -1. */
int fungeon_phase_parse(const char *name);

enum fungeon_trap_state {
	FUNGEON_TRAP_HIDDEN = 0,
	FUNGEON_TRAP_FOUND,    /* searched for and found, or seen springing (Unlimited Use) */
	FUNGEON_TRAP_DISARMED, /* done: it springs no more */
	FUNGEON_TRAP_SPRUNG,   /* done: a trap without Unlimited Use springs once */
	FUNGEON_TRAP_STATE_COUNT
};

/* "hidden", "found", "disarmed", "sprung". */
const char *fungeon_trap_state_name(enum fungeon_trap_state s);
int fungeon_trap_state_parse(const char *name);

/* A trap, monster or treasure made for a room. */
struct fungeon_piece {
	char name[FUNGEON_NAME_MAX + 1];
	char maker[FUNGEON_KEY_MAX]; /* who made it, rolls for it and controls it */
	struct fungeon_design d;
	int64_t cost;
	/* traps */
	enum fungeon_trap_state state;
	bool passed;      /* triggered, disarmed or sidestepped (what Guards Treasure waits for) */
	uint32_t unaware; /* bit i: member i searched for it and failed (blissful ignorance) */
	/* monsters */
	int hits;
	bool wanderer; /* built from wandering points on the way back */
	/* its director's standing orders: whom its won ranks hurt ("" the
	 * default), and the special ability it uses in each turn ("" its
	 * first, "none" none) */
	char aim[FUNGEON_NAME_MAX + 1];
	char use[FUNGEON_NAME_MAX + 1];
	/* treasure */
	char taken[FUNGEON_NAME_MAX + 1]; /* the Fungeoneer who took it, or "" */
	bool left; /* left in the room by a Fungeoneer who died, or who left the party */
	/* the one of those that left it alive (taken out of the party), or ""
	 * for the dead */
	char by[FUNGEON_NAME_MAX + 1];
};

struct fungeon_room {
	int64_t number; /* 1, 2, ...; 0 when there is none */
	int floor;
	struct fungeon_party party;     /* as its hallway counted it (steps 1 and 2) */
	struct fungeon_budgets budgets; /* from party and floor, fixed for the room */
	bool stair;                     /* Party Min rose in its hallway: a downward stair */
	struct fungeon_picks picks;     /* the draw's order and who holds each category */
	/* Who let each category's points left go unspent ("" nobody yet):
	 * its holder, or the GM (a Ruling: nobody waives another's points). */
	char waived_by[FUNGEON_CAT_COUNT][FUNGEON_PLAYER_MAX];
	/* Whether that waiver is the GM's, outside the rules: it stands as
	 * made. A holder's covers only points no new piece can use, checked
	 * again at each piece of its category made or unmade and at entry. */
	bool waived_gm[FUNGEON_CAT_COUNT];
	int n[FUNGEON_KIND_COUNT];
	struct fungeon_piece *p[FUNGEON_KIND_COUNT]; /* n[k] pieces of kind k, owned */
};

/* One point of the way down: from room `room` on, the party was on `floor`. */
struct fungeon_step {
	int64_t room;
	int floor;
};

struct fungeon_dungeon {
	enum fungeon_phase phase;
	int floor;     /* the floor the next room is made on (0 in town) */
	int64_t rooms; /* rooms entered in this dungeon */
	int64_t back;  /* retreat: the room re-entered now (0: none yet) */
	int npath;
	struct fungeon_step path[FUNGEON_PATH_MAX]; /* floors by room, oldest first */
	struct fungeon_room room;                   /* the room in play, or being made */
};

/* What a party may try. */
enum fungeon_act {
	FUNGEON_ACT_NONE = 0,
	FUNGEON_ACT_ENTRANCE, /* the entrance roll */
	FUNGEON_ACT_HALLWAY,  /* run the hallway: into the dungeon, or on from a room */
	FUNGEON_ACT_PICK,     /* choose a category */
	FUNGEON_ACT_DESIGN,   /* make or unmake a piece of the room */
	FUNGEON_ACT_WANDERER, /* build a wandering monster */
	FUNGEON_ACT_ENTER,    /* enter the room made in the hallway */
	FUNGEON_ACT_TRAP,     /* search for, trigger or disarm a trap */
	FUNGEON_ACT_COMBAT,
	FUNGEON_ACT_TAKE,    /* take the room's treasure */
	FUNGEON_ACT_PLUNDER, /* take what the dead left */
	FUNGEON_ACT_RETREAT, /* head back to town, or go on back */
	FUNGEON_ACT_TRADE,   /* sell or buy treasure */
	FUNGEON_ACT_HEALER,  /* buy the healer's magic */
	FUNGEON_ACT_SESSION, /* begin a new game session */
	FUNGEON_ACT_FLOOR,   /* set the floor by hand (a correction outside the rules) */
	FUNGEON_ACT_STAIR,   /* take the room's downward stair */
	FUNGEON_ACT_JOIN,
};

/* Why an action is refused: one sentence that ends where the action to
 * take instead is to be named ("...; head back first with"), or a whole
 * sentence when instead is FUNGEON_ACT_NONE. */
struct fungeon_refusal {
	char why[240];
	enum fungeon_act instead;
};

/* Whether the party may do a now. Returns 0, or -1 with *r filled. */
int fungeon_dungeon_may(const struct fungeon_dungeon *d, enum fungeon_act a,
                        struct fungeon_refusal *r);

/* A town action (trade, healer, session) as the opening of its refusal
 * outside town ("The healer is found only in town"); NULL for any other. */
const char *fungeon_dungeon_town_words(enum fungeon_act a);

/* "room 3 on floor 2", "the hallway before room 4", "town", ... */
void fungeon_dungeon_where(const struct fungeon_dungeon *d, char *buf, size_t len);

/* Frees the room's pieces and empties it. */
void fungeon_room_clear(struct fungeon_room *r);
/* Frees what the dungeon owns; it is then in town. */
void fungeon_dungeon_clear(struct fungeon_dungeon *d);

/*
 * Into the dungeon: the entrance opens on floor Party Min (1 for an empty
 * party), no room yet. From town only.
 */
void fungeon_dungeon_begin(struct fungeon_dungeon *d, const struct fungeon_party *p);

/*
 * A new hallway: the room left behind goes (with all it held), and room
 * rooms + 1 is made on the dungeon's floor, with the party figures and
 * budgets of the hallway (after its steps 1 and 2) and its stair when
 * Party Min rose. The caller runs the hallway's steps (fungeon_hallway())
 * and then stores its draw with fungeon_room_picks_start().
 */
void fungeon_dungeon_hallway(struct fungeon_dungeon *d, const struct fungeon_party *after,
                             const struct fungeon_budgets *b, bool stair);
/*
 * Whether the hallway before the room ahead runs again: it ran and nobody
 * was left to draw (the whole party died in its continuous damage), so no
 * one holds a category and the room cannot be made. Once the players have
 * made new Fungeoneers (line 53: whoever died makes a new one, before the
 * draw), the hallway runs again for the same room: they join and draw.
 */
bool fungeon_dungeon_hallway_again(const struct fungeon_dungeon *d);
/* The hallway ran again for the room ahead: it keeps what lies in it (what
 * the dead left), and takes the party figures and budgets of the run (a
 * stair placed before stays). */
void fungeon_dungeon_hallway_rerun(struct fungeon_dungeon *d, const struct fungeon_party *after,
                                   const struct fungeon_budgets *b, bool stair);

/* At the entrance, before the first room, the floor is Party Min's (line
 * 46): after a join or a leave, moves it to party p's Party Min (a party
 * with nobody alive leaves it). Returns whether it moved. */
bool fungeon_dungeon_entrance_follows(struct fungeon_dungeon *d, const struct fungeon_party *p);

/* Enters the room made in the hallway: it is room `rooms`, on its floor
 * (remembered for the way back). */
void fungeon_dungeon_enter(struct fungeon_dungeon *d);

/* The floor room n (1..rooms) was made on. */
int fungeon_dungeon_floor_of(const struct fungeon_dungeon *d, int64_t n);

/*
 * Sets the floor of the rooms to come. Returns 0, or -1 with one sentence
 * in err when the dungeon remembers FUNGEON_PATH_MAX floor changes already.
 * By the rules the floor changes only by fungeon_dungeon_take_stair(); a
 * floor set by any other road is a correction outside them.
 */
int fungeon_dungeon_set_floor(struct fungeon_dungeon *d, int floor, char *err, size_t errlen);

/*
 * Takes the downward stair of the room the party is in (placed because
 * Party Min rose in the hallway before it): the rooms to come are one
 * floor deeper, and no deeper. Returns 0, or -1 with one sentence in err
 * when the party is not in a room, the room has no stair, the party took
 * it already, or the floor is FUNGEON_FLOOR_MAX.
 */
int fungeon_dungeon_take_stair(struct fungeon_dungeon *d, char *err, size_t errlen);

/* The room the party re-enters next on the way back, or 0 when the next
 * step reaches the entrance (and town). */
int64_t fungeon_dungeon_next_back(const struct fungeon_dungeon *d);
/* Steps back: the room left behind goes, and the party is in room n
 * (from fungeon_dungeon_next_back(), > 0), empty but for the wandering
 * monsters to come and, stepping back from a hallway, what the dead left
 * in the room ahead of it and nobody took (line 254: for the others to
 * plunder; the party never enters that room). */
void fungeon_dungeon_reenter(struct fungeon_dungeon *d, int64_t n);
/* Out of the dungeon: the room goes, the party is in town. */
void fungeon_dungeon_town(struct fungeon_dungeon *d);

/* Appends a zeroed piece of kind k to r and returns it (the caller checked
 * the limits: FUNGEON_DESIGNS_MAX, or FUNGEON_ROOM_TREASURE_MAX for left
 * treasure). Pointers to r's pieces of kind k are then stale. */
struct fungeon_piece *fungeon_room_add(struct fungeon_room *r, enum fungeon_kind k);
/* Removes piece i of kind k, keeping the others' order. */
void fungeon_room_remove(struct fungeon_room *r, enum fungeon_kind k, int i);
/* The piece of kind k called name (case-insensitive), or NULL. */
struct fungeon_piece *fungeon_room_find(const struct fungeon_room *r, enum fungeon_kind k,
                                        const char *name);
/* Points of kind k spent on this room (left treasure and wanderers aside). */
int64_t fungeon_room_spent(const struct fungeon_room *r, enum fungeon_kind k);
/* How many pieces of kind k were made for the room (left treasure and
 * wanderers aside): what FUNGEON_DESIGNS_MAX bounds. */
int fungeon_room_made(const struct fungeon_room *r, enum fungeon_kind k);
/* The fewest points a new piece of kind k costs in room r: a trap 2 (a
 * point of Annoy dice and a Pain die), a monster the floor (it costs at
 * least that, and 1 for its level), a treasure 1 (a mundane item). */
int64_t fungeon_room_cheapest(const struct fungeon_room *r, enum fungeon_kind k);
/* Whether left points of kind k can still buy a new piece for room r: at
 * least the cheapest, with room for one more (FUNGEON_DESIGNS_MAX). The
 * text has every point spent; Ruling: a holder waives only points that
 * cannot. */
bool fungeon_room_left_usable(const struct fungeon_room *r, enum fungeon_kind k, int64_t left);
/* What becomes of a waiver of a category's points left unspent. The text
 * has every point spent (line 67); Ruling: a holder's waiver covers only
 * points no new piece can use, and is checked again whenever what is left
 * changes; the GM's, outside the rules, stands as made. */
enum fungeon_waiver_verdict {
	FUNGEON_WAIVER_NONE = 0, /* nobody waived them */
	FUNGEON_WAIVER_STANDS,
	FUNGEON_WAIVER_LAPSES,
};
enum fungeon_waiver_reason {
	FUNGEON_WAIVER_BY_GM = 0,    /* stands: the GM's, outside the rules */
	FUNGEON_WAIVER_TOO_FEW,      /* stands: fewer than the cheapest new piece costs */
	FUNGEON_WAIVER_ROOM_FULL,    /* stands: the room holds the most pieces of that kind */
	FUNGEON_WAIVER_USABLE,       /* lapses: a new piece could use them */
	FUNGEON_WAIVER_NOTHING_LEFT, /* lapses: every point is spent */
};
struct fungeon_waiver {
	enum fungeon_waiver_reason reason;
	int64_t left;     /* the points left */
	int64_t cheapest; /* what a new piece of that kind costs at least here */
};
/* The verdict on the waiver of kind k's `left` points in room r (and, in
 * *why, its reason and figures; FUNGEON_WAIVER_NONE leaves *why as it
 * was). */
enum fungeon_waiver_verdict fungeon_room_waiver(const struct fungeon_room *r, enum fungeon_kind k,
                                                int64_t left, struct fungeon_waiver *why);
/* Whether effect e is a Continuous Hold whose monster (the part of its
 * source before the '/') no longer stands in r: the hold is re-rolled in
 * the special-ability part of combat, which a defeated monster has no
 * more, so it ends with its monster. */
bool fungeon_room_hold_over(const struct fungeon_room *r, const struct fungeon_effect *e);

/* Monsters of the room with hits left. */
int fungeon_room_standing(const struct fungeon_room *r);

/*
 * Member m died or leaves the party (alive: each piece's by names it): every item it carries is
 * left in the room for the others to plunder (each becomes a treasure piece marked left: the room's
 * own piece again when m took it here, else a new one, a name already used there getting a number:
 * "Gem2"). Never fails: the room holds room for every item the party can carry.
 */
void fungeon_room_leave_items(struct fungeon_room *r, struct fungeon_member *m);

/* The party's member i left: bits and indices naming members after it move
 * down by one, those naming it go; the categories it held go to the
 * highest roller left. */
void fungeon_room_member_gone(struct fungeon_room *r, int i);

/* The member holding category c (who makes its pieces), or -1. */
int fungeon_room_holder(const struct fungeon_room *r, enum fungeon_category c);

/*
 * Whether the room's treasure can be taken: with traps that Guard Treasure,
 * once every one of them was triggered, disarmed or sidestepped (*guard:
 * the first that was not); without, once the room's monsters are dead.
 */
enum fungeon_treasure_gate {
	FUNGEON_TREASURE_OPEN = 0,
	FUNGEON_TREASURE_GUARDED,
	FUNGEON_TREASURE_MONSTERS,
};
enum fungeon_treasure_gate fungeon_room_treasure_gate(const struct fungeon_room *r,
                                                      const struct fungeon_piece **guard);

#endif
