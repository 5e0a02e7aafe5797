/*
 * fungeon_save: the Fungeon channel module (CHANMOD_FUNGEON): creation, the
 * JSON form of the state, and its players' keys and names kept current
 * (rekey, names_now). Designs are saved as their canonical words
 * and priced again on load, so a saved record can never carry a cost its
 * design does not have. Loading checks every field and its range.
 *
 * The form has "v": 2 (the dungeon and its room, from issue 25). A state
 * without "v" was written before the room model; fungeon_save_old.c reads
 * it into today's state, so old records and old undo steps keep loading.
 */
#include "commands/fungeon/fungeon_save.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_json.h"
#include "commands/fungeon/fungeon_save_old.h"
#include "commands/fungeon/thwacko_style.h"
#include "rules/base/mem.h"
#include "rules/base/textsafe.h"

#define FORM 2 /* the "v" this code writes */

static void *
fg_create(void)
{
	struct fungeon_channel *c = xcalloc(1, sizeof(struct fungeon_channel));

	fungeon_dungeon_clear(&c->d);
	return c;
}

static void
fg_destroy(void *p)
{
	fungeon_channel_free(p);
}

static const char *const kind_keys[FUNGEON_KIND_COUNT] = {"traps", "monsters", "treasure"};

static cJSON *
design_json(const struct fungeon_design *d)
{
	char spec[FUNGEON_SPEC_MAX + 1];

	fungeon_cost_format(d, spec, sizeof(spec));
	return cJSON_CreateString(spec);
}

static cJSON *
effect_json(const struct fungeon_effect *e)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "kind", e->kind == FUNGEON_EFFECT_HOLD ? "hold" : "damage");
	cJSON_AddStringToObject(o, "from", e->from == FUNGEON_FROM_TRAP ? "trap" : "monster");
	cJSON_AddStringToObject(o, "source", e->source);
	cJSON_AddStringToObject(o, "maker", e->maker);
	cJSON_AddNumberToObject(o, "annoy", e->annoy);
	cJSON_AddNumberToObject(o, "pain", e->pain);
	cJSON_AddBoolToObject(o, "universal", e->universal);
	cJSON_AddStringToObject(o, "type", e->type);
	fungeon_json_add_int(o, "xp", e->xp);
	return o;
}

static cJSON *
member_json(const struct fungeon_member *m, const struct thwacko_style *st)
{
	cJSON *o = cJSON_CreateObject(), *items, *effects, *wanderers, *style;

	cJSON_AddStringToObject(o, "user", m->user_key);
	cJSON_AddStringToObject(o, "player", m->player);
	cJSON_AddStringToObject(o, "name", m->name);
	cJSON_AddStringToObject(o, "class", m->cls);
	cJSON_AddStringToObject(o, "type", m->ctype);
	style = cJSON_AddObjectToObject(o, "style");
	cJSON_AddStringToObject(style, "colour", thwacko_style_colour_name(st->colour));
	cJSON_AddStringToObject(style, "mark", st->mark);
	cJSON_AddNumberToObject(o, "level", m->level);
	cJSON_AddNumberToObject(o, "hits", m->hits);
	fungeon_json_add_int(o, "xp", m->xp);
	cJSON_AddBoolToObject(o, "dead", m->dead);
	cJSON_AddBoolToObject(o, "fresh", m->fresh);
	cJSON_AddNumberToObject(o, "credit", (double)m->credit);
	if (m->sold > 0) /* read as 0 when absent, as records before it */
		fungeon_json_add_int(o, "sold", m->sold);
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
	for (int i = 0; i < m->neffects; i++)
		cJSON_AddItemToArray(effects, effect_json(&m->effects[i]));
	if (m->aim[0])
		cJSON_AddStringToObject(o, "aim", m->aim);
	return o;
}

static cJSON *
ints_json(const int *v, int n)
{
	return cJSON_CreateIntArray(v, n);
}

static cJSON *
piece_json(enum fungeon_kind k, const struct fungeon_piece *s)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", s->name);
	cJSON_AddStringToObject(o, "maker", s->maker);
	cJSON_AddItemToObject(o, "design", design_json(&s->d));
	if (k == FUNGEON_TRAP) {
		cJSON_AddStringToObject(o, "state", fungeon_trap_state_name(s->state));
		cJSON_AddBoolToObject(o, "passed", s->passed);
		cJSON_AddNumberToObject(o, "unaware", s->unaware);
	} else if (k == FUNGEON_MONSTER) {
		cJSON_AddNumberToObject(o, "hits", s->hits);
		cJSON_AddBoolToObject(o, "wanderer", s->wanderer);
		if (s->aim[0])
			cJSON_AddStringToObject(o, "aim", s->aim);
		if (s->use[0])
			cJSON_AddStringToObject(o, "use", s->use);
	} else {
		cJSON_AddStringToObject(o, "taken", s->taken);
		cJSON_AddBoolToObject(o, "left", s->left);
		if (s->by[0])
			cJSON_AddStringToObject(o, "by", s->by);
	}
	return o;
}

static cJSON *
room_json(const struct fungeon_room *r)
{
	cJSON *o = cJSON_CreateObject();
	const int party[] = {r->party.n, r->party.min, r->party.max, r->party.total};
	const int64_t b[] = {r->budgets.traps, r->budgets.monsters, r->budgets.treasure};
	cJSON *budgets = cJSON_AddArrayToObject(o, "budgets");

	fungeon_json_add_int(o, "number", r->number);
	cJSON_AddNumberToObject(o, "floor", r->floor);
	cJSON_AddItemToObject(o, "party", ints_json(party, 4));
	for (int i = 0; i < 3; i++)
		cJSON_AddItemToArray(budgets, cJSON_CreateNumber((double)b[i]));
	cJSON_AddBoolToObject(o, "stair", r->stair);
	cJSON_AddItemToObject(o, "order", ints_json(r->picks.order, r->picks.n));
	cJSON_AddItemToObject(o, "holders", ints_json(r->picks.holder, FUNGEON_CAT_COUNT));
	cJSON_AddNumberToObject(o, "made", r->picks.made);
	if (r->waived_by[0][0] || r->waived_by[1][0] || r->waived_by[2][0]) {
		cJSON *w = cJSON_AddArrayToObject(o, "waived_by");

		for (int c = 0; c < FUNGEON_CAT_COUNT; c++)
			cJSON_AddItemToArray(w, cJSON_CreateString(r->waived_by[c]));
	}
	if (r->waived_gm[0] || r->waived_gm[1] || r->waived_gm[2]) {
		cJSON *w = cJSON_AddArrayToObject(o, "waived_gm");

		for (int c = 0; c < FUNGEON_CAT_COUNT; c++)
			cJSON_AddItemToArray(w, cJSON_CreateBool(r->waived_gm[c]));
	}
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		cJSON *arr = cJSON_AddArrayToObject(o, kind_keys[k]);

		for (int i = 0; i < r->n[k]; i++)
			cJSON_AddItemToArray(arr, piece_json((enum fungeon_kind)k, &r->p[k][i]));
	}
	return o;
}

static cJSON *
fg_save(const void *p)
{
	const struct fungeon_channel *c = p;
	cJSON *o = cJSON_CreateObject(), *party, *path, *fallen;

	cJSON_AddNumberToObject(o, "v", FORM);
	cJSON_AddStringToObject(o, "xp_rule",
	                        c->xp_rule == FUNGEON_XP_FORMULA ? "formula" : "table");
	cJSON_AddStringToObject(o, "phase", fungeon_phase_name(c->d.phase));
	cJSON_AddNumberToObject(o, "floor", c->d.floor);
	fungeon_json_add_int(o, "rooms", c->d.rooms);
	fungeon_json_add_int(o, "back", c->d.back);
	path = cJSON_AddArrayToObject(o, "path");
	for (int i = 0; i < c->d.npath; i++) {
		cJSON *step = cJSON_CreateObject();

		fungeon_json_add_int(step, "room", c->d.path[i].room);
		cJSON_AddNumberToObject(step, "floor", c->d.path[i].floor);
		cJSON_AddItemToArray(path, step);
	}
	cJSON_AddItemToObject(o, "room", room_json(&c->d.room));
	fallen = cJSON_AddArrayToObject(o, "fallen");
	for (int i = 0; i < c->nfallen; i++)
		cJSON_AddItemToArray(fallen, cJSON_CreateString(c->fallen[i]));
	cJSON_AddStringToObject(o, "waived", c->waived);
	party = cJSON_AddArrayToObject(o, "party");
	for (int i = 0; i < c->n; i++)
		cJSON_AddItemToArray(party, member_json(&c->m[i], &c->style[i]));
	return o;
}

/* An effect; an old one (from before the room model) has no "from",
 * "maker" or "xp": where it came from is read off its source ("wasp/sting"
 * is a monster's ability), and fungeon_save_old.c fills in the rest. */
static int
rd_effect(struct fungeon_json *r, const cJSON *eo, bool old, struct fungeon_effect *e)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(eo, "kind");
	const cJSON *from = cJSON_GetObjectItemCaseSensitive(eo, "from");

	if (!cJSON_IsString(kind) ||
	    (strcmp(kind->valuestring, "hold") && strcmp(kind->valuestring, "damage")))
		return fungeon_json_bad(r, "kind", "is not hold or damage");
	e->kind = strcmp(kind->valuestring, "hold") ? FUNGEON_EFFECT_DAMAGE : FUNGEON_EFFECT_HOLD;
	if (fungeon_json_str(r, eo, "source", e->source, sizeof(e->source), false, false) ||
	    fungeon_json_i(r, eo, "annoy", 0, CF_DICE_MAX, &e->annoy) ||
	    fungeon_json_i(r, eo, "pain", 0, CF_DICE_MAX, &e->pain) ||
	    fungeon_json_bool(r, eo, "universal", &e->universal) ||
	    fungeon_json_str(r, eo, "type", e->type, sizeof(e->type), true, true))
		return -1;
	if (old) {
		e->from = strchr(e->source, '/') != NULL ? FUNGEON_FROM_MONSTER : FUNGEON_FROM_TRAP;
		return 0;
	}
	if (!cJSON_IsString(from) ||
	    (strcmp(from->valuestring, "trap") && strcmp(from->valuestring, "monster")))
		return fungeon_json_bad(r, "from", "is not trap or monster");
	e->from = strcmp(from->valuestring, "trap") ? FUNGEON_FROM_MONSTER : FUNGEON_FROM_TRAP;
	return fungeon_json_str(r, eo, "maker", e->maker, sizeof(e->maker), false, true) ||
	               fungeon_json_int(r, eo, "xp", 0, FUNGEON_COST_MAX, &e->xp)
	           ? -1
	           : 0;
}

/* The wandering monsters a player has yet to build; an old record may
 * have "wander", a single number of points (none for 0), from before
 * points stopped pooling. */
static int
rd_wanderers(struct fungeon_json *r, const cJSON *o, bool old, struct fungeon_member *m)
{
	const cJSON *w, *x;
	int n;
	int64_t pooled;

	if (old && cJSON_GetObjectItemCaseSensitive(o, "wanderers") == NULL) {
		if (fungeon_json_int(r, o, "wander", 0, FUNGEON_POINTS_MAX, &pooled) < 0)
			return -1;
		if (pooled > 0)
			m->wanderer[m->nwander++] = pooled;
		return 0;
	}
	if (fungeon_json_array(r, o, "wanderers", FUNGEON_WANDERERS_MAX, false, &w, &n) < 0)
		return -1;
	cJSON_ArrayForEach(x, w)
	{
		if (!fungeon_json_whole(x, 1, FUNGEON_POINTS_MAX, &m->wanderer[m->nwander]))
			return fungeon_json_bad(r, "wanderers",
			                        "holds something other than points 1..100000000");
		m->nwander++;
	}
	return 0;
}

static int
rd_style(struct fungeon_json *r, const cJSON *o, struct thwacko_style *st)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "style");
	char colour[16], err[200];
	int c;

	if (!cJSON_IsObject(s))
		return fungeon_json_bad(r, "style", "is missing");
	if (fungeon_json_str(r, s, "colour", colour, sizeof(colour), false, false) ||
	    fungeon_json_str(r, s, "mark", st->mark, sizeof(st->mark), false, false))
		return -1;
	c = thwacko_style_colour_parse(colour);
	if (c < 0 || thwacko_style_mark_check(st->mark, err, sizeof(err)) < 0)
		return fungeon_json_bad(r, "style", "is not a colour and a mark");
	st->colour = (enum ucolour)c;
	return 0;
}

int
fungeon_save_member(struct fungeon_json *r, const cJSON *o, bool old, struct fungeon_member *m)
{
	const cJSON *items, *effects, *x;
	int ni, ne;
	/* A record written while sales kept half a point of credit ("half":
	 * true) still loads, the half kept as one odd point given up in this
	 * visit ("sold"), which the next odd sale makes a whole point, as a
	 * sale now rounds once over the visit. */
	bool half = false;

	r->where = "party member";
	if (fungeon_json_str(r, o, "user", m->user_key, sizeof(m->user_key), false, false) ||
	    fungeon_json_str(r, o, "player", m->player, sizeof(m->player), false, false) ||
	    fungeon_json_str(r, o, "name", m->name, sizeof(m->name), true, false) ||
	    fungeon_json_str(r, o, "class", m->cls, sizeof(m->cls), false, false) ||
	    fungeon_json_opt_str(r, o, "type", m->ctype, sizeof(m->ctype), true) ||
	    fungeon_json_i(r, o, "level", FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX, &m->level) ||
	    fungeon_json_i(r, o, "hits", 0, fungeon_max_hits(m->level), &m->hits) ||
	    fungeon_json_int(r, o, "xp", 0, FUNGEON_XP_MAX, &m->xp) ||
	    fungeon_json_bool(r, o, "dead", &m->dead) ||
	    fungeon_json_bool(r, o, "fresh", &m->fresh) ||
	    fungeon_json_int(r, o, "credit", 0, FUNGEON_POINTS_MAX, &m->credit) ||
	    (cJSON_GetObjectItemCaseSensitive(o, "half") != NULL &&
	     fungeon_json_bool(r, o, "half", &half)) ||
	    (cJSON_GetObjectItemCaseSensitive(o, "sold") != NULL &&
	     fungeon_json_int(r, o, "sold", 0, FUNGEON_SOLD_MAX, &m->sold)) ||
	    fungeon_json_array(r, o, "items", FUNGEON_ITEMS_MAX, false, &items, &ni) ||
	    fungeon_json_array(r, o, "effects", FUNGEON_EFFECTS_MAX, false, &effects, &ne) ||
	    fungeon_json_opt_str(r, o, "aim", m->aim, sizeof(m->aim), true) ||
	    rd_wanderers(r, o, old, m))
		return -1;
	if (half && m->sold == 0)
		m->sold = 1;
	m->items = fungeon_json_zeroed(ni, sizeof(*m->items));
	m->effects = fungeon_json_zeroed(ne, sizeof(*m->effects));
	cJSON_ArrayForEach(x, items)
	{
		struct fungeon_item *it = &m->items[m->nitems++];

		r->where = "item";
		if (fungeon_json_str(r, x, "name", it->name, sizeof(it->name), true, false) ||
		    fungeon_json_design(r, x, FUNGEON_TREASURE, &it->d, &it->cost))
			return -1;
	}
	cJSON_ArrayForEach(x, effects)
	{
		r->where = "effect";
		if (rd_effect(r, x, old, &m->effects[m->neffects++]) < 0)
			return -1;
	}
	return 0;
}

static int
rd_piece(struct fungeon_json *r, const cJSON *o, enum fungeon_kind k, struct fungeon_piece *s)
{
	char state[16];
	int st, unaware;

	r->where = fungeon_cost_kind_name(k);
	if (fungeon_json_str(r, o, "name", s->name, sizeof(s->name), true, false) ||
	    fungeon_json_str(r, o, "maker", s->maker, sizeof(s->maker), false, true) ||
	    fungeon_json_design(r, o, k, &s->d, &s->cost))
		return -1;
	if (k == FUNGEON_TRAP) {
		if (fungeon_json_str(r, o, "state", state, sizeof(state), false, false) ||
		    fungeon_json_bool(r, o, "passed", &s->passed) ||
		    fungeon_json_i(r, o, "unaware", 0, (1 << FUNGEON_PARTY_MAX) - 1, &unaware))
			return -1;
		if ((st = fungeon_trap_state_parse(state)) < 0)
			return fungeon_json_bad(r, "state",
			                        "is not hidden, found, disarmed or sprung");
		s->state = (enum fungeon_trap_state)st;
		s->unaware = (uint32_t)unaware;
		return 0;
	}
	if (k == FUNGEON_MONSTER)
		return fungeon_json_i(r, o, "hits", 0, fungeon_cost_monster_hits(s->d.level),
		                      &s->hits) ||
		               fungeon_json_bool(r, o, "wanderer", &s->wanderer) ||
		               fungeon_json_opt_str(r, o, "aim", s->aim, sizeof(s->aim), true) ||
		               fungeon_json_opt_str(r, o, "use", s->use, sizeof(s->use), true)
		           ? -1
		           : 0;
	/* by is a Fungeoneer's name as it was saved, checked for size only */
	return fungeon_json_str(r, o, "taken", s->taken, sizeof(s->taken), true, true) ||
	               fungeon_json_bool(r, o, "left", &s->left) ||
	               fungeon_json_opt_str(r, o, "by", s->by, sizeof(s->by), false)
	           ? -1
	           : 0;
}

/* The list under key: from least to most whole numbers, each lo..hi, into
 * v (room for most); *n (when not NULL) gets how many. A list of any other
 * length is refused, in one sentence naming the length allowed. */
static int
rd_ints(struct fungeon_json *r, const cJSON *o, const char *key, int least, int most, int lo,
        int hi, int *v, int *n)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *x;
	int count = 0;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < least || cJSON_GetArraySize(a) > most) {
		char what[64];

		if (least == most)
			snprintf(what, sizeof(what), "is not a list of %d whole numbers", least);
		else
			snprintf(what, sizeof(what), "is not a list of %d to %d whole numbers",
			         least, most);
		return fungeon_json_bad(r, key, what);
	}
	cJSON_ArrayForEach(x, a)
	{
		int64_t w;

		if (!fungeon_json_whole(x, lo, hi, &w))
			return fungeon_json_bad(r, key, "holds a number out of range");
		v[count++] = (int)w;
	}
	if (n != NULL)
		*n = count;
	return 0;
}

/* The optional "waived_by": one player name (or "") for each category,
 * and "waived_gm": whether each is the GM's waiver. */
static int
rd_waived(struct fungeon_json *r, const cJSON *o, struct fungeon_room *room)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "waived_by"), *x;
	int c = 0;

	if (w == NULL)
		return 0;
	if (!cJSON_IsArray(w) || cJSON_GetArraySize(w) != FUNGEON_CAT_COUNT)
		return fungeon_json_bad(r, "waived_by", "is not a name for each category");
	cJSON_ArrayForEach(x, w)
	{
		if (!cJSON_IsString(x) || strlen(x->valuestring) >= sizeof(room->waived_by[c]))
			return fungeon_json_bad(r, "waived_by",
			                        "holds a name that is not text or too long");
		memcpy(room->waived_by[c], x->valuestring, strlen(x->valuestring) + 1);
		c++;
	}
	w = cJSON_GetObjectItemCaseSensitive(o, "waived_gm");
	if (w == NULL)
		return 0;
	if (!cJSON_IsArray(w) || cJSON_GetArraySize(w) != FUNGEON_CAT_COUNT)
		return fungeon_json_bad(r, "waived_gm", "is not a true or false for each category");
	c = 0;
	cJSON_ArrayForEach(x, w)
	{
		if (!cJSON_IsBool(x))
			return fungeon_json_bad(r, "waived_gm",
			                        "holds a value that is not true or false");
		room->waived_gm[c++] = cJSON_IsTrue(x);
	}
	return 0;
}

static int
rd_room(struct fungeon_json *r, const cJSON *o, int members, struct fungeon_room *room)
{
	static const int most[FUNGEON_KIND_COUNT] = {FUNGEON_DESIGNS_MAX, FUNGEON_ROOM_MONSTERS_MAX,
	                                             FUNGEON_ROOM_TREASURE_MAX};
	int party[4];
	const cJSON *budgets = cJSON_GetObjectItemCaseSensitive(o, "budgets");

	r->where = "room";
	if (!cJSON_IsObject(o))
		return fungeon_json_bad(r, "room", "is missing");
	if (fungeon_json_int(r, o, "number", 0, INT64_MAX, &room->number) ||
	    fungeon_json_i(r, o, "floor", 0, FUNGEON_FLOOR_MAX, &room->floor) ||
	    /* Size, lowest level, highest level, levels in all: every
	     * version wrote the four. */
	    rd_ints(r, o, "party", 4, 4, 0, FUNGEON_PARTY_MAX * FUNGEON_LEVEL_MAX, party, NULL) ||
	    fungeon_json_bool(r, o, "stair", &room->stair) ||
	    rd_ints(r, o, "order", 0, FUNGEON_PARTY_MAX, 0, members - 1, room->picks.order,
	            &room->picks.n) ||
	    rd_ints(r, o, "holders", FUNGEON_CAT_COUNT, FUNGEON_CAT_COUNT, -1, members - 1,
	            room->picks.holder, NULL) ||
	    fungeon_json_i(r, o, "made", 0, FUNGEON_CAT_COUNT, &room->picks.made) ||
	    rd_waived(r, o, room))
		return -1;
	room->party = (struct fungeon_party){
	    .n = party[0], .min = party[1], .max = party[2], .total = party[3]};
	if (!cJSON_IsArray(budgets) || cJSON_GetArraySize(budgets) != 3)
		return fungeon_json_bad(r, "budgets", "is not a list of three budgets");
	for (int k = 0; k < 3; k++) {
		const cJSON *x = cJSON_GetArrayItem(budgets, k);
		int64_t *b = k == 0   ? &room->budgets.traps
		             : k == 1 ? &room->budgets.monsters
		                      : &room->budgets.treasure;

		if (!fungeon_json_whole(x, 0, FUNGEON_COST_MAX, b))
			return fungeon_json_bad(r, "budgets", "holds a budget out of range");
	}
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		const cJSON *arr, *x;
		int count;

		r->where = "room";
		if (fungeon_json_array(r, o, kind_keys[k], most[k], false, &arr, &count) < 0)
			return -1;
		room->p[k] = fungeon_json_zeroed(count, sizeof(*room->p[k]));
		cJSON_ArrayForEach(x, arr)
		{
			if (rd_piece(r, x, (enum fungeon_kind)k, &room->p[k][room->n[k]++]) < 0)
				return -1;
		}
	}
	return 0;
}

static int
rd_path(struct fungeon_json *r, const cJSON *o, struct fungeon_dungeon *d)
{
	const cJSON *a, *x;
	int n;

	if (fungeon_json_array(r, o, "path", FUNGEON_PATH_MAX, false, &a, &n) < 0)
		return -1;
	cJSON_ArrayForEach(x, a)
	{
		struct fungeon_step *s = &d->path[d->npath++];

		r->where = "path";
		if (fungeon_json_int(r, x, "room", 1, INT64_MAX, &s->room) ||
		    fungeon_json_i(r, x, "floor", 1, FUNGEON_FLOOR_MAX, &s->floor))
			return -1;
	}
	return 0;
}

int
fungeon_save_keys(struct fungeon_json *r, const cJSON *o, struct fungeon_channel *c)
{
	const cJSON *a, *x;
	int n;

	if (fungeon_json_array(r, o, "fallen", FUNGEON_FALLEN_MAX, true, &a, &n) < 0)
		return -1;
	c->fallen = fungeon_json_zeroed(n, sizeof(*c->fallen));
	cJSON_ArrayForEach(x, a)
	{
		if (!cJSON_IsString(x) || !x->valuestring[0] ||
		    strlen(x->valuestring) >= FUNGEON_KEY_MAX)
			return fungeon_json_bad(r, "fallen",
			                        "holds something other than a user key");
		memcpy(c->fallen[c->nfallen++], x->valuestring, strlen(x->valuestring) + 1);
	}
	return 0;
}

int
fungeon_save_rule(struct fungeon_json *r, const cJSON *o, struct fungeon_channel *c)
{
	const cJSON *rule = cJSON_GetObjectItemCaseSensitive(o, "xp_rule");

	if (!cJSON_IsString(rule) ||
	    (strcmp(rule->valuestring, "table") && strcmp(rule->valuestring, "formula")))
		return fungeon_json_bad(r, "xp_rule", "is not table or formula");
	c->xp_rule = strcmp(rule->valuestring, "formula") ? FUNGEON_XP_TABLE : FUNGEON_XP_FORMULA;
	return 0;
}

/* Whether s shows as nothing at all in a reply (textsafe.h takes out all
 * it holds: a zero-width space alone). */
static bool
shows_nothing(const char *s)
{
	struct buf b;
	bool none;

	buf_init(&b, 64);
	textsafe_clean(&b, s, strlen(s));
	none = b.len == 0;
	buf_free(&b);
	return none;
}

/* Points every reference of c to the Fungeoneer named old (the aims of
 * the party and of the room's monsters, the taker of a treasure) at new. */
static void
rename_refs(struct fungeon_channel *c, const char *old, const char *new)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->m[i].aim, old) == 0)
			snprintf(c->m[i].aim, sizeof(c->m[i].aim), "%s", new);
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		for (int j = 0; j < c->d.room.n[k]; j++) {
			struct fungeon_piece *s = &c->d.room.p[k][j];

			if (strcmp(s->aim, old) == 0)
				snprintf(s->aim, sizeof(s->aim), "%s", new);
			if (strcmp(s->taken, old) == 0)
				snprintf(s->taken, sizeof(s->taken), "%s", new);
		}
	}
}

/* A Fungeoneer's name saved before a new name had to show as it is typed
 * (fungeon_name_shows()) may show as nothing (a zero-width space alone):
 * such a one is read as "Nameless" ("Nameless2" when that is taken here),
 * and what the state holds of the old name follows, so that the sheet and
 * the party show it and players can name it. The record keeps the old
 * name until the channel next changes (the store has no word for a state
 * changed by reading it); each load reads it alike. */
static void
names_shown(struct fungeon_channel *c)
{
	struct reply *scratch = reply_new();

	for (int i = 0; i < c->n; i++) {
		char old[sizeof(c->m[i].name)], cand[FUNGEON_NAME_MAX + 1];

		if (c->m[i].name[0] == '\0' || !shows_nothing(c->m[i].name))
			continue;
		snprintf(old, sizeof(old), "%s", c->m[i].name);
		c->m[i].name[0] = '\0'; /* not a clash with itself */
		for (int k = 1;; k++) {
			if (k == 1)
				snprintf(cand, sizeof(cand), "Nameless");
			else
				fungeon_numbered_name("Nameless", k, cand);
			if (!fungeon_channel_name_used(c, cand, NULL, scratch))
				break;
		}
		snprintf(c->m[i].name, sizeof(c->m[i].name), "%s", cand);
		rename_refs(c, old, cand);
	}
	reply_free(scratch);
}

/* Reads the state as save() wrote it (or as the form before the room
 * model did). */
static int
fg_load_form(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct fungeon_channel *c = p;
	struct fungeon_json r = {.err = err, .errlen = errlen, .where = "state"};
	const cJSON *party, *x;
	char phase[16];
	int n, ph;

	if (!cJSON_IsObject(o))
		return fungeon_json_bad(&r, "state", "is not an object");
	if (cJSON_GetObjectItemCaseSensitive(o, "v") == NULL)
		return fungeon_save_old_load(c, o, err, errlen);
	if (fungeon_json_i(&r, o, "v", FORM, FORM, &n) || fungeon_save_rule(&r, o, c) ||
	    fungeon_json_str(&r, o, "phase", phase, sizeof(phase), false, false) ||
	    fungeon_json_i(&r, o, "floor", 0, FUNGEON_FLOOR_MAX, &c->d.floor) ||
	    fungeon_json_int(&r, o, "rooms", 0, INT64_MAX, &c->d.rooms) ||
	    fungeon_json_int(&r, o, "back", 0, c->d.rooms, &c->d.back) ||
	    fungeon_json_str(&r, o, "waived", c->waived, sizeof(c->waived), false, true) ||
	    fungeon_save_keys(&r, o, c) ||
	    fungeon_json_array(&r, o, "party", FUNGEON_PARTY_MAX, false, &party, &n))
		return -1;
	if ((ph = fungeon_phase_parse(phase)) < 0)
		return fungeon_json_bad(&r, "phase", "is not a phase of a dungeon");
	c->d.phase = (enum fungeon_phase)ph;
	c->m = fungeon_json_zeroed(n, sizeof(*c->m));
	c->style = fungeon_json_zeroed(n, sizeof(*c->style));
	cJSON_ArrayForEach(x, party)
	{
		struct thwacko_style *st = &c->style[c->n];

		if (fungeon_save_member(&r, x, false, &c->m[c->n++]) < 0 || rd_style(&r, x, st) < 0)
			return -1;
	}
	r.where = "state";
	if (rd_path(&r, o, &c->d) < 0)
		return -1;
	return rd_room(&r, cJSON_GetObjectItemCaseSensitive(o, "room"), c->n, &c->d.room);
}

static int
fg_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	int rc = fg_load_form(p, o, err, errlen);

	if (rc == 0)
		names_shown(p);
	return rc;
}

/* Moves user key from onto to: the member (unless to has one here), the
 * makers of the room's pieces and of effects, and the fallen list. */
static int
fg_rekey(void *mod, const char *from, const char *to)
{
	struct fungeon_channel *c = mod;
	int i = fungeon_channel_member_of(c, from), moved = 0;

	if (i < 0 || fungeon_channel_member_of(c, to) >= 0)
		return 0;
	snprintf(c->m[i].user_key, sizeof(c->m[i].user_key), "%s", to);
	moved++;
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		for (int j = 0; j < c->d.room.n[k]; j++) {
			struct fungeon_piece *s = &c->d.room.p[k][j];

			if (strcmp(s->maker, from) == 0) {
				snprintf(s->maker, sizeof(s->maker), "%s", to);
				moved++;
			}
		}
	}
	for (int m = 0; m < c->n; m++) {
		for (int e = 0; e < c->m[m].neffects; e++) {
			if (strcmp(c->m[m].effects[e].maker, from) == 0) {
				snprintf(c->m[m].effects[e].maker, sizeof(c->m[m].effects[e].maker),
				         "%s", to);
				moved++;
			}
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

/* Tells the invoker, whose new name now the party does not take (it
 * would leave member i's Fungeoneer, k's holding i's other name, with no
 * name that names it alone: fungeon_channel_strands()), what it still
 * calls them, on a /fungeon command, where the party's names matter. */
static void
name_kept(const struct fungeon_channel *c, const struct invocation *inv, int me, const char *now,
          int i, int k, struct reply *out)
{
	const struct fungeon_member *m = &c->m[me];

	if (strcmp(inv->from->user_key, m->user_key) != 0 || inv->path[0] == NULL ||
	    strcmp(inv->path[0]->name, "fungeon") != 0)
		return;
	reply_to(out, REPLY_INVOKER);
	if (i == me)
		reply_line(out, 0,
		           "This party still calls you %s, not %s: %s is %s's Fungeoneer's name "
		           "and your Fungeoneer's, %s, is another player's, so no command could "
		           "name your %s any more; take another nick.",
		           m->player, now, now, c->m[k].player, m->name, m->name);
	else
		reply_line(out, 0,
		           "This party still calls you %s, not %s: %s is %s's Fungeoneer's name, "
		           "whose other name, %s, is %s's Fungeoneer's too, so no command could "
		           "name %s's %s any more; take another nick, or this one once %s's %s "
		           "has left the party.",
		           m->player, now, now, c->m[i].player, c->m[i].player, c->m[k].player,
		           c->m[i].player, c->m[i].name, c->m[i].player, c->m[i].name);
	reply_to(out, REPLY_CHANNEL);
}

/* Names each member's player as the platform knows them now (struct
 * chanmod's names_now), but for a name that would leave a Fungeoneer
 * nobody can name (fungeon_channel_strands(), which /fungeon join
 * refuses too): that member keeps the name it had. */
static bool
fg_names_now(void *mod, const struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = mod;
	bool changed = false;

	for (int j = 0; j < c->n; j++) {
		struct fungeon_member *m = &c->m[j];
		const char *now = invocation_name_now(inv, m->user_key);
		int i, k;

		if (now == NULL || now[0] == '\0' || strcmp(now, m->player) == 0)
			continue;
		if ((i = fungeon_channel_strands(c, j, now, &k)) >= 0) {
			name_kept(c, inv, j, now, i, k, out);
			continue;
		}
		snprintf(m->player, sizeof(m->player), "%s", now);
		changed = true;
	}
	return changed;
}

const struct chanmod fungeon_mod = {
    .name = "fungeon",
    .create = fg_create,
    .destroy = fg_destroy,
    .save = fg_save,
    .load = fg_load,
    .rekey = fg_rekey,
    .names_now = fg_names_now,
};
