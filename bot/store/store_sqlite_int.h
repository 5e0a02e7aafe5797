/*
 * store_sqlite_int: the inside of struct sqlite_backend, shared by
 * store_sqlite.c (the jobs and the writer's thread, checkpoints, closing,
 * the API), store_sqlite_schema.c (the tables, made, checked, migrated and
 * opened), store_sqlite_write.c (rows written in one transaction),
 * store_sqlite_read.c (rows read back) and store_sqlite_snapshot.c (the
 * snapshot files). Nothing else includes it.
 */
#ifndef DELVER_STORE_SQLITE_INT_H
#define DELVER_STORE_SQLITE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>
#include <uv.h>

#include "bot/soon.h"
#include "bot/store/store_backend.h"

#define BUSY_MS 5000 /* another connection (a snapshot's) holding a lock */

/* Page caches in KiB (SQLite's default is 2,000 for each connection): the
 * writer keeps the pages its commits come back to (the B-trees' upper
 * levels and newest leaves), the reader those of rows read back on the
 * loop; the checkpoint and a snapshot's copy read each page once. */
#define CACHE_WRITER_KIB 512
#define CACHE_READER_KIB 256
#define CACHE_ONCE_KIB   64

/* The writer's own checkpoints (PRAGMA wal_autocheckpoint, in frames of
 * the log): SQLite's default runs one inside the commit that takes the log
 * past 1,000 frames, with its two fsyncs. Under everysec the pool's
 * checkpoint keeps the log to about a second of commits, and the writer
 * checkpoints only past a log of 64 MiB, should the pool fall behind. */
#define AUTOCKPT_FRAMES          1000
#define AUTOCKPT_EVERYSEC_FRAMES 16384

/* The writing connection's prepared statements (their SQL: store_sqlite_schema.c). */
enum stmt {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_GEN_CHANNEL,
	ST_GEN_USER,
	ST_NEW_CHANNEL,
	ST_NEW_USER,
	ST_SET_CHANNEL,
	ST_SET_USER,
	ST_PUT_CHANNEL,
	ST_PUT_USER,
	ST_DEL_CHANNEL,
	ST_DEL_USER,
	ST_GONE,
	ST_GET_CHANNEL,
	ST_GET_USER,
	ST_LOG_ADD,
	ST_LOG_TRIM,
	ST_LOG_CLEAR,
	ST_LOG_GET,
	ST_PUT_MARK,
	ST_EXPIRE_MARKS,
	ST_GET_MARK,
	ST_PUT_MARK_ID,
	ST_EXPIRE_MARK_IDS,
	ST_GET_MARK_ID,
	ST_COUNT,
};

struct job;

/* The generations known stored (store_sqlite_write.c): a direct-mapped
 * cache of channel keys, each slot valid while its epoch is the
 * backend's. */
#define GEN_SLOTS   1024
#define GEN_KEY_MAX 48 /* longer keys are not cached */
struct gen_slot {
	uint32_t epoch;
	char key[GEN_KEY_MAX];
	uint64_t generation;
};

struct sqlite_backend {
	struct store_backend base;
	char *path;
	int fail;     /* at open: the errno store_sqlite_open gives when it fails */
	sqlite3 *db;  /* the writer: one thread at a time */
	sqlite3 *rdb; /* read-only, on the loop */
	sqlite3 *cdb; /* the everysec checkpoints', on libuv's pool */
	sqlite3_stmt *stmt[ST_COUNT];
	sqlite3_stmt *rget[5]; /* on rdb: channel, user, a channel's log, mark, mark by id */
	int sync;              /* asked: 0 OFF, 1 NORMAL, 2 FULL */
	int sync_set;          /* in force on db (changed by the worker) */
	/* What the last checked commit left: the data version of db's file
	 * (SQLITE_FCNTL_DATA_VERSION, which moves with every commit to the
	 * file, this connection's or another's), valid when versioned, and
	 * the generation it knows stored for each channel it wrote or checked
	 * (gens, allocated at the first commit; the slots of gen_epoch). While
	 * the version has not moved, those generations are still stored, and
	 * a log-only row is checked against them without a read. Used by the
	 * writer only, one job at a time. */
	unsigned data_version;
	bool versioned;
	struct gen_slot *gens;
	uint32_t gen_epoch;
	bool everysec;
	struct job *head, *tail; /* waiting; head is running when running */
	struct job *spare;       /* a finished job, kept for the next one, or NULL */
	bool running;
	/* The writer's thread: woken by go (one post per job), it takes the
	 * job in todo and leaves it in finished (under mu), then wakes the
	 * loop (async). */
	uv_thread_t thread;
	uv_sem_t go;
	uv_mutex_t mu;
	uv_async_t async;
	struct job *todo, *finished;
	bool thread_up;
	struct soon here;      /* answers a commit run on the loop (commit_here) */
	uint64_t commits_here; /* commits run on the loop */
	bool ckpt_due;
	bool ckpt_running;
	uv_work_t ckpt;
	char ckpt_err[1024]; /* the last checkpoint's failure, "" when none */
	uint64_t checkpoints;
	int snapshots; /* running */
	bool closing;
	store_done_cb closed;
	void *closed_ctx;
	uv_timer_t timer;
};

/* store_sqlite.c: the PRAGMA that sets synchronous to s (0 OFF, 1 NORMAL,
 * 2 FULL). */
const char *store_sqlite__sync_pragma(int s);
/* store_sqlite.c: bounds db's page cache to kib KiB. */
void store_sqlite__set_cache(sqlite3 *db, int kib);
/* store_sqlite.c: the writer's checkpoints as the synchronous setting s
 * asks (1: everysec). */
void store_sqlite__set_autockpt(struct sqlite_backend *b, int s);
/* store_sqlite.c: runs sql on the writing connection. Returns 0, or -1
 * with one sentence in err. */
int store_sqlite__exec_sql(struct sqlite_backend *b, const char *sql, char *err, size_t errlen);
/* store_sqlite.c: the next step of closing (after a job, a checkpoint or a
 * snapshot is over). */
void store_sqlite__close_step(struct sqlite_backend *b);

#endif
