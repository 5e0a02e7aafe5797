/* fungeon_name: what a name or a word a player gives may be; see
 * fungeon_name.h. */
#include "rules/fungeon/fungeon_name.h"

#include <string.h>

#include <utf8proc.h>

#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"
#include "rules/fungeon/fungeon_cost.h"

bool
fungeon_name_valid(const char *s)
{
	return fungeon_name_word_valid(s, FUNGEON_NAME_CHARS);
}

bool
fungeon_name_word_valid(const char *s, size_t chars)
{
	size_t n = strlen(s);

	if (n == 0 || n > 4 * chars || !utf8_valid(s, n) || utf8_len(s) > chars)
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p == 0x7f || strchr(":,>/\"#", *p) != NULL)
			return false;
		/* U+0080..U+009F (C1 controls) and U+00A0 (no-break space). */
		if (*p == 0xC2 && p[1] <= 0xA0)
			return false;
	}
	return true;
}

/* Whether cp is a zero-width joiner or non-joiner: part of how Persian
 * and the Indic scripts spell a word (and how emoji join), when it
 * stands between two characters. */
static bool
is_joiner(utf8proc_int32_t cp)
{
	return cp == 0x200C || cp == 0x200D;
}

bool
fungeon_name_shows(const char *s)
{
	size_t n = strlen(s);
	utf8proc_int32_t prev = ' ';

	if (!utf8_valid(s, n))
		return false;
	while (*s != '\0') {
		utf8proc_int32_t cp, next = ' ';
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s, -1, &cp);
		utf8proc_category_t cat;

		if (k <= 0)
			return false;
		if (s[k] != '\0')
			utf8proc_iterate((const utf8proc_uint8_t *)s + k, -1, &next);
		cat = utf8proc_category(cp);
		if (is_joiner(cp)) {
			/* inside a name it is kept only where it changes what
			 * shows (an emoji family, a Persian word's break): one
			 * between Latin letters would store a name that shows
			 * as another */
			if (prev == ' ' || is_joiner(prev) || next == ' ' || is_joiner(next) ||
			    !utf8_joiner_shows((uint32_t)prev, (uint32_t)cp, (uint32_t)next))
				return false;
		} else if (!textsafe_ok(s, (size_t)k) ||
		           (prev == ' ' &&
		            (cat == UTF8PROC_CATEGORY_MN || cat == UTF8PROC_CATEGORY_MC ||
		             cat == UTF8PROC_CATEGORY_ME))) {
			return false;
		}
		prev = cp;
		s += k;
	}
	return true;
}

bool
fungeon_name_reserved(const char *s)
{
	static const char *const words[] = {"none", "all", "tie", "dead"};
	bool digits = *s != '\0';

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (utf8_casecmp(s, words[i]) == 0)
			return true;
	if (*s == '+' || *s == '-') /* a signed number reads as one too */
		digits = *++s != '\0';
	for (const char *p = s; *p != '\0' && digits;) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)p, -1, &cp);
		utf8proc_category_t cat;

		if (k <= 0)
			return false;
		cat = utf8proc_category(cp);
		digits = cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL ||
		         cat == UTF8PROC_CATEGORY_NO;
		p += k;
	}
	return digits;
}
