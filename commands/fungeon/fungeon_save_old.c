/*
 * fungeon_save_old: reads the Fungeon module's form from before the room
 * model (no "v"), as records and undo steps written by earlier delvers
 * hold it, into today's state.
 *
 * That form kept every design ever stored on the channel, those of the
 * room in play marked "room", with the channel's category holders, draw
 * order and budgets beside them. It reads as: a party in room "rooms" (in
 * town before the first hallway) whose room holds the designs marked
 * "room" and the treasure the dead left; designs of earlier rooms are gone,
 * as the rule text has them. Traps become sprung or hidden, makers are the
 * players holding the categories, an effect keeps its trap's cost as the
 * XP of ending it when the trap is still known, and each member gets the
 * default Thwack-O style that form drew it in.
 */
#include "commands/fungeon/fungeon_save_old.h"

#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_json.h"
#include "commands/fungeon/fungeon_save.h"
#include "commands/fungeon/thwacko_style.h"
#include "rules/base/utf8.h"

static const char *const kind_keys[FUNGEON_KIND_COUNT] = {"traps", "monsters", "treasure"};

/* The old holders, user keys by category; -1 for nobody or a key no
 * member has. */
static int
rd_holders(struct fungeon_json *r, const cJSON *o, struct fungeon_channel *c,
           char keys[][FUNGEON_KEY_MAX])
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "holders");

	if (!cJSON_IsObject(h))
		return fungeon_json_bad(r, "holders", "is missing");
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		if (fungeon_json_str(r, h, kind_keys[k], keys[k], FUNGEON_KEY_MAX, false, true) < 0)
			return -1;
		c->d.room.picks.holder[k] = keys[k][0] ? fungeon_channel_member_of(c, keys[k]) : -1;
	}
	return 0;
}

/* The old choosing order: member indices; absent is none. */
static int
rd_order(struct fungeon_json *r, const cJSON *o, struct fungeon_channel *c)
{
	const cJSON *a, *x;
	int n;

	if (fungeon_json_array(r, o, "order", c->n, true, &a, &n) < 0)
		return -1;
	cJSON_ArrayForEach(x, a)
	{
		int64_t w;

		if (!fungeon_json_whole(x, 0, c->n - 1, &w))
			return fungeon_json_bad(r, "order",
			                        "holds something other than a party member");
		c->d.room.picks.order[c->d.room.picks.n++] = (int)w;
	}
	if (cJSON_GetObjectItemCaseSensitive(o, "picks_made") == NULL)
		c->d.room.picks.made = FUNGEON_CAT_COUNT;
	else if (fungeon_json_i(r, o, "picks_made", 0, FUNGEON_CAT_COUNT, &c->d.room.picks.made))
		return -1;
	return 0;
}

/* One old design of kind k, kept in the room when it was the room's (or
 * treasure the dead left). */
static int
rd_design(struct fungeon_json *r, const cJSON *o, enum fungeon_kind k, struct fungeon_channel *c,
          const char keys[][FUNGEON_KEY_MAX])
{
	struct fungeon_piece s;
	bool room, sprung;

	memset(&s, 0, sizeof(s));
	r->where = "design";
	if (fungeon_json_str(r, o, "name", s.name, sizeof(s.name), true, false) ||
	    fungeon_json_design(r, o, k, &s.d, &s.cost) || fungeon_json_bool(r, o, "room", &room) ||
	    fungeon_json_i(r, o, "hits", 0,
	                   k == FUNGEON_MONSTER ? fungeon_cost_monster_hits(s.d.level) : 0,
	                   &s.hits) ||
	    fungeon_json_str(r, o, "taken", s.taken, sizeof(s.taken), true, true) ||
	    fungeon_json_opt_bool(r, o, "sprung", &sprung) ||
	    fungeon_json_opt_bool(r, o, "passed", &s.passed) ||
	    fungeon_json_opt_bool(r, o, "left", &s.left))
		return -1;
	if (!room && !(k == FUNGEON_TREASURE && s.left))
		return 0; /* an earlier room's: gone */
	s.state = sprung ? FUNGEON_TRAP_SPRUNG : FUNGEON_TRAP_HIDDEN;
	if (!s.left)
		snprintf(s.maker, sizeof(s.maker), "%s", keys[k]);
	*fungeon_room_add(&c->d.room, k) = s;
	return 0;
}

/* The cost of the old trap called name, when the record still has it. */
static int64_t
trap_cost(const cJSON *designs, const char *name)
{
	const cJSON *x, *traps = cJSON_GetObjectItemCaseSensitive(designs, "traps");
	struct fungeon_json r = {.err = (char[200]){0}, .errlen = 200, .where = "design"};

	cJSON_ArrayForEach(x, traps)
	{
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(x, "name");
		struct fungeon_design d;
		int64_t cost;

		if (cJSON_IsString(n) && !utf8_casecmp(n->valuestring, name) &&
		    fungeon_json_design(&r, x, FUNGEON_TRAP, &d, &cost) == 0)
			return cost;
	}
	return 0;
}

/* Effects learn their makers and XP from the old designs and holders. */
static void
fill_effects(struct fungeon_channel *c, const cJSON *designs, const char keys[][FUNGEON_KEY_MAX])
{
	for (int i = 0; i < c->n; i++) {
		for (int e = 0; e < c->m[i].neffects; e++) {
			struct fungeon_effect *ef = &c->m[i].effects[e];
			int cat = ef->from == FUNGEON_FROM_TRAP ? FUNGEON_CAT_TRAPS
			                                        : FUNGEON_CAT_MONSTERS;

			snprintf(ef->maker, sizeof(ef->maker), "%s", keys[cat]);
			if (ef->from == FUNGEON_FROM_TRAP)
				ef->xp = trap_cost(designs, ef->source);
		}
	}
}

/* The room as the old state had it: its budgets (or the party's now), the
 * party they counted, read back from them. */
static int
rd_room(struct fungeon_json *r, const cJSON *o, struct fungeon_channel *c, int floor, int64_t rooms)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "budgets");
	struct fungeon_room *room = &c->d.room;
	struct fungeon_party p;

	fungeon_channel_party(c, &p);
	if (b == NULL) {
		fungeon_budgets(&p, floor, &room->budgets);
	} else if (fungeon_json_int(r, b, "traps", 0, FUNGEON_COST_MAX, &room->budgets.traps) ||
	           fungeon_json_int(r, b, "monsters", 0, FUNGEON_COST_MAX,
	                            &room->budgets.monsters) ||
	           fungeon_json_int(r, b, "treasure", 0, FUNGEON_COST_MAX,
	                            &room->budgets.treasure)) {
		return -1;
	}
	room->number = rooms;
	room->floor = floor;
	room->party.n = p.n;
	room->party.max = (int)(room->budgets.traps > floor ? room->budgets.traps - floor : 0);
	room->party.total =
	    (int)(room->budgets.monsters > floor ? room->budgets.monsters - floor : 0);
	room->party.min =
	    (int)(room->budgets.treasure > floor ? room->budgets.treasure - floor : 0);
	return 0;
}

int
fungeon_save_old_load(struct fungeon_channel *c, const cJSON *o, char *err, size_t errlen)
{
	struct fungeon_json r = {.err = err, .errlen = errlen, .where = "state"};
	const cJSON *party, *designs = cJSON_GetObjectItemCaseSensitive(o, "designs"), *x;
	char keys[FUNGEON_CAT_COUNT][FUNGEON_KEY_MAX];
	const char *key[FUNGEON_PARTY_MAX];
	const struct thwacko_style *chosen[FUNGEON_PARTY_MAX] = {NULL};
	int floor, rooms, n;
	struct fungeon_party p;

	if (fungeon_json_i(&r, o, "floor", 0, 99, &floor) ||
	    fungeon_json_i(&r, o, "rooms", 0, 1000000000, &rooms) || fungeon_save_rule(&r, o, c) ||
	    fungeon_json_array(&r, o, "party", FUNGEON_PARTY_MAX, false, &party, &n))
		return -1;
	c->m = fungeon_json_zeroed(n, sizeof(*c->m));
	c->style = fungeon_json_zeroed(n, sizeof(*c->style));
	cJSON_ArrayForEach(x, party)
	{
		if (fungeon_save_member(&r, x, true, &c->m[c->n++]) < 0)
			return -1;
	}
	for (int i = 0; i < c->n; i++)
		key[i] = c->m[i].user_key;
	thwacko_style_party(key, chosen, c->n, c->style);
	r.where = "state";
	if (!cJSON_IsObject(designs))
		return fungeon_json_bad(&r, "designs", "is missing");
	if (rd_holders(&r, o, c, keys) < 0 || rd_order(&r, o, c) < 0 ||
	    fungeon_save_keys(&r, o, c) < 0 ||
	    (cJSON_GetObjectItemCaseSensitive(o, "waived") != NULL &&
	     fungeon_json_str(&r, o, "waived", c->waived, sizeof(c->waived), false, true) < 0))
		return -1;
	fungeon_channel_party(c, &p);
	if (floor > FUNGEON_FLOOR_MAX)
		floor = FUNGEON_FLOOR_MAX; /* deeper than a floor whose replacements can level */
	if (floor == 0)
		floor = fungeon_floor(0, &p);
	if (rd_room(&r, o, c, floor, rooms) < 0)
		return -1;
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		const cJSON *arr = cJSON_GetObjectItemCaseSensitive(designs, kind_keys[k]);

		if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > FUNGEON_DESIGNS_MAX) {
			r.where = "state";
			return fungeon_json_bad(&r, kind_keys[k], "is not a list of at most 24");
		}
		cJSON_ArrayForEach(x, arr)
		{
			if (rd_design(&r, x, (enum fungeon_kind)k, c, keys) < 0)
				return -1;
		}
	}
	fill_effects(c, designs, keys);
	c->d.floor = floor;
	c->d.rooms = rooms;
	c->d.phase = rooms > 0 ? FUNGEON_ROOM : FUNGEON_TOWN;
	if (rooms > 0) {
		c->d.path[0] = (struct fungeon_step){.room = 1, .floor = floor};
		c->d.npath = 1;
	} else {
		fungeon_dungeon_clear(&c->d);
	}
	for (int i = 0; i < c->n; i++) /* the dead's treasure lies in the room */
		if (c->m[i].dead && c->d.phase != FUNGEON_TOWN)
			fungeon_room_leave_items(&c->d.room, &c->m[i]);
	return 0;
}
