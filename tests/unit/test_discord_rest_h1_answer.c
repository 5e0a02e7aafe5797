/* bot/discord/discord_rest_h1_answer: an answer read whole at once (a
 * plain one, without http_parser) reads as http_parser reads it, one byte
 * at a time; an answer that is not plain goes to http_parser whole. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "tests/h1read.h"

#define BODY_MAX 4096

/* text is read whole without http_parser, as http_parser reads it. */
static void
same_both_roads(const char *text)
{
	struct h1read whole, bytes;

	h1read(text, strlen(text), strlen(text), BODY_MAX, &whole);
	h1read(text, strlen(text), 1, BODY_MAX, &bytes);
	assert_true(whole.plain);
	assert_false(bytes.plain);
	assert_int_equal(whole.r, DISCORD_REST_H1_DONE);
	assert_true(whole.keep);
	assert_true(h1read_same(&whole, &bytes));
	h1read_free(&whole);
	h1read_free(&bytes);
}

/* Discord's answers: rate limit headers, a 204 without a body, a 200 with
 * one, a 429; blanks around values; a bucket too long for the struct; a
 * 204 whose Content-Length still counts a body, as http_parser reads it. */
static void
plain_answers_read_as_http_parser_reads_them(void **unused)
{
	static const char tail[] = " \r\nContent-Length: 0\r\n\r\n";
	char long_bucket[512];

	same_both_roads("HTTP/1.1 204 No Content\r\ndate: Tue, 01 Dec 2026 03:59:45 GMT\r\n"
	                "X-RateLimit-Limit: 5\r\nX-RateLimit-Remaining: 4\r\n"
	                "X-RateLimit-Reset: 1796097586.652\r\nX-RateLimit-Reset-After: 1.000\r\n"
	                "X-RateLimit-Bucket: 8a0c4e6f1b2d3a59\r\nX-RateLimit-Scope: user\r\n"
	                "content-length: 0\r\n\r\n");
	same_both_roads("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
	                "Content-Length: 17\r\n\r\n{\"id\":\"12345678\"}");
	same_both_roads("HTTP/1.1 429 Too Many Requests\r\nRetry-After:3 \t\r\n"
	                "x-ratelimit-global:\t true\r\nContent-Length: 2\r\n\r\n{}");
	same_both_roads("HTTP/1.1 204\r\nContent-Length: 3\r\n\r\nabc");
	memcpy(long_bucket, "HTTP/1.1 200 OK\r\nX-RateLimit-Bucket: ", 37);
	memset(long_bucket + 37, 'b', 300);
	memcpy(long_bucket + 337, tail, sizeof(tail));
	same_both_roads(long_bucket);
}

/* Not plain (or not whole): http_parser reads it, with what it says. */
static void
other_answers_go_to_http_parser(void **unused)
{
	static const char *const others[] = {
	    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
	    "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
	    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
	    "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok",
	    "HTTP/1.1 200 OK\r\nX-Empty:\r\nContent-Length: 2\r\n\r\nok",
	    "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\no",
	    "HTTP/1.1 200 OK\r\n\r\nuntil the end",
	    /* http_parser 2.9.4 takes a name that begins with Transfer-Encoding
	     * for one: with a Content-Length, the answer is refused. */
	    "HTTP/1.1 200 OK\r\nTransfer-Encodings: x\r\nContent-Length: 2\r\n\r\nok",
	};

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		struct h1read o;

		h1read(others[i], strlen(others[i]), strlen(others[i]), BODY_MAX, &o);
		assert_false(o.plain);
		h1read_free(&o);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(plain_answers_read_as_http_parser_reads_them),
	    cmocka_unit_test(other_answers_go_to_http_parser),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
