/* undo: /undo and the channel's undo history; see undo.h. */
#include "commands/core/undo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "commands/core/registry.h"
#include "commands/core/undo_delta.h"
#include "commands/core/undo_screen.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"
#include "rules/base/utf8.h"

/* The game modules a step may restore, and how a reply names them. */
static const enum chanmod_id undo_ids[UNDO_NMODS] = {CHANMOD_TENSION, CHANMOD_FUNGEON,
                                                     CHANMOD_PROC};
static const char *const undo_labels[UNDO_NMODS] = {"Tension", "Fungeon", "dungeon procedure"};

/* Top-level commands that never change game state (never recorded). */
static const char *const not_undoable[] = {"roll",     "gmroll", "log",  "save", "saved",
                                           "settings", "gm",     "help", "undo", NULL};

/*
 * A step is one allocation: three module bit sets, then its four texts
 * (who, name, path, args, each NUL-terminated), then for each module in
 * has but not in none its delta (undo_delta.h) against the module's
 * encoding after the step: the operations' length and after as numbers
 * (7 bits a byte, low first), sum as 4 bytes, then the operations. Module
 * order is undo_ids'.
 */
struct undo_step {
	uint8_t has;    /* bit m: module m changed in this step */
	uint8_t none;   /* bit m: it had no state before */
	uint8_t whole;  /* bit m: its delta holds the whole previous encoding (a saved full form) */
	uint8_t rolled; /* 1: its command rolled dice */
	char data[];
};

/* The steps, oldest first, back to back in one allocation, each after its
 * size in bytes as a number (7 bits a byte, low first). */
struct undo_hist {
	uint8_t *bytes; /* owned */
	size_t len;
	size_t n;
};

/* What a step is made of, before it is packed. */
struct undo_parts {
	const char *text[4]; /* who, name, path, args */
	uint8_t has, none, whole, rolled;
	struct undo_delta d[UNDO_NMODS];
};

static void
copy_bounded(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = utf8_cut(src, n, size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static size_t
put_num(uint8_t *p, size_t v)
{
	size_t n = 0;

	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		if (p != NULL)
			p[n] = b | (v ? 0x80 : 0);
		n++;
	} while (v);
	return n;
}

static size_t
get_num(uint8_t **p)
{
	size_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		b = *(*p)++;
		v |= (size_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

static bool
has_delta(const struct undo_step *s, int m)
{
	return (s->has >> m & 1) && !(s->none >> m & 1);
}

/* Packs parts into one new step of *out_size bytes (the caller's). */
static struct undo_step *
step_pack(const struct undo_parts *in, size_t *out_size)
{
	size_t size = sizeof(struct undo_step);
	struct undo_step *s;
	uint8_t *p;

	for (int i = 0; i < 4; i++)
		size += strlen(in->text[i]) + 1;
	for (int m = 0; m < UNDO_NMODS; m++) {
		const struct undo_delta *d = &in->d[m];

		if ((in->has >> m & 1) && !(in->none >> m & 1))
			size +=
			    put_num(NULL, d->ops_len) + put_num(NULL, d->after) + 4 + d->ops_len;
	}
	s = xmalloc(size);
	s->has = in->has;
	s->none = in->none;
	s->whole = in->whole;
	s->rolled = in->rolled;
	p = (uint8_t *)s->data;
	for (int i = 0; i < 4; i++) {
		size_t n = strlen(in->text[i]) + 1;

		memcpy(p, in->text[i], n);
		p += n;
	}
	for (int m = 0; m < UNDO_NMODS; m++) {
		const struct undo_delta *d = &in->d[m];

		if (!has_delta(s, m))
			continue;
		p += put_num(p, d->ops_len);
		p += put_num(p, d->after);
		for (int k = 0; k < 4; k++)
			*p++ = (uint8_t)(d->sum >> (8 * k));
		memcpy(p, d->ops, d->ops_len);
		p += d->ops_len;
	}
	*out_size = size;
	return s;
}

/* The step's i-th text: 0 who, 1 name, 2 path, 3 args. */
static char *
step_text(const struct undo_step *s, int i)
{
	char *t = (char *)s->data;

	while (i-- > 0)
		t += strlen(t) + 1;
	return t;
}

/* Unpacks the step's deltas into d[] (those of modules with one; their
 * operations point into the step). */
static void
step_deltas(const struct undo_step *s, struct undo_delta d[UNDO_NMODS])
{
	uint8_t *p = (uint8_t *)step_text(s, 3);

	p += strlen((const char *)p) + 1;
	memset(d, 0, UNDO_NMODS * sizeof(d[0]));
	for (int m = 0; m < UNDO_NMODS; m++) {
		if (!has_delta(s, m))
			continue;
		d[m].ops_len = get_num(&p);
		d[m].after = get_num(&p);
		d[m].sum = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		           (uint32_t)p[3] << 24;
		p += 4;
		d[m].ops = (uint8_t *)p;
		d[m].whole = (s->whole >> m & 1) != 0;
		p += d[m].ops_len;
	}
}

/* The bytes of earlier state the step keeps (what UNDO_BYTES bounds). */
static size_t
step_bytes(const struct undo_step *s)
{
	struct undo_delta d[UNDO_NMODS];
	size_t n = 0;

	step_deltas(s, d);
	for (int m = 0; m < UNDO_NMODS; m++)
		n += d[m].ops_len;
	return n;
}

/* Step i, its size in *size and where its size starts in *at. */
static struct undo_step *
hist_step(const struct undo_hist *h, size_t i, size_t *size, size_t *at)
{
	uint8_t *p = h->bytes;

	for (;;) {
		uint8_t *start = p;
		size_t n = get_num(&p);

		if (i-- == 0) {
			*size = n;
			*at = (size_t)(start - h->bytes);
			return (struct undo_step *)p;
		}
		p += n;
	}
}

static struct undo_step *
hist_newest(const struct undo_hist *h)
{
	size_t size, at;

	return hist_step(h, h->n - 1, &size, &at);
}

/* Appends a copy of s (size bytes) as the newest step. */
static void
hist_append(struct undo_hist *h, const struct undo_step *s, size_t size)
{
	size_t head = put_num(NULL, size);

	h->bytes = xrealloc(h->bytes, h->len + head + size);
	put_num(h->bytes + h->len, size);
	memcpy(h->bytes + h->len + head, s, size);
	h->len += head + size;
	h->n++;
}

/* Removes step i (the oldest or the newest). */
static void
hist_remove(struct undo_hist *h, size_t i)
{
	size_t size, at, end;

	hist_step(h, i, &size, &at);
	end = at + put_num(NULL, size) + size;
	memmove(h->bytes + at, h->bytes + end, h->len - end);
	h->len -= end - at;
	if (--h->n == 0) {
		free(h->bytes);
		h->bytes = NULL;
	}
}

static void
hist_clear(struct undo_hist *h)
{
	free(h->bytes);
	h->bytes = NULL;
	h->len = 0;
	h->n = 0;
}

/* Adds s (size bytes, freed here) as the newest step, keeping the bounds. */
static void
hist_push(struct undo_hist *h, struct undo_step *s, size_t size)
{
	size_t total = step_bytes(s);

	if (total > UNDO_BYTES) {
		hist_clear(h);
		free(s);
		return;
	}
	for (size_t i = 0; i < h->n; i++) {
		size_t sz, at;

		total += step_bytes(hist_step(h, i, &sz, &at));
	}
	while (h->n > 0 && (h->n == UNDO_STEPS || total > UNDO_BYTES)) {
		size_t sz, at;

		total -= step_bytes(hist_step(h, 0, &sz, &at));
		hist_remove(h, 0);
	}
	hist_append(h, s, size);
	free(s);
}

/* --- the module slot --- */

static void *
hist_create(void)
{
	return xcalloc(1, sizeof(struct undo_hist));
}

static void
hist_destroy(void *p)
{
	struct undo_hist *h = p;

	if (h == NULL)
		return;
	hist_clear(h);
	free(h);
}

/* A step's saved form: its texts, "deltas" {"<module>": {"keep":P,
 * "tail":S,"mid":M,"after":L,"sum":H} or null (no state before)}, and for
 * a module kept whole (loaded from "mods"), "mods" {"<module>": text}. */
static cJSON *
hist_save(const void *p)
{
	const struct undo_hist *h = p;
	cJSON *o = cJSON_CreateObject(), *steps = cJSON_AddArrayToObject(o, "steps");

	for (size_t i = 0; i < h->n; i++) {
		size_t size, at;
		const struct undo_step *s = hist_step(h, i, &size, &at);
		cJSON *so = cJSON_CreateObject(), *deltas = NULL, *whole = NULL;
		struct undo_delta d[UNDO_NMODS];

		cJSON_AddStringToObject(so, "who", step_text(s, 0));
		cJSON_AddStringToObject(so, "name", step_text(s, 1));
		cJSON_AddStringToObject(so, "path", step_text(s, 2));
		cJSON_AddStringToObject(so, "args", step_text(s, 3));
		if (s->rolled)
			cJSON_AddBoolToObject(so, "rolled", true);
		step_deltas(s, d);
		for (int m = 0; m < UNDO_NMODS; m++) {
			const char *key = chanmod_table[undo_ids[m]]->name;

			if (!(s->has >> m & 1))
				continue;
			if (s->whole >> m & 1) {
				char *text;
				size_t len;

				if (whole == NULL)
					whole = cJSON_AddObjectToObject(so, "mods");
				if (undo_delta_apply(&d[m], "", 0, &text, &len) < 0)
					abort(); /* not reached: a whole delta fits anything */
				cJSON_AddStringToObject(whole, key, text);
				free(text);
				continue;
			}
			if (deltas == NULL)
				deltas = cJSON_AddObjectToObject(so, "deltas");
			if (s->none >> m & 1)
				cJSON_AddNullToObject(deltas, key);
			else
				cJSON_AddItemToObject(deltas, key, undo_delta_save(&d[m]));
		}
		cJSON_AddItemToArray(steps, so);
	}
	return o;
}

static int
load_text(const cJSON *o, const char *name, char *dst, size_t size, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!cJSON_IsString(v) || strlen(v->valuestring) >= size ||
	    !utf8_valid(v->valuestring, strlen(v->valuestring))) {
		snprintf(err, errlen,
		         "An undo step's \"%s\" is not a UTF-8 string of at most %zu bytes.", name,
		         size - 1);
		return -1;
	}
	memcpy(dst, v->valuestring, strlen(v->valuestring) + 1);
	return 0;
}

/* The module index of a "mods"/"deltas" member, or -1 with err set when
 * it is unknown or already given. */
static int
load_mod_index(const cJSON *v, const struct undo_parts *p, char *err, size_t errlen)
{
	int m = 0;

	while (m < UNDO_NMODS && strcmp(chanmod_table[undo_ids[m]]->name, v->string) != 0)
		m++;
	if (m == UNDO_NMODS || (p->has >> m & 1)) {
		snprintf(err, errlen,
		         "An undo step names module \"%.40s\" that is unknown or repeated; "
		         "allowed once each: tension, fungeon, procedure.",
		         v->string);
		return -1;
	}
	return m;
}

static struct undo_step *
load_step(const cJSON *so, size_t *size, char *err, size_t errlen)
{
	const cJSON *mods, *deltas, *v;
	struct undo_parts p;
	struct undo_step *s = NULL;
	char text[4][UNDO_WHAT_MAX > KEY_MAX ? UNDO_WHAT_MAX : KEY_MAX];
	static const char *const names[4] = {"who", "name", "path", "args"};
	static const size_t sizes[4] = {KEY_MAX, NAME_MAX_LEN, UNDO_PATH_MAX, UNDO_WHAT_MAX};

	memset(&p, 0, sizeof(p));
	if (!cJSON_IsObject(so)) {
		snprintf(err, errlen, "An undo step is not an object.");
		return NULL;
	}
	for (int i = 0; i < 4; i++) {
		if (load_text(so, names[i], text[i], sizes[i], err, errlen) < 0)
			return NULL;
		p.text[i] = text[i];
	}
	v = cJSON_GetObjectItemCaseSensitive(so, "rolled");
	if (v != NULL && !cJSON_IsBool(v)) {
		snprintf(err, errlen, "An undo step's \"rolled\" is not true or false.");
		return NULL;
	}
	p.rolled = cJSON_IsTrue(v);
	mods = cJSON_GetObjectItemCaseSensitive(so, "mods");
	deltas = cJSON_GetObjectItemCaseSensitive(so, "deltas");
	if (deltas != NULL && !cJSON_IsObject(deltas)) {
		snprintf(err, errlen, "An undo step's \"deltas\" is not an object.");
		return NULL;
	}
	if (!cJSON_IsObject(mods) && (mods != NULL || deltas == NULL)) {
		snprintf(err, errlen, "An undo step's \"mods\" is not an object.");
		return NULL;
	}
	/* "mods": a module's whole previous encoding (a change kept whole). */
	cJSON_ArrayForEach(v, mods)
	{
		int m = load_mod_index(v, &p, err, errlen);

		if (m < 0)
			goto out;
		if (!cJSON_IsNull(v) && !cJSON_IsString(v)) {
			snprintf(err, errlen,
			         "An undo step's \"%.40s\" is neither a string nor null.",
			         v->string);
			goto out;
		}
		p.has |= (uint8_t)(1u << m);
		if (cJSON_IsNull(v))
			p.none |= (uint8_t)(1u << m);
		else {
			p.whole |= (uint8_t)(1u << m);
			undo_delta_make_whole(v->valuestring, strlen(v->valuestring), &p.d[m]);
		}
	}
	cJSON_ArrayForEach(v, deltas)
	{
		int m = load_mod_index(v, &p, err, errlen);

		if (m < 0)
			goto out;
		p.has |= (uint8_t)(1u << m);
		if (cJSON_IsNull(v))
			p.none |= (uint8_t)(1u << m);
		else if (undo_delta_load(v, v->string, &p.d[m], err, errlen) < 0)
			goto out;
	}
	if (p.has == 0)
		snprintf(err, errlen, "An undo step restores no module.");
	else
		s = step_pack(&p, size);
out:
	for (int m = 0; m < UNDO_NMODS; m++)
		undo_delta_free(&p.d[m]);
	return s;
}

static int
hist_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct undo_hist *h = p;
	const cJSON *steps = cJSON_GetObjectItemCaseSensitive(o, "steps"), *so;
	size_t total = 0;

	if (!cJSON_IsArray(steps) || cJSON_GetArraySize(steps) > UNDO_STEPS) {
		snprintf(err, errlen, "The undo history's \"steps\" is not an array of at most %d.",
		         UNDO_STEPS);
		return -1;
	}
	cJSON_ArrayForEach(so, steps)
	{
		size_t size;
		struct undo_step *s = load_step(so, &size, err, errlen);

		if (s == NULL)
			return -1;
		total += step_bytes(s);
		hist_append(h, s, size);
		free(s);
	}
	if (total > UNDO_BYTES) {
		snprintf(err, errlen, "The undo history holds %zu bytes; at most %d are allowed.",
		         total, UNDO_BYTES);
		return -1;
	}
	return 0;
}

/* Moves the steps made by from onto to (so they may still undo them). The
 * earlier states are left as they were: undoing a step made before the
 * adoption brings back the legacy key in what it restores. */
static int
hist_rekey(void *mod, const char *from, const char *to)
{
	struct undo_hist *h = mod, out = {0};
	int moved = 0;

	for (size_t i = 0; i < h->n; i++) {
		size_t size, at;
		struct undo_step *s = hist_step(h, i, &size, &at), *re;
		struct undo_parts p;
		char who[KEY_MAX];

		if (strcmp(step_text(s, 0), from) != 0) {
			hist_append(&out, s, size);
			continue;
		}
		copy_bounded(who, sizeof(who), to);
		memset(&p, 0, sizeof(p));
		p.text[0] = who;
		for (int k = 1; k < 4; k++)
			p.text[k] = step_text(s, k);
		p.has = s->has;
		p.none = s->none;
		p.whole = s->whole;
		p.rolled = s->rolled;
		step_deltas(s, p.d);
		re = step_pack(&p, &size);
		hist_append(&out, re, size);
		free(re);
		moved++;
	}
	hist_clear(h);
	*h = out;
	return moved;
}

const struct chanmod undo_mod = {
    .name = "undo",
    .create = hist_create,
    .destroy = hist_destroy,
    .save = hist_save,
    .load = hist_load,
    .rekey = hist_rekey,
};

size_t
undo_depth(const struct channel *ch)
{
	const struct undo_hist *h = channel_mod_peek(ch, CHANMOD_UNDO);

	return h != NULL ? h->n : 0;
}

/* --- recording --- */

static char *
encode_mod(const struct channel *ch, int m)
{
	const void *mod = channel_mod_peek(ch, undo_ids[m]);
	cJSON *o;
	struct buf b;

	if (mod == NULL)
		return NULL;
	o = chanmod_table[undo_ids[m]]->save(mod);
	buf_init(&b, SIZE_MAX);
	if (json_write(o, &b) < 0)
		abort(); /* a module's save() built a node JSON has no text for */
	cJSON_Delete(o);
	return buf_take(&b);
}

static bool
undoable(const struct invocation *inv)
{
	for (size_t i = 0; not_undoable[i] != NULL; i++)
		if (strcmp(inv->path[0]->name, not_undoable[i]) == 0)
			return false;
	return true;
}

void
undo_before(struct invocation *inv, struct undo_snap *snap)
{
	memset(snap, 0, sizeof(*snap));
	/* A command that only reads cannot leave a step: its encodings would
	 * be made for nothing (registry.h, read_only). */
	if (inv->path[0] == NULL || inv->cmd->read_only || !undoable(inv))
		return;
	snap->active = true;
	snap->draws = inv->rng != NULL ? rng_draws(inv->rng) : 0;
	for (int m = 0; m < UNDO_NMODS; m++)
		snap->before[m] = encode_mod(inv->chan, m);
}

/* Appends the command path's names to buf ("fungeon damage"). */
static void
describe_path(const struct invocation *inv, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < 3 && inv->path[i] != NULL && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", inv->path[i]->name);
}

/* Whether word (len bytes) names the command c (or its alias). */
static bool
names(const struct command *c, const char *word, size_t len)
{
	return (strlen(c->name) == len && strncasecmp(c->name, word, len) == 0) ||
	       (c->alias != NULL && strlen(c->alias) == len &&
	        strncasecmp(c->alias, word, len) == 0);
}

/* The values as typed after the command's path ("Alba 12"), or for a
 * bound invocation each value given as name:value. */
static void
describe_args(const struct invocation *inv, char *buf, size_t len)
{
	size_t n = 0;
	const struct command *c = inv->cmd;

	buf[0] = '\0';
	if (inv->line != NULL) {
		const char *p = inv->line, *end = inv->line + inv->line_len;

		for (int i = 0; i < 3 && inv->path[i] != NULL; i++) {
			const char *w;

			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			w = p;
			while (p < end && *p != ' ' && *p != '\t')
				p++;
			if (!names(inv->path[i], w, (size_t)(p - w))) {
				p = w;
				break;
			}
		}
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		n = (size_t)snprintf(buf, len, "%.*s", (int)(end - p), p);
	} else {
		for (size_t i = 0; c->opts != NULL && c->opts[i].name != NULL && n < len; i++) {
			const struct cmd_arg *a = &inv->args[i];
			const char *name = c->opts[i].name, *sep = n > 0 ? " " : "";

			if (!a->set)
				continue;
			if (c->opts[i].type == OPT_INT)
				n += (size_t)snprintf(buf + n, len - n, "%s%s:%lld", sep, name,
				                      (long long)a->i);
			else if (c->opts[i].type == OPT_BOOL)
				n += (size_t)snprintf(buf + n, len - n, "%s%s:%s", sep, name,
				                      a->b ? "true" : "false");
			else if (a->s != NULL)
				n += (size_t)snprintf(buf + n, len - n, "%s%s:%s", sep, name, a->s);
		}
	}
	if (n >= len) /* cut: keep whole UTF-8 characters and mark it */
		copy_bounded(buf + utf8_cut(buf, strlen(buf), len - 4), 4, "...");
}

/* "/fungeon damage Alba 12" as the platform writes commands. */
static void
put_what(struct reply *out, unsigned style, const struct undo_step *s)
{
	reply_cmd(out, style, step_text(s, 2), NULL);
	if (step_text(s, 3)[0] != '\0')
		reply_add(out, style, " %s", step_text(s, 3));
}

void
undo_after(struct invocation *inv, struct undo_snap *snap)
{
	struct undo_parts p;
	char *now[UNDO_NMODS] = {NULL};
	char who[KEY_MAX], name[NAME_MAX_LEN], path[UNDO_PATH_MAX], args[UNDO_WHAT_MAX];

	memset(&p, 0, sizeof(p));
	if (snap->active && channel_touched(inv->chan)) {
		for (int m = 0; m < UNDO_NMODS; m++) {
			const char *was = snap->before[m];

			now[m] = encode_mod(inv->chan, m);
			if (was == NULL ? now[m] == NULL
			                : now[m] != NULL && strcmp(was, now[m]) == 0)
				continue;
			p.has |= (uint8_t)(1u << m);
			if (was == NULL)
				p.none |= (uint8_t)(1u << m);
			else if (now[m] == NULL) /* against no state: the empty encoding */
				undo_delta_make(was, strlen(was), "", 0, &p.d[m]);
			else
				undo_delta_make(was, strlen(was), now[m], strlen(now[m]), &p.d[m]);
		}
	}
	if (p.has != 0) {
		struct undo_step *s;
		size_t size;

		copy_bounded(who, sizeof(who), inv->from->user_key);
		copy_bounded(name, sizeof(name), inv->from->user_name);
		describe_path(inv, path, sizeof(path));
		describe_args(inv, args, sizeof(args));
		p.text[0] = who;
		p.text[1] = name;
		p.text[2] = path;
		p.text[3] = args;
		p.rolled = inv->rng != NULL && rng_draws(inv->rng) != snap->draws;
		s = step_pack(&p, &size);
		hist_push(channel_mod(inv->chan, CHANMOD_UNDO), s, size);
	}
	for (int m = 0; m < UNDO_NMODS; m++) {
		undo_delta_free(&p.d[m]);
		free(now[m]);
		free(snap->before[m]);
		snap->before[m] = NULL;
	}
}

/* --- /undo --- */

/* Rebuilds the step's previous states from the channel's current ones into
 * fresh[] (NULL: no state), or returns -1 with err set. */
static int
decode_step(const struct channel *ch, const struct undo_step *s, void *fresh[UNDO_NMODS], char *err,
            size_t errlen)
{
	struct undo_delta d[UNDO_NMODS];

	step_deltas(s, d);
	for (int m = 0; m < UNDO_NMODS; m++)
		fresh[m] = NULL;
	for (int m = 0; m < UNDO_NMODS; m++) {
		const struct chanmod *cm = chanmod_table[undo_ids[m]];
		char *cur, *prev = NULL;
		size_t prev_len;
		cJSON *o = NULL;
		int r = -1;

		if (!has_delta(s, m))
			continue;
		cur = encode_mod(ch, m);
		if (undo_delta_apply(&d[m], cur != NULL ? cur : "", cur != NULL ? strlen(cur) : 0,
		                     &prev, &prev_len) < 0)
			snprintf(err, errlen,
			         "its saved %s change does not fit the current %s state",
			         undo_labels[m], undo_labels[m]);
		free(cur);
		if (prev != NULL) {
			o = cJSON_Parse(prev);
			if (o == NULL)
				snprintf(err, errlen, "its saved %s state is not JSON",
				         undo_labels[m]);
		}
		fresh[m] = cm->create();
		if (o != NULL)
			r = cm->load(fresh[m], o, err, errlen);
		cJSON_Delete(o);
		free(prev);
		if (r < 0) {
			for (int k = 0; k <= m; k++)
				if (fresh[k] != NULL)
					chanmod_table[undo_ids[k]]->destroy(fresh[k]);
			return -1;
		}
	}
	return 0;
}

/* Whether what /undo says of step s stays behind the GM's screen. */
static bool
hidden_step(const struct invocation *inv, const struct undo_step *s)
{
	return undo_screen_hides(inv->chan, step_text(s, 2), (s->has & 1) != 0); /* undo_ids[0] */
}

/* "gm's /tension set 8", or, when hide, what the channel may know of it. */
static void
put_step(struct reply *out, unsigned style, const struct undo_step *s, bool hide)
{
	if (hide) {
		reply_add(out, style, "a change made behind the GM's screen");
		return;
	}
	reply_add(out, style, "%s's ", step_text(s, 1));
	put_what(out, style, s);
}

/* What /undo says once s is undone (next: the step now newest, or NULL;
 * left: how many steps remain): hide keeps what is behind the screen out
 * of it. */
static void
say_undone(struct reply *out, const struct invocation *inv, const struct undo_step *s,
           const struct undo_step *next, size_t left, bool hide)
{
	bool first = true;

	if (hide && hidden_step(inv, s)) {
		reply_line(out, 0, "%s undid %s.", inv->from->user_name,
		           "a change made behind the GM's screen");
	} else {
		reply_add(out, 0, "Undid %s's ", step_text(s, 1));
		put_what(out, RS_BOLD, s);
		reply_add(out, 0, ": ");
		for (int m = 0; m < UNDO_NMODS; m++) {
			if (!(s->has >> m & 1))
				continue;
			reply_add(out, 0, "%s%s", first ? "" : ", ", undo_labels[m]);
			first = false;
		}
		reply_add(out, 0, " state is as it was before.");
		if (s->rolled)
			reply_add(out, 0,
			          " Its dice no longer count: running it again rolls new ones, "
			          "here for everyone to see.");
		reply_nl(out);
	}
	if (next == NULL) {
		reply_line(out, 0, "Nothing more can be undone here.");
		return;
	}
	reply_add(out, 0, "%zu more change%s can be undone; the next is ", left,
	          left == 1 ? "" : "s");
	put_step(out, 0, next, hide && hidden_step(inv, next));
	reply_add(out, 0, ".");
	reply_nl(out);
}

static void
undo_fn(struct invocation *inv, struct reply *out)
{
	struct undo_hist *h = channel_mod_peek(inv->chan, CHANMOD_UNDO);
	struct undo_step *s, *next;
	void *fresh[UNDO_NMODS];
	char err[256];
	size_t size, at;
	bool screened;

	if (h == NULL || h->n == 0) {
		reply_error(out,
		            "There is nothing to undo here: no change to Tension, Fungeon or "
		            "procedure state is kept (a channel keeps its last %d).",
		            UNDO_STEPS);
		return;
	}
	s = hist_newest(h);
	if (strcmp(step_text(s, 0), inv->from->user_key) != 0 && !inv->is_gm) {
		if (hidden_step(inv, s)) {
			reply_error(out,
			            "The last change here was made behind the GM's screen; only "
			            "the GM can undo it.");
			return;
		}
		reply_error(out, "The last change here is %s's ", step_text(s, 1));
		put_what(out, RS_BAD, s);
		reply_add(out, RS_BAD, "; only %s or the GM can undo it.", step_text(s, 1));
		return;
	}
	if (decode_step(inv->chan, s, fresh, err, sizeof(err)) < 0) {
		if (!inv->is_gm && hidden_step(inv, s)) {
			reply_error(out,
			            "The last change here, made behind the GM's screen, cannot "
			            "be undone: %s",
			            err);
			return;
		}
		reply_error(out, "%s's ", step_text(s, 1));
		put_what(out, RS_BAD, s);
		reply_add(out, RS_BAD, " cannot be undone: %s", err);
		return;
	}
	next = h->n > 1 ? hist_step(h, h->n - 2, &size, &at) : NULL;
	/* Read while Tension's state is still the step's (undoing may change
	 * the mode): the channel hears of it as it was when it was made. */
	screened = hidden_step(inv, s) || (next != NULL && hidden_step(inv, next));
	say_undone(out, inv, s, next, h->n - 1, true);
	if (screened && inv->is_gm) {
		reply_to(out, REPLY_INVOKER);
		say_undone(out, inv, s, next, h->n - 1, false);
	}
	for (int m = 0; m < UNDO_NMODS; m++)
		if (s->has >> m & 1)
			channel_mod_set(inv->chan, undo_ids[m], fresh[m]);
	hist_remove(h, h->n - 1);
	channel_touch(inv->chan);
}

const struct command cmd_undo = {
    .name = "undo",
    .desc = "Take back the channel's last change to the game (by its maker or the GM)",
    .help = "Restores the Tension, Fungeon and procedure state (turn, lights, hazards, "
            "wandering, vendors) as it was before the last command that changed it, and "
            "names that command. Only the one who made the change or the GM can undo it. "
            "Repeat to go further back: the channel keeps its last 10 changes (and at most "
            "256 KiB of earlier state), across restarts. Rolls, {/log}, saved rolls, the channel's "
            "settings and the GM seat are not undone. While Tension is hidden, a change made "
            "behind the GM's screen is named to the GM alone. Undoing a command that rolled "
            "dice (a trap, a combat turn, a tension roll) says so: its dice no longer count, "
            "and running it again rolls new ones in the channel, where everyone sees the "
            "re-roll; the undone dice are not kept for it, for dice everyone has seen would "
            "make the next roll known in advance.",
    .fn = undo_fn,
};
