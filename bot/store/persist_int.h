/*
 * persist_int: the inside of struct persist, shared by persist.c (the
 * sets of record ids, eviction, the timer, opening and closing),
 * persist_commit.c (group commit), persist_mark.c (the marks of the
 * events handled), persist_queue.c (the requests in flight),
 * persist_snapshot.c (the snapshot files), persist_restore.c (a restore)
 * and persist_read.c (reading records back).
 * Nothing else includes it.
 */
#ifndef DELVER_PERSIST_INT_H
#define DELVER_PERSIST_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uthash.h>
#include <uv.h>

#include "bot/store/persist.h"
#include "bot/store/store_backend.h"
#include "rules/base/buf.h"
#include "commands/core/dispatch.h"
#include "commands/core/request.h"
#include "commands/core/state.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

/* Row buffers kept from one batch to the next, and the largest kept. */
#define PERSIST_ROWBUFS_KEPT    8
#define PERSIST_ROWBUF_KEEP_MAX (64 * 1024)

/* A record to write, being written, or whose commit failed: "c:<key>" or
 * "u:<key>". */
struct id {
	char id[KEY_MAX + 2];
	uint64_t generation; /* in a batch: the generation it was sent with */
	bool deleted;        /* in a batch: sent as a deletion */
	bool record;         /* in a batch: the record was sent (not only its log) */
	uint32_t changes;    /* in a batch: channel_changes() of the record sent */
	uint64_t log_sent;   /* in a batch: the newest log entry sent (0: none) */
	int64_t at;          /* in a batch: a mark's time as sent */
	UT_hash_handle hh;
};

/* A record not in memory read by key (backends other than SQLite, whose
 * reads are asynchronous; SQLite reads it on the loop when next used): one
 * that was never loaded or was evicted, or dropped after a conflict. Until
 * the read is over, a request that needs it waits (persist_read_want).
 *
 * A user read and found absent (no row: they hold nothing) keeps the
 * entry, FETCHED and not found: a user who holds nothing leaves memory
 * after each command (state_release_user), and the entry spares their next
 * commands a read each. It goes when this process writes the user's row,
 * when idle for evict_after seconds (persist_evict), and the least recently
 * used first past PERSIST_ABSENT_MAX. It is as stale as a record kept in
 * memory: a row another process writes meanwhile is seen when this one's
 * own write of the user conflicts (and reads it again) or the entry
 * leaves. */
struct fetch {
	char id[KEY_MAX + 2];
	enum {
		FETCHING,
		FETCH_FAILED,
		FETCHED
	} state;
	struct persist *p;
	bool found;            /* FETCHED: a row is stored (else the record is new) */
	bool orphan;           /* FETCHING, no longer wanted: freed when over */
	struct store_row *row; /* FETCHED and found: the row read (owned: store_row_dup) */
	int64_t used;          /* a user known absent: when last used (unix seconds) */
	UT_hash_handle hh;
};

/* A mark that a platform event was handled (STORE_HANDLED), from the
 * request that made it until its commit: id "h:KEY" ("h:" alone: the
 * expiry of the marks handled before at), in the pending, in-flight and
 * retry sets like a record's. */
struct mark {
	char id[KEY_MAX + 2];
	int64_t at;   /* unix seconds */
	char *answer; /* what the transport keeps (owned), NULL for the expiry */
	size_t len;
	UT_hash_handle hh;
};

/* Where a request held by persist is (its request_hold's state). */
enum persist_qstate {
	Q_WAIT = 1, /* not run: its records are being read, or an earlier
	               request of its channel waits to run */
	Q_RAN,      /* ran; its changes are in the commit hold.seq */
	Q_DONE,     /* its outcome is known; answered once every earlier
	               request of its channel is */
};

/* The requests in flight of one channel (persist_queue.c), keyed by the
 * channel key; freed when none is left. */
struct qchan {
	char key[KEY_MAX];
	struct request *head, *tail; /* its requests in flight, oldest first */
	struct request *wait_head;   /* the oldest of them not run yet, or NULL */
	UT_hash_handle hh;
};

/* How many requests of one user wait to run (persist_queue.c). */
struct quser {
	char key[KEY_MAX];
	size_t n;
	UT_hash_handle hh;
};

struct persist {
	uv_loop_t *loop;
	struct state *st;
	struct persist_opts o;
	char dir[4096];
	char path[4200]; /* the database file */
	int lock_fd;     /* its file holds one byte while a process runs (open_dir) */
	struct store_backend *be;
	bool sqlite;   /* be is store_sqlite's: loads by key on the loop */
	int64_t clock; /* unix seconds, never going back */
	uint64_t next_sweep_ms;
	bool failing;              /* commits are failing (log once) */
	bool full;                 /* the disk is full: changes are refused (logged once) */
	size_t collected;          /* records collected by the last state_flush */
	char (*coll)[KEY_MAX + 2]; /* their ids */
	size_t coll_cap;
	struct fetch *fetches; /* records being read by key (not SQLite), and
	                          users known absent: least recently used first */
	size_t nabsent;        /* users known absent */
	/* SQLite: the records stored but not in memory (the channels idle at
	 * open, and those evicted or forgotten since), by id hash. The only
	 * writer of its database, this process knows that a record neither in
	 * memory nor in this set has no row, and reads no row for it (every
	 * command by a user who keeps nothing would read one). */
	struct keyset *away;
	uv_idle_t resume;   /* runs the requests read for in the turn after a read */
	struct mark *marks; /* the marks not committed yet, by id */
	/* SQLite: the marks stored, and the newest answers (markset.h); the
	 * only writer of its database, this process knows them all. */
	struct markset *known_marks;
	uint64_t next_expiry_ms;
	/* group commit */
	struct id *pending;  /* to write in the next batch */
	struct id *inflight; /* in the batch being committed */
	struct id *retry;    /* failed; back into pending at the next tick */
	struct id **batch;   /* the batch's ids, in row order */
	size_t nbatch, batch_cap;
	/* The first rows' buffers, kept empty from one batch to the next
	 * (persist_commit_start): a record is written into the room the one
	 * before it made. */
	struct buf rowbufs[PERSIST_ROWBUFS_KEPT];
	/* A batch of up to PERSIST_ROWBUFS_KEPT rows is built in these (with
	 * rowbufs), allocating nothing. */
	struct store_row rows_kept[PERSIST_ROWBUFS_KEPT];
	struct store_log_row *logs_kept[PERSIST_ROWBUFS_KEPT];
	int batch_lost;       /* records of the batch that could not be encoded */
	int lost_carried;     /* those of a batch rolled back by a conflict */
	uint64_t collect_seq; /* the batch being collected */
	uint64_t batch_seq;   /* the one in flight */
	bool committing;
	struct request *collecting; /* the request whose changes are collected */
	uv_idle_t idle;             /* runs once in the turn after changes were collected or
	                               answers became ready */
	/* the requests in flight (persist_queue.c): the one list, oldest first */
	struct request *qhead, *qtail;
	struct qchan *qchans;
	struct qchan *qchan_spare; /* the last one emptied, for the next, or NULL */
	struct quser *qusers;
	size_t nwaiting; /* requests waiting to run */
	bool marks_now;  /* SQLite: a replay reads its mark on the loop, waits for no read */
	struct request *wait_head, *wait_tail; /* those, in the order they came */
	struct request *ran_head, *ran_tail;   /* Q_RAN, in the order they ran (by seq) */
	/* Q_DONE and the oldest of their channel in flight (or of none): the
	 * answers that may go, a binary min-heap by the order they came */
	struct request **ready;
	size_t nready, ready_cap;
	uint64_t norder; /* requests submitted so far */
	/* snapshot files */
	bool snapping;
	char snap_path[4200 + 64];
	uint64_t snap_t0;
	uint64_t snap_appends; /* stats.appends when the last one began */
	/* The database may hold commits no snapshot holds though this
	 * process committed nothing since its last one: the process before
	 * did not stop cleanly (its lock file said it was running), or a
	 * snapshot failed. persist__snapshot_due() counts it. */
	bool unsnapped;
	bool running_marked; /* open_dir wrote the byte into an empty lock file */
	size_t snap_future;  /* snapshot names dated ahead, as last warned of */
	uint64_t next_snapshot_ms;
	/* closing */
	bool closing, stop_snapshot_done, backend_closed;
	/* At close, failed records are tried again in rounds (stop_rounds):
	 * the backend reaches its server first (reaching), then they go in one
	 * batch, until stop_reach_until_ms; reach_given_up once the server
	 * could not be reached. */
	bool reaching, reach_given_up;
	unsigned stop_rounds;
	uint64_t stop_reach_until_ms;
	unsigned stop_lost; /* records whose changes the stop could not save */
	int open_handles;   /* idle and tick, while they close */
	void (*closed)(void *, unsigned);
	void *closed_ctx;
	uv_timer_t tick;
	struct persist_stats stats;
};

/* persist.c: the clock in unix seconds, never going back (p->clock). */
int64_t persist__tick_clock(struct persist *p);

/* persist.c: a record's id, "c:KEY" or "u:KEY". */
void persist__make_id(char out[KEY_MAX + 2], char kind, const char *key);

/* persist.c: the record of that kind ('c', 'u') and key may be stored
 * though it is not in memory (struct persist's away). */
void persist__away(struct persist *p, char kind, const char *key);

/* persist.c: the next step of closing (after a commit or a snapshot). */
void persist__close_step(struct persist *p);

/* persist.c: whether the database holds commits that no snapshot holds
 * yet (this process's since its last snapshot began, or unsnapped). */
bool persist__snapshot_due(const struct persist *p);

/* persist.c: the sets of record ids (struct id, by id): the one of id, or
 * NULL; id added (true when it was not there); id removed; every id
 * removed. */
struct id *persist__id_find(struct id *set, const char *id);
bool persist__id_add(struct id **set, const char *id);
void persist__id_del(struct id **set, const char *id);
void persist__id_clear(struct id **set);

/* persist.c: makes and checks the state directory (statedir.h) and takes
 * its lock; running: for a process that will run on it (not a restore).
 * Returns 0, or -1 with err and errno as persist_open says. */
int persist__open_dir(struct persist *p, bool running, char *err, size_t errlen);
/* persist.c: frees p and what it holds (its lock file closed). */
void persist__free(struct persist *p);

/* persist_commit.c: takes the records the state marks touched into the
 * next commit (noted on p->collecting when set); returns how many. */
size_t persist__collect(struct persist *p);
/* persist_commit.c: starts the idle turn (a commit to start, answers to
 * give). */
void persist__wake(struct persist *p);
/* persist_mark.c: req (which changed records and carries a key) leaves its
 * mark in the next commit, noted among its changes. */
void persist__mark(struct persist *p, struct request *req);
/* persist_mark.c: whether only the store can tell if the event key was
 * handled: on SQLite, when it is not told by this process's marks not
 * committed yet, by the answers read at open, or by the set of the marks
 * stored (known_marks: a key not in it was never marked); always on
 * another backend. Then the request reads the mark by key first
 * (persist_read_want_mark). */
bool persist__mark_unknown(struct persist *p, const char *key);
/* persist_mark.c: whether the mark of req's key is stored, from memory or from
 * the read by key it waited for; when it is, req gets what was kept with
 * it. Returns 1 (marked), 0 (not), -1 (the read failed: logged). */
int persist__marked(struct persist *p, struct request *req);

/* persist_queue.c: the requests whose changes are in commits up to seq
 * are over: lost > 0, some records could not be saved; lost < 0
 * (PERSIST_REFUSED), the changes were refused. Answers what may go. */
#define PERSIST_REFUSED (-1)
void persist__commit_over(struct persist *p, uint64_t seq, int lost);
/* persist_queue.c: the requests waiting for reads run, or are refused
 * when a read failed; then answers what may go. */
void persist__reads_over(struct persist *p);
/* persist_queue.c: answers every request whose answer may go: its outcome
 * is known and every earlier request of its channel was answered. */
void persist__answer_ready(struct persist *p);
/* persist_queue.c: whether a request waits to be run or answered. */
bool persist__queue_busy(const struct persist *p);

#endif
