/* discord_rest_answer: what a REST answer's headers say; see
 * discord_rest_answer.h. */
#include "bot/discord/discord_rest_answer.h"

#include <cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether the header name p (k bytes) is name (k bytes too), in either case. */
static bool
name_is(const char *p, size_t k, const char *name)
{
	return strncasecmp(p, name, k) == 0;
}

/* Copies v (vn bytes) into out (size bytes) when it fits. */
static bool
header_copy(char *out, size_t size, const char *v, size_t vn)
{
	if (vn >= size)
		return false;
	memcpy(out, v, vn);
	out[vn] = '\0';
	return true;
}

/* The number v (vn bytes) as strtod reads it. Plain decimals of at most
 * 15 digits ("1470173023.123", "0.5") are read here: their digits as an
 * integer over a power of ten, both exact in a double, and one division
 * rounded as strtod rounds. Anything else (signs, exponents, more digits,
 * blanks) goes to strtod; a value of 64 bytes or more reads as its first
 * 63, as a copy into num[64] did. */
static double
header_number(const char *v, size_t vn)
{
	static const double tens[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	                              1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
	char num[64];
	uint64_t m = 0;
	size_t digits = 0, frac = 0, i = 0;
	bool dot = false;

	for (; i < vn; i++) {
		if (v[i] >= '0' && v[i] <= '9') {
			m = m * 10 + (uint64_t)(v[i] - '0');
			digits++;
			frac += dot;
		} else if (v[i] == '.' && !dot) {
			dot = true;
		} else {
			break;
		}
	}
	if (i == vn && digits > 0 && digits <= 15)
		return (double)m / tens[frac];
	header_copy(num, sizeof(num), v, vn < sizeof(num) ? vn : sizeof(num) - 1);
	return strtod(num, NULL);
}

/* The first X-RateLimit-Global or -Scope (which: its seen bit) says the
 * limit is global when its value is word. */
static void
global_is(struct discord_rest_answer *a, unsigned which, const char *v, size_t vn, const char *word)
{
	a->seen |= which;
	if (vn == strlen(word) && strncasecmp(v, word, vn) == 0)
		a->seen |= DISCORD_REST_ANSWER_GLOBAL;
}

/* The line's name is the bytes before its first colon, and its value
 * what follows without the blanks around it (and the line's CR LF). The
 * length of the name picks the few names it may be; a name is read only
 * the first time it comes. */
void
discord_rest_answer_line(const char *p, size_t n, struct discord_rest_answer *a)
{
	const char *colon, *v;
	size_t k, vn;
	char num[64];

	if (n >= 5 && memcmp(p, "HTTP/", 5) == 0) { /* a new answer (after a 1xx) */
		a->seen = 0;
		return;
	}
	colon = memchr(p, ':', n);
	if (colon == NULL)
		return;
	k = (size_t)(colon - p);
	v = colon + 1;
	vn = n - k - 1;
	while (vn > 0 && (*v == ' ' || *v == '\t'))
		v++, vn--;
	while (vn > 0 &&
	       (v[vn - 1] == '\r' || v[vn - 1] == '\n' || v[vn - 1] == ' ' || v[vn - 1] == '\t'))
		vn--;
	switch (k) {
	case 4:
		if (!(a->seen & DISCORD_REST_ANSWER_DATE) && name_is(p, k, "Date") &&
		    header_copy(a->date, sizeof(a->date), v, vn))
			a->seen |= DISCORD_REST_ANSWER_DATE;
		break;
	case 11:
		if (!(a->seen & DISCORD_REST_ANSWER_RETRY_AFTER) && name_is(p, k, "Retry-After")) {
			a->seen |= DISCORD_REST_ANSWER_RETRY_AFTER;
			a->retry_after = header_number(v, vn);
		}
		break;
	case 17: /* X-RateLimit-Limit, -Reset, -Scope */
		if (name_is(p, k, "X-RateLimit-Limit")) {
			if (!(a->seen & DISCORD_REST_ANSWER_LIMIT) &&
			    header_copy(num, sizeof(num), v, vn))
				a->seen |= DISCORD_REST_ANSWER_LIMIT, a->limit = atoi(num);
		} else if (name_is(p, k, "X-RateLimit-Reset")) {
			if (!(a->seen & DISCORD_REST_ANSWER_RESET) && vn < sizeof(num))
				a->seen |= DISCORD_REST_ANSWER_RESET,
				    a->reset = header_number(v, vn);
		} else if (!(a->seen & DISCORD_REST_ANSWER_SCOPE_SEEN) &&
		           name_is(p, k, "X-RateLimit-Scope")) {
			global_is(a, DISCORD_REST_ANSWER_SCOPE_SEEN, v, vn, "global");
		}
		break;
	case 18: /* X-RateLimit-Bucket, -Global */
		if (name_is(p, k, "X-RateLimit-Bucket")) {
			if (!(a->seen &
			      (DISCORD_REST_ANSWER_BUCKET | DISCORD_REST_ANSWER_LONG_BUCKET)))
				a->seen |= header_copy(a->bucket, sizeof(a->bucket), v, vn)
				               ? DISCORD_REST_ANSWER_BUCKET
				               : DISCORD_REST_ANSWER_LONG_BUCKET;
		} else if (!(a->seen & DISCORD_REST_ANSWER_GLOBAL_SEEN) &&
		           name_is(p, k, "X-RateLimit-Global")) {
			global_is(a, DISCORD_REST_ANSWER_GLOBAL_SEEN, v, vn, "true");
		}
		break;
	case 21:
		if (!(a->seen & DISCORD_REST_ANSWER_REMAINING) &&
		    name_is(p, k, "X-RateLimit-Remaining") && header_copy(num, sizeof(num), v, vn))
			a->seen |= DISCORD_REST_ANSWER_REMAINING, a->remaining = atoi(num);
		break;
	case 23:
		if (!(a->seen & DISCORD_REST_ANSWER_RESET_AFTER) &&
		    name_is(p, k, "X-RateLimit-Reset-After") && vn < sizeof(num))
			a->seen |= DISCORD_REST_ANSWER_RESET_AFTER,
			    a->reset_after = header_number(v, vn);
		break;
	default:
		break;
	}
}

size_t
discord_rest_answer_header(char *p, size_t size, size_t n, void *ctx)
{
	discord_rest_answer_line(p, n * size, ctx);
	return n * size;
}

double
discord_rest_answer_429(const struct discord_rest_answer *a, const char *body, size_t len,
                        bool *global)
{
	cJSON *j = cJSON_ParseWithLength(body, len);
	const cJSON *ra = cJSON_GetObjectItemCaseSensitive(j, "retry_after");
	double secs = cJSON_IsNumber(ra)                            ? ra->valuedouble
	              : (a->seen & DISCORD_REST_ANSWER_RETRY_AFTER) ? a->retry_after
	                                                            : 1.0;

	*global = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "global")) ||
	          (a->seen & DISCORD_REST_ANSWER_GLOBAL) != 0;
	cJSON_Delete(j);
	if (!(secs >= 0) || secs > 3600)
		secs = secs > 3600 ? 3600 : 1.0;
	return secs;
}
