/* tables_state: a channel's own tables and their persistence; see tables_state.h. */
#include "commands/tables/tables_state.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"
#include "rules/tables/roll_table_name.h"
#include "rules/tension/tension.h"

_Static_assert(TABLES_MAX <= 64, "a set of tables is one 64-bit word");

static void *
tables_create(void)
{
	return xcalloc(1, sizeof(struct tables_state));
}

static void
tables_destroy(void *p)
{
	struct tables_state *s = p;

	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].text);
	free(s->v);
	free(s);
}

struct tables_state *
tables_state_of(struct channel *ch)
{
	return channel_mod(ch, CHANMOD_TABLES);
}

const struct tables_state *
tables_state_peek(const struct channel *ch)
{
	return channel_mod_peek(ch, CHANMOD_TABLES);
}

void
tables_state_settle(struct channel *ch)
{
	const struct tables_state *s = tables_state_peek(ch);

	if (s != NULL && s->n == 0)
		channel_mod_set(ch, CHANMOD_TABLES, NULL);
}

int
tables_state_find(const struct tables_state *s, const char *name)
{
	for (size_t i = 0; s != NULL && i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0)
			return (int)i;
	return -1;
}

void
tables_state_get(const struct tables_state *s, size_t i, struct roll_table *out)
{
	const struct tables_item *it = &s->v[i];
	char err[200];

	/* Every stored text parsed when it was stored or loaded; a failure is
	 * a programmer error and leaves an empty table, which rolls nothing. */
	if (roll_table_load_die(it->text, out, err, sizeof(err)) < 0) {
		memset(out, 0, sizeof(*out));
		return;
	}
	for (size_t k = 0; k < out->n; k++)
		out->e[k].struck = (it->struck[k / 8] >> (k % 8)) & 1;
}

/* Where a table called name goes to keep the names in order. */
static size_t
slot(const struct tables_state *s, const char *name)
{
	size_t i = 0;

	while (i < s->n && strcmp(s->v[i].name, name) < 0)
		i++;
	return i;
}

bool
tables_state_named_screen(const char *name)
{
	for (int k = 0; k < TENSION_TABLE_COUNT; k++) {
		const char *kind = tension_table_name((enum tension_table)k);
		size_t n = strlen(kind);

		if (strncmp(name, kind, n) == 0 &&
		    (name[n] == '\0' ||
		     (name[n] == '-' && name[n + 1] != '\0' &&
		      strspn(name + n + 1, "0123456789") == strlen(name + n + 1))))
			return true;
	}
	return false;
}

struct reach {
	const struct tables_state *s;
	uint64_t seen; /* bit i: table i is reached */
	size_t todo[TABLES_MAX], n;
};

static int
reach_ref(const char *name, void *ctx)
{
	struct reach *r = ctx;
	int i = tables_state_find(r->s, name);

	if (i >= 0 && !((r->seen >> i) & 1)) {
		r->seen |= (uint64_t)1 << i;
		r->todo[r->n++] = (size_t)i;
	}
	return 0;
}

/* The tables of seed (bit i: table i) and those they name by references,
 * directly or through others. */
static uint64_t
reach(const struct tables_state *s, uint64_t seed)
{
	struct reach r = {.s = s, .seen = seed};

	for (size_t i = 0; i < s->n; i++)
		if ((seed >> i) & 1)
			r.todo[r.n++] = i;
	while (r.n > 0)
		roll_table_each_ref(s->v[r.todo[--r.n]].text, reach_ref, &r);
	return r.seen;
}

/* The tables marked by their names (on) or marked at all. */
static uint64_t
marked(const struct tables_state *s, bool by_name)
{
	uint64_t set = 0;

	for (size_t i = 0; i < s->n; i++)
		if (by_name ? tables_state_named_screen(s->v[i].name) : s->v[i].screened)
			set |= (uint64_t)1 << i;
	return set;
}

/* Marks every table the name rule or a marked table's references reach. */
static void
spread(struct tables_state *s)
{
	uint64_t set = reach(s, marked(s, true) | marked(s, false));

	for (size_t i = 0; i < s->n; i++)
		if ((set >> i) & 1)
			s->v[i].screened = true;
}

void
tables_state_mark(struct tables_state *s, size_t i, bool on)
{
	s->v[i].screened = on;
	if (on)
		spread(s);
}

struct names_ctx {
	const char *name;
	bool found;
};

static int
names_ref(const char *name, void *ctx)
{
	struct names_ctx *c = ctx;

	if (strcmp(name, c->name) == 0)
		c->found = true;
	return 0;
}

const char *
tables_state_keeper(const struct tables_state *s, size_t i)
{
	if (tables_state_named_screen(s->v[i].name))
		return "";
	for (size_t j = 0; j < s->n; j++) {
		struct names_ctx c = {s->v[i].name, false};

		if (j == i || !s->v[j].screened)
			continue;
		roll_table_each_ref(s->v[j].text, names_ref, &c);
		if (c.found)
			return s->v[j].name;
	}
	return NULL;
}

/* tables_state_put without spreading the marks (load spreads them once,
 * when every table is in). */
static int
store(struct tables_state *s, const char *name, const struct roll_table *t, char *err,
      size_t errlen)
{
	int at = tables_state_find(s, name);
	size_t old = at >= 0 ? s->v[at].len : 0;
	struct tables_item it;
	struct buf b;

	buf_init(&b, 2 * TABLES_TEXT_MAX);
	roll_table_write(t, &b);
	if (b.len > TABLES_TEXT_MAX || b.toobig) {
		snprintf(err, errlen,
		         "the table is %zu bytes long as text; a table may be at most %d.", b.len,
		         TABLES_TEXT_MAX);
		buf_free(&b);
		return -1;
	}
	if (at < 0 && s->n >= TABLES_MAX) {
		snprintf(err, errlen,
		         "this channel has %d tables, the most it may keep; delete one first.",
		         TABLES_MAX);
		buf_free(&b);
		return -1;
	}
	memset(&it, 0, sizeof(it));
	snprintf(it.name, sizeof(it.name), "%s", name);
	it.len = b.len;
	it.text = buf_take(&b);
	for (size_t k = 0; k < t->n; k++)
		if (t->e[k].struck)
			it.struck[k / 8] |= (uint8_t)(1u << (k % 8));
	if (at >= 0) {
		it.screened = s->v[at].screened;
		free(s->v[at].text);
		s->v[at] = it;
	} else {
		size_t i = slot(s, name);

		s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
		memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
		s->v[i] = it;
		s->n++;
	}
	s->bytes = s->bytes - old + it.len;
	return 0;
}

int
tables_state_put(struct tables_state *s, const char *name, const struct roll_table *t, char *err,
                 size_t errlen)
{
	if (store(s, name, t, err, errlen) < 0)
		return -1;
	spread(s);
	return 0;
}

void
tables_state_delete(struct tables_state *s, size_t i)
{
	s->bytes -= s->v[i].len;
	free(s->v[i].text);
	memmove(&s->v[i], &s->v[i + 1], (s->n - i - 1) * sizeof(*s->v));
	s->n--;
}

static cJSON *
tables_save(const void *p)
{
	const struct tables_state *s = p;
	cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "tables");
	struct roll_table *t = xmalloc(sizeof(*t));
	uint64_t named = reach(s, marked(s, true));

	for (size_t i = 0; i < s->n; i++) {
		cJSON *j = cJSON_CreateObject(), *struck = NULL;

		cJSON_AddStringToObject(j, "name", s->v[i].name);
		cJSON_AddStringToObject(j, "text", s->v[i].text);
		tables_state_get(s, i, t);
		for (size_t k = 0; k < t->n; k++) {
			char r[16];

			if (!t->e[k].struck)
				continue;
			if (struck == NULL)
				struck = cJSON_AddArrayToObject(j, "struck");
			roll_table_range_text(&t->e[k], r, sizeof(r));
			cJSON_AddItemToArray(struck, cJSON_CreateString(r));
		}
		/* load() marks again what the names reach */
		if (s->v[i].screened && !((named >> i) & 1))
			cJSON_AddTrueToObject(j, "screened");
		cJSON_AddItemToArray(arr, j);
	}
	free(t);
	return o;
}

/* Whether name was a canonical name before names were folded in every
 * script: 1 to 32 bytes of ASCII small letters, digits, '-', '_' and any
 * byte beyond ASCII. */
static bool
legacy_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 32 || !utf8_valid(name, n))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c < 0x80 && !islower(c) && !isdigit(c) && c != '-' && c != '_')
			return false;
	}
	return true;
}

/* Loads one saved table into s (names in order, but for legacy ones). */
static int
load_one(struct tables_state *s, const cJSON *j, struct roll_table *t, char *err, size_t errlen)
{
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "name"));
	const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "text"));
	const cJSON *struck = cJSON_GetObjectItemCaseSensitive(j, "struck"), *x;
	const cJSON *screened = cJSON_GetObjectItemCaseSensitive(j, "screened");
	char canon[ROLL_TABLE_NAME_MAX], why[300];

	if (name == NULL || text == NULL) {
		snprintf(err, errlen, "tables: a table lacks a valid name or its text.");
		return -1;
	}
	if (roll_table_name(name, strlen(name), canon) < 0 || strcmp(canon, name) != 0) {
		/* Saved before names were folded in every script (Äbc) and held
		 * letters only (an emoji): read under its name folded, or as it
		 * was when that cannot be (cmd_table_name finds it by its name). */
		if (!legacy_name(name)) {
			snprintf(err, errlen, "tables: a table lacks a valid name or its text.");
			return -1;
		}
		if (roll_table_name(name, strlen(name), canon) < 0 ||
		    tables_state_find(s, canon) >= 0)
			snprintf(canon, sizeof(canon), "%s", name);
		if (tables_state_find(s, canon) >= 0) {
			snprintf(err, errlen, "tables: the table %s is there twice.", name);
			return -1;
		}
		name = canon;
	} else if (s->n > 0 && strcmp(s->v[s->n - 1].name, name) >= 0) {
		snprintf(err, errlen, "tables: the table %s is out of order or twice.", name);
		return -1;
	}
	if (strlen(text) > TABLES_TEXT_MAX || roll_table_load_die(text, t, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "tables: the table %s does not parse.", name);
		return -1;
	}
	if (struck != NULL && !cJSON_IsArray(struck)) {
		snprintf(err, errlen, "tables: the table %s's struck entries are not a list.",
		         name);
		return -1;
	}
	cJSON_ArrayForEach(x, struck)
	{
		const char *r = cJSON_GetStringValue(x);
		int i = r != NULL ? roll_table_find(t, r) : -1;
		char got[16] = "";

		if (i >= 0)
			roll_table_range_text(&t->e[i], got, sizeof(got));
		if (i < 0 || strcmp(got, r) != 0) {
			snprintf(err, errlen, "tables: the table %s has no entry %.16s to strike.",
			         name, r != NULL ? r : "?");
			return -1;
		}
		t->e[i].struck = true;
	}
	if (screened != NULL && !cJSON_IsBool(screened)) {
		snprintf(err, errlen, "tables: the table %s's screened is not true or false.",
		         name);
		return -1;
	}
	if (store(s, name, t, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "tables: the table %s passes a limit: %s", name, why);
		return -1;
	}
	if (cJSON_IsTrue(screened))
		s->v[tables_state_find(s, name)].screened = true;
	return 0;
}

static int
tables_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct tables_state *s = p;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o, "tables"), *j;
	struct roll_table *t;
	int rc = 0;

	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > TABLES_MAX) {
		snprintf(err, errlen, "tables: 'tables' must be a list of at most %d.", TABLES_MAX);
		return -1;
	}
	t = xmalloc(sizeof(*t));
	cJSON_ArrayForEach(j, arr)
	{
		if ((rc = load_one(s, j, t, err, errlen)) < 0)
			break;
	}
	if (rc == 0)
		spread(s);
	free(t);
	return rc;
}

const struct chanmod tables_mod = {
    .name = "tables",
    .create = tables_create,
    .destroy = tables_destroy,
    .save = tables_save,
    .load = tables_load,
};
