/*
 * discord_unanswered: the one place that counts and logs the interactions
 * of one Discord transport that went unanswered, for discord*.c.
 *
 * Each is counted as shed (in the transport's stats) and by kind, and
 * logged: the first of a burst at once (a process killed right after still
 * leaves word of it), those after it summed up at most once a second, and
 * what is left at stop; each line gives its kind's count since the start.
 */
#ifndef DELVER_DISCORD_UNANSWERED_H
#define DELVER_DISCORD_UNANSWERED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct discord;

/* Why an interaction went unanswered, in the order the lines are logged. */
enum discord_unanswered_kind {
	DISCORD_UNANSWERED_SHED,       /* shed before it was worked out: overload */
	DISCORD_UNANSWERED_RAN,        /* it ran, but its answer was ready past the 3 s */
	DISCORD_UNANSWERED_LATE_DOWN,  /* a replay past its 3 s, made before this process
	                                  started: no process was serving */
	DISCORD_UNANSWERED_LATE_START, /* a replay past its 3 s, made after: in this
	                                  process's start (connecting, resuming) and queue */
	DISCORD_UNANSWERED_HANDLED,    /* a replay too late that a process before had run
	                                  (its mark found) but not answered */
	DISCORD_UNANSWERED_KINDS
};

/* The counts, in struct discord (zeroed with it). */
struct discord_unanswered {
	uint64_t unsaid[DISCORD_UNANSWERED_KINDS]; /* not logged yet */
	uint64_t since[DISCORD_UNANSWERED_KINDS];  /* since the start */
	bool quiet; /* a line went in the last second (dc->late_timer runs) */
	/* The replays counted and not logged yet, in flight on their shards
	 * until their line is logged: over then, so that a process killed
	 * before leaves them to the next one's replay to count, never to
	 * nobody. */
	uint64_t *held;
	size_t nheld, capheld;
};

/* Counts one interaction of kind that went unanswered; id (0: none) is a
 * replay held in flight until its line is logged (above). */
void discord_unanswered_count(struct discord *dc, enum discord_unanswered_kind kind, uint64_t id);
/* Whether some count is not logged yet. */
bool discord_unanswered_pending(const struct discord *dc);
/* Logs every count not logged yet (summed: "in the last 1 s"). */
void discord_unanswered_tell(struct discord *dc, bool summed);
/* Logs at once the counts that hold an interaction in flight, so that a
 * stop's last session file resumes past them. */
void discord_unanswered_tell_held(struct discord *dc);
void discord_unanswered_free(struct discord_unanswered *u);

#endif
