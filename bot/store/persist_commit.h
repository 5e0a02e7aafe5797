/*
 * persist_commit: persist's group commit. The records the commands of a
 * turn changed are collected (persist__collect, persist_int.h) and, in the
 * loop's next idle turn, encoded and handed to the backend as one
 * transaction, one batch in flight at a time. When it is over, the
 * records saved take their new generations; failed ones wait for a retry
 * (persist.c's timer); after a conflict the connected group of the
 * records and commands concerned is dropped and read back, the rest sent
 * again; a full disk refuses every change not committed. Then the held
 * answers of the commands concerned may go (persist_queue.h).
 *
 * Nothing outside bot/store/persist*.c includes this header.
 */
#ifndef DELVER_PERSIST_COMMIT_H
#define DELVER_PERSIST_COMMIT_H

struct persist;

/* Hands everything collected to the backend as one transaction, unless a
 * batch is in flight or nothing is collected. */
void persist_commit_start(struct persist *p);

#endif
