/* procedure_state: the dungeon-procedure module slot; see procedure_state.h. */
#include "commands/procedure/procedure_state.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

/* A vendor as saved: its name, the dice of its stock (the rest follows
 * from them) and the items or lots tried. */
static cJSON *
vendor_json(const struct vendor *v)
{
	cJSON *o = cJSON_CreateObject(), *tried = cJSON_CreateArray();
	const int d[5] = {v->stock.hoards, v->stock.rations_d[0], v->stock.rations_d[1],
	                  v->stock.coin_d10, v->stock.skill_d10};

	cJSON_AddStringToObject(o, "name", v->name);
	cJSON_AddItemToObject(o, "dice", cJSON_CreateIntArray(d, 5));
	for (int i = 0; i < v->ntried; i++)
		cJSON_AddItemToArray(tried, cJSON_CreateString(v->tried[i]));
	cJSON_AddItemToObject(o, "tried", tried);
	return o;
}

static void *
proc_create(void)
{
	struct procedure_state *s = xcalloc(1, sizeof(*s));

	turn_clock_init(&s->clock);
	s->table = HAZARD_EXPLORATION;
	s->proc = PROC_EXPLORATION;
	s->chance = (struct odds){1, 6};
	s->wander = WANDER_CORRIDOR; /* as procedure_state_wander() reads an unplayed channel */
	s->wander_chance = (struct odds){1, 6};
	s->lantern_low = LIGHT_LOW_DEFAULT;
	s->fatigue_damage = 1;
	s->level = -1;
	return s;
}

static void
proc_destroy(void *p)
{
	struct procedure_state *s = p;

	if (s != NULL) {
		free(s->custom);
		free(s->vendors);
	}
	free(s);
}

struct vendor *
procedure_state_vendor(struct procedure_state *s, const char *name)
{
	for (int i = 0; i < s->nvendors; i++)
		if (utf8_casecmp(s->vendors[i].name, name) == 0)
			return &s->vendors[i];
	return NULL;
}

void
procedure_state_vendor_forget(struct procedure_state *s, struct vendor *v)
{
	int i = (int)(v - s->vendors);

	memmove(&s->vendors[i], &s->vendors[i + 1],
	        (size_t)(s->nvendors - i - 1) * sizeof(s->vendors[0]));
	if (--s->nvendors == 0) {
		free(s->vendors);
		s->vendors = NULL;
	}
}

struct vendor *
procedure_state_vendor_add(struct procedure_state *s)
{
	s->vendors = xrealloc(s->vendors, (size_t)(s->nvendors + 1) * sizeof(*s->vendors));
	memset(&s->vendors[s->nvendors], 0, sizeof(s->vendors[0]));
	return &s->vendors[s->nvendors++];
}

struct procedure_state *
procedure_state_of(struct channel *ch)
{
	return channel_mod(ch, CHANMOD_PROC);
}

bool
procedure_state_safe(const struct channel *ch)
{
	const struct procedure_state *s = channel_mod_peek(ch, CHANMOD_PROC);

	return s != NULL && s->safe;
}

static cJSON *
light_json(const struct light *l)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "id", l->id);
	cJSON_AddStringToObject(o, "kind", light_kind_name(l->kind));
	cJSON_AddNumberToObject(o, "burned", l->burned);
	cJSON_AddStringToObject(o, "who", l->who);
	return o;
}

static cJSON *
chance_json(struct odds c)
{
	int v[2] = {c.x, c.n};

	return cJSON_CreateIntArray(v, 2);
}

static cJSON *
proc_save(const void *p)
{
	const struct procedure_state *s = p;
	const struct turn_clock *c = &s->clock;
	cJSON *o = cJSON_CreateObject(), *lights = cJSON_CreateArray();

	cJSON_AddNumberToObject(o, "turn", c->turn);
	cJSON_AddNumberToObject(o, "since_rest", c->since_rest);
	cJSON_AddNumberToObject(o, "rest_mark", c->rest_mark);
	cJSON_AddBoolToObject(o, "fatigue_due", c->fatigue_due);
	if (c->pace != PACE_CRAWLING)
		cJSON_AddStringToObject(o, "pace", turn_pace_name(c->pace));
	if (c->sign_set) {
		cJSON *sign = cJSON_AddObjectToObject(o, "sign");

		cJSON_AddNumberToObject(sign, "turn", c->sign_turn);
		cJSON_AddStringToObject(sign, "creature", c->sign);
	}
	for (size_t i = 0; i < c->lights.n; i++)
		cJSON_AddItemToArray(lights, light_json(&c->lights.l[i]));
	cJSON_AddItemToObject(o, "lights", lights);
	cJSON_AddNumberToObject(o, "next_light", c->lights.next_id);
	/* the Light result's state as three fields, as it was always saved */
	if (c->light_result == TURN_LIGHT_FLAGGED)
		cJSON_AddItemToObject(o, "flagged", light_json(&c->light_was));
	if (c->light_result == TURN_LIGHT_FLICKERED || c->light_result == TURN_LIGHT_RULED)
		cJSON_AddNumberToObject(o, "flickered", c->light_was.id);
	if (c->fatigue_asked != 0)
		cJSON_AddNumberToObject(o, "fatigue_asked", c->fatigue_asked);
	if (c->light_result == TURN_LIGHT_RULED)
		cJSON_AddBoolToObject(o, "flicker_ruled", true);
	cJSON_AddStringToObject(o, "table", hazard_table_name(s->table));
	cJSON_AddStringToObject(o, "procedure", hazard_procedure_name(s->proc));
	cJSON_AddItemToObject(o, "chance", chance_json(s->chance));
	cJSON_AddStringToObject(o, "who", s->gm_rolls ? "gm" : "anyone");
	if (s->custom != NULL) {
		struct buf b;

		buf_init(&b, ROLL_TABLE_ENTRIES_MAX * (ROLL_TABLE_TEXT_MAX + 16));
		roll_table_format(s->custom, &b);
		cJSON_AddNumberToObject(o, "custom_die", s->custom->hi);
		cJSON_AddStringToObject(o, "custom", buf_str(&b));
		buf_free(&b);
	}
	cJSON_AddStringToObject(o, "wander", wander_name(s->wander));
	cJSON_AddItemToObject(o, "wander_chance", chance_json(s->wander_chance));
	cJSON_AddBoolToObject(o, "safe", s->safe);
	if (s->lantern_low != LIGHT_LOW_DEFAULT)
		cJSON_AddNumberToObject(o, "lantern_low", s->lantern_low);
	if (s->fatigue_damage != 1)
		cJSON_AddNumberToObject(o, "fatigue_damage", s->fatigue_damage);
	if (s->level >= 0)
		cJSON_AddNumberToObject(o, "level", s->level);
	if (s->nvendors > 0) {
		cJSON *vs = cJSON_AddArrayToObject(o, "vendors");

		for (int i = 0; i < s->nvendors; i++)
			cJSON_AddItemToArray(vs, vendor_json(&s->vendors[i]));
	}
	return o;
}

/* Loading: each reader returns 0, or -1 with err filled. */

/* max is the size of the field the text goes to, with its NUL: text of at
 * most max - 1 bytes is taken. */
static int get_str(const cJSON *o, const char *name, size_t max, const char **out, char *err,
                   size_t errlen);

/* The vendors met ("vendors", absent in records from before them). */
static int
load_vendors(struct procedure_state *s, const cJSON *o, char *err, size_t errlen)
{
	static const int hi[5] = {6, 6, 6, 10, 10};
	const cJSON *vs = cJSON_GetObjectItemCaseSensitive(o, "vendors"), *x;

	if (vs == NULL)
		return 0;
	if (!cJSON_IsArray(vs) || cJSON_GetArraySize(vs) > VENDORS_MAX) {
		snprintf(err, errlen, "procedure state: 'vendors' must be a list of at most %d.",
		         VENDORS_MAX);
		return -1;
	}
	cJSON_ArrayForEach(x, vs)
	{
		const cJSON *dice = cJSON_GetObjectItemCaseSensitive(x, "dice");
		const cJSON *tried = cJSON_GetObjectItemCaseSensitive(x, "tried"), *t;
		struct vendor *v = procedure_state_vendor_add(s);
		const char *name;
		int d[5];

		if (get_str(x, "name", VENDOR_NAME_MAX + 1, &name, err, errlen) < 0)
			return -1;
		if (!cJSON_IsArray(dice) || cJSON_GetArraySize(dice) != 5 ||
		    !cJSON_IsArray(tried) || cJSON_GetArraySize(tried) > VENDOR_TRIED_MAX) {
			snprintf(err, errlen,
			         "procedure state: a vendor's 'dice' or 'tried' is wrong.");
			return -1;
		}
		for (int i = 0; i < 5; i++) {
			const cJSON *n = cJSON_GetArrayItem(dice, i);

			/* the range first: a cast of a number past int's is undefined */
			if (!cJSON_IsNumber(n) || n->valuedouble < 1 || n->valuedouble > hi[i] ||
			    n->valuedouble != (int)n->valuedouble) {
				snprintf(err, errlen,
				         "procedure state: a vendor's die is out of range.");
				return -1;
			}
			d[i] = (int)n->valuedouble;
		}
		snprintf(v->name, sizeof(v->name), "%s", name);
		v->stock = (struct vendor_stock){.hoards = d[0],
		                                 .rations_d = {d[1], d[2]},
		                                 .rations = (d[1] + d[2]) * 100,
		                                 .coin_d10 = d[3],
		                                 .coin_percent = d[3] * 10,
		                                 .skill_d10 = d[4],
		                                 .skill = d[4] + 5};
		cJSON_ArrayForEach(t, tried)
		{
			if (!cJSON_IsString(t) || !t->valuestring[0] ||
			    strlen(t->valuestring) > VENDOR_ITEM_MAX) {
				snprintf(err, errlen,
				         "procedure state: a vendor's tried item is wrong.");
				return -1;
			}
			snprintf(v->tried[v->ntried++], sizeof(v->tried[0]), "%s", t->valuestring);
		}
	}
	return 0;
}

static int
get_int(const cJSON *o, const char *name, int lo, int hi, int *out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!cJSON_IsNumber(v) || v->valuedouble < lo || v->valuedouble > hi ||
	    v->valuedouble != (double)(int)v->valuedouble) {
		snprintf(err, errlen, "procedure state: '%s' must be a whole number from %d to %d.",
		         name, lo, hi);
		return -1;
	}
	*out = (int)v->valuedouble;
	return 0;
}

static int
get_bool(const cJSON *o, const char *name, bool *out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!cJSON_IsBool(v)) {
		snprintf(err, errlen, "procedure state: '%s' must be true or false.", name);
		return -1;
	}
	*out = cJSON_IsTrue(v);
	return 0;
}

static int
get_str(const cJSON *o, const char *name, size_t max, const char **out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!cJSON_IsString(v) || strlen(v->valuestring) >= max) {
		snprintf(err, errlen, "procedure state: '%s' must be text of at most %zu bytes.",
		         name, max - 1);
		return -1;
	}
	*out = v->valuestring;
	return 0;
}

/* Reads a name that parse() knows; *out gets its value. */
static int
get_name(const cJSON *o, const char *name, int (*parse)(const char *), int *out, char *err,
         size_t errlen)
{
	const char *s;

	if (get_str(o, name, 32, &s, err, errlen) < 0)
		return -1;
	if ((*out = parse(s)) < 0) {
		snprintf(err, errlen, "procedure state: '%s' has an unknown value '%.20s'.", name,
		         s);
		return -1;
	}
	return 0;
}

static int
get_chance(const cJSON *o, const char *name, struct odds *out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	const cJSON *x = cJSON_GetArrayItem(v, 0), *n = cJSON_GetArrayItem(v, 1);

	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2 || !cJSON_IsNumber(x) ||
	    !cJSON_IsNumber(n) || odds_check(x->valueint, n->valueint, err, errlen) < 0) {
		snprintf(err, errlen, "procedure state: '%s' must be a valid [X, N] chance.", name);
		return -1;
	}
	out->x = x->valueint;
	out->n = n->valueint;
	return 0;
}

static int
get_light(const cJSON *o, struct light *l, char *err, size_t errlen)
{
	const char *who;
	int kind;

	if (!cJSON_IsObject(o) || get_int(o, "id", 1, 100000, &l->id, err, errlen) < 0 ||
	    get_name(o, "kind", light_kind_parse, &kind, err, errlen) < 0 ||
	    get_int(o, "burned", 0, TURN_MAX, &l->burned, err, errlen) < 0 ||
	    get_str(o, "who", LIGHT_WHO_MAX, &who, err, errlen) < 0) {
		if (!cJSON_IsObject(o))
			snprintf(err, errlen, "procedure state: a light must be an object.");
		return -1;
	}
	l->kind = kind;
	snprintf(l->who, sizeof(l->who), "%s", who);
	return 0;
}

static int
load_clock(struct turn_clock *c, const cJSON *o, char *err, size_t errlen)
{
	const cJSON *lights = cJSON_GetObjectItemCaseSensitive(o, "lights");
	const cJSON *sign = cJSON_GetObjectItemCaseSensitive(o, "sign");
	const cJSON *flag = cJSON_GetObjectItemCaseSensitive(o, "flagged");
	const cJSON *l;
	int flickered = 0;
	bool ruled = false;

	if (get_int(o, "turn", 0, TURN_MAX, &c->turn, err, errlen) < 0 ||
	    get_int(o, "since_rest", 0, TURN_MAX, &c->since_rest, err, errlen) < 0 ||
	    get_int(o, "rest_mark", 0, c->since_rest, &c->rest_mark, err, errlen) < 0 ||
	    get_bool(o, "fatigue_due", &c->fatigue_due, err, errlen) < 0 ||
	    get_int(o, "next_light", 1, 100000, &c->lights.next_id, err, errlen) < 0)
		return -1;
	/* "pace" is saved when the party is not crawling */
	if (cJSON_GetObjectItemCaseSensitive(o, "pace") != NULL) {
		int pace;

		if (get_name(o, "pace", turn_pace_parse, &pace, err, errlen) < 0)
			return -1;
		c->pace = pace;
	}
	if (sign != NULL) {
		const char *creature;

		if (get_int(sign, "turn", 0, TURN_MAX, &c->sign_turn, err, errlen) < 0 ||
		    get_str(sign, "creature", TURN_SIGN_MAX, &creature, err, errlen) < 0)
			return -1;
		c->sign_set = true;
		snprintf(c->sign, sizeof(c->sign), "%s", creature);
	}
	if (!cJSON_IsArray(lights) || cJSON_GetArraySize(lights) > LIGHT_MAX) {
		snprintf(err, errlen, "procedure state: 'lights' must be a list of at most %d.",
		         LIGHT_MAX);
		return -1;
	}
	cJSON_ArrayForEach(l, lights)
	{
		struct light *x = &c->lights.l[c->lights.n];

		if (get_light(l, x, err, errlen) < 0)
			return -1;
		if ((c->lights.n > 0 && x->id <= x[-1].id) || x->id >= c->lights.next_id) {
			snprintf(err, errlen,
			         "procedure state: light ids must rise and stay below next_light.");
			return -1;
		}
		c->lights.n++;
	}
	if (flag != NULL) {
		if (get_light(flag, &c->light_was, err, errlen) < 0)
			return -1;
		c->light_result = TURN_LIGHT_FLAGGED;
	}
	/* "flickered" is saved while this turn's Light result only flickered */
	if (cJSON_GetObjectItemCaseSensitive(o, "flickered") != NULL &&
	    get_int(o, "flickered", 1, 100000, &flickered, err, errlen) < 0)
		return -1;
	/* "fatigue_asked" is saved while a Fatigue waits for a rest */
	if (cJSON_GetObjectItemCaseSensitive(o, "fatigue_asked") != NULL &&
	    get_int(o, "fatigue_asked", 1, 2, &c->fatigue_asked, err, errlen) < 0)
		return -1;
	/* "flicker_ruled" is saved while that flicker is the GM's ruling */
	if (cJSON_GetObjectItemCaseSensitive(o, "flicker_ruled") != NULL &&
	    get_bool(o, "flicker_ruled", &ruled, err, errlen) < 0)
		return -1;
	/* a flagged result is the one in force when both are saved, as it
	 * always was (turn_flicker() reads it first) */
	if (flag == NULL && flickered != 0) {
		c->light_result = ruled ? TURN_LIGHT_RULED : TURN_LIGHT_FLICKERED;
		c->light_was = (struct light){.id = flickered};
	}
	return 0;
}

static int
load_custom(struct procedure_state *s, const cJSON *o, char *err, size_t errlen)
{
	const char *text;
	char why[200];
	int die;

	if (cJSON_GetObjectItemCaseSensitive(o, "custom") == NULL)
		return 0;
	if (get_int(o, "custom_die", 2, ROLL_TABLE_SPAN_MAX, &die, err, errlen) < 0 ||
	    get_str(o, "custom", ROLL_TABLE_ENTRIES_MAX * (ROLL_TABLE_TEXT_MAX + 16), &text, err,
	            errlen) < 0)
		return -1;
	if (s->custom == NULL)
		s->custom = xmalloc(sizeof(*s->custom));
	if (roll_table_load(text, 1, die, s->custom, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "procedure state: the custom table: %s", why);
		free(s->custom);
		s->custom = NULL;
		return -1;
	}
	return 0;
}

static int
proc_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct procedure_state *s = p;
	const char *who;
	int table, proc, wander;

	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "procedure state: the record must be a JSON object.");
		return -1;
	}
	if (load_clock(&s->clock, o, err, errlen) < 0 || load_custom(s, o, err, errlen) < 0 ||
	    get_name(o, "table", hazard_table_parse, &table, err, errlen) < 0 ||
	    get_name(o, "procedure", hazard_procedure_parse, &proc, err, errlen) < 0 ||
	    get_chance(o, "chance", &s->chance, err, errlen) < 0 ||
	    get_str(o, "who", 8, &who, err, errlen) < 0 ||
	    get_name(o, "wander", wander_parse, &wander, err, errlen) < 0 ||
	    get_chance(o, "wander_chance", &s->wander_chance, err, errlen) < 0 ||
	    get_bool(o, "safe", &s->safe, err, errlen) < 0)
		return -1;
	if (table == HAZARD_CUSTOM && s->custom == NULL) {
		snprintf(err, errlen, "procedure state: the table is custom but none is saved.");
		return -1;
	}
	if (wander == WANDER_RETREAT || (strcmp(who, "gm") != 0 && strcmp(who, "anyone") != 0)) {
		snprintf(err, errlen,
		         "procedure state: 'wander' or 'who' has a value not allowed.");
		return -1;
	}
	if (load_vendors(s, o, err, errlen) < 0)
		return -1;
	/* "lantern_low" and "fatigue_damage" are saved only when the GM changed
	 * them */
	if (cJSON_GetObjectItemCaseSensitive(o, "lantern_low") != NULL &&
	    get_int(o, "lantern_low", 1, LIGHT_LOW_MAX, &s->lantern_low, err, errlen) < 0)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(o, "fatigue_damage") != NULL &&
	    get_int(o, "fatigue_damage", 1, FATIGUE_DAMAGE_MAX, &s->fatigue_damage, err, errlen) <
	        0)
		return -1;
	/* "level" only while the channel tracks one */
	if (cJSON_GetObjectItemCaseSensitive(o, "level") != NULL &&
	    get_int(o, "level", 0, LEVEL_MAX, &s->level, err, errlen) < 0)
		return -1;
	/* level 0 is the safe area (text 004); a record saved before /turn
	 * level 0 entered it loads there */
	if (s->level == 0)
		s->safe = true;
	s->table = table;
	s->proc = proc;
	s->wander = wander;
	s->gm_rolls = strcmp(who, "gm") == 0;
	return 0;
}

int
procedure_state_level(const struct channel *ch)
{
	const struct procedure_state *s = channel_mod_peek(ch, CHANMOD_PROC);

	return s != NULL ? s->level : -1;
}

int
procedure_state_surprise(const struct channel *ch, bool resting)
{
	const struct procedure_state *s = channel_mod_peek(ch, CHANMOD_PROC);

	if (s == NULL)
		return TURN_NOT_SURPRISED;
	return turn_surprise(&s->clock, s->proc, resting || turn_resting(&s->clock));
}

bool
procedure_state_resting(const struct channel *ch)
{
	const struct procedure_state *s = channel_mod_peek(ch, CHANMOD_PROC);

	return s != NULL && turn_resting(&s->clock);
}

enum wander_proc
procedure_state_wander(const struct channel *ch)
{
	const struct procedure_state *s = channel_mod_peek(ch, CHANMOD_PROC);

	return s != NULL ? s->wander : WANDER_CORRIDOR;
}

const struct chanmod procedure_state_mod = {
    .name = "procedure",
    .create = proc_create,
    .destroy = proc_destroy,
    .save = proc_save,
    .load = proc_load,
};
