/*
 * irc_join: the channels an IRC session (bot/irc/irc_conn) keeps joined: which
 * are to be joined, the JOIN lines that join them (as few as fit, keyed
 * channels first with their keys in the same order), and a new list on a
 * reload (PART for the channels gone, JOIN for the new and the re-keyed).
 * It works on the inside of struct irc_conn (irc_conn_int.h), as
 * bot/irc/irc_reg does; nothing but bot/irc/irc_conn.c calls it.
 *
 * Ownership: the names and keys given to irc_join_set are kept by pointer
 * (they are the configuration's, which outlives them).
 */
#ifndef DELVER_IRC_JOIN_H
#define DELVER_IRC_JOIN_H

#include <stdbool.h>
#include <stddef.h>

#include "bot/irc/irc_conn_int.h"

/* Whether s may be an item of a JOIN list: no comma, no space, never empty. */
bool irc_join_item_ok(const char *s);
/* Whether ch is to be joined now. */
bool irc_join_wanted(const struct chanrec *ch);
/* Queues the JOIN of ch (with its key, if any). */
void irc_join_one(struct irc_conn *c, const struct chanrec *ch);
/* Joins every channel not joined in as few lines as fit: keyed channels
 * first, their keys in the same order ("JOIN #k1,#k2,#open k1,k2"). */
void irc_join_all(struct irc_conn *c);
/* Makes names (with keys) the channels to keep joined; see
 * irc_conn_reconfigure. */
void irc_join_set(struct irc_conn *c, char *const *names, char *const *keys, size_t n);

#endif
