/*
 * rollchan: a channel's dice state (module slot CHANMOD_ROLL): its /roll
 * settings and its roll log.
 *
 * The log keeps the channel's last ROLLCHAN_LOG_MAX rolls (who, what,
 * result, when), oldest dropped first; private rolls are never logged.
 * It is saved with the channel's record, so it survives restarts.
 * Ownership: the state belongs to its channel record (channel_mod()).
 */
#ifndef DELVER_ROLLCHAN_H
#define DELVER_ROLLCHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/state.h"

#define ROLLCHAN_LOG_MAX    20  /* rolls a channel's log keeps */
#define ROLLCHAN_WHAT_MAX   128 /* bytes of a logged roll's text, with the NUL */
#define ROLLCHAN_RESULT_MAX 64  /* bytes of a logged result, with the NUL */

struct rollchan_entry {
	int64_t when; /* unix seconds */
	char who[NAME_MAX_LEN];
	char what[ROLLCHAN_WHAT_MAX];     /* canonical roll, label included */
	char result[ROLLCHAN_RESULT_MAX]; /* "14", or "14, 9, 12" for several */
};

struct rollchan {
	bool no_natural; /* the channel turned off "Natural 20!" marks */
	size_t nlog;     /* entries in log, at most ROLLCHAN_LOG_MAX */
	size_t head;     /* index of the oldest entry */
	struct rollchan_entry log[ROLLCHAN_LOG_MAX];
};

extern const struct chanmod rollchan_mod;

/* The channel's dice state, created on first use. */
struct rollchan *rollchan_of(struct channel *ch);

/* Appends a roll to the log, dropping the oldest when full; text is cut
 * on a character boundary to fit. */
void rollchan_log(struct rollchan *rc, int64_t when, const char *who, const char *what,
                  const char *result);

/* The i-th entry from the newest (0 is the newest), or NULL. */
const struct rollchan_entry *rollchan_entry(const struct rollchan *rc, size_t i);

#endif
