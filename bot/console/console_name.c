/* console_name: the names a console player and channel go by; see console_name.h. */
#include "bot/console/console_name.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rules/base/buf.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

/* What a name is, for every refusal. */
#define NAME_RULE "a name is 1 to 63 bytes of UTF-8 with no spaces, colons or control characters"

_Static_assert(CONSOLE_NAME_MAX == 63, "NAME_RULE states the limit");

int
console_name_clean(const char *what, const char *s, size_t len, char out[NAME_MAX_LEN], char *err,
                   size_t errlen)
{
	struct buf b;
	const char *why = NULL;
	int rc = -1;

	out[0] = '\0';
	/* Ten times the limit is plenty to clean; more is refused unread. */
	if (len > 10 * CONSOLE_NAME_MAX) {
		snprintf(err, errlen, "%s NAME: %s (got %zu bytes).", what, NAME_RULE, len);
		return -1;
	}
	if (!utf8_valid(s, len)) {
		snprintf(err, errlen, "%s NAME: %s (got bytes that are not UTF-8).", what,
		         NAME_RULE);
		return -1;
	}
	/* A control character (C0, DEL, C1) is refused as typed, before
	 * cleaning (which would drop one that starts an escape sequence or
	 * make a line break a space), and so is its picture (U+2400-U+2421):
	 * the console's line shows a typed control character so, and /as or
	 * /channel receive that line. */
	for (size_t i = 0, n; i < len && why == NULL; i += n) {
		uint32_t cp = 0;

		n = utf8_decode(s + i, len - i, &cp);
		if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x2400 && cp <= 0x2421))
			why = "got a control character";
	}
	buf_init(&b, 11 * CONSOLE_NAME_MAX);
	textsafe_clean(&b, s, len);
	for (size_t i = 0; i < b.len && why == NULL; i++) {
		unsigned char c = (unsigned char)b.p[i];

		if (c == ' ')
			why = "got a space";
		else if (c == ':')
			why = "got a colon";
	}
	if (why != NULL)
		snprintf(err, errlen, "%s NAME: %s (%s).", what, NAME_RULE, why);
	else if (b.len == 0)
		snprintf(err, errlen, "%s NAME: %s (got %s).", what, NAME_RULE,
		         len == 0 ? "nothing" : "only invisible characters");
	else if (b.len > CONSOLE_NAME_MAX)
		snprintf(err, errlen, "%s NAME: %s (got %zu bytes).", what, NAME_RULE, b.len);
	else {
		memcpy(out, b.p, b.len + 1);
		rc = 0;
	}
	buf_free(&b);
	return rc;
}

bool
console_name_channel(const struct origin *o, const char *text, char *key)
{
	(void)o;
	if (text[0] == '#')
		text++;
	if (*text == '\0' || strlen(text) + 9 >= KEY_MAX || strpbrk(text, " :") != NULL)
		return false;
	snprintf(key, KEY_MAX, "console:%s", text);
	return true;
}
