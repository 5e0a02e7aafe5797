/* config_value: syntax of single configuration values; see config_value.h. */
#include "bot/config/config_value.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

int
config_value_int(const char *s, long long min, long long max, long long *out)
{
	const char *p = s;
	char *end;
	long long v;

	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
config_value_range(const char *s, long long min, long long max, int *first, int *last)
{
	const char *dash = strchr(s, '-');
	char head[24];
	long long a, b;

	if (dash == NULL) {
		if (config_value_int(s, min, max, &a) < 0)
			return -1;
		*first = *last = (int)a;
		return 0;
	}
	if (dash == s || (size_t)(dash - s) >= sizeof(head))
		return -1;
	memcpy(head, s, (size_t)(dash - s));
	head[dash - s] = '\0';
	if (config_value_int(head, min, max, &a) < 0 || dash[1] == '-' ||
	    config_value_int(dash + 1, min, max, &b) < 0 || a > b)
		return -1;
	*first = (int)a;
	*last = (int)b;
	return 0;
}

int
config_value_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*out = (uint64_t)v;
	return 0;
}

int
config_value_bool(const char *s, bool *out)
{
	static const char *const yes[] = {"yes", "true", "on", "1", NULL};
	static const char *const no[] = {"no", "false", "off", "0", NULL};

	if (config_value_choice(s, yes) >= 0) {
		*out = true;
		return 0;
	}
	if (config_value_choice(s, no) >= 0) {
		*out = false;
		return 0;
	}
	return -1;
}

int
config_value_choice(const char *s, const char *const *choices)
{
	for (int i = 0; choices[i] != NULL; i++)
		if (strcmp(s, choices[i]) == 0)
			return i;
	return -1;
}

int
config_value_split(const char *s, char *copy, char **words, size_t max)
{
	size_t n = 0;
	char *p = copy;

	memcpy(copy, s, strlen(s) + 1);
	for (;;) {
		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return (int)n;
		if (n == max)
			return -1;
		words[n++] = p;
		while (*p != '\0' && *p != ',' && *p != ' ' && *p != '\t')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
}

/* True when every byte of s is in [lo, hi] and not in the bytes of ban. */
static bool
bytes_in(const char *s, unsigned char lo, unsigned char hi, const char *ban)
{
	for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < lo || *p > hi || strchr(ban, *p) != NULL)
			return false;
	return true;
}

static bool
len_in(const char *s, size_t lo, size_t hi)
{
	size_t n = strlen(s);

	return n >= lo && n <= hi;
}

/* True when every byte of s is an ASCII letter or digit or in extra. */
static bool
alnum_or(const char *s, const char *extra)
{
	for (; *s != '\0'; s++) {
		bool ok = (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		          (*s >= '0' && *s <= '9') || strchr(extra, *s) != NULL;

		if (!ok)
			return false;
	}
	return true;
}

bool
config_value_sha256(const char *s)
{
	for (int i = 0; i < 32; i++) {
		if (i > 0 && *s == ':')
			s++;
		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]))
			return false;
		s += 2;
	}
	return *s == '\0';
}

bool
config_value_text(const char *s)
{
	return len_in(s, 1, 200) && utf8_valid(s, strlen(s)) && bytes_in(s, 0x20, 0xff, "\x7f");
}

bool
config_value_word(const char *s)
{
	return len_in(s, 1, 64) && utf8_valid(s, strlen(s)) && bytes_in(s, 0x21, 0xff, "\x7f");
}

bool
config_value_name(const char *s)
{
	return len_in(s, 1, 63) && utf8_valid(s, strlen(s)) && bytes_in(s, 0x21, 0xff, ":\x7f");
}

bool
config_value_nick(const char *s)
{
	static const char special[] = "[]\\`_^{|}";

	if (!len_in(s, 1, 30))
		return false;
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || strchr(special, *s)))
		return false;
	for (const char *p = s + 1; *p != '\0'; p++) {
		bool ok = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		          (*p >= '0' && *p <= '9') || *p == '-' || strchr(special, *p) != NULL;

		if (!ok)
			return false;
	}
	return true;
}

/* Whether well-formed s holds no invisible or bidi character: in what
 * users must type or see (a command prefix, a channel), one would make a
 * look-alike that works nowhere or somewhere else. */
static bool
visible(const char *s)
{
	return !textsafe_invisible_in(s, strlen(s), NULL, NULL);
}

bool
config_value_channel(const char *s)
{
	return len_in(s, 2, 50) && strchr("#&+!", s[0]) != NULL && utf8_valid(s, strlen(s)) &&
	       bytes_in(s, 0x21, 0xff, ",\x7f") && visible(s);
}

bool
config_value_chankey(const char *s)
{
	return len_in(s, 1, 23) && bytes_in(s, 0x21, 0x7e, ",:");
}

bool
config_value_host(const char *s)
{
	return len_in(s, 1, 253) && alnum_or(s, "-._:");
}

bool
config_value_snowflake(const char *s)
{
	return len_in(s, 1, 20) && bytes_in(s, '0', '9', "");
}

static bool
url_with(const char *s, const char *const *schemes)
{
	for (size_t i = 0; schemes[i] != NULL; i++) {
		size_t n = strlen(schemes[i]);

		if (strncmp(s, schemes[i], n) == 0)
			return len_in(s, n + 1, 512) && bytes_in(s, 0x21, 0x7e, "\"<>\\^`{|}");
	}
	return false;
}

bool
config_value_ws_url(const char *s)
{
	static const char *const schemes[] = {"wss://", "ws://", NULL};

	return url_with(s, schemes);
}

bool
config_value_http_url(const char *s)
{
	static const char *const schemes[] = {"https://", "http://", NULL};

	return url_with(s, schemes);
}

bool
config_value_prefix(const char *s)
{
	return len_in(s, 1, 4) && utf8_valid(s, strlen(s)) && bytes_in(s, 0x21, 0xff, "\x7f") &&
	       visible(s);
}

bool
config_value_network(const char *s)
{
	return len_in(s, 1, 32) && alnum_or(s, "-_");
}

bool
config_value_conninfo(const char *s)
{
	PQconninfoOption *opts;
	char *msg = NULL;
	bool ok = true;

	if (!len_in(s, 1, 900) || !utf8_valid(s, strlen(s)) || !bytes_in(s, 0x20, 0xff, "\x7f"))
		return false;
	opts = PQconninfoParse(s, &msg);
	PQfreemem(msg);
	if (opts == NULL)
		return false;
	for (const PQconninfoOption *o = opts; o->keyword != NULL; o++)
		if (strcmp(o->keyword, "password") == 0 && o->val != NULL)
			ok = false;
	PQconninfoFree(opts);
	return ok;
}
