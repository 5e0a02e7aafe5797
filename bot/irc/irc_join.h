/*
 * irc_join: the channels an IRC session (bot/irc/irc_conn) keeps joined: which
 * are to be joined, the JOIN lines that join them (as few as fit, keyed
 * channels first with their keys in the same order), a new list on a
 * reload (PART for the channels gone, JOIN for the new and the re-keyed),
 * and the way back into a channel lost or refused: when, and whether, it
 * is joined again.
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
/* Joins every channel not joined in as few lines as fit: keyed channels
 * first, their keys in the same order ("JOIN #k1,#k2,#open k1,k2"). */
void irc_join_all(struct irc_conn *c);
/* Makes names (with keys) the channels to keep joined; see
 * irc_conn_reconfigure. */
void irc_join_set(struct irc_conn *c, char *const *names, char *const *keys, size_t n);

/* The bot left chan (kicked, or its own PART): its members are forgotten,
 * and a configured channel is joined again after a delay. */
void irc_join_lost(struct irc_conn *c, const char *chan, int64_t now);
/* The server refused to join a channel (num, one of 403, 405, 437, 471,
 * 473, 474, 475, 477; m names it as its second parameter); nothing happens
 * for one not configured. One that does not exist (403) is not tried
 * again, one refused for its key (475, logged with the mend) not on this
 * link unless the key changes; the others after a delay. */
void irc_join_refused(struct irc_conn *c, int num, const struct irc_msg *m, int64_t now);
/* Joins the channels whose delay is over (at irc_conn_tick). */
void irc_join_due(struct irc_conn *c, int64_t now);

#endif
