/* irc_fmt: mIRC formatting codes, cleaning and line cutting; see irc_fmt.h. */
#include "bot/irc/irc_fmt.h"

#include <string.h>

static const struct irc_fmt_state plain = {.fg = -1, .bg = -1};

void
irc_fmt_clean(struct buf *out, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\r' || c == '\n' || c == '\t')
			buf_addc(out, ' ');
		else if (c >= 0x20 && c != 0x7f)
			buf_addc(out, (char)c);
	}
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits of a colour number at s (at most two, within len). */
static size_t
colour_digits(const char *s, size_t len)
{
	size_t n = 0;

	while (n < 2 && n < len && is_digit(s[n]))
		n++;
	return n;
}

static bool
is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Hex digits of a colour at s (six, within len), or 0. */
static size_t
hex_colour(const char *s, size_t len)
{
	size_t n = 0;

	while (n < 6 && n < len && is_hex(s[n]))
		n++;
	return n == 6 ? 6 : 0;
}

size_t
irc_fmt_token(const char *s, size_t len)
{
	unsigned char c = (unsigned char)s[0];
	size_t n;

	if (c == 0x04) {
		n = 1 + hex_colour(s + 1, len - 1);
		if (n > 1 && n < len && s[n] == ',' && hex_colour(s + n + 1, len - n - 1) > 0)
			n += 7;
		return n;
	}
	if (c == 0x03) {
		n = 1 + colour_digits(s + 1, len - 1);
		if (n > 1 && n < len && s[n] == ',' && n + 1 < len && is_digit(s[n + 1]))
			n += 1 + colour_digits(s + n + 1, len - n - 1);
		return n;
	}
	if (c < 0xC0)
		return 1;
	n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
	if (n > len)
		n = len;
	for (size_t i = 1; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			return i;
	return n;
}

static int
colour_value(const char *s, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

void
irc_fmt_apply(struct irc_fmt_state *st, const char *s, size_t tlen)
{
	size_t n;

	switch (s[0]) {
	case 0x02:
		st->bold = !st->bold;
		break;
	case 0x1D:
		st->italic = !st->italic;
		break;
	case 0x1F:
		st->underline = !st->underline;
		break;
	case 0x1E:
		st->strike = !st->strike;
		break;
	case 0x11:
		st->mono = !st->mono;
		break;
	case 0x16:
		st->reverse = !st->reverse;
		break;
	case 0x0F:
		*st = plain;
		break;
	case 0x03:
		n = colour_digits(s + 1, tlen - 1);
		if (n == 0) {
			st->fg = st->bg = -1;
			break;
		}
		st->fg = colour_value(s + 1, n);
		if (1 + n < tlen && s[1 + n] == ',')
			st->bg = colour_value(s + 2 + n, tlen - 2 - n);
		break;
	default:
		break;
	}
}

/* Appends the codes that turn formatting on from nothing to st. */
static void
irc_fmt_codes(const struct irc_fmt_state *st, struct buf *out)
{
	if (st->bold)
		buf_adds(out, IRC_FMT_BOLD);
	if (st->italic)
		buf_adds(out, IRC_FMT_ITALIC);
	if (st->underline)
		buf_adds(out, IRC_FMT_UNDERLINE);
	if (st->strike)
		buf_adds(out, IRC_FMT_STRIKE);
	if (st->mono)
		buf_adds(out, "\x11");
	if (st->reverse)
		buf_adds(out, "\x16");
	if (st->fg >= 0 && st->bg >= 0)
		buf_addf(out, "\x03%02d,%02d", st->fg, st->bg);
	else if (st->fg >= 0)
		buf_addf(out, "\x03%02d", st->fg);
	else if (st->bg >= 0)
		buf_addf(out, "\x03%02d,%02d", 99, st->bg); /* 99: the default colour */
}

/* The codes restoring st before text t: a "\x02\x02" guard keeps a ',' and
 * digit that start t from being read as a background colour. */
static void
restore(const struct irc_fmt_state *st, const char *t, size_t tlen, struct buf *out)
{
	irc_fmt_codes(st, out);
	if ((st->fg >= 0 || st->bg >= 0) && tlen >= 2 && t[0] == ',' && is_digit(t[1]))
		buf_adds(out, "\x02\x02");
}

static bool
is_code(unsigned char c)
{
	return c == 0x02 || c == 0x03 || c == 0x04 || c == 0x0f || c == 0x11 || c == 0x16 ||
	       c == 0x1d || c == 0x1e || c == 0x1f;
}

static bool
has_visible(const char *s, size_t len)
{
	for (size_t p = 0; p < len; p += irc_fmt_token(s + p, len - p))
		if (!is_code((unsigned char)s[p]))
			return true;
	return false;
}

void
irc_fmt_strip(struct buf *out, const char *s, size_t len)
{
	for (size_t p = 0, n; p < len; p += n) {
		n = irc_fmt_token(s + p, len - p);
		if (!is_code((unsigned char)s[p]))
			buf_add(out, s + p, n);
	}
}

void
irc_fmt_split(const char *s, size_t len, size_t budget,
              void (*emit)(void *ctx, const char *piece, size_t len), void *ctx)
{
	struct irc_fmt_state st = plain;
	struct buf piece;
	size_t pos = 0;

	if (budget < IRC_FMT_BUDGET_MIN)
		budget = IRC_FMT_BUDGET_MIN;
	buf_init(&piece, budget + 32);
	while (pos < len) {
		struct irc_fmt_state cur = st, at_space = st;
		size_t p = pos, used, space = 0, end, next;
		bool have_space = false;

		buf_reset(&piece);
		restore(&st, s + pos, len - pos, &piece);
		used = piece.len;
		while (p < len) {
			size_t t = irc_fmt_token(s + p, len - p);

			if (used + t > budget)
				break;
			if (s[p] == ' ' && p > pos) {
				have_space = true;
				space = p;
				at_space = cur;
			}
			irc_fmt_apply(&cur, s + p, t);
			used += t;
			p += t;
		}
		if (p == len) {
			end = next = len;
			st = cur;
		} else if (s[p] == ' ' && p > pos) {
			end = p; /* the text that fits ends a word */
			next = p + 1;
			st = cur;
		} else if (have_space) {
			end = space;
			next = space + 1;
			st = at_space;
		} else if (p > pos) {
			end = next = p;
			st = cur;
		} else {
			/* Not even one token fits (a budget under the minimum):
			 * take it anyway so that the loop ends. */
			size_t t = irc_fmt_token(s + pos, len - pos);

			end = next = pos + t;
			irc_fmt_apply(&st, s + pos, t);
		}
		buf_add(&piece, s + pos, end - pos);
		if (has_visible(s + pos, end - pos))
			emit(ctx, piece.p, piece.len);
		pos = next;
	}
	buf_free(&piece);
}
