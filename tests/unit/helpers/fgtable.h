/*
 * fgtable: a Fungeon table for the unit tests: players typing commands in
 * one channel ("console:t", or the one chan names) of a fresh state with a seeded rng, and the
 * steps every test of a room repeats (the choosing of categories in the
 * draw's order, a piece made by the player who holds its category).
 *
 * Returned texts are the caller's to free.
 */
#ifndef DELVER_TEST_FGTABLE_H
#define DELVER_TEST_FGTABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "commands/core/dispatch.h"
#include "commands/fungeon/fungeon_channel.h"
#include "rules/base/rng.h"

struct fgtable {
	struct state *st;
	struct rng *rng;
	struct dispatch *d;
	struct reply *last;
	/* the console channel typed in, "t" while NULL; the other functions
	 * below (the Fungeon state, the steps) follow it too */
	const char *chan;
	/* fgtable_fungeon() gave the state out to be changed by hand, between
	 * commands: each command then starts with no kept text of it. */
	bool by_hand;
};

struct fgtable *fgtable_new(uint64_t seed);
void fgtable_free(struct fgtable *t);

/* Runs line as user; returns the reply's plain text. */
char *fgtable_run(struct fgtable *t, const char *user, const char *line);
/* Runs line as user and fails the test when the reply is an error. */
void fgtable_ok(struct fgtable *t, const char *user, const char *line);
/* Runs line as user, which must succeed; returns the reply's plain text. */
char *fgtable_said(struct fgtable *t, const char *user, const char *line);
/* Runs line as user, which must succeed with a reply that holds want. */
void fgtable_says(struct fgtable *t, const char *user, const char *line, const char *want);
/* Runs line, which must fail with error (any error when NULL) and leave
 * the channel's saved state as it was. */
void fgtable_fails_unchanged(struct fgtable *t, const char *user, const char *line,
                             const char *error);

/* Runs line as the user "gm", who holds the channel's GM seat (claimed
 * first when nobody holds it); it must succeed. */
void fgtable_gm(struct fgtable *t, const char *line);

/* The channel's Fungeon state (created when missing), to change by hand
 * between commands: what the channel keeps of its text is dropped before
 * each command from then on (t->by_hand), as a state changed outside any
 * command is not what it was kept of. */
struct fungeon_channel *fgtable_fungeon(struct fgtable *t);
/* The channel's Fungeon state as JSON text. */
char *fgtable_saved(struct fgtable *t);
/* The channel's Fungeon state saved as JSON text and read back in its
 * place, as a restart reads it; returns the state read. */
struct fungeon_channel *fgtable_reload(struct fgtable *t);
/* Fails the test unless c saved as JSON text, loaded and saved again gives
 * the same text, the loaded state holding as many bytes as c. */
void fgtable_round_trips(const struct fungeon_channel *c);

/* Whoever is next chooses, in the draw's order, the first category not
 * held yet, Traps before Monsters before Treasure, until all are held. */
void fgtable_pick_all(struct fgtable *t);
/* The player (user name) holding category cat in this room. */
const char *fgtable_holder(struct fgtable *t, enum fungeon_category cat);
/* Runs line as the holder of cat, which must succeed. */
void fgtable_make(struct fgtable *t, enum fungeon_category cat, const char *line);
/* The party goes into the room with every point left unspent: the GM
 * lets them go (waive:true, a correction outside the rules where a new
 * piece could still use them): whoever holds the seat, or else the user
 * "gm", who claims it for that and releases it after. */
void fgtable_enter_waived(struct fgtable *t);
/* fgtable_enter_waived(), returning the text of the reply to waive:true. */
char *fgtable_waived_said(struct fgtable *t);
/* The first n (1 to 5) of the users al, bo, cy, di and ed join, in that
 * order, as the level lv fighters Al, Bo, Cy, Di and Ed. */
void fgtable_fighters(struct fgtable *t, int n, int lv);
/* al and bo join, in that order, as the fighters Al (level al) and Bo
 * (level bo). */
void fgtable_pair(struct fgtable *t, int al, int bo);
/* alice, bob and carol join, in that order, as the wizard Alba (level
 * alba), the fighter Brom (brom) and the rogue Cora (cora); a level of 0
 * leaves that one, and those after, out. */
void fgtable_adventurers(struct fgtable *t, int alba, int brom, int cora);
/* The first n of al, bo, cy, di and ed join as level lv fighters, al opens
 * the hallway and the categories are chosen (fgtable_pick_all); returns
 * the channel's Fungeon state. */
struct fungeon_channel *fgtable_drawn(struct fgtable *t, int n, int lv);
/* Member i is held by the monster ability source ("vine/grab": its Annoy
 * dice and Type), made by the player holding Monsters, as a failed roll
 * against it in combat would leave it. */
void fgtable_held(struct fgtable *t, int i, const char *source, int annoy, const char *type);
/* Member i carries a treasure of that name and cost (a mundane item, or
 * fancy when fancy). */
void fgtable_give(struct fgtable *t, int i, const char *name, int64_t cost, bool fancy);
/* Member i will die in the next hallway's continuous damage: it has 1
 * hit left and carries a trap's Needle (100 Annoy dice, 100 Pain dice,
 * poison) that it cannot shake off, and, unless item is NULL, a treasure
 * of that name (a fancy item, 2 points) that its death leaves in the room
 * ahead. */
void fgtable_doomed(struct fgtable *t, int i, const char *item);
/* The party (whoever joined) goes from town or a room through the given
 * number of rooms, the first player of the party opening each hallway,
 * the categories chosen (fgtable_pick_all) and every point waived;
 * returns the channel's Fungeon state. */
struct fungeon_channel *fgtable_rooms_waived(struct fgtable *t, int rooms);
/* The party goes from town into room 1 as fgtable_room_made says, the
 * user opener opening the hallway. */
void fgtable_room_made_by(struct fgtable *t, const char *opener, const char *const *designs);
/* The party (whoever joined) goes from town into room 1: al opens the
 * hallway, the categories are chosen (fgtable_pick_all), the design lines
 * (NULL-terminated /fungeon trap, monster or treasure lines) are made by
 * the players holding their categories, and every point left is waived. */
void fgtable_room_made(struct fgtable *t, const char *const *designs);
/* Al (user al, level lv, a fighter) joins whoever joined before, and the
 * party goes into room 1 with the design lines (fgtable_room_made);
 * returns the channel's Fungeon state. */
struct fungeon_channel *fgtable_into_room(struct fgtable *t, int lv, const char *const *designs);
/* Al and Bo (users al and bo) join as level lv fighters and go into
 * room 1 with the design lines (fgtable_room_made); returns the channel's
 * Fungeon state. */
struct fungeon_channel *fgtable_two_in_room(struct fgtable *t, int lv, const char *const *designs);
/* Every Fungeoneer of the party dies, in the party's order, each by its
 * own player's "/fungeon adjust NAME hits:-99", which must succeed. */
void fgtable_all_fall(struct fgtable *t);
/* Al, Bo and Cy (users al, bo, cy) at level 6 go into room 1, cy making
 * the monster lines (NULL-terminated) as the holder of Monsters, however
 * the draw fell; every point waived. */
struct fungeon_channel *fgtable_three(struct fgtable *t, const char *const *monsters);
/* Al (user al, a level 1 fighter) alone goes in at the entrance, the GM
 * sets the floor, and al makes the monster line for room 1 (points
 * waived), then enters it; returns the channel's Fungeon state. */
struct fungeon_channel *fgtable_alone_on_floor(struct fgtable *t, int floor, const char *monster);
/* Whoever joined goes through rooms 1 and 2 (points waived) and heads
 * back from room 2, so that the party is on the way back in room 1;
 * returns the channel's Fungeon state. */
struct fungeon_channel *fgtable_heading_back(struct fgtable *t);
/* Fails the test unless text holds want. */
void fgtable_holds(const char *text, const char *want);

#endif
