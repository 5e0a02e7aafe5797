/*
 * store_pg_conn: store_pg's one connection on the loop: its socket
 * watched (a uv_poll freed after its close callback), the results of the
 * pipeline read and handed to the ops sent, in order; and the server lost
 * (everything in flight fails as unavailable) and found again (connecting
 * without blocking, with a backoff from BACKOFF_MIN_MS to BACKOFF_MAX_MS;
 * a reach under way ends when it is up, or at its time). A watchdog
 * (store_pg_conn_watch) takes a server that does not answer within
 * OP_TIMEOUT_MS for lost.
 *
 * Nothing outside bot/store/store_pg*.c includes this header.
 */
#ifndef DELVER_STORE_PG_CONN_H
#define DELVER_STORE_PG_CONN_H

#include <uv.h>

#include "bot/store/store_backend.h"

struct store_pg;

/* Watches fd for events (UV_READABLE, UV_WRITABLE), replacing the watch of
 * another socket. Returns 0, or -1. */
int store_pg_conn_poll(struct store_pg *p, int fd, int events);
/* Stops watching the socket (its handle is freed once closed). */
void store_pg_conn_poll_stop(struct store_pg *p);

/* Flushes what libpq holds and reads what came; watches the socket for
 * what is still to do. */
void store_pg_conn_step(struct store_pg *p);

/* The connection is gone (why, one line): everything in flight fails as
 * unavailable; then a reconnection is scheduled, or closing goes on. */
void store_pg_conn_lost(struct store_pg *p, const char *why);
/* The same, the reason from libpq's last error on the connection. */
void store_pg_conn_lost_conn(struct store_pg *p);

/* Ends the reach under way, if any, with status. */
void store_pg_conn_reach_over(struct store_pg *p, enum store_status status);

/* Whether changes wait to be saved: a commit failed while the connection
 * was down, or commits are in doubt. While they do, reconnections come at
 * most WAITING_MAX_MS apart; otherwise the backoff grows to BACKOFF_MAX_MS. */
bool store_pg_conn_waiting(const struct store_pg *p);
/* A commit failed for want of a connection: marks changes as waiting and
 * brings a reconnection due later than WAITING_MAX_MS forward to it. */
void store_pg_conn_hurry(struct store_pg *p);

/* The retry timer's callback (its data is p): connects again, or ends a
 * reach whose time is over. */
void store_pg_conn_retry(uv_timer_t *t);
/* The watchdog timer's callback (its data is p), every WATCH_MS. */
void store_pg_conn_watch(uv_timer_t *t);

#endif
