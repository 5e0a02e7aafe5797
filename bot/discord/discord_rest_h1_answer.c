/* discord_rest_h1_answer: an HTTP/1.1 answer read by http_parser; see
 * discord_rest_h1_answer.h. */
#include "bot/discord/discord_rest_h1_answer.h"

#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

#define LINE_MAX_LEN 8192 /* one header line of an answer */

/* A header line is whole: libcurl's header callback reads it. An
 * X-RateLimit-Bucket too long for a->hd is kept, trimmed, as libcurl's
 * curl_easy_header would give it. */
static void
line_done(struct discord_rest_h1_answer *a)
{
	unsigned before = a->hd->seen;

	discord_rest_answer_header(a->line.p, 1, a->line.len, a->hd);
	if (!(before & DISCORD_REST_ANSWER_LONG_BUCKET) &&
	    (a->hd->seen & DISCORD_REST_ANSWER_LONG_BUCKET) && a->long_bucket == NULL) {
		const char *v = (const char *)memchr(a->line.p, ':', a->line.len) + 1;
		size_t n = a->line.len - (size_t)(v - a->line.p);

		while (n > 0 && (*v == ' ' || *v == '\t'))
			v++, n--;
		while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			n--;
		a->long_bucket = xmalloc(n + 1);
		memcpy(a->long_bucket, v, n);
		a->long_bucket[n] = '\0';
	}
	buf_reset(&a->line);
	a->in_value = false;
}

static int
on_begin(http_parser *p)
{
	struct discord_rest_h1_answer *a = p->data;

	/* A new answer (after a 1xx) forgets what an earlier one said. */
	a->hd->seen = 0;
	buf_reset(a->body);
	buf_reset(&a->line);
	a->in_value = false;
	free(a->long_bucket);
	a->long_bucket = NULL;
	return 0;
}

static int
on_field(http_parser *p, const char *at, size_t n)
{
	struct discord_rest_h1_answer *a = p->data;

	if (a->in_value)
		line_done(a);
	return buf_add(&a->line, at, n) < 0;
}

static int
on_value(http_parser *p, const char *at, size_t n)
{
	struct discord_rest_h1_answer *a = p->data;

	if (!a->in_value) {
		a->in_value = true;
		if (buf_add(&a->line, ": ", 2) < 0)
			return 1;
	}
	return buf_add(&a->line, at, n) < 0;
}

static int
on_headers(http_parser *p)
{
	struct discord_rest_h1_answer *a = p->data;

	if (a->in_value)
		line_done(a);
	buf_reset(&a->line);
	return 0;
}

static int
on_body(http_parser *p, const char *at, size_t n)
{
	struct discord_rest_h1_answer *a = p->data;

	if (buf_add(a->body, at, n) < 0) {
		a->too_big = true;
		return 1;
	}
	return 0;
}

static int
on_complete(http_parser *p)
{
	struct discord_rest_h1_answer *a = p->data;

	if (p->status_code >= 100 && p->status_code < 200)
		return 0; /* 100 Continue: the answer follows */
	a->status = (long)p->status_code;
	a->complete = true;
	http_parser_pause(p, 1); /* what follows is no part of it */
	return 0;
}

static const http_parser_settings settings = {
    .on_message_begin = on_begin,
    .on_header_field = on_field,
    .on_header_value = on_value,
    .on_headers_complete = on_headers,
    .on_body = on_body,
    .on_message_complete = on_complete,
};

void
discord_rest_h1_answer_init(struct discord_rest_h1_answer *a)
{
	memset(a, 0, sizeof(*a));
	buf_init(&a->line, LINE_MAX_LEN);
}

void
discord_rest_h1_answer_free(struct discord_rest_h1_answer *a)
{
	buf_free(&a->line);
	free(a->long_bucket);
	a->long_bucket = NULL;
}

void
discord_rest_h1_answer_begin(struct discord_rest_h1_answer *a, struct discord_rest_answer *hd,
                             struct buf *body)
{
	http_parser_init(&a->p, HTTP_RESPONSE);
	a->p.data = a;
	a->hd = hd;
	a->body = body;
	hd->seen = 0;
	buf_reset(body);
	buf_reset(&a->line);
	free(a->long_bucket);
	a->long_bucket = NULL;
	a->status = 0;
	a->complete = a->too_big = a->in_value = false;
}

enum discord_rest_h1_read
discord_rest_h1_answer_read(struct discord_rest_h1_answer *a, const char *p, size_t n, size_t *used)
{
	*used = http_parser_execute(&a->p, &settings, n > 0 ? p : NULL, n);
	if (*used > n) /* 2.9.4 says 1 of 0 bytes at an end inside an answer */
		*used = n;
	if (a->complete)
		return DISCORD_REST_H1_DONE;
	if (a->too_big)
		return DISCORD_REST_H1_TOO_BIG;
	if (HTTP_PARSER_ERRNO(&a->p) != HPE_OK)
		return n == 0 ? DISCORD_REST_H1_CUT : DISCORD_REST_H1_BAD;
	return n == 0 ? DISCORD_REST_H1_CUT : DISCORD_REST_H1_MORE;
}

bool
discord_rest_h1_answer_keep(const struct discord_rest_h1_answer *a)
{
	return http_should_keep_alive(&a->p) != 0;
}
