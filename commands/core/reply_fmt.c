/* reply_fmt: a reply's text, formatted and made safe; see reply_fmt.h. */
#include "commands/core/reply_fmt.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands/core/reply_int.h"
#include "rules/base/buf.h"
#include "rules/base/num.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

/* The formats replies use most (%s, %d, %zu, %lld, %%) without printf,
 * into out (size bytes). Returns the length, or SIZE_MAX when the format
 * has another conversion or the text does not fit: printf's turn then. */
size_t
reply_fmt_quick(char *out, size_t size, const char *fmt, va_list ap)
{
	size_t n = 0;

	for (const char *f = fmt; *f != '\0'; f++) {
		const char *s = f;
		char num[NUM_TEXT_MAX];
		size_t len = 1;

		if (*f == '%') {
			if (f[1] == 's') {
				s = va_arg(ap, const char *);
				len = strlen(s);
				f++;
			} else if (f[1] == '.' && (f[2] == '*' || (f[2] >= '0' && f[2] <= '9'))) {
				/* %.Ns and %.*s cut on a character boundary, not
				 * inside one as printf would. */
				size_t prec = 0;
				const char *p = f + 2;

				if (*p == '*') {
					int v = va_arg(ap, int);

					prec = v < 0 ? SIZE_MAX : (size_t)v;
					p++;
				} else {
					while (*p >= '0' && *p <= '9' && prec < 100000)
						prec = prec * 10 + (size_t)(*p++ - '0');
				}
				if (*p != 's')
					return SIZE_MAX;
				s = va_arg(ap, const char *);
				len = strnlen(s, prec == SIZE_MAX ? prec : prec + 1);
				len = utf8_cut(s, len, prec);
				f = p;
			} else if (f[1] == 'd') {
				s = num;
				len = num_text(va_arg(ap, int), num);
				f++;
			} else if (f[1] == 'z' && f[2] == 'u') {
				size_t z = va_arg(ap, size_t);

				if (z > LLONG_MAX)
					return SIZE_MAX;
				s = num;
				len = num_text((long long)z, num);
				f += 2;
			} else if (f[1] == 'l' && f[2] == 'l' && f[3] == 'd') {
				s = num;
				len = num_text(va_arg(ap, long long), num);
				f += 3;
			} else if (f[1] == '%') {
				f++;
			} else {
				return SIZE_MAX;
			}
		} else {
			/* A run of literal text up to the next conversion: one copy. */
			while (f[len] != '%' && f[len] != '\0')
				len++;
			f += len - 1;
		}
		if (len >= size - n)
			return SIZE_MAX;
		memcpy(out + n, s, len);
		n += len;
	}
	out[n] = '\0';
	return n;
}

/* Whether s[0..n) may go into a reply as it is: UTF-8 without any
 * character rules/textsafe.h removes. */
static bool
clean(const char *s, size_t n)
{
	return textsafe_ok_utf8(s, n);
}

/* A copy of s[0..n) in the arena with every ill-formed byte replaced by
 * U+FFFD (a reply is always UTF-8, even if some text was cut badly), then
 * without the controls, bidi controls and invisible characters of
 * rules/textsafe.h: user text can neither break a line nor reorder the
 * text around it ("+ 0 = 14" shown as "41 = 0 +"). */
static char *
repaired(struct reply *r, const char *s, size_t n, size_t *len)
{
	struct buf b, safe;
	char *out;

	buf_init(&b, 3 * (size_t)SPAN_MAX);
	buf_init(&safe, 3 * (size_t)SPAN_MAX);
	utf8_repair(&b, s, n);
	textsafe_clean(&safe, buf_str(&b), b.len);
	out = reply__copy(r, buf_str(&safe), safe.len);
	if (len != NULL)
		*len = safe.len;
	buf_free(&b);
	buf_free(&safe);
	return out;
}

/* A copy of s[0..n) in the arena, repaired when it is not UTF-8 or holds
 * what textsafe removes. Every string a reply holds comes through here or
 * through reply_fmt_v: this is the one place user text is made safe to show,
 * so the renderers can rely on it and none needs its own check. */
char *
reply_fmt_text(struct reply *r, const char *s, size_t n, size_t *len)
{
	if (!clean(s, n))
		return repaired(r, s, n, len);
	if (len != NULL)
		*len = n;
	return reply__copy(r, s, n);
}

/* Formats into the arena; *len (when not NULL) gets the length. Literal
 * formats and the common conversions skip printf altogether. */
char *
reply_fmt_v(struct reply *r, const char *fmt, va_list ap, size_t *len)
{
	char small[512], *out = NULL;
	const char *src = small;
	va_list again;
	size_t n;
	int f;

	if (fmt[0] == '%' && fmt[1] == 's' && fmt[2] == '\0') {
		src = va_arg(ap, const char *);
		n = strlen(src);
	} else if (strchr(fmt, '%') == NULL) {
		src = fmt;
		n = strlen(fmt);
	} else {
		va_copy(again, ap);
		n = reply_fmt_quick(small, sizeof(small), fmt, ap);
		if (n == SIZE_MAX) {
			va_list third;

			va_copy(third, again);
			f = vsnprintf(small, sizeof(small), fmt, again);
			n = f < 0 ? SIZE_MAX : (size_t)f;
			if (n >= sizeof(small) && n <= SPAN_MAX) {
				out = reply__alloc(r, n + 1);
				vsnprintf(out, n + 1, fmt, third);
			}
			va_end(third);
		}
		va_end(again);
	}
	if (n > SPAN_MAX) {
		src = "…";
		n = strlen(src);
		out = NULL;
	}
	if (out == NULL)
		return reply_fmt_text(r, src, n, len);
	if (!clean(out, n))
		return repaired(r, out, n, len);
	if (len != NULL)
		*len = n;
	return out;
}

/* Makes a player's mark (THWACKO_STYLE_MARK_MAX bytes) as safe as span text. */
void
reply_fmt_mark(char *mark)
{
	size_t n = strlen(mark);
	struct buf b;

	if (clean(mark, n))
		return;
	buf_init(&b, 4 * THWACKO_STYLE_MARK_MAX);
	textsafe_clean(&b, mark, utf8_valid(mark, n) ? n : 0);
	n = utf8_cut(buf_str(&b), b.len, THWACKO_STYLE_MARK_MAX - 1);
	memcpy(mark, buf_str(&b), n);
	mark[n] = '\0';
	buf_free(&b);
}
