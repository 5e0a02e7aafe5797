/* rollchan: a channel's dice settings and roll log; see rollchan.h. */
#include "commands/rollchan.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/mem.h"
#include "rules/utf8.h"

static void *
rollchan_create(void)
{
	return xcalloc(1, sizeof(struct rollchan));
}

static void
rollchan_destroy(void *p)
{
	free(p);
}

struct rollchan *
rollchan_of(struct channel *ch)
{
	return channel_mod(ch, CHANMOD_ROLL);
}

/* Copies s into dst (size bytes), cut on a character boundary. */
static void
put(char *dst, size_t size, const char *s)
{
	size_t n = utf8_cut(s, strlen(s), size - 1);

	memcpy(dst, s, n);
	dst[n] = '\0';
}

void
rollchan_log(struct rollchan *rc, int64_t when, const char *who, const char *what,
             const char *result)
{
	struct rollchan_entry *e;

	if (rc->nlog < ROLLCHAN_LOG_MAX) {
		e = &rc->log[(rc->head + rc->nlog) % ROLLCHAN_LOG_MAX];
		rc->nlog++;
	} else {
		e = &rc->log[rc->head];
		rc->head = (rc->head + 1) % ROLLCHAN_LOG_MAX;
	}
	e->when = when;
	put(e->who, sizeof(e->who), who);
	put(e->what, sizeof(e->what), what);
	put(e->result, sizeof(e->result), result);
}

const struct rollchan_entry *
rollchan_entry(const struct rollchan *rc, size_t i)
{
	if (i >= rc->nlog)
		return NULL;
	return &rc->log[(rc->head + rc->nlog - 1 - i) % ROLLCHAN_LOG_MAX];
}

static cJSON *
rollchan_save(const void *p)
{
	const struct rollchan *rc = p;
	cJSON *o = cJSON_CreateObject(), *log = cJSON_AddArrayToObject(o, "log");

	cJSON_AddBoolToObject(o, "natural", !rc->no_natural);
	/* Oldest first, so a load appends them in order. */
	for (size_t i = rc->nlog; i > 0; i--) {
		const struct rollchan_entry *e = rollchan_entry(rc, i - 1);
		cJSON *j = cJSON_CreateObject();

		cJSON_AddNumberToObject(j, "when", (double)e->when);
		cJSON_AddStringToObject(j, "who", e->who);
		cJSON_AddStringToObject(j, "what", e->what);
		cJSON_AddStringToObject(j, "result", e->result);
		cJSON_AddItemToArray(log, j);
	}
	return o;
}

/* A string member of at most max - 1 bytes of UTF-8, or NULL. */
static const char *
text(const cJSON *o, const char *name, size_t max)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!cJSON_IsString(v) || strlen(v->valuestring) >= max ||
	    !utf8_valid(v->valuestring, strlen(v->valuestring)))
		return NULL;
	return v->valuestring;
}

static int
rollchan_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct rollchan *rc = p;
	const cJSON *nat = cJSON_GetObjectItemCaseSensitive(o, "natural");
	const cJSON *log = cJSON_GetObjectItemCaseSensitive(o, "log"), *j;

	if (!cJSON_IsObject(o) || !cJSON_IsBool(nat) || !cJSON_IsArray(log)) {
		snprintf(err, errlen,
		         "roll state: the record must be an object with 'natural' (true or "
		         "false) and a 'log' array.");
		return -1;
	}
	rc->no_natural = !cJSON_IsTrue(nat);
	if (cJSON_GetArraySize(log) > ROLLCHAN_LOG_MAX) {
		snprintf(err, errlen, "roll state: the log holds more than %d rolls.",
		         ROLLCHAN_LOG_MAX);
		return -1;
	}
	cJSON_ArrayForEach(j, log)
	{
		const cJSON *when = cJSON_GetObjectItemCaseSensitive(j, "when");
		const char *who = text(j, "who", NAME_MAX_LEN);
		const char *what = text(j, "what", ROLLCHAN_WHAT_MAX);
		const char *result = text(j, "result", ROLLCHAN_RESULT_MAX);

		if (!cJSON_IsNumber(when) || when->valuedouble < 0 || when->valuedouble > 1e15 ||
		    who == NULL || what == NULL || result == NULL) {
			snprintf(err, errlen,
			         "roll state: a log entry needs 'when' (unix seconds) and 'who', "
			         "'what' and 'result' texts of at most %d, %d and %d bytes.",
			         NAME_MAX_LEN - 1, ROLLCHAN_WHAT_MAX - 1, ROLLCHAN_RESULT_MAX - 1);
			return -1;
		}
		rollchan_log(rc, (int64_t)when->valuedouble, who, what, result);
	}
	return 0;
}

const struct chanmod rollchan_mod = {
    .name = "roll",
    .create = rollchan_create,
    .destroy = rollchan_destroy,
    .save = rollchan_save,
    .load = rollchan_load,
};
