/* fungeon_json: reading the Fungeon module's JSON back; see fungeon_json.h. */
#include "commands/fungeon/fungeon_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "rules/base/mem.h"
#include "rules/fungeon/fungeon_name.h"

#define EXACT_MAX 9007199254740992LL /* 2^53: integers up to here are exact in a double */

int
fungeon_json_bad(struct fungeon_json *r, const char *key, const char *what)
{
	snprintf(r->err, r->errlen, "Fungeon %s: '%s' %s.", r->where, key, what);
	return -1;
}

/* Reads a string of 1 to 19 decimal digits; -1 when it is not one or
 * passes INT64_MAX. */
static int
digits(const char *s, int64_t *out)
{
	int64_t v = 0;
	size_t n = strlen(s);

	if (n == 0 || n > 19)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (INT64_MAX - (s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int
fungeon_json_int(struct fungeon_json *r, const struct cJSON *o, const char *key, int64_t lo,
                 int64_t hi, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	int64_t x;

	if (cJSON_IsString(v)) {
		if (digits(v->valuestring, &x) < 0 || x <= EXACT_MAX || x < lo || x > hi)
			return fungeon_json_bad(r, key,
			                        "is missing or not a whole number in range");
		*out = x;
		return 0;
	}
	if (!fungeon_json_whole(v, lo, hi, out))
		return fungeon_json_bad(r, key, "is missing or not a whole number in range");
	return 0;
}

bool
fungeon_json_whole(const struct cJSON *v, int64_t lo, int64_t hi, int64_t *out)
{
	/* every comparison on the double, and the cast only once it is known
	 * to fit (a cast of a double out of range is undefined) */
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    fabs(v->valuedouble) > (double)EXACT_MAX || v->valuedouble < (double)lo ||
	    v->valuedouble > (double)hi)
		return false;
	*out = (int64_t)v->valuedouble;
	return true;
}

int
fungeon_json_i(struct fungeon_json *r, const struct cJSON *o, const char *key, int lo, int hi,
               int *out)
{
	int64_t v;

	if (fungeon_json_int(r, o, key, lo, hi, &v) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

int
fungeon_json_bool(struct fungeon_json *r, const struct cJSON *o, const char *key, bool *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsBool(v))
		return fungeon_json_bad(r, key, "is missing or not true/false");
	*out = cJSON_IsTrue(v);
	return 0;
}

int
fungeon_json_opt_bool(struct fungeon_json *r, const struct cJSON *o, const char *key, bool *out)
{
	if (cJSON_GetObjectItemCaseSensitive(o, key) == NULL) {
		*out = false;
		return 0;
	}
	return fungeon_json_bool(r, o, key, out);
}

int
fungeon_json_str(struct fungeon_json *r, const struct cJSON *o, const char *key, char *out,
                 size_t size, bool name, bool empty_ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsString(v) || strlen(v->valuestring) >= size)
		return fungeon_json_bad(r, key, "is missing, not text or too long");
	if (!(empty_ok && v->valuestring[0] == '\0') &&
	    ((name && !fungeon_name_valid(v->valuestring)) || (!empty_ok && !v->valuestring[0])))
		return fungeon_json_bad(r, key, "is not a valid name");
	memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
	return 0;
}

int
fungeon_json_opt_str(struct fungeon_json *r, const struct cJSON *o, const char *key, char *out,
                     size_t size, bool name)
{
	if (cJSON_GetObjectItemCaseSensitive(o, key) == NULL) {
		out[0] = '\0';
		return 0;
	}
	return fungeon_json_str(r, o, key, out, size, name, true);
}

int
fungeon_json_design(struct fungeon_json *r, const struct cJSON *o, enum fungeon_kind k,
                    struct fungeon_design *d, int64_t *cost)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "design");
	struct fungeon_price *p;
	char why[200];
	int rc = 0;

	if (!cJSON_IsString(v) || fungeon_cost_parse(k, v->valuestring, d, why, sizeof(why)) < 0)
		return fungeon_json_bad(r, "design", "is not a valid design");
	p = xmalloc(sizeof(*p));
	if (fungeon_cost_price(d, p, why, sizeof(why)) < 0)
		rc = fungeon_json_bad(r, "design", "breaks a design rule");
	else if (cost != NULL)
		*cost = p->total;
	free(p);
	return rc;
}

int
fungeon_json_array(struct fungeon_json *r, const struct cJSON *o, const char *key, int max,
                   bool optional, const struct cJSON **arr, int *n)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);

	*arr = NULL;
	*n = 0;
	if (a == NULL && optional)
		return 0;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > max) {
		char what[64];

		snprintf(what, sizeof(what), "is not a list of at most %d", max);
		return fungeon_json_bad(r, key, what);
	}
	*arr = a;
	*n = cJSON_GetArraySize(a);
	return 0;
}

void *
fungeon_json_zeroed(int n, size_t size)
{
	return n > 0 ? xcalloc((size_t)n, size) : NULL;
}

void
fungeon_json_add_int(cJSON *o, const char *key, int64_t n)
{
	char text[24];

	if (n <= EXACT_MAX && n >= -EXACT_MAX) {
		cJSON_AddNumberToObject(o, key, (double)n);
		return;
	}
	snprintf(text, sizeof(text), "%lld", (long long)n);
	cJSON_AddStringToObject(o, key, text);
}
