/* undo_hist: the packed steps of a channel's undo history; see undo_hist.h. */
#include "commands/core/undo_hist.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

/*
 * A step is one allocation: three module bit sets and its flags, then its
 * texts (enum undo_text's, each NUL-terminated), then for each module in
 * has but not in none its delta (undo_delta.h) against the module's
 * encoding after the step: the operations' length and after as numbers
 * (7 bits a byte, low first), sum as 4 bytes, then the operations. Module
 * order is undo_ids'.
 */
struct undo_step {
	uint8_t has;   /* bit m: module m changed in this step */
	uint8_t none;  /* bit m: it had no state before */
	uint8_t whole; /* bit m: its delta holds the whole previous encoding (a saved full form) */
	uint8_t flags; /* UNDO_ROLLED, UNDO_SEATED, UNDO_SCREENED, UNDO_OPEN, UNDO_SHUT,
	                  UNDO_PUBLIC, SELF_SCREEN */
	char data[];
};

/* The screen is the maker's: its text is kept empty and read as who. */
#define SELF_SCREEN 0x80u

/* The steps, oldest first, back to back in one allocation, each after its
 * size in bytes as a number (7 bits a byte, low first). */
struct undo_hist {
	uint8_t *bytes; /* owned */
	size_t len;
	size_t n;
};

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

struct undo_step *
undo_step_pack(const struct undo_parts *in, size_t *out_size)
{
	bool self;
	size_t size = sizeof(struct undo_step);
	struct undo_step *s;
	uint8_t *p;

	/* A step whose screen is its maker's keeps the key once. */
	self =
	    in->text[UNDO_WHO][0] != '\0' && strcmp(in->text[UNDO_SCREEN], in->text[UNDO_WHO]) == 0;
	for (int i = 0; i < UNDO_TEXTS; i++)
		size += (self && i == UNDO_SCREEN ? 0 : strlen(in->text[i])) + 1;
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
	s->flags = (uint8_t)((in->flags & ~SELF_SCREEN) | (self ? SELF_SCREEN : 0));
	p = (uint8_t *)s->data;
	for (int i = 0; i < UNDO_TEXTS; i++) {
		const char *t = self && i == UNDO_SCREEN ? "" : in->text[i];
		size_t n = strlen(t) + 1;

		memcpy(p, t, n);
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

/* The step's text i, in the step. */
static char *
step_text(const struct undo_step *s, int i)
{
	char *t = (char *)s->data;

	while (i-- > 0)
		t += strlen(t) + 1;
	return t;
}

const char *
undo_step_text(const struct undo_step *s, enum undo_text i)
{
	if (i == UNDO_SCREEN && (s->flags & SELF_SCREEN))
		i = UNDO_WHO;
	return step_text(s, (int)i);
}

uint8_t
undo_step_flags(const struct undo_step *s)
{
	return s->flags;
}

uint8_t
undo_step_has(const struct undo_step *s)
{
	return s->has;
}

bool
undo_step_has_delta(const struct undo_step *s, int m)
{
	return has_delta(s, m);
}

/* The step's deltas, read from p (where its texts end). */
static void
deltas_at(const struct undo_step *s, uint8_t *p, struct undo_delta d[UNDO_NMODS])
{
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

void
undo_step_deltas(const struct undo_step *s, struct undo_delta d[UNDO_NMODS])
{
	uint8_t *p = (uint8_t *)step_text(s, UNDO_TEXTS - 1);

	deltas_at(s, p + strlen((const char *)p) + 1, d);
}

/* The bytes of earlier state the step keeps (what UNDO_BYTES bounds). */
static size_t
step_bytes(const struct undo_step *s)
{
	struct undo_delta d[UNDO_NMODS];
	size_t n = 0;

	undo_step_deltas(s, d);
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

void
undo_hist_push(struct undo_hist *h, struct undo_step *s, size_t size)
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

size_t
undo_hist_count(const struct undo_hist *h)
{
	return h != NULL ? h->n : 0;
}

struct undo_step *
undo_hist_step(const struct undo_hist *h, size_t i)
{
	size_t size, at;

	return hist_step(h, i, &size, &at);
}

void
undo_hist_pop(struct undo_hist *h)
{
	hist_remove(h, h->n - 1);
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

/* A step's saved form: its texts ("screen" only when not ""), "seated":
 * true when the one behind the screen held the GM seat, "rolled": true
 * when it rolled dice, "screened": true when the GM made it behind the
 * screen, "deltas" {"<module>": {"keep":P,
 * "tail":S,"mid":M,"after":L,"sum":H} or null (no state before)}, and for
 * a module kept whole (loaded from "mods"), "mods" {"<module>": text}. */
/* Appends ,"mods":{ (whole) or ,"deltas":{ the first time *open is false
 * (and sets it), else ,. */
static void
open_member(struct buf *out, bool whole, bool *open)
{
	if (*open)
		buf_addc(out, ',');
	else if (whole)
		json_write_lit(out, ",\"mods\":{");
	else
		json_write_lit(out, ",\"deltas\":{");
	*open = true;
}

/* Appends the step's "mods" member (the modules kept whole, when whole)
 * or its "deltas" member, when it has one. */
static void
write_members(const struct undo_step *s, const struct undo_delta d[UNDO_NMODS], bool whole,
              struct buf *out)
{
	bool open = false;

	for (int m = 0; m < UNDO_NMODS; m++) {
		char *text;
		size_t len;

		if (!(s->has >> m & 1) || (s->whole >> m & 1) != whole)
			continue;
		open_member(out, whole, &open);
		json_write_name(chanmod_table[undo_ids[m]]->name, out);
		buf_addc(out, ':');
		if (!whole) {
			if (s->none >> m & 1)
				json_write_lit(out, "null");
			else
				undo_delta_write(&d[m], out);
			continue;
		}
		if (undo_delta_apply(&d[m], "", 0, &text, &len) < 0)
			abort(); /* not reached: a whole delta fits anything */
		json_write_string_len(text, len, out);
		free(text);
	}
	if (open)
		buf_addc(out, '}');
}

static void
write_step(const struct undo_step *s, struct buf *out)
{
	struct undo_delta d[UNDO_NMODS];
	bool first_whole = false;
	const char *t[UNDO_TEXTS];
	size_t len[UNDO_TEXTS];

	/* The texts, in one walk over them. */
	t[0] = (const char *)s->data;
	for (int i = 0; i < UNDO_TEXTS; i++) {
		len[i] = strlen(t[i]);
		if (i + 1 < UNDO_TEXTS)
			t[i + 1] = t[i] + len[i] + 1;
	}
	deltas_at(s, (uint8_t *)t[UNDO_TEXTS - 1] + len[UNDO_TEXTS - 1] + 1, d);
	if (s->flags & SELF_SCREEN) {
		t[UNDO_SCREEN] = t[UNDO_WHO];
		len[UNDO_SCREEN] = len[UNDO_WHO];
	}
	json_write_lit(out, "{\"who\":");
	json_write_string_len(t[UNDO_WHO], len[UNDO_WHO], out);
	json_write_lit(out, ",\"name\":");
	json_write_string_len(t[UNDO_NAME], len[UNDO_NAME], out);
	json_write_lit(out, ",\"path\":");
	json_write_string_len(t[UNDO_PATH], len[UNDO_PATH], out);
	json_write_lit(out, ",\"args\":");
	json_write_string_len(t[UNDO_ARGS], len[UNDO_ARGS], out);
	if (len[UNDO_SCREEN] > 0) {
		json_write_lit(out, ",\"screen\":");
		json_write_string_len(t[UNDO_SCREEN], len[UNDO_SCREEN], out);
	}
	if (s->flags & UNDO_SEATED)
		json_write_lit(out, ",\"seated\":true");
	if (s->flags & UNDO_ROLLED)
		json_write_lit(out, ",\"rolled\":true");
	if (s->flags & UNDO_SCREENED)
		json_write_lit(out, ",\"screened\":true");
	if (s->flags & UNDO_PUBLIC)
		json_write_lit(out, ",\"public\":true");
	if (s->flags & UNDO_OPEN)
		json_write_lit(out, ",\"open\":true");
	else if (s->flags & UNDO_SHUT)
		json_write_lit(out, ",\"open\":false");
	/* "deltas" and "mods" in the order of the first module each holds,
	 * as they were always written. */
	for (int m = 0; m < UNDO_NMODS; m++) {
		if (s->has >> m & 1) {
			first_whole = (s->whole >> m & 1) != 0;
			break;
		}
	}
	write_members(s, d, first_whole, out);
	write_members(s, d, !first_whole, out);
	buf_addc(out, '}');
}

/* A step's saved form: its texts ("screen" only when not ""), "seated":
 * true when the one behind the screen held the GM seat, "rolled": true
 * when it rolled dice, "screened": true when the GM made it behind the
 * screen, "deltas" {"<module>": a delta (undo_delta.h) or null (no state
 * before)}, and for a module kept whole (loaded from "mods"), "mods"
 * {"<module>": text}. */
static int
hist_write(const void *p, struct buf *out)
{
	const struct undo_hist *h = p;

	json_write_lit(out, "{\"steps\":[");
	for (size_t i = 0; i < h->n; i++) {
		size_t size, at;

		if (i > 0)
			buf_addc(out, ',');
		write_step(hist_step(h, i, &size, &at), out);
	}
	json_write_lit(out, "]}");
	return out->toobig ? -1 : 0;
}

/* save()'s tree: the text hist_write() makes, read back. */
static cJSON *
hist_save(const void *p)
{
	return json_tree_of(hist_write, p);
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

/* Sets bit in *flags when the step so's member name is true; nothing
 * when it is false or absent; -1 with err set when it is neither true nor
 * false. */
static int
load_flag(const cJSON *so, const char *name, uint8_t bit, uint8_t *flags, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(so, name);

	if (v != NULL && !cJSON_IsBool(v)) {
		snprintf(err, errlen, "An undo step's \"%s\" is not true or false.", name);
		return -1;
	}
	if (cJSON_IsTrue(v))
		*flags |= bit;
	return 0;
}

static struct undo_step *
load_step(const cJSON *so, size_t *size, char *err, size_t errlen)
{
	const cJSON *mods, *deltas, *v;
	struct undo_parts p;
	struct undo_step *s = NULL;
	char text[UNDO_TEXTS][UNDO_WHAT_MAX > KEY_MAX ? UNDO_WHAT_MAX : KEY_MAX];
	static const char *const names[UNDO_TEXTS] = {"who", "name", "path", "args", "screen"};
	static const size_t sizes[UNDO_TEXTS] = {KEY_MAX, NAME_MAX_LEN, UNDO_PATH_MAX,
	                                         UNDO_WHAT_MAX, KEY_MAX};
	const cJSON *open;

	memset(&p, 0, sizeof(p));
	if (!cJSON_IsObject(so)) {
		snprintf(err, errlen, "An undo step is not an object.");
		return NULL;
	}
	open = cJSON_GetObjectItemCaseSensitive(so, "open");
	for (int i = 0; i < UNDO_TEXTS; i++) {
		/* A step saved before screens were kept has none. */
		if (i == UNDO_SCREEN && cJSON_GetObjectItemCaseSensitive(so, names[i]) == NULL)
			text[i][0] = '\0';
		else if (load_text(so, names[i], text[i], sizes[i], err, errlen) < 0)
			return NULL;
		p.text[i] = text[i];
	}
	/* A step saved before seats were kept reads as made with the seat
	 * empty: its rolls stand for good. One saved before UNDO_PUBLIC was
	 * kept reads as not public: /undo says of it what it always did. */
	if (load_flag(so, "rolled", UNDO_ROLLED, &p.flags, err, errlen) < 0 ||
	    load_flag(so, "seated", UNDO_SEATED, &p.flags, err, errlen) < 0 ||
	    load_flag(so, "screened", UNDO_SCREENED, &p.flags, err, errlen) < 0 ||
	    load_flag(so, "public", UNDO_PUBLIC, &p.flags, err, errlen) < 0)
		return NULL;
	/* A step saved before Tension's mode was kept with it has neither. */
	if (open != NULL && !cJSON_IsBool(open)) {
		snprintf(err, errlen, "An undo step's \"open\" is not true or false.");
		return NULL;
	}
	if (open != NULL)
		p.flags |= cJSON_IsTrue(open) ? UNDO_OPEN : UNDO_SHUT;
	mods = cJSON_GetObjectItemCaseSensitive(so, "mods");
	deltas = cJSON_GetObjectItemCaseSensitive(so, "deltas");
	if (deltas != NULL && !cJSON_IsObject(deltas)) {
		snprintf(err, errlen, "An undo step's \"deltas\" is not an object.");
		return NULL;
	}
	/* A step made behind the screen may restore nothing (undo_hist.h). */
	if (!cJSON_IsObject(mods) &&
	    (mods != NULL || (deltas == NULL && !(p.flags & UNDO_SCREENED)))) {
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
	if (p.has == 0 && !(p.flags & UNDO_SCREENED))
		snprintf(err, errlen, "An undo step restores no module.");
	else
		s = undo_step_pack(&p, size);
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

/* Moves the steps made by from, or behind from's screen, onto to (so they
 * may still undo them). The earlier states are left as they were: undoing
 * a step made before the adoption brings back the legacy key in what it
 * restores. */
static int
hist_rekey(void *mod, const char *from, const char *to)
{
	struct undo_hist *h = mod, out = {0};
	int moved = 0;

	for (size_t i = 0; i < h->n; i++) {
		size_t size, at;
		struct undo_step *s = hist_step(h, i, &size, &at), *re;
		struct undo_parts p;
		char key[KEY_MAX];
		bool who = strcmp(step_text(s, UNDO_WHO), from) == 0,
		     screen = strcmp(undo_step_text(s, UNDO_SCREEN), from) == 0;

		if (!who && !screen) {
			hist_append(&out, s, size);
			continue;
		}
		utf8_copy(key, sizeof(key), to);
		memset(&p, 0, sizeof(p));
		for (int k = 0; k < UNDO_TEXTS; k++)
			p.text[k] = undo_step_text(s, (enum undo_text)k);
		if (who)
			p.text[UNDO_WHO] = key;
		if (screen)
			p.text[UNDO_SCREEN] = key;
		p.has = s->has;
		p.none = s->none;
		p.whole = s->whole;
		p.flags = s->flags;
		undo_step_deltas(s, p.d);
		re = undo_step_pack(&p, &size);
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
    .write = hist_write,
    .load = hist_load,
    .rekey = hist_rekey,
};

size_t
undo_depth(const struct channel *ch)
{
	return undo_hist_count(channel_mod_peek(ch, CHANMOD_UNDO));
}
