/*
 * irc_conn_int: the inside of struct irc_conn, shared by bot/irc/irc_conn.c
 * (the session: input, channels, timers), bot/irc/irc_reg.c (registration:
 * CAP, SASL, nick fallback) and bot/irc/irc_join.c (the channels kept
 * joined, and rejoined).
 * Nothing else includes it.
 */
#ifndef DELVER_IRC_CONN_INT_H
#define DELVER_IRC_CONN_INT_H

#include "bot/irc/irc_conn.h"
#include "bot/irc/irc_flood.h"
#include "bot/irc/irc_reg.h"
#include "bot/irc/irc_track.h"

#define CAPS_MAX 256

/* How often the send queue's refusals are summed up while they go on. */
#define IRC_DROPS_EVERY_MS 10000

/* The send queue's refusals: the first of a spell is logged at once, then
 * what was refused is summed up every IRC_DROPS_EVERY_MS while it goes on,
 * so that a flood of strangers does not flood the log. */
struct drops {
	bool open;        /* a spell of refusals is under way */
	int64_t until;    /* when its next summary is due */
	uint64_t replies; /* replies refused since the last line logged */
	uint64_t lines;   /* single lines refused since then */
};

enum state {
	ST_DOWN,
	ST_REG,
	ST_READY,
};

struct chanrec {
	const char *name;  /* the configured name */
	const char *key;   /* its configured key (+k), or NULL */
	int64_t rejoin_at; /* 0: no rejoin scheduled */
	int64_t delay;     /* the last rejoin delay */
	int64_t trouble;   /* when the last kick or refusal happened */
	bool joined;
	bool dead;   /* the server says it does not exist: not retried */
	bool badkey; /* 475: not retried on this link unless the key changes */
};

struct irc_conn {
	const struct config_irc *cfg;
	uint64_t links; /* links gone down: the number of the current one */
	struct irc_timing t;
	struct irc_conn_hooks h;
	void *ctx;
	struct irc_flood *flood;
	struct irc_track *track;
	enum state st;
	bool recycling; /* asked the transport to recycle: wait for link_down */
	bool quitting;  /* sent QUIT: the server's ERROR is expected */
	char nick[IRC_NICK_MAX];
	char self_user[IRC_NICK_MAX]; /* learned from our own JOIN */
	char self_host[256];
	int nick_try;
	char want[CAPS_MAX]; /* capabilities to request, space-separated */
	char caps[CAPS_MAX]; /* acknowledged, " a b c " */
	bool sasl_pending;
	bool cap_ended;
	int64_t link_at, last_rx, ping_at, ready_at, nick_retry_at;
	int attempts;
	bool stable; /* the last link stayed registered for t.stable */
	int64_t now; /* the latest time the transport gave */
	struct drops drops;
	struct chanrec chans[CONFIG_CHANNELS_MAX];
	size_t nchans;
};

/* Builds a line and queues it: urgent ones ahead of everything and outside
 * the bucket, the others in target's queue ("" for none). Returns 0, or -1
 * (logged) when the line cannot be built or the queue is full. */
int irc_conn__send(struct irc_conn *c, bool urgent, const char *target, const char *cmd,
                   const char *const *p, size_t n);

#define IRC_NARGS(...) (sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *))
/* SEND(c, urgent, "CMD", params...): an unaddressed line. */
#define SEND(c, urgent, cmd, ...)                                                                  \
	irc_conn__send((c), (urgent), "", (cmd), (const char *[]){__VA_ARGS__},                    \
	               IRC_NARGS(__VA_ARGS__))

/* Asks the transport, once, to recycle the link; the reason is logged. */
void irc_conn__recycle(struct irc_conn *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

const char *irc_conn__net(const struct irc_conn *c);
/* The configured channel named name (by the server's case mapping), or NULL. */
struct chanrec *irc_conn__chan(struct irc_conn *c, const char *name);

#endif
