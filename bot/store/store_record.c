/* store_record: records as checksummed JSON lines; see store_record.h. */
#include "bot/store/store_record.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "bot/store/crc32.h"
#include "rules/base/json.h"
#include "commands/fungeon/thwacko_style.h"
#include "rules/base/utf8.h"

_Static_assert(CHANMOD_COUNT <= STORE_RECORD_MODS_MAX, "raise STORE_RECORD_MODS_MAX");

#define CRC_LEN      8                  /* hex digits */
#define JSON_INT_MAX 9007199254740992.0 /* 2^53: exact in a double */

static const struct store_record_mods builtin = {chanmod_table, CHANMOD_COUNT};

const struct store_record_mods *
store_record_builtin_mods(void)
{
	return &builtin;
}

/* Saved colours use the names players type (commands/fungeon/thwacko_style). */
const char *
store_record_colour_name(enum ucolour c)
{
	return thwacko_style_colour_name(c);
}

int
store_record_colour_parse(const char *name)
{
	return thwacko_style_colour_parse(name);
}

static void
copy_str(char *dst, size_t size, const char *src)
{
	utf8_copy_bytes(dst, size, src != NULL ? src : "");
}

void
store_record_of_channel(struct store_record *r, const struct channel *ch)
{
	/* A channel's fields only: the user's (saved rolls: most of the
	 * struct) are neither read nor written for a channel. */
	r->kind = STORE_RECORD_CHANNEL;
	r->owns_mods = false;
	r->style_set = false;
	r->nsaved = 0;
	memset(r->mods, 0, sizeof(r->mods));
	memset(r->texts, 0, sizeof(r->texts));
	copy_str(r->key, sizeof(r->key), channel_key(ch));
	copy_str(r->gm, sizeof(r->gm), channel_gm(ch));
	copy_str(r->gm_name, sizeof(r->gm_name), channel_gm_name(ch));
	r->last_used = channel_last_used(ch);
	for (int i = 0; i < CHANMOD_COUNT; i++) {
		r->mods[i] = channel_mod_peek(ch, (enum chanmod_id)i);
		if (r->mods[i] != NULL)
			r->texts[i] = channel_kept_text(ch, (enum chanmod_id)i, &r->text_len[i]);
	}
}

void
store_record_of_user(struct store_record *r, const struct user *u)
{
	const struct thwacko_style *s = user_style(u);

	memset(r, 0, sizeof(*r));
	r->kind = STORE_RECORD_USER;
	copy_str(r->key, sizeof(r->key), user_key(u));
	copy_str(r->name, sizeof(r->name), user_name(u));
	if (s != NULL) {
		r->style = *s;
		r->style_set = true;
	}
	r->nsaved = user_nsaved(u);
	for (size_t i = 0; i < r->nsaved; i++)
		r->saved[i] = *user_saved_at(u, i);
}

bool
store_record_is_empty(const struct store_record *r)
{
	if (r->kind == STORE_RECORD_USER)
		return !r->style_set && r->nsaved == 0;
	if (r->kind != STORE_RECORD_CHANNEL || r->gm[0] != '\0')
		return false;
	for (size_t i = 0; i < STORE_RECORD_MODS_MAX; i++)
		if (r->mods[i] != NULL)
			return false;
	return true;
}

/* A line's frame: the checksum's place, kept while its JSON is written
 * after it. */
static size_t
frame_begin(struct buf *out)
{
	size_t old = out->len;

	buf_add(out, "00000000 ", CRC_LEN + 1);
	return old;
}

/* Ends the line begun at old: its checksum filled in, and the newline when
 * newline is set. Returns 0, or -1 (out back as it was before the line)
 * when out's cap was reached or the line passes STORE_RECORD_LINE_MAX. */
static int
frame_end(struct buf *out, size_t old, bool toobig, int written, bool newline)
{
	static const char hex[] = "0123456789abcdef";
	size_t start = old + CRC_LEN + 1;
	uint32_t crc;

	if (written < 0 || out->toobig || out->len < start ||
	    out->len - start + CRC_LEN + 2 > STORE_RECORD_LINE_MAX) {
		out->len = old;
		out->toobig = toobig;
		if (out->p != NULL)
			out->p[old] = '\0';
		return -1;
	}
	crc = crc32_of(out->p + start, out->len - start);
	for (int i = CRC_LEN - 1; i >= 0; i--, crc >>= 4)
		out->p[old + (size_t)i] = hex[crc & 0xf];
	if (newline && buf_addc(out, '\n') < 0)
		return frame_end(out, old, toobig, -1, false);
	return 0;
}

/* The channel's JSON object: its fields, then each module's text. */
static int
write_channel(const struct store_record *r, const struct store_record_mods *m, struct buf *out)
{
	bool first = true;

	json_write_lit(out, "{\"t\":\"c\"");
	json_write_lit(out, ",\"key\":");
	json_write_string(r->key, out);
	json_write_lit(out, ",\"last_used\":");
	json_write_int(r->last_used, out);
	if (r->gm[0] != '\0') {
		json_write_lit(out, ",\"gm\":");
		json_write_string(r->gm, out);
		json_write_lit(out, ",\"gm_name\":");
		json_write_string(r->gm_name, out);
	}
	for (size_t i = 0; i < m->n; i++) {
		if (r->mods[i] == NULL || m->table[i] == NULL)
			continue;
		if (first)
			json_write_lit(out, ",\"mods\":{");
		else
			buf_addc(out, ',');
		first = false;
		json_write_name(m->table[i]->name, out);
		buf_addc(out, ':');
		if (r->texts[i] != NULL)
			buf_add(out, r->texts[i], r->text_len[i]);
		else if (chanmod_write(m->table[i], r->mods[i], out) < 0)
			return -1;
	}
	if (!first)
		buf_addc(out, '}');
	buf_addc(out, '}');
	return 0;
}

/* The user's JSON object. */
static void
write_user(const struct store_record *r, struct buf *out)
{
	json_write_lit(out, "{\"t\":\"u\"");
	json_write_lit(out, ",\"key\":");
	json_write_string(r->key, out);
	json_write_lit(out, ",\"name\":");
	json_write_string(r->name, out);
	if (r->style_set) {
		json_write_lit(out, ",\"style\":{\"colour\":");
		json_write_string(store_record_colour_name(r->style.colour), out);
		json_write_lit(out, ",\"mark\":");
		json_write_string(r->style.mark, out);
		buf_addc(out, '}');
	}
	if (r->nsaved > 0) {
		json_write_lit(out, ",\"saved\":[");
		for (size_t i = 0; i < r->nsaved; i++) {
			if (i > 0)
				buf_addc(out, ',');
			json_write_lit(out, "{\"name\":");
			json_write_string(r->saved[i].name, out);
			json_write_lit(out, ",\"roll\":");
			json_write_string(r->saved[i].roll, out);
			buf_addc(out, '}');
		}
		buf_addc(out, ']');
	}
	buf_addc(out, '}');
}

int
store_record_encode(const struct store_record *r, const struct store_record_mods *m,
                    struct buf *out)
{
	bool toobig = out->toobig;
	size_t old;
	int rc = 0;

	if (r->kind != STORE_RECORD_CHANNEL && r->kind != STORE_RECORD_USER)
		return -1;
	old = frame_begin(out);
	if (r->kind == STORE_RECORD_CHANNEL)
		rc = write_channel(r, m, out);
	else
		write_user(r, out);
	return frame_end(out, old, toobig, rc, true);
}

const struct chanmod *
store_record_log_mod(const struct store_record_mods *m, size_t *slot)
{
	for (size_t i = 0; i < m->n; i++) {
		if (m->table[i] != NULL && m->table[i]->log_keep > 0) {
			*slot = i;
			return m->table[i];
		}
	}
	return NULL;
}

int
store_record_encode_log(const struct store_record_mods *m, const void *state, uint64_t seq,
                        struct buf *out)
{
	size_t slot;
	const struct chanmod *cm = store_record_log_mod(m, &slot);
	bool toobig = out->toobig;
	size_t old;

	if (cm == NULL || state == NULL)
		return -1;
	old = frame_begin(out);
	return frame_end(out, old, toobig, cm->log_save(state, seq, out), false);
}

/* Checks a line's frame and checksum and parses its JSON object (a log
 * entry's: array). */
static cJSON *
unframe(const char *line, size_t len, bool array, char *err, size_t errlen)
{
	uint32_t want = 0;
	cJSON *o;

	if (len < CRC_LEN + 3 || line[CRC_LEN] != ' ') {
		snprintf(err, errlen, "the record does not start with a checksum and a space");
		return NULL;
	}
	for (int i = 0; i < CRC_LEN; i++) {
		char c = line[i];
		int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (v < 0) {
			snprintf(err, errlen,
			         "the record does not start with a checksum and a space");
			return NULL;
		}
		want = want << 4 | (uint32_t)v;
	}
	line += CRC_LEN + 1;
	len -= CRC_LEN + 1;
#ifndef FUZZING /* let the fuzzer reach the JSON: it cannot fix checksums */
	if (crc32_of(line, len) != want) {
		snprintf(err, errlen, "checksum mismatch: the record was changed or damaged");
		return NULL;
	}
#endif
	o = cJSON_ParseWithLength(line, len);
	if (o == NULL || !(array ? cJSON_IsArray(o) : cJSON_IsObject(o))) {
		snprintf(err, errlen, "the record is not one JSON %s", array ? "array" : "object");
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* A whole number in [0, 2^53] held by member name of o. */
static int
get_count(const cJSON *o, const char *name, uint64_t *out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > JSON_INT_MAX ||
	    floor(v->valuedouble) != v->valuedouble) {
		snprintf(err, errlen, "'%s' must be a whole number from 0 to 2^53", name);
		return -1;
	}
	*out = (uint64_t)v->valuedouble;
	return 0;
}

/* Copies member name (text of 1 .. size-1 bytes, or 0 .. when may_empty). */
static int
get_text(const cJSON *o, const char *name, char *dst, size_t size, bool may_empty, char *err,
         size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	size_t len;

	if (!cJSON_IsString(v) || (len = strlen(v->valuestring)) >= size ||
	    (len == 0 && !may_empty)) {
		snprintf(err, errlen, "'%s' must be text of %d to %zu bytes", name,
		         may_empty ? 0 : 1, size - 1);
		return -1;
	}
	memcpy(dst, v->valuestring, len + 1);
	return 0;
}

/* A name read from a file, fit for a one-line message: at most 40 bytes,
 * anything but printable ASCII shown as '?'. */
static const char *
shown(const char *s, char out[48])
{
	size_t i;

	for (i = 0; s[i] != '\0' && i < 40; i++)
		out[i] = s[i] >= ' ' && s[i] <= '~' ? s[i] : '?';
	out[i] = '\0';
	return out;
}

/* Makes s one printable line: each control byte becomes '?' (a module's
 * sentence may quote text from the record). */
static void
one_line(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			*s = '?';
}

/* Fails on a member of o not in the NULL-terminated list allowed. */
static int
only_fields(const cJSON *o, const char *const *allowed, char *err, size_t errlen)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, o)
	{
		size_t i = 0;

		while (allowed[i] != NULL && strcmp(allowed[i], c->string) != 0)
			i++;
		if (allowed[i] == NULL) {
			char name[48];

			snprintf(err, errlen, "unknown field '%s'", shown(c->string, name));
			return -1;
		}
	}
	return 0;
}

static int
decode_mods(const cJSON *mods, const struct store_record_mods *m, struct store_record *r, char *err,
            size_t errlen)
{
	const cJSON *c;

	if (!cJSON_IsObject(mods)) {
		snprintf(err, errlen, "'mods' must be an object");
		return -1;
	}
	cJSON_ArrayForEach(c, mods)
	{
		const struct chanmod *cm = NULL;
		char why[200] = "";
		size_t i;

		for (i = 0; i < m->n; i++) {
			if (m->table[i] != NULL && strcmp(m->table[i]->name, c->string) == 0) {
				cm = m->table[i];
				break;
			}
		}
		if (cm == NULL) {
			char name[48];

			snprintf(err, errlen, "unknown module '%s' (a newer delver wrote it?)",
			         shown(c->string, name));
			return -1;
		}
		if (r->mods[i] != NULL) {
			snprintf(err, errlen, "module '%s' appears twice", cm->name);
			return -1;
		}
		r->mods[i] = cm->create();
		if (cm->load(r->mods[i], c, why, sizeof(why)) < 0) {
			cm->destroy(r->mods[i]);
			r->mods[i] = NULL;
			one_line(why);
			snprintf(err, errlen, "module '%s': %s", cm->name, why);
			return -1;
		}
	}
	return 0;
}

static int
decode_channel(const cJSON *o, const struct store_record_mods *m, struct store_record *r, char *err,
               size_t errlen)
{
	static const char *const fields[] = {"t",       "key",  "last_used", "gm",
	                                     "gm_name", "mods", NULL};
	const cJSON *mods = cJSON_GetObjectItemCaseSensitive(o, "mods");
	uint64_t v;

	if (only_fields(o, fields, err, errlen) < 0 ||
	    get_count(o, "last_used", &v, err, errlen) < 0)
		return -1;
	r->last_used = (int64_t)v;
	if (cJSON_GetObjectItemCaseSensitive(o, "gm") != NULL &&
	    (get_text(o, "gm", r->gm, sizeof(r->gm), false, err, errlen) < 0 ||
	     get_text(o, "gm_name", r->gm_name, sizeof(r->gm_name), true, err, errlen) < 0))
		return -1;
	if (r->gm[0] == '\0' && cJSON_GetObjectItemCaseSensitive(o, "gm_name") != NULL) {
		snprintf(err, errlen, "'gm_name' without 'gm'");
		return -1;
	}
	r->owns_mods = true;
	if (mods != NULL && decode_mods(mods, m, r, err, errlen) < 0) {
		store_record_clear(r, m);
		return -1;
	}
	return 0;
}

/* A user's "saved": at most USER_SAVED_MAX {"name", "roll"} with texts
 * that fit, names unique without regard to case. The name rules are
 * rollchan's: what the player saved passed them. */
static int
decode_saved(const cJSON *arr, struct store_record *r, char *err, size_t errlen)
{
	static const char *const fields[] = {"name", "roll", NULL};
	const cJSON *j;

	if (arr == NULL)
		return 0;
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > USER_SAVED_MAX) {
		snprintf(err, errlen, "'saved' must be a list of at most %d saved rolls",
		         USER_SAVED_MAX);
		return -1;
	}
	cJSON_ArrayForEach(j, arr)
	{
		struct user_saved *s = &r->saved[r->nsaved];

		if (!cJSON_IsObject(j)) {
			snprintf(err, errlen,
			         "each of 'saved' must be an object with a 'name' and a 'roll'");
			return -1;
		}
		if (only_fields(j, fields, err, errlen) < 0 ||
		    get_text(j, "name", s->name, sizeof(s->name), false, err, errlen) < 0 ||
		    get_text(j, "roll", s->roll, sizeof(s->roll), false, err, errlen) < 0)
			return -1;
		if (!utf8_valid(s->name, strlen(s->name)) ||
		    !utf8_valid(s->roll, strlen(s->roll))) {
			snprintf(err, errlen, "a saved roll's name and roll must be UTF-8");
			return -1;
		}
		for (size_t i = 0; i < r->nsaved; i++) {
			if (utf8_casecmp(r->saved[i].name, s->name) == 0) {
				snprintf(err, errlen, "two saved rolls have the same name");
				return -1;
			}
		}
		r->nsaved++;
	}
	return 0;
}

static int
decode_user(const cJSON *o, struct store_record *r, char *err, size_t errlen)
{
	static const char *const fields[] = {"t", "key", "name", "style", "saved", NULL};
	static const char *const sfields[] = {"colour", "mark", NULL};
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "style");
	const cJSON *c;
	int colour;

	if (only_fields(o, fields, err, errlen) < 0 ||
	    get_text(o, "name", r->name, sizeof(r->name), true, err, errlen) < 0 ||
	    decode_saved(cJSON_GetObjectItemCaseSensitive(o, "saved"), r, err, errlen) < 0)
		return -1;
	if (s == NULL)
		return 0;
	c = cJSON_GetObjectItemCaseSensitive(s, "colour");
	if (!cJSON_IsObject(s) || only_fields(s, sfields, err, errlen) < 0 || !cJSON_IsString(c) ||
	    (colour = store_record_colour_parse(c->valuestring)) < 0) {
		snprintf(err, errlen, "'style' must hold a known 'colour' and a 'mark'");
		return -1;
	}
	if (get_text(s, "mark", r->style.mark, sizeof(r->style.mark), true, err, errlen) < 0)
		return -1;
	if (!utf8_valid(r->style.mark, strlen(r->style.mark))) {
		snprintf(err, errlen, "'mark' is not valid UTF-8");
		return -1;
	}
	r->style.colour = (enum ucolour)colour;
	r->style_set = true;
	return 0;
}

/* The kind of record o is, from its "t" member; -1 with err when unknown. */
static int
kind_of(const cJSON *o, char *err, size_t errlen)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "t");

	if (cJSON_IsString(t) && strcmp(t->valuestring, "c") == 0)
		return STORE_RECORD_CHANNEL;
	if (cJSON_IsString(t) && strcmp(t->valuestring, "u") == 0)
		return STORE_RECORD_USER;
	snprintf(err, errlen, "'t' must be \"c\" (channel) or \"u\" (user)");
	return -1;
}

int
store_record_decode(const char *line, size_t len, int version, const struct store_record_mods *m,
                    struct store_record *r, char *err, size_t errlen)
{
	cJSON *o;
	int kind, rc = -1;

	memset(r, 0, sizeof(*r));
	if (version > STORE_RECORD_VERSION) {
		snprintf(err, errlen,
		         "format version %d is newer than this delver understands (%d); run a "
		         "newer delver",
		         version, STORE_RECORD_VERSION);
		return -1;
	}
	if (version < STORE_RECORD_OLDEST) {
		snprintf(err, errlen,
		         "format version %d is older than any this delver reads; it reads "
		         "versions %d to %d",
		         version, STORE_RECORD_OLDEST, STORE_RECORD_VERSION);
		return -1;
	}
	if ((o = unframe(line, len, false, err, errlen)) == NULL)
		return -1;
	if ((kind = kind_of(o, err, errlen)) < 0)
		goto out;
	r->kind = (enum store_record_kind)kind;
	if (get_text(o, "key", r->key, sizeof(r->key), false, err, errlen) < 0)
		goto out;
	if (r->kind == STORE_RECORD_CHANNEL)
		rc = decode_channel(o, m, r, err, errlen);
	else
		rc = decode_user(o, r, err, errlen);
out:
	cJSON_Delete(o);
	return rc;
}

int
store_record_decode_log(struct store_record *r, const struct store_record_mods *m, uint64_t seq,
                        const char *line, size_t len, char *err, size_t errlen)
{
	size_t slot;
	const struct chanmod *cm = store_record_log_mod(m, &slot);
	char why[200] = "";
	cJSON *o;
	int rc;

	if (r->kind != STORE_RECORD_CHANNEL || cm == NULL) {
		snprintf(err, errlen, "a log entry of something that keeps no log");
		return -1;
	}
	if ((o = unframe(line, len, true, why, sizeof(why))) == NULL) {
		snprintf(err, errlen, "log entry %llu: %s", (unsigned long long)seq, why);
		return -1;
	}
	/* A record that holds no state of the module (written before its first
	 * entry): the module's fresh state takes the entries. */
	if (r->mods[slot] == NULL) {
		r->mods[slot] = cm->create();
		r->owns_mods = true;
	}
	rc = cm->log_load(r->mods[slot], seq, o, why, sizeof(why));
	cJSON_Delete(o);
	if (rc < 0) {
		one_line(why);
		snprintf(err, errlen, "log entry %llu of module '%s': %s", (unsigned long long)seq,
		         cm->name, why);
	}
	return rc;
}

void
store_record_clear(struct store_record *r, const struct store_record_mods *m)
{
	if (!r->owns_mods)
		return;
	for (size_t i = 0; i < m->n; i++) {
		if (r->mods[i] != NULL)
			m->table[i]->destroy(r->mods[i]);
		r->mods[i] = NULL;
	}
}

void
store_record_to_channel(struct store_record *r, struct channel *ch)
{
	if (r->gm[0] != '\0')
		channel_set_gm(ch, r->gm, r->gm_name);
	else
		channel_clear_gm(ch);
	channel_set_last_used(ch, r->last_used);
	for (int i = 0; i < CHANMOD_COUNT; i++) {
		if (r->mods[i] != NULL || channel_mod_peek(ch, (enum chanmod_id)i) != NULL)
			channel_mod_set(ch, (enum chanmod_id)i, r->mods[i]);
		r->mods[i] = NULL;
	}
	r->owns_mods = false;
}

void
store_record_to_user(const struct store_record *r, struct user *u)
{
	user_set_name(u, r->name);
	if (r->style_set)
		user_set_style(u, &r->style);
	else
		user_clear_style(u);
	while (user_nsaved(u) > 0)
		user_saved_delete(u, user_saved_at(u, 0)->name);
	for (size_t i = 0; i < r->nsaved; i++)
		user_save(u, r->saved[i].name, r->saved[i].roll);
}
