/* textsafe: user text made safe to echo; see textsafe.h. */
#include "rules/base/textsafe.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rules/base/utf8.h"

/* Decodes the character at s (n > 0 bytes left) into *cp; returns its
 * length. A byte that starts no well-formed sequence (the caller promised
 * none) is read as the code point of its value, alone. */
static size_t
decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len = utf8_decode((const char *)s, n, cp);

	if (len == 0) {
		*cp = s[0];
		len = 1;
	}
	return len;
}

/* A character that ends or splits a line: shown as a space. */
static bool
is_break(uint32_t cp)
{
	return cp == '\t' || cp == '\n' || cp == '\v' || cp == '\f' || cp == '\r' || cp == 0x85 ||
	       cp == 0x2028 || cp == 0x2029;
}

/* Controls, bidi controls and invisible characters (breaks included). */
static bool
is_unsafe(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
		return true;
	if (cp < 0xAD)
		return false;
	return cp == 0xAD || cp == 0x61C || cp == 0x115F || cp == 0x1160 || cp == 0x180E ||
	       (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
	       (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x206F) || cp == 0x3164 ||
	       cp == 0xFEFF || cp == 0xFFA0 || (cp >= 0xFFF9 && cp <= 0xFFFB) ||
	       (cp >= 0xE0000 && cp <= 0xE007F);
}

/*
 * Whether the character cp at s[i] (len bytes) is kept; prev is the kept
 * character before it (0 at the start). A joiner or non-joiner is kept
 * where it shows (utf8_joiner_shows), a tag character in a run after
 * U+1F3F4 (a subdivision flag).
 */
static bool
kept(const unsigned char *s, size_t n, size_t i, size_t len, uint32_t cp, uint32_t prev)
{
	uint32_t next = 0;

	if (!is_unsafe(cp))
		return true;
	if (cp == 0x200C || cp == 0x200D) {
		if (i + len < n)
			decode(s + i + len, n - i - len, &next);
		return utf8_joiner_shows(prev, cp, next);
	}
	if (cp >= 0xE0020 && cp <= 0xE007F)
		return prev == 0x1F3F4 || (prev >= 0xE0020 && prev <= 0xE007E);
	return false;
}

/* textsafe_ok, and with strict, false at a byte that starts no
 * well-formed sequence (else read as decode() reads it). */
static bool
ok(const char *str, size_t n, bool strict)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp, prev = 0;
	size_t i = 0, len;

	/* ASCII printable text, the usual case, needs no decoding: eight bytes
	 * at a time while none is below 0x20 or above 0x7E (each test flags a
	 * byte exactly when one is), then byte by byte. */
	while (n - i >= 8) {
		const uint64_t ones = 0x0101010101010101ull;
		uint64_t w;

		memcpy(&w, s + i, 8);
		if (((((w - ones * 0x20) & ~w) | (w + ones) | w) & 0x8080808080808080ull) != 0)
			break;
		i += 8;
	}
	while (i < n && s[i] >= 0x20 && s[i] < 0x7F)
		i++;
	if (i > 0)
		prev = s[i - 1];
	for (; i < n; i += len) {
		len = strict ? utf8_decode((const char *)s + i, n - i, &cp)
		             : decode(s + i, n - i, &cp);
		if (len == 0 || !kept(s, n, i, len, cp, prev))
			return false;
		prev = cp;
	}
	return true;
}

bool
textsafe_ok(const char *s, size_t n)
{
	return ok(s, n, false);
}

bool
textsafe_ok_utf8(const char *s, size_t n)
{
	return ok(s, n, true);
}

bool
textsafe_blank(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp, prev = 0;
	size_t len;

	for (size_t i = 0; i < n; i += len) {
		len = decode(s + i, n - i, &cp);
		if (!kept(s, n, i, len, cp, prev))
			continue;
		if (cp != ' ')
			return false;
		prev = cp;
	}
	return true;
}

size_t
textsafe_clean(struct buf *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp, prev = 0;
	size_t i, len, changed = 0;

	for (i = 0; i < n; i += len) {
		len = decode(s + i, n - i, &cp);
		if (kept(s, n, i, len, cp, prev)) {
			buf_add(out, s + i, len);
			prev = cp;
			continue;
		}
		changed++;
		if (is_break(cp)) {
			buf_addc(out, ' ');
			prev = ' ';
		}
	}
	return changed;
}

bool
textsafe_invisible_at(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = decode(s, n, cp);

	return *cp >= 0xA0 && !is_break(*cp) && !kept(s, n, 0, len, *cp, 0);
}

size_t
textsafe_invisible_find(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t c, prev = 0;
	size_t i, len;

	for (i = 0; i < n; i += len) {
		len = decode(s + i, n - i, &c);
		if (kept(s, n, i, len, c, prev)) {
			prev = c;
			continue;
		}
		/* a lone byte of no character decodes as its value: skipped */
		if (len > 1 && c >= 0xA0 && !is_break(c)) {
			*cp = c;
			return i;
		}
	}
	return n;
}

bool
textsafe_invisible_in(const char *s, size_t n, uint32_t *cp, size_t *at)
{
	uint32_t c;
	size_t off = textsafe_invisible_find(s, n, &c);

	if (off == n)
		return false;
	if (cp != NULL)
		*cp = c;
	if (at != NULL)
		*at = off;
	return true;
}

void
textsafe_invisible_name(char *dst, size_t size, uint32_t cp, bool article)
{
	snprintf(dst, size, "%sinvisible character U+%04X", article ? "an " : "", (unsigned)cp);
}

bool
textsafe_quote(struct buf *b, const char *s, size_t n, size_t max)
{
	char name[TEXTSAFE_NAME_MAX];
	size_t off;
	uint32_t cp;

	buf_addc(b, '\'');
	textsafe_clean(b, s, utf8_cut(s, n, max));
	buf_addc(b, '\'');
	if (!textsafe_invisible_in(s, n, &cp, &off))
		return false;
	textsafe_invisible_name(name, sizeof(name), cp, true);
	buf_addf(b, " with %s at column %zu", name, 1 + utf8_count(s, off));
	return true;
}

const char *
textsafe_quoted(char *out, size_t size, const char *s, size_t n, size_t max)
{
	struct buf b;

	buf_init(&b, (max < n ? max : n) + 2 * TEXTSAFE_NAME_MAX);
	textsafe_quote(&b, s, n, max);
	utf8_copy(out, size, buf_str(&b));
	buf_free(&b);
	return out;
}
