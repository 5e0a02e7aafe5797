/*
 * discord_rest_answer: what the headers of a REST answer say, for
 * discord_rest: the rate limit headers and the Date, read once as libcurl
 * hands each header line over, and the wait a 429 asks for. No I/O, no
 * state of its own.
 */
#ifndef DELVER_DISCORD_REST_ANSWER_H
#define DELVER_DISCORD_REST_ANSWER_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>

#include "bot/discord/discord_ratelimit.h"

/* The headers of an answer that discord_rest reads, the first of each
 * name (seen: which were present, DISCORD_REST_ANSWER_ bits). */
struct discord_rest_answer {
	unsigned seen;
	char date[64], bucket[DISCORD_RATELIMIT_ROUTE_MAX];
	int limit, remaining;
	double reset_after, reset;
	double retry_after; /* Retry-After, in seconds */
};

enum {
	DISCORD_REST_ANSWER_DATE = 1,
	DISCORD_REST_ANSWER_BUCKET = 2,
	DISCORD_REST_ANSWER_LONG_BUCKET = 4, /* past bucket[]: read back from libcurl */
	DISCORD_REST_ANSWER_LIMIT = 8,
	DISCORD_REST_ANSWER_REMAINING = 16,
	DISCORD_REST_ANSWER_RESET_AFTER = 32,
	DISCORD_REST_ANSWER_RESET = 64,
	DISCORD_REST_ANSWER_RETRY_AFTER = 128,
	/* X-RateLimit-Global: true, or X-RateLimit-Scope: global */
	DISCORD_REST_ANSWER_GLOBAL = 256,
	DISCORD_REST_ANSWER_GLOBAL_SEEN = 512, /* the first X-RateLimit-Global was read */
	DISCORD_REST_ANSWER_SCOPE_SEEN = 1024, /* the first X-RateLimit-Scope was read */
};

/* libcurl's header callback (CURLOPT_HEADERFUNCTION; its data, ctx, is a
 * struct discord_rest_answer): one header line of an answer, the status
 * line first. Keeps the first of each header in one pass
 * (curl_easy_header() walks every header for each name asked); a status
 * line (a new answer, after a 1xx) forgets what an earlier one said. */
size_t discord_rest_answer_header(char *p, size_t size, size_t n, void *ctx);
/* The same for one header line p (n bytes, its CR LF optional), read
 * where it stands. */
void discord_rest_answer_line(const char *p, size_t n, struct discord_rest_answer *a);

/* The wait a 429 asks for, in seconds (0 to 3600), from its body (len
 * bytes of JSON: retry_after) or else its Retry-After header (in a), and
 * whether the limit is global (the body's "global", or the
 * X-RateLimit-Global or X-RateLimit-Scope header). */
double discord_rest_answer_429(const struct discord_rest_answer *a, const char *body, size_t len,
                               bool *global);

#endif
