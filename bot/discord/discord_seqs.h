/*
 * discord_seqs: where a restart must resume the gateway so that no
 * interaction is lost: the sequence number just before the oldest
 * interaction whose answer is not over yet (its command still running,
 * committing, or its answer still on its way to Discord).
 *
 * A process killed at any moment resumes there (the session file keeps
 * it); Discord then replays every interaction from that one on, whether or
 * not the killed process had handled it. Those it had committed carry a
 * mark (request.h: exactly once) and are not run again; those it had not
 * run again as new. Resuming from the last sequence received instead
 * would lose an interaction received but not yet committed when the
 * process died.
 *
 * Bounded: an interaction in flight longer than SEQS_STALE_MS (Discord's
 * token lives 15 minutes) no longer holds the resume point back.
 * Nothing here does I/O or reads a clock.
 */
#ifndef DELVER_DISCORD_SEQS_H
#define DELVER_DISCORD_SEQS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SEQS_STALE_MS (15 * 60 * 1000)

struct seqs;

struct seqs *discord_seqs_new(void);
void discord_seqs_free(struct seqs *s);

/* The interaction id, dispatched at sequence seq, is in flight from now_ms. */
void discord_seqs_add(struct seqs *s, uint64_t id, int64_t seq, int64_t now_ms);
/* Its answer is over (sent, refused, or given up). Returns whether id was
 * in flight here (unknown ids are ignored). */
bool discord_seqs_done(struct seqs *s, uint64_t id);
/* The sequence to resume at when last is the last one received. */
int64_t discord_seqs_resume_at(struct seqs *s, int64_t last, int64_t now_ms);
/* Interactions in flight (stale ones included until resume_at drops them). */
size_t discord_seqs_count(const struct seqs *s);

#endif
