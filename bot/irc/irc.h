/*
 * irc: delver's commands on IRC, for one network: what a PRIVMSG asks, who
 * asked, where, and the reply sent back. No I/O: lines go out through the
 * network's irc_conn (and so through its flood control).
 *
 * In a channel a command starts with the configured prefix ("!roll 2d6");
 * a word after the prefix that names no command is ignored there (other
 * bots share prefixes). In a private message the prefix is optional and
 * every error is answered. NOTICEs are never answered. CTCP VERSION and
 * PING sent to the bot itself are answered by NOTICE, at most one answer
 * per CTCP_INTERVAL_MS per network; other CTCPs (ACTION, ...) are ignored.
 *
 * Identity: the channel key is "irc:<network>:<channel>" with the channel
 * case-folded by the server's CASEMAPPING; a private conversation's key is
 * the user's. The user key is "irc:<network>:<account>" when the message
 * carries an account tag; otherwise "irc:<network>:<nick>", and on a
 * network that reports accounts (account-tag enabled) "irc:<network>:~<nick>"
 * so that someone merely using another's account name as a nick can never
 * share that account's records (its GM seat above all). A channel
 * operator counts as a platform admin (may act as GM).
 *
 * Replies: the channel part goes by PRIVMSG to the channel (or to the user
 * in a private conversation); the invoker's private part and every error
 * go by NOTICE to the user. Everything is rendered by render_irc within
 * the line budget for its target and the network's max_lines.
 */
#ifndef DELVER_IRC_H
#define DELVER_IRC_H

#include <stdint.h>

#include "bot/config/config.h"
#include "bot/irc/irc_conn.h"
#include "commands/dispatch.h"

#define CTCP_INTERVAL_MS 3000

struct irc_bot;

/* A command handler for the network whose session is conn and whose
 * configuration is cfg; both must outlive it. */
struct irc_bot *irc_bot_new(struct dispatch *d, const struct config_irc *cfg,
                            struct irc_conn *conn);
void irc_bot_free(struct irc_bot *b);
/* Makes cfg (which must outlive the bot or the next call) its
 * configuration: the prefix and max_lines apply to the next message. */
void irc_bot_set_config(struct irc_bot *b, const struct config_irc *cfg);

/* Handles one PRIVMSG or NOTICE that reached the bot. mono_ms is the
 * monotonic clock (for rate limits), unix_s the wall clock (for commands). */
void irc_bot_message(struct irc_bot *b, const struct irc_msg *m, int64_t mono_ms, int64_t unix_s);

#endif
