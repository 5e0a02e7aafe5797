/*
 * persist_mark: the marks of the platform events handled (STORE_HANDLED
 * rows), persist's ledger for exactly once: a request that changed
 * records leaves the mark of its event in the same commit (with what the
 * transport keeps of its answer), and a replayed event is told handled
 * from this process's marks not committed yet, from those known stored
 * (markset.h, SQLite), or by reading the store (persist__marked,
 * persist_int.h).
 *
 * Ownership: a mark handed to persist_mark_add is p's from then on.
 * Nothing outside bot/store/persist*.c includes this header.
 */
#ifndef DELVER_PERSIST_MARK_H
#define DELVER_PERSIST_MARK_H

struct persist;
struct mark;
struct request;
struct store_row;

/* The mark of a handled event as a row (pointing into m). */
void persist_mark_row(const struct mark *m, struct store_row *row);
/* Frees the mark of id not committed yet, if there is one. */
void persist_mark_free(struct persist *p, const char *id);
/* Queues the mark m (owned by p from now on) for the next commit. */
void persist_mark_add(struct persist *p, struct mark *m);
/* The mark of req's event (the caller's until persist_mark_add), with what
 * the transport keeps of req's answer as it stands (request_keep). */
struct mark *persist_mark_new(struct persist *p, struct request *req);

#endif
