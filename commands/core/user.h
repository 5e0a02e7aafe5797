/*
 * user: a user record (see state.h for the table that holds them): the
 * user's display name, chosen Thwack-O style and saved rolls.
 *
 * Every change to a user must be followed by user_touch(): the dispatcher
 * makes touched records durable before the reply that acknowledges the
 * change is sent.
 *
 * Ownership: the state owns every record (state.h); the strings returned
 * here belong to the record and change with it.
 */
#ifndef DELVER_USER_H
#define DELVER_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/reply.h" /* struct thwacko_style */

struct user;

const char *user_key(const struct user *u);
const char *user_name(const struct user *u);
void user_set_name(struct user *u, const char *name);
/* The user's chosen Thwack-O style, or NULL when none was chosen. */
const struct thwacko_style *user_style(const struct user *u);
void user_set_style(struct user *u, const struct thwacko_style *style);
void user_clear_style(struct user *u);
void user_touch(struct user *u);
bool user_touched(const struct user *u);
/* True when the user holds nothing to keep (no style chosen, no saved
 * roll): such a user has no saved record. */
bool user_is_empty(const struct user *u);
/* When the user last ran a command or was loaded (unix seconds; memory
 * only). */
int64_t user_last_used(const struct user *u);
void user_set_last_used(struct user *u, int64_t when);
/* The generation of the user's stored row (0: never stored). */
uint64_t user_generation(const struct user *u);
void user_set_generation(struct user *u, uint64_t generation);

/* A player's own saved rolls ("/save fireball 8d6"), kept in the user
 * record so they follow the player to every channel of the platform. The
 * name and roll rules are rollchan's (commands/dice/rollchan.h); the record only
 * keeps them, at most USER_SAVED_MAX, names unique without regard to case. */
#define USER_SAVED_MAX      50
#define USER_SAVED_NAME_MAX 97  /* bytes with the NUL (ROLLCHAN_NAME_MAX) */
#define USER_SAVED_ROLL_MAX 201 /* bytes with the NUL (ROLLCHAN_ROLL_MAX) */

struct user_saved {
	char name[USER_SAVED_NAME_MAX];
	char roll[USER_SAVED_ROLL_MAX];
};

size_t user_nsaved(const struct user *u);
/* The i-th saved roll (0 <= i < user_nsaved()), in the order saved. */
const struct user_saved *user_saved_at(const struct user *u, size_t i);
/* The saved roll of that name (case ignored in every script), or NULL. */
const struct user_saved *user_saved_find(const struct user *u, const char *name);
/* Saves or replaces name (both strings cut to fit). Returns 0, or -1 when
 * the user already keeps USER_SAVED_MAX others. */
int user_save(struct user *u, const char *name, const char *roll);
/* Deletes name; returns whether there was one. */
bool user_saved_delete(struct user *u, const char *name);

#endif
