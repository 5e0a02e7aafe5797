/* roll_table_name: tables' names; see roll_table_name.h. */
#include "rules/tables/roll_table_name.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/buf.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

#include <utf8proc.h>

/* Whether the code point cp may stand in a name: a letter or digit of any
 * script, a combining mark after one, '-' or '_'. */
static bool
name_cp(utf8proc_int32_t cp, bool first)
{
	switch (utf8proc_category(cp)) {
	case UTF8PROC_CATEGORY_LU:
	case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT:
	case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO:
	case UTF8PROC_CATEGORY_ND:
	case UTF8PROC_CATEGORY_NL:
	case UTF8PROC_CATEGORY_NO:
		return true;
	case UTF8PROC_CATEGORY_MN:
	case UTF8PROC_CATEGORY_MC:
		return !first;
	default:
		return cp == '-' || cp == '_';
	}
}

int
roll_table_name(const char *name, size_t len, char *canon)
{
	struct buf b;
	utf8proc_uint8_t *folded = NULL;
	utf8proc_ssize_t n;
	int rc = -1;

	if (len == 0 || !utf8_valid(name, len))
		return -1;
	if (len > 4 * ROLL_TABLE_NAME_MAX)
		return -2;
	buf_init(&b, 4 * ROLL_TABLE_NAME_MAX);
	textsafe_clean(&b, name, len);
	if (b.len == 0 || memchr(b.p, '\0', b.len) != NULL)
		goto done;
	for (size_t i = 0; i < b.len;) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)b.p + i,
		                                      (utf8proc_ssize_t)(b.len - i), &cp);

		if (k <= 0 || !name_cp(cp, i == 0))
			goto done;
		i += (size_t)k;
	}
	/* capitals of every script read as small letters, and a letter and
	 * its accent typed apart are the letter they make */
	n = utf8proc_map((const utf8proc_uint8_t *)b.p, (utf8proc_ssize_t)b.len, &folded,
	                 UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
	if (n <= 0)
		goto done;
	if (utf8_count((const char *)folded, (size_t)n) > ROLL_TABLE_NAME_CHARS ||
	    n >= ROLL_TABLE_NAME_MAX) {
		rc = -2;
		goto done;
	}
	memcpy(canon, folded, (size_t)n + 1);
	rc = 0;
done:
	free(folded);
	buf_free(&b);
	return rc;
}

/* Latin letters that letters of other scripts look like. */
static const struct {
	const char *from, *to;
} lookalike[] = {
    {"\xd0\xb0", "a"}, {"\xd0\xb5", "e"}, {"\xd0\xbe", "o"}, {"\xd1\x80", "p"}, {"\xd1\x81", "c"},
    {"\xd1\x83", "y"}, {"\xd1\x85", "x"}, {"\xd1\x96", "i"}, {"\xd1\x95", "s"}, {"\xd1\x98", "j"},
    {"\xd3\x8f", "l"}, {"\xd4\x81", "d"}, {"\xd2\xbb", "h"}, {"\xd4\x9b", "q"}, {"\xd4\x9d", "w"},
    {"\xce\xbf", "o"}, {"\xce\xb1", "a"}, {"\xce\xb9", "i"}, {"\xce\xbd", "v"}, {"\xcf\x81", "p"},
    {"\xce\xba", "k"}, {"\xcf\x84", "t"}, {"\xcf\x85", "u"}, {"\xce\xb7", "n"},
};

void
roll_table_name_look(const char *canon, char *out, size_t len)
{
	size_t o = 0;

	for (const char *p = canon; *p != '\0' && o + 1 < len;) {
		const char *to = NULL;
		size_t k = 1;

		for (size_t i = 0; i < sizeof(lookalike) / sizeof(lookalike[0]) && to == NULL;
		     i++) {
			size_t m = strlen(lookalike[i].from);

			if (strncmp(p, lookalike[i].from, m) == 0) {
				to = lookalike[i].to;
				k = m;
			}
		}
		if (to == NULL) {
			k = utf8_seq_len(p, strlen(p));
			if (k == 0)
				k = 1;
			if (o + k >= len)
				break;
			memcpy(out + o, p, k);
			o += k;
		} else {
			out[o++] = to[0];
		}
		p += k;
	}
	out[o] = '\0';
}
