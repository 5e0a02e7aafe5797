/*
 * discord_ledger: what every process of one bot must agree on to start
 * gateway sessions as Discord allows (docs/events/gateway.mdx: Identifying,
 * Max Concurrency, Session Start Limit Object):
 *
 *  - per bucket (shard_id % max_concurrency), when the last IDENTIFY went
 *    and who holds the bucket now (a lease: a slot granted, its IDENTIFY
 *    not yet written);
 *  - the daily budget of session starts (total, remaining, when it resets);
 *  - the last shard count Discord refused (4010, 4011), so that a restart
 *    with the same count is refused before it spends an IDENTIFY.
 *
 * The record lives where all of them see it: a file under one flock in a
 * directory the processes of one machine share (the runtime directory, else
 * the state root), or, for a fleet on PostgreSQL, a table under an advisory
 * lock (discord_ledger_pg.h). Each operation is one read-modify-write under
 * that lock, with the ledger's own clock (the host's wall clock for a file,
 * the server's for PostgreSQL), so processes on machines whose clocks
 * differ still agree. An operation blocks (flock, a round trip to the
 * server): run it off the loop (discord_idq does, on libuv's pool).
 *
 * The rules (discord_ledger_apply) are pure: the tests drive them with a
 * clock of their own.
 */
#ifndef DELVER_DISCORD_LEDGER_H
#define DELVER_DISCORD_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LEDGER_BUCKETS_MAX 256 /* buckets kept (Discord gives large bots 16 or so) */
#define LEDGER_TRIES_MAX   64  /* buckets asked for in one operation */
#define LEDGER_OWNER_MAX   64
#define LEDGER_WINDOW_MS   86400000LL /* Discord's budget resets this long after it started */
#define LEDGER_FILE        "discord-identify.json"
#define LEDGER_LOCK_FILE   "discord-identify.lock"
/* A bucket another process holds a slot of (granted, its IDENTIFY not yet
 * written: a connection's time, well under a second) is asked for again
 * this often, not when the lease runs out: the IDENTIFY, once written,
 * sets the spacing to wait, so a hand-over between processes waits that
 * spacing and no more. */
#define LEDGER_HELD_POLL_MS 500

struct ledger_bucket {
	int id;
	int64_t last;        /* the last IDENTIFY written, ms on the ledger's clock (0: none) */
	int64_t lease_until; /* held until then (0: free) */
	char owner[LEDGER_OWNER_MAX];
};

struct ledger_rec {
	struct ledger_bucket b[LEDGER_BUCKETS_MAX];
	int nb;
	int total, remaining; /* the budget; total 0: not known yet */
	int64_t reset_at;     /* when remaining goes back to total */
	/* the last count Discord refused: 0, or the count, the close code and
	 * the count Discord recommended then */
	int refused_count, refused_code, refused_recommended;
	int64_t refused_at;
};

enum ledger_kind {
	LEDGER_LIMITS,  /* Discord's session_start_limit, read now */
	LEDGER_TRY,     /* slots for buckets */
	LEDGER_SENT,    /* an IDENTIFY was written in bucket */
	LEDGER_UNUSED,  /* a slot granted for bucket was not used */
	LEDGER_REFUSED, /* Discord refused a shard count */
};

struct ledger_op {
	enum ledger_kind kind;
	char owner[LEDGER_OWNER_MAX]; /* who asks: host and process */
	/* LIMITS */
	int total, remaining;
	int64_t reset_after;
	/* TRY: the buckets, the spacing and lease in ms, the session starts
	 * kept back; SENT, UNUSED: bucket[0] */
	int bucket[LEDGER_TRIES_MAX];
	int nbuckets;
	int64_t interval, lease;
	int reserve;
	/* REFUSED */
	int count, code, recommended;
};

struct ledger_result {
	int status; /* 0, or -1 with err (the ledger could not be read or written) */
	char err[256];
	/* TRY, per bucket asked: 0 granted, else ms to wait (its spacing, or
	 * while another holds it, LEDGER_HELD_POLL_MS at most) and whether
	 * another holds it */
	int64_t wait[LEDGER_TRIES_MAX];
	bool held[LEDGER_TRIES_MAX];
	/* TRY: the budget is spent down to the reserve; ms until it resets */
	bool spent;
	int64_t reset_in;
	int total, remaining; /* the budget after the operation (total 0: unknown) */
	/* the refusal on record (LIMITS, REFUSED) */
	int refused_count, refused_code, refused_recommended;
};

/* Applies op to r at now (the ledger's clock, ms): the rules above. */
void discord_ledger_apply(struct ledger_rec *r, const struct ledger_op *op, int64_t now,
                          struct ledger_result *res);

/* The record as the file's text (owned by the caller), and back: a text
 * that is not a valid record gives an empty one and -1 (the caller says
 * so once and goes on: the ledger is a coordination aid, rebuilt as
 * processes write it). */
char *discord_ledger_format(const struct ledger_rec *r);
int discord_ledger_parse(const char *text, size_t len, struct ledger_rec *r);

/* A place to keep the record: an operation is exec() on a worker thread,
 * one at a time; close() frees it (on the loop, nothing running). */
struct ledger_backend {
	int (*exec)(struct ledger_backend *b, const struct ledger_op *op,
	            struct ledger_result *res);
	void (*close)(struct ledger_backend *b);
	const char *where; /* in log lines: the file, or "PostgreSQL" */
};

/* The record in dir/LEDGER_FILE under flock on dir/LEDGER_LOCK_FILE
 * (created 0600), or, with dir NULL, in this process's memory only. */
struct ledger_backend *discord_ledger_file(const char *dir);

/*
 * The directory where the processes of one bot on this machine that share
 * no runtime directory still meet: base/delver/key, base being xdg (the
 * user's $XDG_RUNTIME_DIR, when set), else run_user/UID when it is uid's
 * directory, else tmp/delver-UID; key names the bot (a hash of its token,
 * so that two bots of one user keep apart). Each level delver adds is made
 * 0700 when missing, and refused when it is not a directory (a symlink is
 * not one) owned by uid that nobody else may enter: in a shared tmp,
 * someone else may have made it first. Returns 0 with the path in out, or
 * -1 with one sentence in err.
 */
int discord_ledger_home(const char *xdg, const char *run_user, const char *tmp, unsigned uid,
                        const char *key, char *out, size_t len, char *err, size_t errlen);

#endif
