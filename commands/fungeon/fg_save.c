/*
 * fg_save: the Fungeon channel module (CHANMOD_FUNGEON): creation and the
 * JSON form of the state. Designs are saved as their canonical words and
 * priced again on load, so a saved record can never carry a cost its design
 * does not have. Loading checks every field and its range.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "commands/fungeon/fungeon.h"
#include "rules/base/mem.h"

static void *
fg_create(void)
{
	return xcalloc(1, sizeof(struct fg_chan));
}

static void
fg_destroy(void *p)
{
	fgchan_free(p);
}

static const char *const kind_keys[FG_KIND_COUNT] = {"traps", "monsters", "treasure"};
static const char *const cat_keys[FG_CAT_COUNT] = {"traps", "monsters", "treasure"};

static cJSON *
design_json(const struct fg_design *d)
{
	char spec[FG_SPEC_MAX + 1];

	fgcost_format(d, spec, sizeof(spec));
	return cJSON_CreateString(spec);
}

static cJSON *
member_json(const struct fg_member *m)
{
	cJSON *o = cJSON_CreateObject(), *items, *effects;

	cJSON_AddStringToObject(o, "user", m->user_key);
	cJSON_AddStringToObject(o, "player", m->player);
	cJSON_AddStringToObject(o, "name", m->name);
	cJSON_AddStringToObject(o, "class", m->cls);
	cJSON_AddNumberToObject(o, "level", m->level);
	cJSON_AddNumberToObject(o, "hits", m->hits);
	cJSON_AddNumberToObject(o, "xp", (double)m->xp);
	cJSON_AddBoolToObject(o, "dead", m->dead);
	cJSON_AddBoolToObject(o, "fresh", m->fresh);
	cJSON_AddNumberToObject(o, "credit", (double)m->credit);
	cJSON_AddNumberToObject(o, "wander", (double)m->wander);
	items = cJSON_AddArrayToObject(o, "items");
	for (int i = 0; i < m->nitems; i++) {
		cJSON *it = cJSON_CreateObject();

		cJSON_AddStringToObject(it, "name", m->items[i].name);
		cJSON_AddItemToObject(it, "design", design_json(&m->items[i].d));
		cJSON_AddItemToArray(items, it);
	}
	effects = cJSON_AddArrayToObject(o, "effects");
	for (int i = 0; i < m->neffects; i++) {
		const struct fg_effect *e = &m->effects[i];
		cJSON *eo = cJSON_CreateObject();

		cJSON_AddStringToObject(eo, "kind", e->kind == FG_EFFECT_HOLD ? "hold" : "damage");
		cJSON_AddStringToObject(eo, "source", e->source);
		cJSON_AddNumberToObject(eo, "annoy", e->annoy);
		cJSON_AddNumberToObject(eo, "pain", e->pain);
		cJSON_AddBoolToObject(eo, "universal", e->universal);
		cJSON_AddStringToObject(eo, "type", e->type);
		cJSON_AddItemToArray(effects, eo);
	}
	return o;
}

static cJSON *
fg_save(const void *p)
{
	const struct fg_chan *c = p;
	cJSON *o = cJSON_CreateObject(), *party, *holders, *designs;

	cJSON_AddNumberToObject(o, "floor", c->floor);
	cJSON_AddStringToObject(o, "xp_rule", c->xp_rule == FG_XP_FORMULA ? "formula" : "table");
	cJSON_AddNumberToObject(o, "rooms", c->rooms);
	holders = cJSON_AddObjectToObject(o, "holders");
	for (int k = 0; k < FG_CAT_COUNT; k++)
		cJSON_AddStringToObject(holders, cat_keys[k], c->holder[k]);
	party = cJSON_AddArrayToObject(o, "party");
	for (int i = 0; i < c->n; i++)
		cJSON_AddItemToArray(party, member_json(&c->m[i]));
	designs = cJSON_AddObjectToObject(o, "designs");
	for (int k = 0; k < FG_KIND_COUNT; k++) {
		cJSON *arr = cJSON_AddArrayToObject(designs, kind_keys[k]);

		for (int i = 0; i < c->nd[k]; i++) {
			const struct fg_stored *s = &c->d[k][i];
			cJSON *d = cJSON_CreateObject();

			cJSON_AddStringToObject(d, "name", s->name);
			cJSON_AddItemToObject(d, "design", design_json(&s->d));
			cJSON_AddBoolToObject(d, "room", s->room);
			cJSON_AddNumberToObject(d, "hits", s->hits);
			cJSON_AddStringToObject(d, "taken", s->taken);
			cJSON_AddItemToArray(arr, d);
		}
	}
	return o;
}

/* Loading: each reader returns 0, or -1 with err filled. Arrays are
 * allocated at the size the record gives (after its limit is checked),
 * zeroed, and counted as they are read, so a state left partly read is
 * freed whole by fg_destroy(). */
struct rd {
	char *err;
	size_t errlen;
	const char *where;
};

static int
bad(struct rd *r, const char *key, const char *what)
{
	snprintf(r->err, r->errlen, "Fungeon %s: '%s' %s.", r->where, key, what);
	return -1;
}

static int
rd_int(struct rd *r, const cJSON *o, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    v->valuedouble < (double)lo || v->valuedouble > (double)hi)
		return bad(r, key, "is missing or not a whole number in range");
	*out = (int64_t)v->valuedouble;
	return 0;
}

static int
rd_i(struct rd *r, const cJSON *o, const char *key, int lo, int hi, int *out)
{
	int64_t v;

	if (rd_int(r, o, key, lo, hi, &v) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int
rd_bool(struct rd *r, const cJSON *o, const char *key, bool *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsBool(v))
		return bad(r, key, "is missing or not true/false");
	*out = cJSON_IsTrue(v);
	return 0;
}

/* A string of at most size - 1 bytes; with name, a valid name (or "" when
 * empty_ok). */
static int
rd_str(struct rd *r, const cJSON *o, const char *key, char *out, size_t size, bool name,
       bool empty_ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsString(v) || strlen(v->valuestring) >= size)
		return bad(r, key, "is missing, not text or too long");
	if (!(empty_ok && v->valuestring[0] == '\0') &&
	    ((name && !fg_name_valid(v->valuestring)) || (!empty_ok && !v->valuestring[0])))
		return bad(r, key, "is not a valid name");
	memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
	return 0;
}

static int
rd_design(struct rd *r, const cJSON *o, enum fg_kind k, struct fg_design *d, int64_t *cost)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "design");
	struct fg_price *p;
	char why[200];
	int rc = 0;

	if (!cJSON_IsString(v) || fgcost_parse(k, v->valuestring, d, why, sizeof(why)) < 0)
		return bad(r, "design", "is not a valid design");
	p = xmalloc(sizeof(*p));
	if (fgcost_price(d, p, why, sizeof(why)) < 0)
		rc = bad(r, "design", "breaks a design rule");
	else if (cost != NULL)
		*cost = p->total;
	free(p);
	return rc;
}

static int
rd_effect(struct rd *r, const cJSON *eo, struct fg_effect *e)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(eo, "kind");

	if (!cJSON_IsString(kind) ||
	    (strcmp(kind->valuestring, "hold") && strcmp(kind->valuestring, "damage")))
		return bad(r, "kind", "is not hold or damage");
	e->kind = strcmp(kind->valuestring, "hold") ? FG_EFFECT_DAMAGE : FG_EFFECT_HOLD;
	if (rd_str(r, eo, "source", e->source, sizeof(e->source), false, false) ||
	    rd_i(r, eo, "annoy", 0, FG_DICE_MAX, &e->annoy) ||
	    rd_i(r, eo, "pain", 0, FG_DICE_MAX, &e->pain) ||
	    rd_bool(r, eo, "universal", &e->universal) ||
	    rd_str(r, eo, "type", e->type, sizeof(e->type), true, true))
		return -1;
	return 0;
}

/* n zeroed elements of size bytes, or NULL for none. */
static void *
zeroed(int n, size_t size)
{
	return n > 0 ? xcalloc((size_t)n, size) : NULL;
}

static int
rd_member(struct rd *r, const cJSON *o, struct fg_member *m)
{
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(o, "items");
	const cJSON *effects = cJSON_GetObjectItemCaseSensitive(o, "effects");
	const cJSON *x;

	r->where = "party member";
	if (rd_str(r, o, "user", m->user_key, sizeof(m->user_key), false, false) ||
	    rd_str(r, o, "player", m->player, sizeof(m->player), false, false) ||
	    rd_str(r, o, "name", m->name, sizeof(m->name), true, false) ||
	    rd_str(r, o, "class", m->cls, sizeof(m->cls), false, false) ||
	    rd_i(r, o, "level", FG_LEVEL_MIN, FG_LEVEL_MAX, &m->level) ||
	    rd_i(r, o, "hits", 0, fg_max_hits(m->level), &m->hits) ||
	    rd_int(r, o, "xp", 0, FG_XP_MAX, &m->xp) || rd_bool(r, o, "dead", &m->dead) ||
	    rd_bool(r, o, "fresh", &m->fresh) || rd_int(r, o, "credit", 0, FG_XP_MAX, &m->credit) ||
	    rd_int(r, o, "wander", 0, FG_XP_MAX, &m->wander))
		return -1;
	if (!cJSON_IsArray(items) || cJSON_GetArraySize(items) > FG_ITEMS_MAX)
		return bad(r, "items", "is not a list of at most 8");
	if (!cJSON_IsArray(effects) || cJSON_GetArraySize(effects) > FG_EFFECTS_MAX)
		return bad(r, "effects", "is not a list of at most 4");
	m->items = zeroed(cJSON_GetArraySize(items), sizeof(*m->items));
	m->effects = zeroed(cJSON_GetArraySize(effects), sizeof(*m->effects));
	cJSON_ArrayForEach(x, items)
	{
		struct fg_item *it = &m->items[m->nitems++];

		r->where = "item";
		if (rd_str(r, x, "name", it->name, sizeof(it->name), true, false) ||
		    rd_design(r, x, FG_TREASURE, &it->d, &it->cost))
			return -1;
	}
	cJSON_ArrayForEach(x, effects)
	{
		r->where = "effect";
		if (rd_effect(r, x, &m->effects[m->neffects++]) < 0)
			return -1;
	}
	return 0;
}

static int
rd_stored(struct rd *r, const cJSON *o, enum fg_kind k, struct fg_stored *s)
{
	r->where = "design";
	if (rd_str(r, o, "name", s->name, sizeof(s->name), true, false) ||
	    rd_design(r, o, k, &s->d, &s->cost) || rd_bool(r, o, "room", &s->room) ||
	    rd_i(r, o, "hits", 0, k == FG_MONSTER ? fg_monster_hits(s->d.level) : 0, &s->hits) ||
	    rd_str(r, o, "taken", s->taken, sizeof(s->taken), true, true))
		return -1;
	return 0;
}

static int
fg_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct fg_chan *c = p;
	struct rd r = {.err = err, .errlen = errlen, .where = "state"};
	const cJSON *rule = cJSON_GetObjectItemCaseSensitive(o, "xp_rule");
	const cJSON *holders = cJSON_GetObjectItemCaseSensitive(o, "holders");
	const cJSON *party = cJSON_GetObjectItemCaseSensitive(o, "party");
	const cJSON *designs = cJSON_GetObjectItemCaseSensitive(o, "designs");
	const cJSON *x;

	if (!cJSON_IsObject(o) || rd_i(&r, o, "floor", 0, FG_FLOOR_MAX, &c->floor) ||
	    rd_i(&r, o, "rooms", 0, 1000000000, &c->rooms))
		return -1;
	if (!cJSON_IsString(rule) ||
	    (strcmp(rule->valuestring, "table") && strcmp(rule->valuestring, "formula")))
		return bad(&r, "xp_rule", "is not table or formula");
	c->xp_rule = strcmp(rule->valuestring, "formula") ? FG_XP_TABLE : FG_XP_FORMULA;
	if (!cJSON_IsObject(holders))
		return bad(&r, "holders", "is missing");
	for (int k = 0; k < FG_CAT_COUNT; k++)
		if (rd_str(&r, holders, cat_keys[k], c->holder[k], FG_KEY_MAX, false, true) < 0)
			return -1;
	if (!cJSON_IsArray(party) || cJSON_GetArraySize(party) > FG_PARTY_MAX)
		return bad(&r, "party", "is not a list of at most 8");
	c->m = zeroed(cJSON_GetArraySize(party), sizeof(*c->m));
	cJSON_ArrayForEach(x, party)
	{
		if (rd_member(&r, x, &c->m[c->n++]) < 0)
			return -1;
	}
	if (!cJSON_IsObject(designs))
		return bad(&r, "designs", "is missing");
	for (int k = 0; k < FG_KIND_COUNT; k++) {
		const cJSON *arr = cJSON_GetObjectItemCaseSensitive(designs, kind_keys[k]);

		if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > FG_DESIGNS_MAX)
			return bad(&r, kind_keys[k], "is not a list of at most 24");
		c->d[k] = zeroed(cJSON_GetArraySize(arr), sizeof(*c->d[k]));
		cJSON_ArrayForEach(x, arr)
		{
			if (rd_stored(&r, x, (enum fg_kind)k, &c->d[k][c->nd[k]++]) < 0)
				return -1;
		}
	}
	return 0;
}

const struct chanmod fungeon_mod = {
    .name = "fungeon",
    .create = fg_create,
    .destroy = fg_destroy,
    .save = fg_save,
    .load = fg_load,
};
