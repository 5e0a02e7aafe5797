/*
 * irc: delver's commands on IRC, for one network: what a PRIVMSG asks, who
 * asked, where, and the reply sent back. No I/O: lines go out through the
 * network's irc_conn (and so through its flood control).
 *
 * In a channel a command starts with the configured prefix ("!roll 2d6")
 * or with the bot's nick and ':' or ',' ("delver: roll 2d6"); a word that
 * names no command is ignored there (other bots share prefixes). Help
 * asked in a channel is answered by NOTICE to the asker. In a private message the prefix is
 * optional and every error is answered. NOTICEs are never answered. CTCP VERSION and PING sent to
 * the bot itself are answered by NOTICE, at most one answer per CTCP_INTERVAL_MS per nick; other
 * CTCPs (ACTION, ...) are ignored.
 *
 * Rate limits: each user key may send user_burst commands at once, then
 * one every user_interval_ms; each channel channel_burst, then one every
 * channel_interval_ms. A refused command is ignored; its user is told once
 * per throttled spell (bot/irc/irc_limit.h), by NOTICE. A reply (channel part
 * and private part) is queued whole in its invoker's lane of the send
 * queue (bot/irc/irc_flood.h) or, when the queue has no room, not at all and
 * the invoker told by NOTICE.
 *
 * Identity: the channel key is "irc:<network>:<channel>" with the channel
 * case-folded by the server's CASEMAPPING; a private conversation's key is
 * the user's. The user key is "irc:<network>:<account>" when the message
 * carries an account tag; otherwise "irc:<network>:~<nick>!<user>@<host>"
 * (host in lowercase): the nick and the user@host it is used from, so that
 * someone who takes a player's nick, or uses an account's name as a nick,
 * from another user@host never shares that player's records (the GM seat
 * above all). The bot follows NICK changes it sees: someone known as
 * alice who becomes alice_ keeps alice's key while their user@host stays
 * the same (until they QUIT). A channel operator counts as a platform
 * admin (may act as GM).
 *
 * Replies: the channel part goes by PRIVMSG to the channel (or to the user
 * in a private conversation); the invoker's private part and every error
 * go by NOTICE to the user; the GM's part (a player's secret roll) by
 * NOTICE to the GM seat's nick, in the invoker's lane, and only when that
 * nick is in the channel (else the invoker is told by NOTICE and nothing
 * is sent). Everything is rendered by render_irc within
 * the line budget for its target and the network's max_lines.
 */
#ifndef DELVER_IRC_H
#define DELVER_IRC_H

#include <stdint.h>

#include "bot/config/config.h"
#include "bot/irc/irc_conn.h"
#include "commands/core/dispatch.h"

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

/*
 * Owner commands: a private message "join <#channel> [key]", "part
 * <#channel>", "reload" or "status" (prefix optional) from one of the
 * network's admins (an account name matched against the account tag, or a
 * nick!user@host mask with * and ?) is carried out and answered by NOTICE;
 * from anyone else it is an ordinary (unknown) command. join and part do
 * not change the configured channels (a configured channel cannot be
 * parted: the bot would rejoin it); reload calls the function given here.
 */
void irc_bot_set_reload(struct irc_bot *b, void (*reload)(void *ctx), void *ctx);

/* Follows one NICK or QUIT of someone else (see Identity above). */
void irc_bot_user(struct irc_bot *b, const struct irc_msg *m);

/* Handles one PRIVMSG or NOTICE that reached the bot. mono_ms is the
 * monotonic clock (for rate limits), unix_s the wall clock (for commands). */
void irc_bot_message(struct irc_bot *b, const struct irc_msg *m, int64_t mono_ms, int64_t unix_s);

#endif
