/*
 * reply_fmt: the text a reply holds, formatted and made safe to show.
 *
 * Every string of a reply comes through reply_fmt_text or reply_fmt_v:
 * they copy it into the reply's arena as UTF-8 (ill-formed bytes become
 * U+FFFD) without the characters rules/textsafe.h removes, so the
 * renderers can rely on it and none needs its own check.
 */
#ifndef DELVER_REPLY_FMT_H
#define DELVER_REPLY_FMT_H

#include <stdarg.h>
#include <stddef.h>

struct reply;

/* The formats replies use most (%s, %.Ns, %.*s, %d, %zu, %lld, %%)
 * without printf, into out (size bytes). Returns the length, or SIZE_MAX
 * when the format has another conversion or the text does not fit. */
size_t reply_fmt_quick(char *out, size_t size, const char *fmt, va_list ap);

/* A copy of s[0..n) in r's arena, made safe; *len (when not NULL) gets its
 * length. */
char *reply_fmt_text(struct reply *r, const char *s, size_t n, size_t *len);

/* fmt formatted into r's arena, made safe; *len (when not NULL) gets the
 * length. Text longer than a span may be is "…" instead. */
char *reply_fmt_v(struct reply *r, const char *fmt, va_list ap, size_t *len);

/* Makes a player's mark (THWACKO_STYLE_MARK_MAX bytes, NUL-terminated) as
 * safe as span text, in place. */
void reply_fmt_mark(char *mark);

#endif
