/* rollchan: a channel's dice settings and roll log; see rollchan.h. */
#include "commands/dice/rollchan.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

#include <utf8proc.h>

static void *
rollchan_create(void)
{
	return xcalloc(1, sizeof(struct rollchan));
}

static void
rollchan_destroy(void *p)
{
	struct rollchan *rc = p;

	if (rc != NULL) {
		free(rc->saved);
		free(rc->secret);
	}
	free(p);
}

struct rollchan *
rollchan_of(struct channel *ch)
{
	return channel_mod(ch, CHANMOD_ROLL);
}

/* Copies src into dst (size >= 4 bytes) as a log entry keeps a text: its
 * well-formed UTF-8 as it is when it fits in size - 1 bytes; else, or when
 * the text stops being well-formed at some byte (a caller's own cut
 * inside a character), the well-formed part cut between two characters
 * (utf8_cut_text), with "…" after it, within size - 1 bytes. */
static void
log_text(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src), ok = utf8_valid_len(src, len);

	if (ok == len && len < size) {
		memcpy(dst, src, len + 1);
		return;
	}
	ok = utf8_cut_text(src, ok, size - sizeof("…"));
	memcpy(dst, src, ok);
	memcpy(dst + ok, "…", sizeof("…"));
}

/* Appends to a ring of max entries (n used, head the oldest), dropping the
 * oldest when full; returns the new entry's index. */
static size_t
ring_push(struct rollchan_entry *ring, size_t max, size_t *n, size_t *head, int64_t when,
          const char *who, const char *what, const char *result)
{
	struct rollchan_entry *e;
	size_t at;

	if (*n < max) {
		at = (*head + *n) % max;
		(*n)++;
	} else {
		at = *head;
		*head = (*head + 1) % max;
	}
	e = &ring[at];
	e->when = when;
	log_text(e->who, sizeof(e->who), who);
	log_text(e->what, sizeof(e->what), what);
	log_text(e->result, sizeof(e->result), result);
	return at;
}

void
rollchan_log(struct rollchan *rc, int64_t when, const char *who, const char *what,
             const char *result)
{
	ring_push(rc->log, ROLLCHAN_LOG_MAX, &rc->nlog, &rc->head, when, who, what, result);
	rc->count++;
}

const struct rollchan_entry *
rollchan_entry(const struct rollchan *rc, size_t i)
{
	if (i >= rc->nlog)
		return NULL;
	return &rc->log[(rc->head + rc->nlog - 1 - i) % ROLLCHAN_LOG_MAX];
}

static struct rollchan_secret *
secret_of(struct rollchan *rc)
{
	if (rc->secret == NULL)
		rc->secret = xcalloc(1, sizeof(*rc->secret));
	return rc->secret;
}

void
rollchan_log_secret(struct rollchan *rc, int64_t when, const char *who, const char *what,
                    const char *result, const char *gm)
{
	struct rollchan_secret *s = secret_of(rc);
	size_t at =
	    ring_push(s->log, ROLLCHAN_SECRET_MAX, &s->n, &s->head, when, who, what, result);

	utf8_copy(s->gm[at], sizeof(s->gm[at]), gm);
}

const char *
rollchan_secret_gm(const struct rollchan *rc, size_t i)
{
	const struct rollchan_secret *s = rc->secret;

	if (s == NULL || i >= s->n)
		return NULL;
	return s->gm[(s->head + s->n - 1 - i) % ROLLCHAN_SECRET_MAX];
}

const struct rollchan_entry *
rollchan_secret_entry(const struct rollchan *rc, size_t i)
{
	const struct rollchan_secret *s = rc->secret;

	if (s == NULL || i >= s->n)
		return NULL;
	return &s->log[(s->head + s->n - 1 - i) % ROLLCHAN_SECRET_MAX];
}

size_t
rollchan_secret_count(const struct rollchan *rc)
{
	return rc != NULL && rc->secret != NULL ? rc->secret->n : 0;
}

const char *
rollchan_secret_to(const struct channel *ch)
{
	const struct rollchan *rc = channel_mod_peek(ch, CHANMOD_ROLL);
	const char *gm = channel_gm(ch);

	if (rc == NULL || rc->secret == NULL || rc->secret->to[0] == '\0' || gm == NULL)
		return NULL;
	return strcmp(rc->secret->to_gm, gm) == 0 ? rc->secret->to : NULL;
}

void
rollchan_set_secret_to(struct rollchan *rc, const char *key, const char *gm)
{
	if (key[0] == '\0' && rc->secret == NULL)
		return;
	snprintf(secret_of(rc)->to, sizeof(rc->secret->to), "%s", key);
	snprintf(rc->secret->to_gm, sizeof(rc->secret->to_gm), "%s", key[0] != '\0' ? gm : "");
}

bool
rollchan_compact(const struct channel *ch)
{
	const struct rollchan *rc = channel_mod_peek(ch, CHANMOD_ROLL);

	return rc != NULL && rc->compact;
}

bool
rollchan_show_dark(struct channel *ch, bool dark)
{
	struct rollchan *rc = channel_mod_peek(ch, CHANMOD_ROLL);
	bool show;

	if (rc == NULL || !rc->compact)
		return dark;
	show = dark && !rc->dark_shown;
	if (rc->dark_shown != dark) {
		rc->dark_shown = dark;
		channel_touch(ch);
	}
	return show;
}

void
rollchan_dark_forget(struct channel *ch)
{
	struct rollchan *rc = channel_mod_peek(ch, CHANMOD_ROLL);

	if (rc == NULL || !rc->dark_shown)
		return;
	rc->dark_shown = false;
	channel_touch(ch);
}

void
rollchan_heading(const struct channel *ch, struct reply *out, const char *fmt, ...)
{
	char text[301];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		text[0] = '\0';
	else if ((size_t)n >= sizeof(text))
		text[utf8_cut(text, sizeof(text) - 1, sizeof(text) - 1)] = '\0';
	if (rollchan_compact(ch))
		reply_add(out, 0, "%s · ", text);
	else
		reply_title(out, "%s", text);
}

/* Whether the code point cp may stand in a saved roll's name, first or
 * after the first: a letter of any script, then also a digit, an accent,
 * '-' or '_'. */
static bool
name_cp(uint32_t cp, bool first)
{
	if (utf8_is_letter(cp))
		return true;
	return !first && (utf8_is_accent(cp) || cp == '-' || cp == '_' ||
	                  utf8proc_category((utf8proc_int32_t)cp) == UTF8PROC_CATEGORY_ND);
}

/* How name breaks the rules of a saved roll's name. */
enum name_fault {
	NAME_OK,
	NAME_EMPTY,
	NAME_LONG,
	NAME_DICE,
	NAME_ADV,
	NAME_START,
	NAME_CHAR
};

static enum name_fault
name_fault(const char *name)
{
	size_t n = strlen(name), chars = 0;
	int c0 = (unsigned char)name[0];
	enum name_fault f = NAME_OK;

	if (n == 0)
		return NAME_EMPTY;
	if (!utf8_valid(name, n))
		return NAME_CHAR;
	for (size_t i = 0, k; i < n; i += k) {
		uint32_t cp = 0;

		k = utf8_decode(name + i, n - i, &cp);
		if (f == NAME_OK && !name_cp(cp, i == 0))
			f = i == 0 ? NAME_START : NAME_CHAR;
		chars++;
	}
	if (chars > ROLLCHAN_NAME_CHARS || n >= ROLLCHAN_NAME_MAX)
		return NAME_LONG;
	if (c0 == 'd' || c0 == 'D')
		return NAME_DICE;
	if (strcasecmp(name, "adv") == 0 || strcasecmp(name, "dis") == 0)
		return NAME_ADV;
	return f;
}

bool
rollchan_name_ok(const char *name)
{
	return name_fault(name) == NAME_OK;
}

void
rollchan_name_refusal(const char *name, char *err, size_t errlen)
{
	static const char rule[] = "a saved roll's name is 1 to %d letters (of any alphabet), "
	                           "digits, '-' or '_', starting with a letter other than d";
	char plain[ROLLCHAN_NAME_MAX], quoted[4 * ROLLCHAN_NAME_CHARS + 4], whole[200];
	char what[TEXTSAFE_NAME_MAX];
	size_t k = utf8_cut(name, strlen(name), sizeof(plain) - 1), n, at;
	int c0 = (unsigned char)name[0];
	uint32_t cp;

	snprintf(whole, sizeof(whole), rule, ROLLCHAN_NAME_CHARS);
	for (size_t i = 0; i < k; i++)
		plain[i] = (unsigned char)name[i] < 0x20 || name[i] == 0x7f ? '?' : name[i];
	plain[k] = '\0';
	n = utf8_cut_text(plain, k, utf8_prefix(plain, k, ROLLCHAN_NAME_CHARS));
	snprintf(quoted, sizeof(quoted), "%.*s%s", (int)n, plain, n < k ? "…" : "");
	switch (name_fault(name)) {
	case NAME_EMPTY:
		snprintf(err, errlen, "A saved roll needs a name: %s.", whole);
		break;
	case NAME_LONG:
		snprintf(err, errlen, "'%s' is too long: %s.", quoted, whole);
		break;
	case NAME_DICE:
		snprintf(
		    err, errlen,
		    "'%s' starts with d, as dice do (d6), so it cannot name a saved roll; start "
		    "it with another letter (e.g. my-%s).",
		    quoted, quoted);
		break;
	case NAME_ADV:
		snprintf(err, errlen,
		         "'%s' means %s in a roll, so it cannot name a saved roll; pick another "
		         "name.",
		         quoted, c0 == 'a' || c0 == 'A' ? "advantage" : "disadvantage");
		break;
	case NAME_START:
		snprintf(err, errlen, "'%s' does not start with a letter: %s.", quoted, whole);
		break;
	default:
		if (utf8_valid(name, strlen(name)) &&
		    textsafe_invisible_in(name, strlen(name), &cp, &at)) {
			textsafe_invisible_name(what, sizeof(what), cp, true);
			snprintf(err, errlen, "'%s' holds %s at column %zu: %s.", quoted, what,
			         1 + utf8_count(name, at), whole);
			break;
		}
		snprintf(err, errlen, "'%s' holds a character other than those allowed: %s.",
		         quoted, whole);
		break;
	}
}

const struct rollchan_saved *
rollchan_find(const struct rollchan *rc, const char *owner, const char *name)
{
	for (size_t i = 0; i < rc->nsaved; i++)
		if (strcmp(rc->saved[i].owner, owner) == 0 &&
		    utf8_casecmp(rc->saved[i].name, name) == 0)
			return &rc->saved[i];
	return NULL;
}

bool
rollchan_find_owner(const struct rollchan *rc, const char *owner)
{
	for (size_t i = 0; i < rc->nsaved; i++)
		if (strcmp(rc->saved[i].owner, owner) == 0)
			return true;
	return false;
}

int
rollchan_save(struct rollchan *rc, const char *owner, const char *name, const char *roll, char *err,
              size_t errlen)
{
	struct rollchan_saved *s = (struct rollchan_saved *)rollchan_find(rc, owner, name);
	size_t mine = 0, max = owner[0] != '\0' ? ROLLCHAN_SAVED_USER : ROLLCHAN_SAVED_CHAN;

	if (!rollchan_name_ok(name)) {
		rollchan_name_refusal(name, err, errlen);
		return -1;
	}
	if (strlen(owner) >= KEY_MAX || strlen(roll) >= ROLLCHAN_ROLL_MAX) {
		snprintf(err, errlen, "A saved roll may be at most %d bytes long (got %zu).",
		         ROLLCHAN_ROLL_MAX - 1, strlen(roll));
		return -1;
	}
	if (s == NULL) {
		for (size_t i = 0; i < rc->nsaved; i++)
			mine += strcmp(rc->saved[i].owner, owner) == 0;
		if (mine >= max || rc->nsaved >= ROLLCHAN_SAVED_MAX) {
			snprintf(
			    err, errlen,
			    "%s may keep at most %zu saved rolls here (and a channel %d in all); "
			    "delete one with {/saved delete name=NAME} first.",
			    owner[0] != '\0' ? "A player" : "The channel", max, ROLLCHAN_SAVED_MAX);
			return -1;
		}
		rc->saved = xrealloc(rc->saved, (rc->nsaved + 1) * sizeof(*rc->saved));
		s = &rc->saved[rc->nsaved++];
		memset(s, 0, sizeof(*s));
		utf8_copy(s->owner, sizeof(s->owner), owner);
	}
	utf8_copy(s->name, sizeof(s->name), name);
	utf8_copy(s->roll, sizeof(s->roll), roll);
	return 0;
}

_Static_assert(USER_SAVED_NAME_MAX == ROLLCHAN_NAME_MAX, "a user's names are the channel's");
_Static_assert(USER_SAVED_ROLL_MAX == ROLLCHAN_ROLL_MAX, "a user's rolls are the channel's");

void
rollchan_adopt(struct channel *ch, struct user *u)
{
	struct rollchan *rc = channel_mod_peek(ch, CHANMOD_ROLL);
	const char *key = user_key(u);
	bool moved = false;

	for (size_t i = 0; rc != NULL && i < rc->nsaved;) {
		struct rollchan_saved *s = &rc->saved[i];

		if (strcmp(s->owner, key) != 0 || user_saved_find(u, s->name) != NULL ||
		    user_save(u, s->name, s->roll) < 0) {
			i++;
			continue;
		}
		memmove(s, s + 1, (rc->nsaved - i - 1) * sizeof(*s));
		rc->nsaved--;
		moved = true;
	}
	if (moved) {
		channel_touch(ch);
		user_touch(u);
	}
}

const char *
rollchan_lookup(struct channel *ch, struct user *u, const char *name, const char **canon,
                bool *mine)
{
	const struct rollchan *rc;
	const struct rollchan_saved *cs = NULL;
	const struct user_saved *us;

	rollchan_adopt(ch, u);
	rc = channel_mod_peek(ch, CHANMOD_ROLL);
	*mine = true;
	if ((us = user_saved_find(u, name)) != NULL) {
		*canon = us->name;
		return us->roll;
	}
	if (rc != NULL && (cs = rollchan_find(rc, user_key(u), name)) == NULL) {
		cs = rollchan_find(rc, "", name);
		*mine = false;
	}
	if (cs == NULL)
		return NULL;
	*canon = cs->name;
	return cs->roll;
}

bool
rollchan_delete(struct rollchan *rc, const char *owner, const char *name)
{
	const struct rollchan_saved *s = rollchan_find(rc, owner, name);
	size_t i;

	if (s == NULL)
		return false;
	i = (size_t)(s - rc->saved);
	memmove(&rc->saved[i], &rc->saved[i + 1], (rc->nsaved - i - 1) * sizeof(*rc->saved));
	rc->nsaved--;
	return true;
}

/* A log entry's saved form. */
static void
add_entry(cJSON *log, const struct rollchan_entry *e)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "when", (double)e->when);
	cJSON_AddStringToObject(j, "who", e->who);
	cJSON_AddStringToObject(j, "what", e->what);
	cJSON_AddStringToObject(j, "result", e->result);
	cJSON_AddItemToArray(log, j);
}

static cJSON *
rollchan_save_json(const void *p)
{
	const struct rollchan *rc = p;
	cJSON *o = cJSON_CreateObject(), *log;

	cJSON_AddBoolToObject(o, "natural", !rc->no_natural);
	if (rc->compact) {
		cJSON_AddBoolToObject(o, "compact", true);
		cJSON_AddBoolToObject(o, "dark_shown", rc->dark_shown);
	}
	/* The roll log is the module's log, in rows of its own; the secret
	 * one, oldest first, so a load appends them in order. */
	if (rc->secret != NULL && (rc->secret->n > 0 || rc->secret->to[0] != '\0')) {
		cJSON *s = cJSON_AddObjectToObject(o, "secret");

		cJSON_AddStringToObject(s, "to", rc->secret->to);
		if (rc->secret->to[0] != '\0')
			cJSON_AddStringToObject(s, "to_gm", rc->secret->to_gm);
		log = cJSON_AddArrayToObject(s, "log");
		for (size_t i = rc->secret->n; i > 0; i--) {
			add_entry(log, rollchan_secret_entry(rc, i - 1));
			cJSON_AddStringToObject(
			    cJSON_GetArrayItem(log, cJSON_GetArraySize(log) - 1), "gm",
			    rollchan_secret_gm(rc, i - 1));
		}
	}
	if (rc->nsaved > 0) {
		cJSON *saved = cJSON_AddArrayToObject(o, "saved");

		for (size_t i = 0; i < rc->nsaved; i++) {
			cJSON *j = cJSON_CreateObject();

			cJSON_AddStringToObject(j, "owner", rc->saved[i].owner);
			cJSON_AddStringToObject(j, "name", rc->saved[i].name);
			cJSON_AddStringToObject(j, "roll", rc->saved[i].roll);
			cJSON_AddItemToArray(saved, j);
		}
	}
	return o;
}

static uint64_t
rollchan_log_count(const void *p)
{
	return ((const struct rollchan *)p)->count;
}

/* [when,"who","what","result"] (a row of the log: a million of them are
 * not to carry their field names), written without a tree: a roll costs no
 * allocation here. */
static int
rollchan_log_save(const void *p, uint64_t seq, struct buf *out)
{
	const struct rollchan *rc = p;
	const struct rollchan_entry *e =
	    seq <= rc->count ? rollchan_entry(rc, (size_t)(rc->count - seq)) : NULL;

	if (e == NULL)
		return -1;
	buf_addc(out, '[');
	json_write_int(e->when, out);
	buf_addc(out, ',');
	json_write_string(e->who, out);
	buf_addc(out, ',');
	json_write_string(e->what, out);
	buf_addc(out, ',');
	json_write_string(e->result, out);
	buf_addc(out, ']');
	return out->toobig ? -1 : 0;
}

/* v's text when it is a string of at most max - 1 bytes of UTF-8, or NULL. */
static const char *
text_of(const cJSON *v, size_t max)
{
	if (!cJSON_IsString(v) || strlen(v->valuestring) >= max ||
	    !utf8_valid(v->valuestring, strlen(v->valuestring)))
		return NULL;
	return v->valuestring;
}

/* A log entry's text, which is only ever shown: any string, or NULL. A
 * text too long or not well-formed (as 0.1.0 could write one: a label cut
 * inside a character) is cut where the log cuts a new one (log_text), so
 * that such an entry never stops a start. */
static const char *
shown_text(const cJSON *v)
{
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A string member of at most max - 1 bytes of UTF-8, or NULL. */
static const char *
text(const cJSON *o, const char *name, size_t max)
{
	return text_of(cJSON_GetObjectItemCaseSensitive(o, name), max);
}

/* Reads an optional boolean member (absent: false). */
static int
get_flag(const cJSON *o, const char *name, bool *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	*out = cJSON_IsTrue(v);
	return v == NULL || cJSON_IsBool(v) ? 0 : -1;
}

/* Loads the optional "saved" array. */
static int
load_saved(struct rollchan *rc, const cJSON *saved, char *err, size_t errlen)
{
	const cJSON *j;

	if (saved == NULL)
		return 0;
	if (!cJSON_IsArray(saved)) {
		snprintf(err, errlen, "roll state: 'saved' must be an array.");
		return -1;
	}
	cJSON_ArrayForEach(j, saved)
	{
		const char *owner = text(j, "owner", KEY_MAX),
		           *name = text(j, "name", ROLLCHAN_NAME_MAX);
		const char *roll = text(j, "roll", ROLLCHAN_ROLL_MAX);
		char why[256];

		if (owner == NULL || name == NULL || roll == NULL ||
		    rollchan_find(rc, owner, name) != NULL ||
		    rollchan_save(rc, owner, name, roll, why, sizeof(why)) < 0) {
			snprintf(err, errlen,
			         "roll state: a saved roll needs a unique allowed 'name', an "
			         "'owner' and "
			         "a 'roll' within the limits.");
			return -1;
		}
	}
	return 0;
}

/* One entry {"when", "who", "what", "result"} into the roll log, or the
 * secret log (with "gm", the key of the GM it went to; "" when missing). */
static int
load_entry(struct rollchan *rc, const cJSON *j, bool secret, char *err, size_t errlen)
{
	const cJSON *when = cJSON_GetObjectItemCaseSensitive(j, "when");
	const char *who = shown_text(cJSON_GetObjectItemCaseSensitive(j, "who"));
	const char *what = shown_text(cJSON_GetObjectItemCaseSensitive(j, "what"));
	const char *result = shown_text(cJSON_GetObjectItemCaseSensitive(j, "result"));
	const char *gm =
	    cJSON_GetObjectItemCaseSensitive(j, "gm") == NULL ? "" : text(j, "gm", KEY_MAX);

	/* A row of the log: [when, who, what, result]. */
	if (cJSON_IsArray(j) && cJSON_GetArraySize(j) == 4) {
		when = cJSON_GetArrayItem(j, 0);
		who = shown_text(cJSON_GetArrayItem(j, 1));
		what = shown_text(cJSON_GetArrayItem(j, 2));
		result = shown_text(cJSON_GetArrayItem(j, 3));
	}

	if (!cJSON_IsNumber(when) || when->valuedouble < 0 || when->valuedouble > 1e15 ||
	    who == NULL || what == NULL || result == NULL) {
		snprintf(err, errlen,
		         "roll state: a log entry needs 'when' (unix seconds) and 'who', "
		         "'what' and 'result' texts.");
		return -1;
	}
	if (secret && gm == NULL) {
		snprintf(err, errlen,
		         "roll state: a secret roll's 'gm' is a user key of at most %d "
		         "bytes.",
		         KEY_MAX - 1);
		return -1;
	}
	if (secret)
		rollchan_log_secret(rc, (int64_t)when->valuedouble, who, what, result, gm);
	else
		rollchan_log(rc, (int64_t)when->valuedouble, who, what, result);
	return 0;
}

/* Loads a log array into the roll log (delver 0.1's records: its entries
 * are numbered 1 on), or the secret log. */
static int
load_log(struct rollchan *rc, const cJSON *log, bool secret, char *err, size_t errlen)
{
	int max = secret ? ROLLCHAN_SECRET_MAX : ROLLCHAN_LOG_MAX;
	const cJSON *j;

	if (!cJSON_IsArray(log) || cJSON_GetArraySize(log) > max) {
		snprintf(err, errlen, "roll state: the %slog is not an array of at most %d rolls.",
		         secret ? "secret " : "", max);
		return -1;
	}
	cJSON_ArrayForEach(j, log)
	{
		if (load_entry(rc, j, secret, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Loads the optional "secret" object: {"to": KEY or "", "to_gm": KEY,
 * "log": [...]}. A "to" without "to_gm" (named before the channel was the
 * GM's own) is kept for nobody: its GM names it again. */
static int
load_secret(struct rollchan *rc, const cJSON *s, char *err, size_t errlen)
{
	const char *to = text(s, "to", KEY_MAX);
	const cJSON *gmj = cJSON_GetObjectItemCaseSensitive(s, "to_gm");
	const char *gm = gmj == NULL ? "" : text(s, "to_gm", KEY_MAX);

	if (s == NULL)
		return 0;
	if (!cJSON_IsObject(s) || to == NULL || gm == NULL) {
		snprintf(err, errlen,
		         "roll state: 'secret' must be an object with 'to' (a channel key of at "
		         "most %d bytes, or \"\"), 'to_gm' (the user key of the GM who named it) "
		         "and a 'log' array.",
		         KEY_MAX - 1);
		return -1;
	}
	rollchan_set_secret_to(rc, to, gm);
	return load_log(rc, cJSON_GetObjectItemCaseSensitive(s, "log"), true, err, errlen);
}

static int
rollchan_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct rollchan *rc = p;
	const cJSON *nat = cJSON_GetObjectItemCaseSensitive(o, "natural");
	const cJSON *log = cJSON_GetObjectItemCaseSensitive(o, "log");

	if (!cJSON_IsObject(o) || !cJSON_IsBool(nat)) {
		snprintf(err, errlen,
		         "roll state: the record must be an object with 'natural' (true or "
		         "false).");
		return -1;
	}
	rc->no_natural = !cJSON_IsTrue(nat);
	if (get_flag(o, "compact", &rc->compact) < 0 ||
	    get_flag(o, "dark_shown", &rc->dark_shown) < 0) {
		snprintf(err, errlen, "roll state: 'compact' and 'dark_shown' are true or false.");
		return -1;
	}
	if ((log != NULL && load_log(rc, log, false, err, errlen) < 0) ||
	    load_secret(rc, cJSON_GetObjectItemCaseSensitive(o, "secret"), err, errlen) < 0)
		return -1;
	return load_saved(rc, cJSON_GetObjectItemCaseSensitive(o, "saved"), err, errlen);
}

static int
rollchan_log_load(void *p, uint64_t seq, const cJSON *entry, char *err, size_t errlen)
{
	struct rollchan *rc = p;

	if (seq <= rc->count)
		return 0; /* held already (see struct chanmod) */
	if (load_entry(rc, entry, false, err, errlen) < 0)
		return -1;
	rc->count = seq;
	return 0;
}

/* Moves from's secret rolls onto to, and from's saved rolls unless to
 * saved rolls here already. */
static int
rollchan_rekey(void *mod, const char *from, const char *to)
{
	struct rollchan *rc = mod;
	int moved = 0;

	for (size_t i = 0; rc->secret != NULL && i < ROLLCHAN_SECRET_MAX; i++) {
		if (strcmp(rc->secret->gm[i], from) == 0) {
			utf8_copy(rc->secret->gm[i], sizeof(rc->secret->gm[i]), to);
			moved++;
		}
	}

	for (size_t i = 0; i < rc->nsaved; i++) {
		if (strcmp(rc->saved[i].owner, to) == 0)
			return moved;
	}
	for (size_t i = 0; i < rc->nsaved; i++) {
		if (strcmp(rc->saved[i].owner, from) == 0) {
			snprintf(rc->saved[i].owner, sizeof(rc->saved[i].owner), "%s", to);
			moved++;
		}
	}
	return moved;
}

const struct chanmod rollchan_mod = {
    .name = "roll",
    .create = rollchan_create,
    .destroy = rollchan_destroy,
    .save = rollchan_save_json,
    .load = rollchan_load,
    .rekey = rollchan_rekey,
    .log_keep = ROLLCHAN_LOG_MAX,
    .log_count = rollchan_log_count,
    .log_save = rollchan_log_save,
    .log_load = rollchan_log_load,
};
