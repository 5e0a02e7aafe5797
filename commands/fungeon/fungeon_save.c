/*
 * fungeon_save: the Fungeon channel module (CHANMOD_FUNGEON): creation and the
 * JSON form of the state. Designs are saved as their canonical words and
 * priced again on load, so a saved record can never carry a cost its design
 * does not have. Loading checks every field and its range.
 */
#include "commands/fungeon/fungeon_save.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "commands/fungeon/fungeon_channel.h"
#include "rules/base/mem.h"

static void *
fg_create(void)
{
	return xcalloc(1, sizeof(struct fungeon_channel));
}

static void
fg_destroy(void *p)
{
	fungeon_channel_free(p);
}

static const char *const kind_keys[FUNGEON_KIND_COUNT] = {"traps", "monsters", "treasure"};
static const char *const cat_keys[FUNGEON_CAT_COUNT] = {"traps", "monsters", "treasure"};

static cJSON *
design_json(const struct fungeon_design *d)
{
	char spec[FUNGEON_SPEC_MAX + 1];

	fungeon_cost_format(d, spec, sizeof(spec));
	return cJSON_CreateString(spec);
}

static cJSON *
member_json(const struct fungeon_member *m)
{
	cJSON *o = cJSON_CreateObject(), *items, *effects, *wanderers;

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
	wanderers = cJSON_AddArrayToObject(o, "wanderers");
	for (int i = 0; i < m->nwander; i++)
		cJSON_AddItemToArray(wanderers, cJSON_CreateNumber((double)m->wanderer[i]));
	items = cJSON_AddArrayToObject(o, "items");
	for (int i = 0; i < m->nitems; i++) {
		cJSON *it = cJSON_CreateObject();

		cJSON_AddStringToObject(it, "name", m->items[i].name);
		cJSON_AddItemToObject(it, "design", design_json(&m->items[i].d));
		cJSON_AddItemToArray(items, it);
	}
	effects = cJSON_AddArrayToObject(o, "effects");
	for (int i = 0; i < m->neffects; i++) {
		const struct fungeon_effect *e = &m->effects[i];
		cJSON *eo = cJSON_CreateObject();

		cJSON_AddStringToObject(eo, "kind",
		                        e->kind == FUNGEON_EFFECT_HOLD ? "hold" : "damage");
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
budgets_json(const struct fungeon_budgets *b)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "traps", (double)b->traps);
	cJSON_AddNumberToObject(o, "monsters", (double)b->monsters);
	cJSON_AddNumberToObject(o, "treasure", (double)b->treasure);
	return o;
}

static void
keys_json(cJSON *o, const char *name, char (*keys)[FUNGEON_KEY_MAX], int n)
{
	cJSON *a = cJSON_AddArrayToObject(o, name);

	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(keys[i]));
}

static cJSON *
fg_save(const void *p)
{
	const struct fungeon_channel *c = p;
	cJSON *o = cJSON_CreateObject(), *party, *holders, *designs, *order;

	cJSON_AddNumberToObject(o, "floor", c->floor);
	cJSON_AddStringToObject(o, "xp_rule",
	                        c->xp_rule == FUNGEON_XP_FORMULA ? "formula" : "table");
	cJSON_AddNumberToObject(o, "rooms", c->rooms);
	holders = cJSON_AddObjectToObject(o, "holders");
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		cJSON_AddStringToObject(holders, cat_keys[k], c->holder[k]);
	cJSON_AddItemToObject(o, "budgets", budgets_json(&c->room));
	order = cJSON_AddArrayToObject(o, "order");
	for (int i = 0; i < c->norder; i++)
		cJSON_AddItemToArray(order, cJSON_CreateNumber(c->order[i]));
	cJSON_AddNumberToObject(o, "picks_made", c->picks_made);
	keys_json(o, "fallen", c->fallen, c->nfallen);
	cJSON_AddStringToObject(o, "waived", c->waived);
	party = cJSON_AddArrayToObject(o, "party");
	for (int i = 0; i < c->n; i++)
		cJSON_AddItemToArray(party, member_json(&c->m[i]));
	designs = cJSON_AddObjectToObject(o, "designs");
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		cJSON *arr = cJSON_AddArrayToObject(designs, kind_keys[k]);

		for (int i = 0; i < c->nd[k]; i++) {
			const struct fungeon_stored *s = &c->d[k][i];
			cJSON *d = cJSON_CreateObject();

			cJSON_AddStringToObject(d, "name", s->name);
			cJSON_AddItemToObject(d, "design", design_json(&s->d));
			cJSON_AddBoolToObject(d, "room", s->room);
			cJSON_AddNumberToObject(d, "hits", s->hits);
			cJSON_AddStringToObject(d, "taken", s->taken);
			cJSON_AddBoolToObject(d, "sprung", s->sprung);
			cJSON_AddBoolToObject(d, "passed", s->passed);
			cJSON_AddBoolToObject(d, "left", s->left);
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

/* A flag added after the first saved records: absent means false. */
static int
rd_opt_bool(struct rd *r, const cJSON *o, const char *key, bool *out)
{
	if (cJSON_GetObjectItemCaseSensitive(o, key) == NULL) {
		*out = false;
		return 0;
	}
	return rd_bool(r, o, key, out);
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
	    ((name && !fungeon_cost_name_valid(v->valuestring)) ||
	     (!empty_ok && !v->valuestring[0])))
		return bad(r, key, "is not a valid name");
	memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
	return 0;
}

static int
rd_design(struct rd *r, const cJSON *o, enum fungeon_kind k, struct fungeon_design *d,
          int64_t *cost)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "design");
	struct fungeon_price *p;
	char why[200];
	int rc = 0;

	if (!cJSON_IsString(v) || fungeon_cost_parse(k, v->valuestring, d, why, sizeof(why)) < 0)
		return bad(r, "design", "is not a valid design");
	p = xmalloc(sizeof(*p));
	if (fungeon_cost_price(d, p, why, sizeof(why)) < 0)
		rc = bad(r, "design", "breaks a design rule");
	else if (cost != NULL)
		*cost = p->total;
	free(p);
	return rc;
}

static int
rd_effect(struct rd *r, const cJSON *eo, struct fungeon_effect *e)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(eo, "kind");

	if (!cJSON_IsString(kind) ||
	    (strcmp(kind->valuestring, "hold") && strcmp(kind->valuestring, "damage")))
		return bad(r, "kind", "is not hold or damage");
	e->kind = strcmp(kind->valuestring, "hold") ? FUNGEON_EFFECT_DAMAGE : FUNGEON_EFFECT_HOLD;
	if (rd_str(r, eo, "source", e->source, sizeof(e->source), false, false) ||
	    rd_i(r, eo, "annoy", 0, FUNGEON_DICE_MAX, &e->annoy) ||
	    rd_i(r, eo, "pain", 0, FUNGEON_DICE_MAX, &e->pain) ||
	    rd_bool(r, eo, "universal", &e->universal) ||
	    rd_str(r, eo, "type", e->type, sizeof(e->type), true, true))
		return -1;
	return 0;
}

/* The wandering monsters a player has yet to build: "wanderers", a list
 * of points; a record from before points stopped pooling has "wander", a
 * single number, read as one monster of that many points (none for 0). */
static int
rd_wanderers(struct rd *r, const cJSON *o, struct fungeon_member *m)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "wanderers"), *x;
	int64_t old;

	if (list == NULL) {
		if (rd_int(r, o, "wander", 0, FUNGEON_XP_MAX, &old) < 0)
			return -1;
		if (old > 0)
			m->wanderer[m->nwander++] = old;
		return 0;
	}
	if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > FUNGEON_WANDERERS_MAX)
		return bad(r, "wanderers", "is not a list of at most 8");
	cJSON_ArrayForEach(x, list)
	{
		if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble) ||
		    x->valuedouble < 1 || x->valuedouble > FUNGEON_XP_MAX)
			return bad(r, "wanderers",
			           "holds something other than points 1..100000000");
		m->wanderer[m->nwander++] = (int64_t)x->valuedouble;
	}
	return 0;
}

/* n zeroed elements of size bytes, or NULL for none. */
static void *
zeroed(int n, size_t size)
{
	return n > 0 ? xcalloc((size_t)n, size) : NULL;
}

static int
rd_member(struct rd *r, const cJSON *o, struct fungeon_member *m)
{
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(o, "items");
	const cJSON *effects = cJSON_GetObjectItemCaseSensitive(o, "effects");
	const cJSON *x;

	r->where = "party member";
	if (rd_str(r, o, "user", m->user_key, sizeof(m->user_key), false, false) ||
	    rd_str(r, o, "player", m->player, sizeof(m->player), false, false) ||
	    rd_str(r, o, "name", m->name, sizeof(m->name), true, false) ||
	    rd_str(r, o, "class", m->cls, sizeof(m->cls), false, false) ||
	    rd_i(r, o, "level", FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX, &m->level) ||
	    rd_i(r, o, "hits", 0, fungeon_max_hits(m->level), &m->hits) ||
	    rd_int(r, o, "xp", 0, FUNGEON_XP_MAX, &m->xp) || rd_bool(r, o, "dead", &m->dead) ||
	    rd_bool(r, o, "fresh", &m->fresh) ||
	    rd_int(r, o, "credit", 0, FUNGEON_XP_MAX, &m->credit) || rd_wanderers(r, o, m))
		return -1;
	if (!cJSON_IsArray(items) || cJSON_GetArraySize(items) > FUNGEON_ITEMS_MAX)
		return bad(r, "items", "is not a list of at most 8");
	if (!cJSON_IsArray(effects) || cJSON_GetArraySize(effects) > FUNGEON_EFFECTS_MAX)
		return bad(r, "effects", "is not a list of at most 4");
	m->items = zeroed(cJSON_GetArraySize(items), sizeof(*m->items));
	m->effects = zeroed(cJSON_GetArraySize(effects), sizeof(*m->effects));
	cJSON_ArrayForEach(x, items)
	{
		struct fungeon_item *it = &m->items[m->nitems++];

		r->where = "item";
		if (rd_str(r, x, "name", it->name, sizeof(it->name), true, false) ||
		    rd_design(r, x, FUNGEON_TREASURE, &it->d, &it->cost))
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
rd_stored(struct rd *r, const cJSON *o, enum fungeon_kind k, struct fungeon_stored *s)
{
	r->where = "design";
	if (rd_str(r, o, "name", s->name, sizeof(s->name), true, false) ||
	    rd_design(r, o, k, &s->d, &s->cost) || rd_bool(r, o, "room", &s->room) ||
	    rd_i(r, o, "hits", 0, k == FUNGEON_MONSTER ? fungeon_cost_monster_hits(s->d.level) : 0,
	         &s->hits) ||
	    rd_str(r, o, "taken", s->taken, sizeof(s->taken), true, true) ||
	    rd_opt_bool(r, o, "sprung", &s->sprung) || rd_opt_bool(r, o, "passed", &s->passed) ||
	    rd_opt_bool(r, o, "left", &s->left))
		return -1;
	return 0;
}

/* The fallen players' user keys; absent (a record from before it
 * existed) is none. */
static int
rd_keys(struct rd *r, const cJSON *o, const char *key, struct fungeon_channel *c)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *x;

	if (a == NULL)
		return 0;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > FUNGEON_FALLEN_MAX)
		return bad(r, key, "is not a list of at most 16 user keys");
	c->fallen = zeroed(cJSON_GetArraySize(a), sizeof(*c->fallen));
	cJSON_ArrayForEach(x, a)
	{
		if (!cJSON_IsString(x) || !x->valuestring[0] ||
		    strlen(x->valuestring) >= FUNGEON_KEY_MAX)
			return bad(r, key, "holds something other than a user key");
		memcpy(c->fallen[c->nfallen++], x->valuestring, strlen(x->valuestring) + 1);
	}
	return 0;
}

/* The choosing order: distinct member indices; absent is none. */
static int
rd_order(struct rd *r, const cJSON *o, struct fungeon_channel *c)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "order"), *x;

	if (a == NULL)
		return 0;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > c->n)
		return bad(r, "order", "is not a list of party members");
	cJSON_ArrayForEach(x, a)
	{
		int v;

		if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble) ||
		    x->valuedouble < 0 || x->valuedouble >= c->n)
			return bad(r, "order", "holds something other than a party member");
		v = (int)x->valuedouble;
		for (int i = 0; i < c->norder; i++)
			if (c->order[i] == v)
				return bad(r, "order", "names a member twice");
		c->order[c->norder++] = v;
	}
	return 0;
}

/* The fields added after the first saved records, each optional: the
 * room's budgets (absent: as the party is now), the choosing of categories
 * (absent: every category chosen, as the old draw assigned them), the
 * fallen players and the waiver. */
static int
rd_room(struct rd *r, const cJSON *o, struct fungeon_channel *c)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "budgets");
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "waived");

	if (b == NULL) {
		struct fungeon_party p;

		fungeon_channel_party(c, &p);
		fungeon_budgets(&p, fungeon_floor(c->floor, &p), &c->room);
	} else if (rd_int(r, b, "traps", 0, FUNGEON_COST_MAX, &c->room.traps) ||
	           rd_int(r, b, "monsters", 0, FUNGEON_COST_MAX, &c->room.monsters) ||
	           rd_int(r, b, "treasure", 0, FUNGEON_COST_MAX, &c->room.treasure)) {
		return -1;
	}
	if (rd_order(r, o, c) < 0 || rd_keys(r, o, "fallen", c) < 0)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(o, "picks_made") == NULL)
		c->picks_made = FUNGEON_CAT_COUNT;
	else if (rd_i(r, o, "picks_made", 0, FUNGEON_CAT_COUNT, &c->picks_made))
		return -1;
	if (w != NULL && rd_str(r, o, "waived", c->waived, sizeof(c->waived), false, true))
		return -1;
	return 0;
}

static int
fg_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct fungeon_channel *c = p;
	struct rd r = {.err = err, .errlen = errlen, .where = "state"};
	const cJSON *rule = cJSON_GetObjectItemCaseSensitive(o, "xp_rule");
	const cJSON *holders = cJSON_GetObjectItemCaseSensitive(o, "holders");
	const cJSON *party = cJSON_GetObjectItemCaseSensitive(o, "party");
	const cJSON *designs = cJSON_GetObjectItemCaseSensitive(o, "designs");
	const cJSON *x;

	if (!cJSON_IsObject(o) || rd_i(&r, o, "floor", 0, FUNGEON_FLOOR_MAX, &c->floor) ||
	    rd_i(&r, o, "rooms", 0, 1000000000, &c->rooms))
		return -1;
	if (!cJSON_IsString(rule) ||
	    (strcmp(rule->valuestring, "table") && strcmp(rule->valuestring, "formula")))
		return bad(&r, "xp_rule", "is not table or formula");
	c->xp_rule = strcmp(rule->valuestring, "formula") ? FUNGEON_XP_TABLE : FUNGEON_XP_FORMULA;
	if (!cJSON_IsObject(holders))
		return bad(&r, "holders", "is missing");
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		if (rd_str(&r, holders, cat_keys[k], c->holder[k], FUNGEON_KEY_MAX, false, true) <
		    0)
			return -1;
	if (!cJSON_IsArray(party) || cJSON_GetArraySize(party) > FUNGEON_PARTY_MAX)
		return bad(&r, "party", "is not a list of at most 8");
	c->m = zeroed(cJSON_GetArraySize(party), sizeof(*c->m));
	cJSON_ArrayForEach(x, party)
	{
		if (rd_member(&r, x, &c->m[c->n++]) < 0)
			return -1;
	}
	if (!cJSON_IsObject(designs))
		return bad(&r, "designs", "is missing");
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		const cJSON *arr = cJSON_GetObjectItemCaseSensitive(designs, kind_keys[k]);

		if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > FUNGEON_DESIGNS_MAX)
			return bad(&r, kind_keys[k], "is not a list of at most 24");
		c->d[k] = zeroed(cJSON_GetArraySize(arr), sizeof(*c->d[k]));
		cJSON_ArrayForEach(x, arr)
		{
			if (rd_stored(&r, x, (enum fungeon_kind)k, &c->d[k][c->nd[k]++]) < 0)
				return -1;
		}
	}
	r.where = "state";
	return rd_room(&r, o, c);
}

/* Moves user key from onto to: the member (unless to has one here), the
 * categories held and the fallen list. */
static int
fg_rekey(void *mod, const char *from, const char *to)
{
	struct fungeon_channel *c = mod;
	int i = fungeon_channel_member_of(c, from), moved = 0;

	if (i < 0 || fungeon_channel_member_of(c, to) >= 0)
		return 0;
	snprintf(c->m[i].user_key, sizeof(c->m[i].user_key), "%s", to);
	moved++;
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		if (strcmp(c->holder[k], from) == 0) {
			snprintf(c->holder[k], sizeof(c->holder[k]), "%s", to);
			moved++;
		}
	}
	for (int k = 0; k < c->nfallen; k++) {
		if (strcmp(c->fallen[k], from) == 0 && !fungeon_channel_fallen(c, to)) {
			snprintf(c->fallen[k], sizeof(c->fallen[k]), "%s", to);
			moved++;
		}
	}
	return moved;
}

const struct chanmod fungeon_mod = {
    .name = "fungeon",
    .create = fg_create,
    .destroy = fg_destroy,
    .save = fg_save,
    .load = fg_load,
    .rekey = fg_rekey,
};
