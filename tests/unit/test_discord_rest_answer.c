/* bot/discord/discord_rest_answer: the headers of an answer as libcurl (or
 * discord_rest_h1) hands them over one line at a time, and the wait and
 * scope a 429 asks for. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_rest_answer.h"

/* Hands each line of lines (NULL-terminated) over as a header callback. */
static void
feed(struct discord_rest_answer *a, const char *const *lines)
{
	memset(a, 0, sizeof(*a));
	for (; *lines != NULL; lines++) {
		char line[512];
		size_t n = strlen(*lines);

		memcpy(line, *lines, n);
		assert_int_equal(discord_rest_answer_header(line, 1, n, a), n);
	}
}

static double
wait_of(const char *const *lines, const char *body, bool *global)
{
	struct discord_rest_answer a;

	feed(&a, lines);
	return discord_rest_answer_429(&a, body, strlen(body), global);
}

/* The body's retry_after first; else the Retry-After header (the first
 * one); else a second. Out of range: a second, or the hour. */
static void
the_wait(void **unused)
{
	const char *const with[] = {"HTTP/1.1 429 Too Many Requests\r\n", "Retry-After: 3\r\n",
	                            "retry-after: 9\r\n", "\r\n", NULL};
	const char *const without[] = {"HTTP/1.1 429 Too Many Requests\r\n", "\r\n", NULL};
	const char *const far[] = {"HTTP/1.1 429 x\r\n", "Retry-After:  7200 \r\n", NULL};
	bool g;

	assert_true(wait_of(with, "{\"retry_after\": 0.25}", &g) == 0.25);
	assert_true(wait_of(with, "", &g) == 3.0);
	assert_true(wait_of(with, "{\"retry_after\": \"2\"}", &g) == 3.0);
	assert_true(wait_of(without, "", &g) == 1.0);
	assert_true(wait_of(without, "{\"retry_after\": -1}", &g) == 1.0);
	assert_true(wait_of(far, "", &g) == 3600.0);
}

/* Global: the body's "global": true, or the first X-RateLimit-Global
 * saying true, or the first X-RateLimit-Scope saying global (either case). */
static void
the_scope(void **unused)
{
	const char *const plain[] = {"HTTP/1.1 429 x\r\n", "X-RateLimit-Scope: user\r\n",
	                             "X-RateLimit-Scope: global\r\n", NULL};
	const char *const scope[] = {"HTTP/1.1 429 x\r\n", "x-ratelimit-scope: Global\r\n", NULL};
	const char *const flag[] = {"HTTP/1.1 429 x\r\n", "X-RateLimit-Global: true\r\n", NULL};
	const char *const no[] = {"HTTP/1.1 429 x\r\n", "X-RateLimit-Global: false\r\n",
	                          "X-RateLimit-Global: true\r\n", NULL};
	bool g = true;

	wait_of(plain, "{\"retry_after\": 1}", &g);
	assert_false(g);
	wait_of(plain, "{\"retry_after\": 1, \"global\": true}", &g);
	assert_true(g);
	wait_of(scope, "", &g);
	assert_true(g);
	wait_of(flag, "", &g);
	assert_true(g);
	wait_of(no, "", &g);
	assert_false(g);
}

/* A status line (the answer after a 1xx) forgets what the one before said. */
static void
a_new_answer_forgets(void **unused)
{
	const char *const lines[] = {"HTTP/1.1 100 Continue\r\n",          "Retry-After: 5\r\n",
	                             "X-RateLimit-Global: true\r\n",       "\r\n",
	                             "HTTP/1.1 429 Too Many Requests\r\n", NULL};
	bool g = true;

	assert_true(wait_of(lines, "", &g) == 1.0);
	assert_false(g);
}

/* The rate limit headers and the Date, the first of each. */
static void
rate_headers(void **unused)
{
	const char *const lines[] = {"HTTP/1.1 204 No Content\r\n",
	                             "date: Tue, 01 Dec 2026 03:59:45 GMT\r\n",
	                             "X-RateLimit-Limit: 5\r\n",
	                             "X-RateLimit-Remaining: 4\r\n",
	                             "X-RateLimit-Reset: 1796097586.652\r\n",
	                             "X-RateLimit-Reset-After: 1.000\r\n",
	                             "X-RateLimit-Bucket: 8a0c4e6f1b2d3a59\r\n",
	                             "X-RateLimit-Remaining: 1\r\n",
	                             "\r\n",
	                             NULL};
	struct discord_rest_answer a;

	feed(&a, lines);
	assert_int_equal(a.seen, DISCORD_REST_ANSWER_DATE | DISCORD_REST_ANSWER_BUCKET |
	                             DISCORD_REST_ANSWER_LIMIT | DISCORD_REST_ANSWER_REMAINING |
	                             DISCORD_REST_ANSWER_RESET_AFTER | DISCORD_REST_ANSWER_RESET);
	assert_string_equal(a.date, "Tue, 01 Dec 2026 03:59:45 GMT");
	assert_string_equal(a.bucket, "8a0c4e6f1b2d3a59");
	assert_int_equal(a.limit, 5);
	assert_int_equal(a.remaining, 4);
	assert_true(a.reset == 1796097586.652);
	assert_true(a.reset_after == 1.0);
}

/* A reset, a reset-after and a Retry-After read as strtod reads their
 * values, bit for bit: plain decimals, and the forms strtod alone takes
 * (exponents, signs, more digits than a double holds exactly, trailing
 * words, nothing at all). */
static void
numbers_as_strtod_reads_them(void **unused)
{
	static const char *const values[] = {"0",
	                                     "5",
	                                     "0.5",
	                                     "1.000",
	                                     "0.1",
	                                     "0.3",
	                                     "2.675",
	                                     ".5",
	                                     "7.",
	                                     "1796097586.652",
	                                     "999999999999999",
	                                     "99999999999999.9",
	                                     "0.000000000000001",
	                                     "1234567890123456",
	                                     "0.1234567890123456",
	                                     "12345678901234567890",
	                                     "1e3",
	                                     "-2.5",
	                                     "+0.25",
	                                     "1.5s",
	                                     "1..5",
	                                     "",
	                                     "abc",
	                                     "0x10",
	                                     "inf",
	                                     "3.14159265358979"};

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char reset[128], after[128], retry[128];
		const char *const lines[] = {reset, after, retry, NULL};
		struct discord_rest_answer a;
		double want = strtod(values[i], NULL);

		snprintf(reset, sizeof(reset), "X-RateLimit-Reset: %s\r\n", values[i]);
		snprintf(after, sizeof(after), "X-RateLimit-Reset-After: %s\r\n", values[i]);
		snprintf(retry, sizeof(retry), "Retry-After: %s\r\n", values[i]);
		feed(&a, lines);
		assert_memory_equal(&a.reset, &want, sizeof(want));
		assert_memory_equal(&a.reset_after, &want, sizeof(want));
		assert_memory_equal(&a.retry_after, &want, sizeof(want));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(the_wait),
	    cmocka_unit_test(the_scope),
	    cmocka_unit_test(a_new_answer_forgets),
	    cmocka_unit_test(rate_headers),
	    cmocka_unit_test(numbers_as_strtod_reads_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
