/* tension_state: a channel's Tension and its persistence; see tension_state.h. */
#include "commands/tension/tension_state.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

static const char *const kind_names[] = {
    [TENSION_CHANGE_ADJUST] = "adjust",
    [TENSION_CHANGE_SET] = "set",
    [TENSION_CHANGE_RESET] = "reset",
};

/* The kind's default table, built once. */
static const struct roll_table *
default_table(enum tension_table k)
{
	static struct roll_table defaults[TENSION_TABLE_COUNT];
	static bool built[TENSION_TABLE_COUNT];

	if (!built[k]) {
		tension_table_default(k, &defaults[k]);
		built[k] = true;
	}
	return &defaults[k];
}

static bool
same_table(const struct roll_table *a, const struct roll_table *b)
{
	if (a->lo != b->lo || a->hi != b->hi || a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->e[i].lo != b->e[i].lo || a->e[i].hi != b->e[i].hi ||
		    a->e[i].struck != b->e[i].struck || strcmp(a->e[i].text, b->e[i].text) != 0)
			return false;
	return true;
}

/* Drops table k back to the shared default when it is the default again
 * with nothing struck: memory follows what a channel holds. */
static void
settle(struct tension_state *ts, enum tension_table k)
{
	if (ts->tables[k] != NULL && same_table(ts->tables[k], default_table(k))) {
		free(ts->tables[k]);
		ts->tables[k] = NULL;
	}
}

const struct roll_table *
tension_state_get_table(const struct tension_state *ts, enum tension_table k)
{
	return ts->tables[k] != NULL ? ts->tables[k] : default_table(k);
}

struct roll_table *
tension_state_edit_table(struct tension_state *ts, enum tension_table k)
{
	if (ts->tables[k] == NULL) {
		ts->tables[k] = xmalloc(sizeof(struct roll_table));
		*ts->tables[k] = *default_table(k);
	}
	return ts->tables[k];
}

void
tension_state_edited(struct tension_state *ts)
{
	for (int k = 0; k < TENSION_TABLE_COUNT; k++)
		settle(ts, (enum tension_table)k);
}

static void *
ts_create(void)
{
	struct tension_state *ts = xcalloc(1, sizeof(*ts));

	tension_init(&ts->track);
	return ts;
}

static void
ts_destroy(void *p)
{
	struct tension_state *ts = p;

	if (ts == NULL)
		return;
	tension_clear(&ts->track);
	for (int k = 0; k < TENSION_TABLE_COUNT; k++)
		free(ts->tables[k]);
	free(ts->screen_gm);
	free(ts);
}

static void
write_change(const struct tension_change *c, struct buf *out)
{
	json_write_lit(out, "{\"kind\":");
	json_write_name(kind_names[c->kind], out);
	json_write_lit(out, ",\"from\":");
	json_write_int(c->from, out);
	json_write_lit(out, ",\"to\":");
	json_write_int(c->to, out);
	json_write_lit(out, ",\"amount\":");
	json_write_int(c->amount, out);
	if (c->clamped)
		json_write_lit(out, ",\"clamped\":true,\"reason\":");
	else
		json_write_lit(out, ",\"clamped\":false,\"reason\":");
	json_write_string(c->reason, out);
	if (c->screen != 0) {
		json_write_lit(out, ",\"screen\":");
		json_write_int(c->screen, out);
	}
	buf_addc(out, '}');
}

/* A table as {"text":T,"struck":[R,...]}. */
static void
write_table(const struct roll_table *t, struct buf *out)
{
	struct buf b;
	bool first = true;

	buf_init(&b, 1 << 16);
	roll_table_format(t, &b);
	json_write_lit(out, "{\"text\":");
	json_write_string(buf_str(&b), out);
	buf_free(&b);
	json_write_lit(out, ",\"struck\":[");
	for (size_t i = 0; i < t->n; i++) {
		char r[16];

		if (!t->e[i].struck)
			continue;
		roll_table_range_text(&t->e[i], r, sizeof(r));
		if (!first)
			buf_addc(out, ',');
		first = false;
		json_write_string(r, out);
	}
	json_write_lit(out, "]}");
}

/* The default table k's text as write_table() writes it, made once. */
static const struct buf *
default_text(enum tension_table k)
{
	static struct buf texts[TENSION_TABLE_COUNT];
	static bool made[TENSION_TABLE_COUNT];

	if (!made[k]) {
		buf_init(&texts[k], 1 << 17);
		write_table(default_table(k), &texts[k]);
		made[k] = true;
	}
	return &texts[k];
}

/* The state's text: {"value", "mode", "screen" and "screen_gm" when a
 * screen was set, "history", then each table under its name}. */
static int
ts_write(const void *p, struct buf *out)
{
	const struct tension_state *ts = p;

	json_write_lit(out, "{\"value\":");
	json_write_int(ts->track.value, out);
	if (ts->hidden)
		json_write_lit(out, ",\"mode\":\"hidden\"");
	else
		json_write_lit(out, ",\"mode\":\"open\"");
	if (ts->screen_gm != NULL) {
		json_write_lit(out, ",\"screen\":");
		json_write_int(ts->screen, out);
		json_write_lit(out, ",\"screen_gm\":");
		json_write_string(ts->screen_gm, out);
	}
	json_write_lit(out, ",\"history\":[");
	for (size_t i = 0; i < ts->track.nhist; i++) {
		if (i > 0)
			buf_addc(out, ',');
		write_change(&ts->track.hist[i], out);
	}
	buf_addc(out, ']');
	for (int k = 0; k < TENSION_TABLE_COUNT; k++) {
		buf_addc(out, ',');
		json_write_name(tension_table_name((enum tension_table)k), out);
		buf_addc(out, ':');
		if (ts->tables[k] == NULL) {
			const struct buf *d = default_text((enum tension_table)k);

			buf_add(out, d->p, d->len);
		} else {
			write_table(ts->tables[k], out);
		}
	}
	buf_addc(out, '}');
	return out->toobig ? -1 : 0;
}

/* save()'s tree: the text ts_write() makes, read back. */
static cJSON *
ts_save(const void *p)
{
	return json_tree_of(ts_write, p);
}

/* An integer member from lo to hi, or -1 with err filled. */
static int
load_int(const cJSON *o, const char *name, int lo, int hi, int *out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!cJSON_IsNumber(v) || v->valuedouble < lo || v->valuedouble > hi ||
	    v->valuedouble != (double)(int)v->valuedouble) {
		snprintf(err, errlen, "tension: '%s' must be a whole number from %d to %d.", name,
		         lo, hi);
		return -1;
	}
	*out = (int)v->valuedouble;
	return 0;
}

/* Appends the change o describes to t's history; its screen (absent: 0)
 * is at most screen, the state's. */
static int
load_change(const cJSON *o, struct tension *t, int screen, char *err, size_t errlen)
{
	struct tension_change got = {0}, *c = &got;
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(o, "kind");
	const cJSON *clamped = cJSON_GetObjectItemCaseSensitive(o, "clamped");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(o, "reason");
	size_t k, len;

	if (!cJSON_IsString(kind)) {
		snprintf(err, errlen, "tension: a history record has no kind.");
		return -1;
	}
	for (k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++)
		if (strcmp(kind_names[k], kind->valuestring) == 0)
			break;
	if (k == sizeof(kind_names) / sizeof(kind_names[0])) {
		snprintf(err, errlen, "tension: unknown history kind '%.20s'.", kind->valuestring);
		return -1;
	}
	c->kind = (enum tension_change_kind)k;
	if (load_int(o, "from", TENSION_MIN, TENSION_MAX, &c->from, err, errlen) < 0 ||
	    load_int(o, "to", TENSION_MIN, TENSION_MAX, &c->to, err, errlen) < 0 ||
	    load_int(o, "amount", -100, 100, &c->amount, err, errlen) < 0)
		return -1;
	if (!cJSON_IsBool(clamped) || !cJSON_IsString(reason)) {
		snprintf(err, errlen, "tension: a history record lacks 'clamped' or 'reason'.");
		return -1;
	}
	c->clamped = cJSON_IsTrue(clamped);
	if (cJSON_GetObjectItemCaseSensitive(o, "screen") != NULL &&
	    load_int(o, "screen", 0, screen, &c->screen, err, errlen) < 0)
		return -1;
	len = strlen(reason->valuestring);
	if (len >= TENSION_REASON_MAX || !utf8_valid(reason->valuestring, len)) {
		snprintf(err, errlen, "tension: a history reason is too long or not UTF-8.");
		return -1;
	}
	c = tension_append(t, reason->valuestring);
	got.reason = c->reason;
	*c = got;
	return 0;
}

static int
load_table(const cJSON *o, enum tension_table k, struct roll_table *t, char *err, size_t errlen)
{
	const cJSON *text = cJSON_GetObjectItemCaseSensitive(o, "text");
	const cJSON *struck = cJSON_GetObjectItemCaseSensitive(o, "struck"), *s;
	char why[160];

	if (!cJSON_IsString(text) || !cJSON_IsArray(struck)) {
		snprintf(err, errlen, "tension: the %s table lacks its text or struck list.",
		         tension_table_name(k));
		return -1;
	}
	if (tension_table_load(text->valuestring, t, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "tension: the %s table does not parse: %s",
		         tension_table_name(k), why);
		return -1;
	}
	cJSON_ArrayForEach(s, struck)
	{
		int i = cJSON_IsString(s) ? roll_table_find(t, s->valuestring) : -1;
		char r[16] = "";

		if (i >= 0)
			roll_table_range_text(&t->e[i], r, sizeof(r));
		if (i < 0 || strcmp(r, s->valuestring) != 0) {
			snprintf(err, errlen,
			         "tension: the %s table has no entry to strike at %.20s.",
			         tension_table_name(k), cJSON_IsString(s) ? s->valuestring : "?");
			return -1;
		}
		t->e[i].struck = true;
	}
	return 0;
}

static int
ts_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct tension_state *ts = p;
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(o, "mode");
	const cJSON *hist = cJSON_GetObjectItemCaseSensitive(o, "history"), *h;

	if (load_int(o, "value", TENSION_MIN, TENSION_MAX, &ts->track.value, err, errlen) < 0)
		return -1;
	if (!cJSON_IsString(mode) ||
	    (strcmp(mode->valuestring, "open") != 0 && strcmp(mode->valuestring, "hidden") != 0)) {
		snprintf(err, errlen, "tension: 'mode' must be open or hidden.");
		return -1;
	}
	ts->hidden = strcmp(mode->valuestring, "hidden") == 0;
	if (cJSON_GetObjectItemCaseSensitive(o, "screen_gm") != NULL) {
		const cJSON *gm = cJSON_GetObjectItemCaseSensitive(o, "screen_gm");

		if (load_int(o, "screen", 1, INT_MAX - 1, &ts->screen, err, errlen) < 0)
			return -1;
		if (!cJSON_IsString(gm) || strlen(gm->valuestring) >= KEY_MAX ||
		    !utf8_valid(gm->valuestring, strlen(gm->valuestring))) {
			snprintf(err, errlen,
			         "tension: 'screen_gm' must be a user key of at most "
			         "%d bytes.",
			         KEY_MAX - 1);
			return -1;
		}
		ts->screen_gm = xstrdup(gm->valuestring);
	}
	if (!cJSON_IsArray(hist) || cJSON_GetArraySize(hist) > TENSION_HISTORY_MAX) {
		snprintf(err, errlen, "tension: 'history' must be a list of at most %d changes.",
		         TENSION_HISTORY_MAX);
		return -1;
	}
	cJSON_ArrayForEach(h, hist)
	{
		if (load_change(h, &ts->track, ts->screen, err, errlen) < 0)
			return -1;
	}
	for (int k = 0; k < TENSION_TABLE_COUNT; k++) {
		const char *name = tension_table_name((enum tension_table)k);
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, name);
		struct roll_table *table = tension_state_edit_table(ts, (enum tension_table)k);

		if (load_table(t, (enum tension_table)k, table, err, errlen) < 0)
			return -1;
		settle(ts, (enum tension_table)k);
	}
	return 0;
}

/* The screen of from is to's (a user's key adopted). */
static int
ts_rekey(void *mod, const char *from, const char *to)
{
	struct tension_state *ts = mod;

	if (ts->screen_gm == NULL || strcmp(ts->screen_gm, from) != 0)
		return 0;
	free(ts->screen_gm);
	ts->screen_gm = xstrdup(to);
	return 1;
}

const struct chanmod tension_chanmod = {
    .name = "tension",
    .create = ts_create,
    .destroy = ts_destroy,
    .save = ts_save,
    .write = ts_write,
    .load = ts_load,
    .rekey = ts_rekey,
};

void
tension_state_screened(struct tension_state *ts, const char *gm)
{
	if (ts->screen_gm == NULL || strcmp(ts->screen_gm, gm) != 0) {
		free(ts->screen_gm);
		ts->screen_gm = xstrdup(gm);
		ts->screen++;
	}
	if (ts->track.nhist > 0)
		ts->track.hist[ts->track.nhist - 1].screen = ts->screen;
}

bool
tension_state_sees(const struct tension_state *ts, const struct tension_change *c,
                   const char *viewer)
{
	return c->screen == 0 || (c->screen == ts->screen && ts->screen_gm != NULL &&
	                          strcmp(ts->screen_gm, viewer) == 0);
}

void
tension_state_reveal(struct tension_state *ts, const char *viewer)
{
	for (size_t i = 0; i < ts->track.nhist; i++)
		if (ts->track.hist[i].screen != 0 &&
		    tension_state_sees(ts, &ts->track.hist[i], viewer))
			ts->track.hist[i].screen = 0;
}

struct tension_state *
tension_state_of(struct channel *ch)
{
	return channel_mod(ch, CHANMOD_TENSION);
}

int
tension_state_value(const struct channel *ch)
{
	const struct tension_state *ts = channel_mod_peek(ch, CHANMOD_TENSION);

	return ts != NULL ? ts->track.value : TENSION_START;
}

bool
tension_state_hidden(const struct channel *ch)
{
	const struct tension_state *ts = channel_mod_peek(ch, CHANMOD_TENSION);

	return ts != NULL && ts->hidden;
}

void
tension_state_table(const struct channel *ch, enum tension_table k, struct roll_table *out)
{
	const struct tension_state *ts = channel_mod_peek(ch, CHANMOD_TENSION);

	*out = ts != NULL ? *tension_state_get_table(ts, k) : *default_table(k);
}
