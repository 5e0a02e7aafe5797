/*
 * libFuzzer target for bot/irc/irc_fmt's line cutting. The first byte picks a
 * budget; the rest is a formatted line. Every piece must fit the budget and
 * be non-empty, and the pieces together must show exactly the input's
 * characters (less the spaces a cut dropped) each in the same formatting as
 * in the input: a continuation re-applies what was in force.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_fmt.h"

#define MAXCH 4096

struct vis {
	size_t n;
	struct {
		struct irc_fmt_state st;
		char c[4];
		size_t len;
	} ch[MAXCH];
};

static struct vis in, out;
static size_t budget;

static bool
is_code(unsigned char c)
{
	return c == 0x02 || c == 0x03 || c == 0x04 || c == 0x0f || c == 0x11 || c == 0x16 ||
	       c == 0x1d || c == 0x1e || c == 0x1f;
}

/* Appends the visible characters of s with the formatting of each. */
static void
visible(const char *s, size_t len, struct vis *v)
{
	struct irc_fmt_state st = {.fg = -1, .bg = -1};

	for (size_t p = 0; p < len;) {
		size_t t = irc_fmt_token(s + p, len - p);

		if (is_code((unsigned char)s[p])) {
			irc_fmt_apply(&st, s + p, t);
		} else if (v->n < MAXCH) {
			v->ch[v->n].st = st;
			memcpy(v->ch[v->n].c, s + p, t);
			v->ch[v->n].len = t;
			v->n++;
		}
		p += t;
	}
}

static void
piece(void *ctx, const char *p, size_t len)
{
	size_t before = out.n;

	(void)ctx;
	if (len == 0 || len > budget)
		abort();
	visible(p, len, &out);
	if (out.n == before && out.n < MAXCH)
		abort(); /* a piece holds at least one visible character */
}

static bool
same(size_t i, size_t j)
{
	return in.ch[i].len == out.ch[j].len &&
	       memcmp(in.ch[i].c, out.ch[j].c, in.ch[i].len) == 0 &&
	       memcmp(&in.ch[i].st, &out.ch[j].st, sizeof(in.ch[i].st)) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[MAXCH];
	size_t len, i = 0, j = 0;

	if (size < 1 || size > MAXCH)
		return 0;
	budget = IRC_FMT_BUDGET_MIN + data[0];
	len = size - 1;
	memcpy(line, data + 1, len);
	for (size_t k = 0; k < len; k++)
		if (line[k] == '\0' || line[k] == '\r' || line[k] == '\n')
			line[k] = ' ';
	in.n = out.n = 0;
	visible(line, len, &in);
	irc_fmt_split(line, len, budget, piece, NULL);
	/* Walk both: a mismatch may only be a space the cut dropped. */
	while (i < in.n && j < out.n) {
		if (same(i, j)) {
			i++;
			j++;
		} else if (in.ch[i].len == 1 && in.ch[i].c[0] == ' ') {
			i++;
		} else {
			abort();
		}
	}
	while (i < in.n && in.ch[i].len == 1 && in.ch[i].c[0] == ' ')
		i++;
	if (i != in.n || j != out.n)
		abort();
	return 0;
}
