/* discord_rest_h1_answer: an HTTP/1.1 answer read by http_parser, or
 * whole at once when it is plain; see discord_rest_h1_answer.h. */
#include "bot/discord/discord_rest_h1_answer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/base/mem.h"

#define LINE_MAX_LEN 8192  /* one header line of an answer */
#define PLAIN_LINES  32    /* header lines of an answer read_plain reads */
#define PLAIN_HEAD   16384 /* bytes of its status line and header lines */

/* Header line p (n bytes, "Name: value") is whole: libcurl's header
 * callback reads it. An X-RateLimit-Bucket too long for a->hd is kept,
 * trimmed, as libcurl's curl_easy_header would give it. */
static void
header_line(struct discord_rest_h1_answer *a, const char *p, size_t n)
{
	unsigned before = a->hd->seen;

	discord_rest_answer_line(p, n, a->hd);
	if (!(before & DISCORD_REST_ANSWER_LONG_BUCKET) &&
	    (a->hd->seen & DISCORD_REST_ANSWER_LONG_BUCKET) && a->long_bucket == NULL) {
		const char *v = (const char *)memchr(p, ':', n) + 1;
		size_t vn = n - (size_t)(v - p);

		while (vn > 0 && (*v == ' ' || *v == '\t'))
			v++, vn--;
		while (vn > 0 && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
			vn--;
		a->long_bucket = xmalloc(vn + 1);
		memcpy(a->long_bucket, v, vn);
		a->long_bucket[vn] = '\0';
	}
}

/* The line http_parser handed over in pieces is whole. */
static void
line_done(struct discord_rest_h1_answer *a)
{
	header_line(a, a->line.p, a->line.len);
	buf_reset(&a->line);
	a->in_value = false;
}

/* What a byte may be in a plain answer (read_plain): NAME, in a header
 * name (letters, digits, '-' and '_': a part of what HTTP allows); TEXT,
 * in its status text or a header value (printable ASCII and the tab). */
enum {
	NAME = 1,
	TEXT = 2
};
static const unsigned char byte_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2,
    2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 3,
    2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* Whether the header name p (k bytes) begins with name, in either case. */
static bool
name_starts(const char *p, size_t k, const char *name)
{
	size_t n = strlen(name);

	return k >= n && strncasecmp(p, name, n) == 0;
}

/* Whether http_parser would read the header name p (k bytes) as one of
 * its own: Connection, Content-Length, Proxy-Connection,
 * Transfer-Encoding or Upgrade. Any name that begins with one of them is
 * taken for one (a name that only begins with Transfer-Encoding still
 * marks the answer as using it, in http_parser 2.9.4). */
static bool
name_special(const char *p, size_t k)
{
	switch (p[0] | 0x20) {
	case 'c':
		return name_starts(p, k, "Connection") || name_starts(p, k, "Content-Length");
	case 'p':
		return name_starts(p, k, "Proxy-Connection");
	case 't':
		return name_starts(p, k, "Transfer-Encoding");
	case 'u':
		return name_starts(p, k, "Upgrade");
	default:
		return false;
	}
}

/*
 * Reads the answer at the start of p[0..n) when it is whole there and
 * plain: "HTTP/1.1 ", a status of 200 to 599, printable status text,
 * header lines "Name:" (NAME bytes) with a value that is printable and
 * not blank, each ended by CR LF, exactly one Content-Length of 1 to 9
 * digits and nothing else, no other name_special, at most PLAIN_LINES
 * lines and PLAIN_HEAD bytes in all (http_parser refuses past 80 KB), and
 * the body whole and within body's cap. Such an answer is
 * read as http_parser reads it (tests/fuzz/fuzz_rest_answer.c holds the
 * two to each other): the same status, the same header lines (blanks
 * around a value aside, which the reader trims), the same body, kept
 * alive, *used its length. Returns false, having read nothing, for any
 * other answer: http_parser reads it.
 */
static bool
read_plain(struct discord_rest_h1_answer *a, const char *p, size_t n, size_t *used)
{
	const char *q = p, *end = p + n, *cr, *line[PLAIN_LINES];
	size_t len[PLAIN_LINES], lines = 0;
	uint64_t length = 0;
	bool have_length = false;
	long status;

	if (n < 14 || memcmp(q, "HTTP/1.1 ", 9) != 0 || q[9] < '2' || q[9] > '5' || q[10] < '0' ||
	    q[10] > '9' || q[11] < '0' || q[11] > '9')
		return false;
	status = (q[9] - '0') * 100 + (q[10] - '0') * 10 + (q[11] - '0');
	q += 12;
	/* Each line is scanned up to its CR, which is neither NAME nor TEXT. */
	cr = memchr(q, '\r', (size_t)(end - q));
	if (cr == NULL || cr + 1 == end || cr[1] != '\n')
		return false;
	if (*q == ' ')
		for (q++; byte_class[(unsigned char)*q] & TEXT; q++)
			;
	if (q != cr)
		return false;
	for (q += 2;;) {
		const char *name = q, *v;
		size_t k;

		cr = memchr(q, '\r', (size_t)(end - q));
		if (cr == NULL || cr + 1 == end || cr[1] != '\n')
			return false;
		if (cr == q)
			break;
		while (byte_class[(unsigned char)*q] & NAME)
			q++;
		k = (size_t)(q - name);
		if (k == 0 || *q != ':' || lines == PLAIN_LINES)
			return false;
		for (q++; *q == ' ' || *q == '\t'; q++)
			;
		v = q;
		while (byte_class[(unsigned char)*q] & TEXT)
			q++;
		if (q == v || q != cr || q - name > LINE_MAX_LEN / 2)
			return false;
		line[lines] = name;
		len[lines++] = (size_t)(q - name);
		if (!name_special(name, k)) {
			q += 2;
			continue;
		}
		if (k != 14 || !name_starts(name, k, "Content-Length") || have_length || q - v > 9)
			return false;
		for (const char *d = v; d < q; d++) {
			if (*d < '0' || *d > '9')
				return false;
			length = length * 10 + (uint64_t)(*d - '0');
		}
		have_length = true;
		q += 2;
	}
	q += 2;
	if (!have_length || q - p > PLAIN_HEAD || (uint64_t)(end - q) < length)
		return false;
	if (length > 0 && buf_add(a->body, q, (size_t)length) < 0)
		return false; /* past the cap: http_parser says so */
	/* Whole and plain: read it. */
	for (size_t i = 0; i < lines; i++)
		header_line(a, line[i], len[i]);
	a->status = status;
	a->complete = a->plain = true;
	*used = (size_t)(q - p) + (size_t)length;
	return true;
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
	a->complete = a->too_big = a->in_value = a->fed = a->plain = false;
}

enum discord_rest_h1_read
discord_rest_h1_answer_read(struct discord_rest_h1_answer *a, const char *p, size_t n, size_t *used)
{
	if (!a->fed && read_plain(a, p, n, used))
		return DISCORD_REST_H1_DONE;
	a->fed = true;
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
	return a->plain || http_should_keep_alive(&a->p) != 0;
}
