/*
 * user: a user record (see state.h for the table that holds them): the
 * user's display name and chosen Thwack-O style.
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

#include "commands/reply.h" /* struct ustyle */

struct user;

const char *user_key(const struct user *u);
const char *user_name(const struct user *u);
void user_set_name(struct user *u, const char *name);
/* The user's chosen Thwack-O style, or NULL when none was chosen. */
const struct ustyle *user_style(const struct user *u);
void user_set_style(struct user *u, const struct ustyle *style);
void user_clear_style(struct user *u);
void user_touch(struct user *u);
bool user_touched(const struct user *u);

#endif
