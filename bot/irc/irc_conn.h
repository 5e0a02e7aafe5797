/*
 * irc_conn: the session with one IRC network, as a state machine without
 * I/O (the transport, bot/irc/irc_net, moves the bytes; the clock is passed in).
 *
 * When the link comes up it registers: PASS (a server password, only
 * without SASL), CAP LS 302 (multi-line listings accepted), NICK, USER; it
 * requests sasl (when configured), account-tag, message-tags, server-time
 * and multi-prefix when offered, authenticates with SASL PLAIN (payload in
 * 400-byte chunks), ends CAP and, on 001, identifies with NickServ (when
 * a NickServ password is configured: IDENTIFY, and REGAIN when another
 * holds its nick) and joins the configured channels.
 * A nick in use or refused (433, 432, 436, 437) moves to the next
 * candidate: the configured alternates, then the nick with '_' appended;
 * the primary nick is taken back when its holder leaves and retried every
 * few minutes. It answers PINGs at once, sends its own after a silence and
 * asks the transport to recycle a link that stays silent, that does not
 * finish registering, whose SASL fails, or that the server ends with ERROR.
 * Channels with a key (+k) are joined with it, keyed channels first in
 * a JOIN ("JOIN #k1,#k2,#open k1,k2"). It rejoins a channel after a KICK
 * (or a failed JOIN) after a delay that doubles while the kicks go on; a
 * wrong key (475) is not retried on the same link unless the key changes. It learns CASEMAPPING,
 * PREFIX, CHANMODES and CHANTYPES from 005 and tracks, from NAMES, JOIN, PART, KICK, QUIT, NICK and
 * MODE, who holds operator rank in each configured channel. With
 * join_on_invite it joins a channel it is INVITEd to (once: such a channel
 * is not rejoined).
 *
 * Outgoing lines go through a per-connection irc_flood queue; the
 * transport takes them with irc_conn_pop() when the hook `wake` says there
 * is output, and calls irc_conn_tick() at irc_conn_next().
 *
 * Ownership: the connection keeps a pointer to cfg, which must outlive it.
 */
#ifndef DELVER_IRC_CONN_H
#define DELVER_IRC_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot/config/config.h"
#include "bot/irc/irc_line.h"

#define IRC_NICK_MAX 64  /* bytes of a nick or account, with the NUL */
#define IRC_CHAN_MAX 128 /* bytes of a channel name, with the NUL */

/* Timings in milliseconds; irc_conn_timing_defaults() gives the production ones
 * (tests shorten them). */
struct irc_timing {
	int ping_idle;    /* silence before delver sends a PING (60 s) */
	int ping_timeout; /* then silence before the link is recycled (30 s) */
	int register_max; /* link up to 001 (60 s) */
	int rejoin;       /* first delay before rejoining after a KICK (5 s) */
	int rejoin_max;   /* the longest rejoin delay (10 min) */
	int nick_retry;   /* between attempts to take the primary nick back (2 min) */
	int backoff_min;  /* first reconnect delay (1 s, with jitter) */
	int backoff_max;  /* the longest reconnect delay (5 min) */
	int stable;       /* registered this long: the backoff starts over (60 s) */
	int connect;      /* for one address's TCP connection (20 s; bot/irc/irc_net) */
	int handshake;    /* then for the TLS handshake (30 s; bot/irc/irc_net) */
};

void irc_conn_timing_defaults(struct irc_timing *t);

struct irc_conn_hooks {
	/* Output is queued: call irc_conn_pop() (now or at irc_conn_next()). */
	void (*wake)(void *ctx);
	/* The link must be closed and opened again; why is one sentence. */
	void (*recycle)(void *ctx, const char *why);
	/* A PRIVMSG or NOTICE arrived after registration. */
	void (*message)(void *ctx, const struct irc_msg *m);
	/* Someone else changed nick (NICK) or left the network (QUIT); may be
	 * NULL. */
	void (*user)(void *ctx, const struct irc_msg *m);
};

struct irc_conn;

struct irc_conn *irc_conn_new(const struct config_irc *cfg, const struct irc_timing *t,
                              const struct irc_conn_hooks *h, void *ctx);
void irc_conn_free(struct irc_conn *c);

/* The link is established: registration starts. */
void irc_conn_link_up(struct irc_conn *c, int64_t now);
/* The link is gone: the session is reset and queued output dropped. */
void irc_conn_link_down(struct irc_conn *c, int64_t now);
/* One line from the server, without its line ending. */
void irc_conn_receive(struct irc_conn *c, const char *line, size_t len, int64_t now);
/* Runs whatever timer is due at now. */
void irc_conn_tick(struct irc_conn *c, int64_t now);
/* When irc_conn_tick next has work, or irc_conn_pop will have a line once
 * the flood bucket refills (now or later), or -1. Lines that may be
 * written at once do not count: the hook `wake` announced them. */
int64_t irc_conn_next(struct irc_conn *c, int64_t now);
/* The next line (with CRLF) that may be written at now; 0 when none. */
size_t irc_conn_pop(struct irc_conn *c, int64_t now, char *out, size_t size);

/*
 * The delay before the next connection attempt, with jitter from rnd
 * (bot/backoff): half of the current step plus up to another half, the
 * step doubling from backoff_min to backoff_max with each failed attempt
 * and starting over once a link stayed registered for `stable`.
 */
int64_t irc_conn_backoff(struct irc_conn *c, uint64_t rnd);

/*
 * Queues "cmd target :text" (PRIVMSG or NOTICE) in target's queue. Returns
 * 0, or -1 when the line cannot be built (CR, LF in text, a bad target, too
 * long) or the queue is full; nothing is queued then.
 */
int irc_conn_say(struct irc_conn *c, const char *cmd, const char *target, const char *text);
/* One line of a reply: "cmd target :text". */
struct irc_say {
	const char *cmd; /* PRIVMSG or NOTICE */
	const char *target;
	const char *text;
};

/* What irc_conn_say_group returns. */
enum {
	IRC_SAY_OK = 0,
	IRC_SAY_BAD = -1,  /* a line cannot be built (see irc_conn_say) */
	IRC_SAY_FULL = -2, /* the queue has no room for them all */
};

/*
 * Queues the n lines of one reply in lane's queue (see bot/irc/irc_flood.h),
 * whole: they go out one after another once the first does. Nothing is
 * queued unless all fit with `reserve` lines to spare. Returns IRC_SAY_*.
 */
int irc_conn_say_group(struct irc_conn *c, const char *lane, const struct irc_say *v, size_t n,
                       size_t reserve);
/* irc_conn_say_group() for a reply sent in parts: v[starts[k]] begins a
 * part that takes its turn among the lanes as a reply of its own
 * (irc_flood_push_parts()); all the parts are queued, or none. */
int irc_conn_say_parts(struct irc_conn *c, const char *lane, const struct irc_say *v, size_t n,
                       const size_t *starts, size_t nstarts, size_t reserve);
/* irc_conn_say() in lane's queue instead of target's. */
int irc_conn_say_lane(struct irc_conn *c, const char *lane, const char *cmd, const char *target,
                      const char *text);
/* Joins channel (with key, or NULL) or leaves it, for an owner's command:
 * not added to or removed from the configured channels. Returns 0, or -1
 * when the name (or key) cannot be sent. */
int irc_conn_join(struct irc_conn *c, const char *channel, const char *key);
int irc_conn_part(struct irc_conn *c, const char *channel);
/* Whether channel is one of the configured channels. */
bool irc_conn_configured(struct irc_conn *c, const char *channel);
/* One line describing the session: nick, channels joined, lines waiting. */
void irc_conn_status(struct irc_conn *c, char *out, size_t size);

/* Queues QUIT ahead of everything (shutting down): the rest of a reply
 * being written goes first, whole; replies not started are dropped. */
void irc_conn_quit(struct irc_conn *c, const char *reason);
/*
 * Makes cfg the session's configuration for what applies without a new
 * link: the flood rate, the timings t (NULL: unchanged) and the channels
 * with their keys. On a live link channels no longer listed are left
 * (PART) and new ones joined; a channel not joined whose key changed is
 * joined at once with the new key; the others keep their state. The
 * settings that need a new link (server, nicks, login) are not looked at
 * again until the next one. cfg must outlive the connection or the next
 * call; the old configuration may be freed once this returns.
 */
void irc_conn_reconfigure(struct irc_conn *c, const struct config_irc *cfg,
                          const struct irc_timing *t);

bool irc_conn_ready(const struct irc_conn *c);
/* Lines waiting to be written. */
size_t irc_conn_pending(const struct irc_conn *c);
/* Counts a reply refused for want of room in the send queue (as
 * irc_conn_say_group's IRC_SAY_FULL does): logged once, then summed up. */
void irc_conn_refuse_reply(struct irc_conn *c);
const char *irc_conn_nick(const struct irc_conn *c);
/* The number of the current link (each time a link goes down, one more):
 * what was seen of others on an earlier link may be stale. */
uint64_t irc_conn_link(const struct irc_conn *c);
bool irc_conn_has_cap(const struct irc_conn *c, const char *cap);
/* Whether target names a channel (by the server's CHANTYPES). */
bool irc_conn_is_channel(const struct irc_conn *c, const char *target);
/* Whether nick holds operator rank (or above) in channel. */
bool irc_conn_is_op(const struct irc_conn *c, const char *channel, const char *nick);
/* Whether nick is known to be in channel (JOIN, NAMES, NICK, PART, QUIT seen). */
bool irc_conn_is_member(const struct irc_conn *c, const char *channel, const char *nick);
/* Folds case by the server's CASEMAPPING into out (see bot/irc/irc_fold.h).
 * Returns 0, or -1 when the fold did not fit whole in size bytes. */
int irc_conn_casefold(const struct irc_conn *c, const char *in, char *out, size_t size);
/* Bytes of text that fit one PRIVMSG or NOTICE to target. */
size_t irc_conn_budget(const struct irc_conn *c, const char *target);

#endif
