/*
 * fuzz_json: the gateway's arena parser (bot/discord/discord_json) against
 * cJSON on any bytes. It must accept exactly what cJSON_ParseWithLength
 * accepts with nothing but white space after the value, and build the
 * same tree: the same types, keys, strings, integers and the same doubles
 * bit for bit, in the same order, with cJSON's prev links. And the writer
 * (discord_json_write) must write that tree as JSON that cJSON reads back
 * as the same tree (a number that is not finite comes back as null).
 * The same bytes are read as a snowflake too (check_snowflake).
 */
#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_json.h"
#include "rules/base/json.h"
#include "rules/base/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct discord_json *arena;

/* Whether b is a, exactly; with printed, b was read back from a's text. */
static bool
same(const cJSON *a, const cJSON *b, bool printed)
{
	const cJSON *x, *y, *last = NULL;

	if (printed && cJSON_IsNumber(a) && !isfinite(a->valuedouble))
		return cJSON_IsNull(b) && (a->string == NULL) == (b->string == NULL) &&
		       (a->string == NULL || strcmp(a->string, b->string) == 0);
	if (a->type != b->type || (a->string == NULL) != (b->string == NULL) ||
	    (a->string != NULL && strcmp(a->string, b->string) != 0) ||
	    (a->valuestring == NULL) != (b->valuestring == NULL) ||
	    (a->valuestring != NULL && strcmp(a->valuestring, b->valuestring) != 0) ||
	    a->valueint != b->valueint ||
	    memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) != 0)
		return false;
	for (x = a->child, y = b->child; x != NULL && y != NULL; x = x->next, y = y->next) {
		if (!same(x, y, printed) || (x != a->child && x->prev != last))
			return false;
		last = x;
	}
	return x == NULL && y == NULL && (a->child == NULL || a->child->prev == last);
}

/* discord_json_snowflake against strtoull on the same bytes (up to the
 * first NUL): a snowflake exactly when they are 1 to 20 digits whose
 * value fits 64 bits, and then the same value. */
static void
check_snowflake(const uint8_t *data, size_t size)
{
	char s[32];
	size_t n = 0, digits;
	uint64_t have = 0, want;
	bool ok;

	while (n < size && n < sizeof(s) - 1 && data[n] != '\0') {
		s[n] = (char)data[n];
		n++;
	}
	s[n] = '\0';
	digits = strspn(s, "0123456789");
	errno = 0;
	want = digits > 0 ? strtoull(s, NULL, 10) : 0;
	ok = digits == n && n >= 1 && n <= 20 && errno == 0;
	if (discord_json_snowflake(s, &have) != ok || (ok && have != want))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *end = NULL;
	cJSON *want = cJSON_ParseWithLengthOpts((const char *)data, size, &end, 0);
	const cJSON *have;

	check_snowflake(data, size);
	if (arena == NULL)
		arena = discord_json_new();
	/* cJSON takes trailing bytes; the gateway's parser only white space. */
	if (want != NULL)
		for (const uint8_t *p = (const uint8_t *)end; p < data + size; p++)
			if (*p > 32) {
				cJSON_Delete(want);
				want = NULL;
				break;
			}
	have = discord_json_parse(arena, (const char *)data, size);
	if ((want == NULL) != (have == NULL) || (want != NULL && !same(want, have, false)))
		abort();
	if (want != NULL) {
		struct buf text;
		cJSON *back;

		buf_init(&text, 64u << 20);
		if (json_write(have, &text) < 0)
			abort();
		back = cJSON_ParseWithLength(buf_str(&text), text.len);
		if (back == NULL || !same(want, back, true))
			abort();
		cJSON_Delete(back);
		buf_free(&text);
	}
	cJSON_Delete(want);
	return 0;
}
