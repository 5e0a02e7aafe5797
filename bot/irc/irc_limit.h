/*
 * irc_limit: command rate limits, one token bucket per key (a user or a
 * channel), for bot/irc.
 *
 * A key's bucket holds `burst` commands and refills one every
 * `interval_ms`; a key not seen before starts full. irc_limit_take() spends
 * one when there is one. irc_limit_tell() says, once per throttled spell,
 * that the key's owner is to be told to slow down: the spell ends after
 * IRC_LIMIT_QUIET_MS without a refused command, so a flooder is told once
 * however long the flood lasts.
 *
 * At most IRC_LIMIT_KEYS keys are remembered; a new key replaces, of those
 * whose bucket is full and whose spell is over (they would behave the same
 * but for when they last spent), the one that spent least recently, or
 * else the one of all that spent least recently. Times are milliseconds on a monotonic clock the
 * caller gives; nothing here reads a clock. Keys are copied.
 */
#ifndef DELVER_IRC_LIMIT_H
#define DELVER_IRC_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

#define IRC_LIMIT_KEYS     512
#define IRC_LIMIT_KEY_MAX  192 /* bytes of a key, with the NUL; longer keys are cut */
#define IRC_LIMIT_QUIET_MS 30000

struct irc_limit;

/* Buckets of burst commands (at least 1) refilled every interval_ms (0:
 * no limit at all). */
struct irc_limit *irc_limit_new(int burst, int interval_ms);
void irc_limit_free(struct irc_limit *l);
/* Changes the rate; every bucket keeps what it holds, at most the new burst. */
void irc_limit_set_rate(struct irc_limit *l, int burst, int interval_ms);

#define IRC_LIMIT_NONE 0x7fffffff /* irc_limit_count() with no limit at all */

#define IRC_LIMIT_NEVER INT64_MIN /* *last of a key that never spent */

/* How many whole commands key may spend at now (nothing is spent); *last,
 * when last is not NULL, is when key last spent one (IRC_LIMIT_NEVER). */
int irc_limit_count(struct irc_limit *l, const char *key, int64_t now, int64_t *last);
/* Whether key has a command to spend at now (nothing is spent). */
bool irc_limit_ready(struct irc_limit *l, const char *key, int64_t now);
/* Whether key has a command to spend at now and keep commands more after
 * it (nothing is spent); with no limit at all, always. */
bool irc_limit_ready_keeping(struct irc_limit *l, const char *key, int keep, int64_t now);
/* Whether key's bucket is full at now: it has spent nothing that has not
 * come back yet (a key not seen before is). */
bool irc_limit_full(struct irc_limit *l, const char *key, int64_t now);
/* Spends one of key's commands at now; returns false (nothing spent) when
 * its bucket is empty. */
bool irc_limit_take(struct irc_limit *l, const char *key, int64_t now);
/* Called when one of key's commands is refused at now: true once per
 * throttled spell (see above), false when its owner was told already. */
bool irc_limit_tell(struct irc_limit *l, const char *key, int64_t now);

#endif
