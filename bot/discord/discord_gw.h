/*
 * discord_gw: the Discord gateway protocol (v10, JSON), without I/O.
 *
 * This module is the state machine of one gateway session: it decides when
 * to connect and to which URL, what to send (IDENTIFY, RESUME, heartbeats)
 * and when, what a close code means, and it hands dispatched events on. A
 * transport (discord_ws) owns the socket: it calls discord_gw_opened(),
 * discord_gw_message() and discord_gw_closed() as things happen, discord_gw_tick() when the time
 * discord_gw_next_wakeup() named has come, and sends the frames discord_gw_next_frame()
 * gives it. Time is passed in (milliseconds on a monotonic clock), so every
 * rule below is testable without a network or a clock.
 *
 * What it does, after PROTOCOLS.md:
 *  - HELLO: heartbeats every heartbeat_interval, the first one after
 *    interval * random[0, 1); a heartbeat carries the last sequence number
 *    seen. An op 1 from the server is answered at once. When no ACK (op 11)
 *    came between two heartbeats the connection is a zombie: it is closed
 *    with 4000 (never 1000/1001, which would end the session) and resumed.
 *  - IDENTIFY with the token, intents, properties and shard [id, count],
 *    only with a slot: a new session first asks for one (the want_identify
 *    hook; the coordinator, discord_idq, spaces IDENTIFYs per bucket and
 *    keeps the daily budget) and connects once it is granted
 *    (discord_gw_grant). A slot is good for DISCORD_GW_SLOT_LEASE ms: one
 *    older than that when HELLO comes is given back and another asked
 *    for, and one not used (the connection lost before IDENTIFY) is given
 *    back (the slot_unused hook). A RESUME needs no slot.
 *  - READY: session id, resume_gateway_url and application id are kept;
 *    RESUME (op 6) with the last sequence goes to resume_gateway_url.
 *  - op 7: reconnect and resume. op 9: resume when d is true, else a fresh
 *    IDENTIFY after 1-5 s.
 *  - Close codes: 4004, 4010, 4011, 4012, 4013, 4014 stop the session with
 *    one clear sentence (e.g. "token rejected (4004): check [discord]
 *    token"); 4007 and 4009 re-identify; everything else, and a connection
 *    lost without a close frame, resumes.
 *  - Reconnecting waits: a connection that had reached READY or RESUMED is
 *    retried after up to 1 s (250 ms when the server asked for it); each
 *    failed attempt after that doubles the wait, up to 60 s, with jitter.
 *  - Sends stay within 120 per 60 s per connection: other frames may use
 *    115 of them, so heartbeats always find room. The budget only delays a
 *    frame when it is spent; reading goes on meanwhile.
 *
 * A payload that is not JSON, or not an object with a numeric op, is
 * logged and ignored; nothing the server sends can stop the process except
 * a fatal close code.
 */
#ifndef DELVER_DISCORD_GW_H
#define DELVER_DISCORD_GW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISCORD_GW_SEND_MAX      4096  /* bytes in one frame we send */
#define DISCORD_GW_BUDGET        120   /* frames per window */
#define DISCORD_GW_BUDGET_OTHER  115   /* of which not heartbeats */
#define DISCORD_GW_BUDGET_WINDOW 60000 /* ms */
#define DISCORD_GW_SLOT_LEASE    15000 /* ms a granted identify slot is good for */
#define DISCORD_GW_SLOT_MARGIN   2000  /* ms of it kept for the IDENTIFY's trip */
#define DISCORD_GW_ZOMBIE_CODE   4000  /* our close code when we reconnect */
#define DISCORD_GW_STALL_MS      10000 /* late by this much: stuck (discord_gw_stalled) */

struct cJSON;
struct rng;
struct discord_gw;

enum discord_gw_state {
	DISCORD_GW_IDLE,         /* not started */
	DISCORD_GW_WAIT_CONNECT, /* waiting to connect (backoff) */
	DISCORD_GW_WAIT_SLOT,    /* waiting for an identify slot before connecting */
	DISCORD_GW_CONNECTING,   /* the transport is connecting */
	DISCORD_GW_WAIT_HELLO,   /* connected, no HELLO yet */
	DISCORD_GW_IDENTIFYING,  /* IDENTIFY sent (or about to be), no READY yet */
	DISCORD_GW_RESUMING,     /* RESUME sent, no RESUMED yet */
	DISCORD_GW_READY,        /* events flow */
	DISCORD_GW_CLOSING,      /* we asked the transport to close */
	DISCORD_GW_STOPPED,      /* fatal close code, or discord_gw_stop() */
};

struct discord_gw_opts {
	const char *token;       /* copied; never logged */
	const char *gateway_url; /* "wss://gateway.discord.gg" (no query) */
	uint64_t intents;
	int shard_id, shard_count;
	bool compress;      /* ask for compress=zlib-stream (the transport inflates) */
	const char *ledger; /* where the identify ledger is, for a log line (copied) */
};

struct discord_gw_hooks {
	void *ctx;
	/* Opens a connection to url (with ?v=10&encoding=json, and
	 * &compress=zlib-stream when asked for, also when resuming). Returns 0,
	 * or -1 when it failed at once (then discord_gw_closed is not called). */
	int (*connect)(void *ctx, const char *url);
	/* Closes the open connection with code; discord_gw_closed() follows. */
	void (*close)(void *ctx, int code);
	/* Frames are waiting in discord_gw_next_frame(). */
	void (*want_write)(void *ctx);
	/* A dispatched event (op 0), READY and RESUMED included. */
	void (*event)(void *ctx, const char *t, const struct cJSON *d);
	/* The session stopped for good on close code code; msg is one
	 * sentence (not logged here: the hook decides). */
	void (*fatal)(void *ctx, int code, const char *msg);
	/* An IDENTIFY was handed to the transport (optional: may be NULL). */
	void (*identified)(void *ctx);
	/* A new session wants an identify slot: discord_gw_grant() follows,
	 * later, once (optional: NULL grants every slot at once). */
	void (*want_identify)(void *ctx);
	/* A granted slot was given back without an IDENTIFY (optional). */
	void (*slot_unused)(void *ctx);
};

struct discord_gw_stats {
	uint64_t heartbeats, acks, zombies;
	uint64_t identifies, resumes, reconnects;
	uint64_t events, ignored;
	int64_t last_ack_ms; /* heartbeat to ACK of the last ACK, or -1 */
};

/* A session; rng gives the jitter and stays the caller's. */
struct discord_gw *discord_gw_new(const struct discord_gw_opts *o, const struct discord_gw_hooks *h,
                                  struct rng *rng);
void discord_gw_free(struct discord_gw *g);

/* A session saved by an earlier process (before discord_gw_start()): the first
 * connection resumes it at resume_url (the gateway URL when NULL or "");
 * when Discord answers op 9 false, a new session starts. */
void discord_gw_restore(struct discord_gw *g, const char *session_id, const char *resume_url,
                        int64_t seq);
/* Connects at once (state IDLE to WAIT_CONNECT), resuming a restored
 * session. */
void discord_gw_start(struct discord_gw *g, int64_t now);
/* The identify slot asked for by want_identify is granted at now: a
 * session waiting for it connects (or, connected, identifies); one that no
 * longer needs it gives it back at once (slot_unused). */
void discord_gw_grant(struct discord_gw *g, int64_t now);
/* The shard id it identifies with. */
int discord_gw_shard_id(const struct discord_gw *g);
/* Uses another gateway URL for new sessions from now on. */
void discord_gw_set_url(struct discord_gw *g, const char *url);

/* The transport's news: connected; one whole message; closed (code -1
 * when no close frame came). */
void discord_gw_opened(struct discord_gw *g, int64_t now);
void discord_gw_message(struct discord_gw *g, const char *data, size_t len, int64_t now);
void discord_gw_closed(struct discord_gw *g, int code, int64_t now);
/* The transport gave up on the connection (e.g. a message over its size
 * cap): close it and resume. why is logged. A second abort in a row with
 * no event received in between means the resume replays what broke the
 * connection: that one starts a new session instead. */
void discord_gw_abort(struct discord_gw *g, const char *why, int64_t now);

/* Runs what is due at now; call it at discord_gw_next_wakeup(). When the send
 * budget lets a held-back frame go, it asks the transport to write. */
void discord_gw_tick(struct discord_gw *g, int64_t now);
/* When discord_gw_tick() must run next, or INT64_MAX: the earliest of the
 * deadlines of the state (connect, connect timeout, HELLO timeout, the
 * identify spacing, the next heartbeat) and, when frames wait that the
 * send budget holds back at now, when it lets the first of them go. A frame
 * the budget lets go at now needs no timer (the transport writes it). Right
 * after discord_gw_tick(g, now) the answer is always later than now, however old
 * the connection is: a caller re-arming its timer from the timer's own
 * callback never arms one that is already due. */
int64_t discord_gw_next_wakeup(const struct discord_gw *g, int64_t now);

/* The next frame to send now, or NULL when none is waiting or the send
 * budget is spent (discord_gw_next_wakeup() then says when to ask again, and
 * discord_gw_tick() then asks for the write). The caller frees it; *len is set. */
char *discord_gw_next_frame(struct discord_gw *g, int64_t now, size_t *len);

/* Whether the session is stuck at now (for the systemd watchdog): NULL
 * when it makes progress, else one sentence in why: a deadline more than
 * DISCORD_GW_STALL_MS past without discord_gw_tick(), a frame the budget lets go that the
 * transport has not taken for that long, or, once READY, nothing read for
 * two heartbeat intervals and that long (the zombie check would have
 * reconnected). Waiting (backoff, identify spacing) is progress. */
const char *discord_gw_stalled(const struct discord_gw *g, int64_t now, char *why, size_t len);

/* Stops: closes with 1000, which ends the session at Discord too, or,
 * with keep_session, with 4000, which leaves it resumable for a while (a
 * restart then resumes it; meanwhile the bot still looks online). */
void discord_gw_stop(struct discord_gw *g, bool keep_session);

enum discord_gw_state discord_gw_state(const struct discord_gw *g);
const struct discord_gw_stats *discord_gw_stats(const struct discord_gw *g);
/* From READY: the application id, or NULL. */
const char *discord_gw_application_id(const struct discord_gw *g);
const char *discord_gw_session_id(const struct discord_gw *g);
/* From READY: where to resume, or NULL. */
const char *discord_gw_resume_url(const struct discord_gw *g);
int64_t discord_gw_seq(const struct discord_gw *g);

/* The sentence for a fatal close code, or NULL when the code is not fatal. */
const char *discord_gw_fatal_reason(int code);

#endif
