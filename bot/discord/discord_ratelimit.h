/*
 * discord_ratelimit: Discord's REST rate limits, without I/O.
 *
 * Requests are grouped by route: the method and the path with every id
 * replaced by ":id", except the major parameters that Discord limits
 * separately (the channel, guild and webhook or interaction id and token),
 * so "POST /channels/1/messages" and "POST /channels/2/messages" are two
 * routes. A route joins the bucket its responses name (X-RateLimit-Bucket,
 * qualified by its major parameters), learning limit, remaining and
 * reset-after from the headers. Until its first answer, one request of a
 * route (not an exempt one) goes at a time, so that a burst meets the
 * limit it does not know yet with one request, not with a 429 for each.
 * Answers may come back in another order than their requests went: within
 * one window (the same X-RateLimit-Reset) the lowest remaining count is
 * believed, and an answer of a window already over teaches nothing.
 *
 * A request may go when its bucket has requests left (counting those in
 * flight; past its reset the bucket holds its limit again, less those in
 * flight, until their answers tell the new window), no 429 has locked the
 * bucket, and, unless it is an interaction's (exempt: its callback,
 * follow-ups and edits, which Discord does not count against the global
 * limit), the global limit allows: at most 50 requests in any second, and
 * no global 429 lock. A 429 locks the bucket, or everything when global,
 * for retry_after: nothing is sent there before it passes.
 *
 * The buckets of exempt routes are learnt as the others (an interaction's
 * follow-ups and edits share one bucket per interaction token, 5 per 2 s
 * on Discord), but an exempt route is kept only while it holds something
 * the next request must wait for: its bucket empty before the reset, a
 * request in flight, or a 429 lock. A callback, whose answer leaves its
 * bucket requests, allocates nothing. Other idle buckets are forgotten a
 * minute after their reset, so memory stays bounded however many
 * interactions pass. Times are milliseconds.
 */
#ifndef DELVER_DISCORD_RATELIMIT_H
#define DELVER_DISCORD_RATELIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISCORD_RATELIMIT_ROUTE_MAX   256
#define DISCORD_RATELIMIT_GLOBAL_RATE 50 /* requests a second */

struct discord_ratelimit;

/* What a response said about limits; -1 (or NULL) for absent headers. */
struct discord_ratelimit_headers {
	const char *bucket;
	int limit;
	int remaining;
	double reset_after; /* seconds */
	/* X-RateLimit-Reset: the window's end, epoch seconds; 0 when absent.
	 * Answers of one window carry the same value, so answers that arrive
	 * out of order are told apart from a new window's. */
	double reset;
};

struct discord_ratelimit *discord_ratelimit_new(void);
void discord_ratelimit_free(struct discord_ratelimit *rl);

/* The route key of a request, e.g. "POST /channels/1/messages". */
void discord_ratelimit_route(const char *method, const char *path, char *out, size_t len);

/* How many ms the request must wait (0: it may go now). */
int64_t discord_ratelimit_wait(struct discord_ratelimit *rl, const char *route, bool exempt,
                               int64_t now);
/* The request went: counts it against its bucket and the global limit. */
void discord_ratelimit_sent(struct discord_ratelimit *rl, const char *route, bool exempt,
                            int64_t now);
/* Its answer came (status 0: none came). retry_after (seconds) and global
 * matter for a 429 only. An exempt request meets only the routes exempt
 * requests made known (so that, while there are none, its long route is
 * not even looked up). */
void discord_ratelimit_done(struct discord_ratelimit *rl, const char *route, bool exempt,
                            long status, const struct discord_ratelimit_headers *h,
                            double retry_after, bool global, int64_t now);

/* Buckets known (for tests). */
size_t discord_ratelimit_buckets(const struct discord_ratelimit *rl);

#endif
