/* fungeon_room: a dungeon's life cycle and its room; see fungeon_room.h. */
#include "rules/fungeon/fungeon_room.h"
#include "rules/base/utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const phase_names[FUNGEON_PHASE_COUNT] = {"town", "entrance", "hallway", "room",
                                                             "retreat"};
static const char *const trap_names[FUNGEON_TRAP_STATE_COUNT] = {"hidden", "found", "disarmed",
                                                                 "sprung"};

const char *
fungeon_phase_name(enum fungeon_phase p)
{
	return (int)p >= 0 && p < FUNGEON_PHASE_COUNT ? phase_names[p] : "?";
}

int
fungeon_phase_parse(const char *name)
{
	for (int i = 0; i < FUNGEON_PHASE_COUNT; i++)
		if (strcmp(name, phase_names[i]) == 0)
			return i;
	return -1;
}

const char *
fungeon_trap_state_name(enum fungeon_trap_state s)
{
	return (int)s >= 0 && s < FUNGEON_TRAP_STATE_COUNT ? trap_names[s] : "?";
}

int
fungeon_trap_state_parse(const char *name)
{
	for (int i = 0; i < FUNGEON_TRAP_STATE_COUNT; i++)
		if (strcmp(name, trap_names[i]) == 0)
			return i;
	return -1;
}

static int refuse(struct fungeon_refusal *r, enum fungeon_act instead, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
refuse(struct fungeon_refusal *r, enum fungeon_act instead, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	r->instead = instead;
	return -1;
}

void
fungeon_dungeon_where(const struct fungeon_dungeon *d, char *buf, size_t len)
{
	switch (d->phase) {
	case FUNGEON_TOWN:
		snprintf(buf, len, "in town");
		return;
	case FUNGEON_ENTRANCE:
		snprintf(buf, len, "at the dungeon's entrance, on floor %d", d->floor);
		return;
	case FUNGEON_HALLWAY:
		snprintf(buf, len, "in the hallway before room %lld, on floor %d",
		         (long long)d->room.number, d->room.floor);
		return;
	case FUNGEON_ROOM:
		snprintf(buf, len, "in room %lld on floor %d", (long long)d->room.number,
		         d->room.floor);
		return;
	case FUNGEON_RETREAT:
		if (d->back > 0)
			snprintf(buf, len, "heading back to town, in room %lld on floor %d",
			         (long long)d->back, d->room.floor);
		else
			snprintf(buf, len, "heading back to town");
		return;
	case FUNGEON_PHASE_COUNT:
		break;
	}
	snprintf(buf, len, "nowhere");
}

const char *
fungeon_dungeon_town_words(enum fungeon_act a)
{
	/* worded as a refusal from its first words: "A new game session
	 * begins" alone is the success reply's opening */
	switch (a) {
	case FUNGEON_ACT_TRADE:
		return "Treasure is traded in town";
	case FUNGEON_ACT_HEALER:
		return "The healer is found only in town";
	case FUNGEON_ACT_SESSION:
		return "No new game session begins outside town";
	default:
		return NULL;
	}
}

/* The refusal of what needs the room ahead while its hallway waits to
 * run again (nobody was left to draw). */
static int
room_waits(const struct fungeon_dungeon *d, struct fungeon_refusal *r)
{
	return refuse(r, FUNGEON_ACT_HALLWAY,
	              "Nobody drew a category for room %lld, the whole party having died in its "
	              "hallway: once each player whose Fungeoneer died has made a new one, the "
	              "hallway runs again with",
	              (long long)d->room.number);
}

/* The refusals of actions that need a room to be in. */
static int
need_room(const struct fungeon_dungeon *d, const char *what, struct fungeon_refusal *r)
{
	if (fungeon_dungeon_hallway_again(d))
		return room_waits(d, r);
	switch (d->phase) {
	case FUNGEON_TOWN:
		return refuse(r, FUNGEON_ACT_HALLWAY,
		              "The party is in town, and %s needs a room: into the dungeon with",
		              what);
	case FUNGEON_ENTRANCE:
		return refuse(r, FUNGEON_ACT_HALLWAY,
		              "The party is at the entrance, and %s needs a room: the first "
		              "hallway comes first with",
		              what);
	case FUNGEON_HALLWAY:
		return refuse(r, FUNGEON_ACT_ENTER,
		              "The party is in the hallway before room %lld, and %s needs the "
		              "room: once its designs are made, go in with",
		              (long long)d->room.number, what);
	default:
		return 0;
	}
}

int
fungeon_dungeon_may(const struct fungeon_dungeon *d, enum fungeon_act a, struct fungeon_refusal *r)
{
	char where[96];

	fungeon_dungeon_where(d, where, sizeof(where));
	switch (a) {
	case FUNGEON_ACT_NONE:
	case FUNGEON_ACT_JOIN:
		return 0;
	case FUNGEON_ACT_ENTRANCE:
		if (d->phase == FUNGEON_TOWN)
			return 0;
		return refuse(r, FUNGEON_ACT_NONE,
		              "The entrance is described before a dungeon begins, and the party "
		              "is %s; the next dungeon starts from town.",
		              where);
	case FUNGEON_ACT_HALLWAY:
		if (d->phase == FUNGEON_HALLWAY && !fungeon_dungeon_hallway_again(d))
			return refuse(r, FUNGEON_ACT_ENTER,
			              "The hallway before room %lld has run already; make its "
			              "designs, then go in with",
			              (long long)d->room.number);
		if (d->phase == FUNGEON_RETREAT)
			return refuse(r, FUNGEON_ACT_RETREAT,
			              "The party is heading back to town, where no hallway leads; "
			              "go on back with");
		return 0;
	case FUNGEON_ACT_PICK:
	case FUNGEON_ACT_DESIGN:
	case FUNGEON_ACT_ENTER:
		if (fungeon_dungeon_hallway_again(d))
			return room_waits(d, r);
		if (d->phase == FUNGEON_HALLWAY)
			return 0;
		if (d->phase == FUNGEON_ROOM)
			return refuse(r, FUNGEON_ACT_HALLWAY,
			              "The party is %s, and rooms are made in the hallway before "
			              "them; on to the next with",
			              where);
		if (d->phase == FUNGEON_RETREAT)
			return refuse(r, FUNGEON_ACT_RETREAT,
			              "The party is %s, and no rooms are made on the way back; go "
			              "on back with",
			              where);
		return refuse(r, FUNGEON_ACT_HALLWAY,
		              "The party is %s, and rooms are made in the hallway; start it with",
		              where);
	case FUNGEON_ACT_WANDERER:
		if (d->phase == FUNGEON_RETREAT)
			return 0;
		return refuse(r, FUNGEON_ACT_NONE,
		              "Wandering monsters are built on the way back to town, and the party "
		              "is %s.",
		              where);
	case FUNGEON_ACT_TRAP:
		if (d->phase == FUNGEON_ROOM)
			return 0;
		if (d->phase == FUNGEON_RETREAT)
			return refuse(r, FUNGEON_ACT_NONE,
			              "The party is %s, and a room re-entered holds no traps: only "
			              "wandering monsters.",
			              where);
		return need_room(d, "a trap", r);
	case FUNGEON_ACT_COMBAT:
		if (d->phase == FUNGEON_ROOM || d->phase == FUNGEON_RETREAT)
			return 0;
		return need_room(d, "a fight", r);
	case FUNGEON_ACT_TAKE:
		if (d->phase == FUNGEON_ROOM)
			return 0;
		if (d->phase == FUNGEON_RETREAT)
			return refuse(r, FUNGEON_ACT_NONE,
			              "The party is %s, and a room re-entered holds no treasure "
			              "but what the dead left.",
			              where);
		return need_room(d, "treasure", r);
	case FUNGEON_ACT_PLUNDER:
		if (d->phase == FUNGEON_ROOM || d->phase == FUNGEON_RETREAT)
			return 0;
		if (d->phase == FUNGEON_HALLWAY) /* one who died here left it in the room ahead */
			return need_room(d, "what the dead left", r);
		return refuse(r, FUNGEON_ACT_NONE,
		              "The party is %s, where nothing is left to plunder.", where);
	case FUNGEON_ACT_RETREAT:
		if (d->phase == FUNGEON_TOWN)
			return refuse(r, FUNGEON_ACT_NONE, "The party is in town already.");
		return 0;
	case FUNGEON_ACT_TRADE:
	case FUNGEON_ACT_HEALER:
	case FUNGEON_ACT_SESSION: {
		const char *what = fungeon_dungeon_town_words(a);

		if (d->phase == FUNGEON_TOWN)
			return 0;
		if (d->phase == FUNGEON_RETREAT)
			return refuse(r, FUNGEON_ACT_RETREAT,
			              "%s, and the party is still on its way there, in room "
			              "%lld; go on back with",
			              what, (long long)d->room.number);
		return refuse(r, FUNGEON_ACT_RETREAT,
		              "%s, and the party is %s; head back first with", what, where);
	}
	case FUNGEON_ACT_FLOOR:
		if (d->phase == FUNGEON_ENTRANCE || d->phase == FUNGEON_ROOM)
			return 0;
		if (d->phase == FUNGEON_HALLWAY)
			return refuse(r, FUNGEON_ACT_ENTER,
			              "Room %lld is being made on floor %d, and its budgets count "
			              "that floor; change floors from inside the room, after",
			              (long long)d->room.number, d->room.floor);
		return refuse(r, FUNGEON_ACT_NONE,
		              "The floor is set at the entrance or from a room, and the party is "
		              "%s.",
		              where);
	case FUNGEON_ACT_STAIR:
		if (d->phase == FUNGEON_ROOM)
			return 0;
		if (d->phase == FUNGEON_HALLWAY)
			return refuse(
			    r, FUNGEON_ACT_ENTER,
			    "The party is in the hallway before room %lld, and a stair is "
			    "taken from the room it is in: go in with",
			    (long long)d->room.number);
		return refuse(r, FUNGEON_ACT_NONE,
		              "A downward stair is taken from the room it is in, and the party is "
		              "%s.",
		              where);
	}
	return 0;
}

void
fungeon_room_clear(struct fungeon_room *r)
{
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		free(r->p[k]);
	memset(r, 0, sizeof(*r));
	for (int c = 0; c < FUNGEON_CAT_COUNT; c++)
		r->picks.holder[c] = -1;
}

void
fungeon_dungeon_clear(struct fungeon_dungeon *d)
{
	fungeon_room_clear(&d->room);
	memset(d, 0, sizeof(*d));
	fungeon_room_clear(&d->room);
}

void
fungeon_dungeon_begin(struct fungeon_dungeon *d, const struct fungeon_party *p)
{
	fungeon_dungeon_clear(d);
	d->phase = FUNGEON_ENTRANCE;
	d->floor = fungeon_floor(0, p);
}

bool
fungeon_dungeon_entrance_follows(struct fungeon_dungeon *d, const struct fungeon_party *p)
{
	int floor;

	if (d->phase != FUNGEON_ENTRANCE || d->rooms > 0 || p->n == 0)
		return false;
	floor = fungeon_floor(0, p);
	if (floor == d->floor)
		return false;
	d->floor = floor;
	return true;
}

void
fungeon_dungeon_hallway(struct fungeon_dungeon *d, const struct fungeon_party *after,
                        const struct fungeon_budgets *b, bool stair)
{
	fungeon_room_clear(&d->room);
	d->phase = FUNGEON_HALLWAY;
	d->room.number = d->rooms + 1;
	d->room.floor = d->floor;
	d->room.party = *after;
	d->room.budgets = *b;
	d->room.stair = stair;
}

bool
fungeon_dungeon_hallway_again(const struct fungeon_dungeon *d)
{
	return d->phase == FUNGEON_HALLWAY && d->room.picks.n == 0;
}

void
fungeon_dungeon_hallway_rerun(struct fungeon_dungeon *d, const struct fungeon_party *after,
                              const struct fungeon_budgets *b, bool stair)
{
	d->room.party = *after;
	d->room.budgets = *b;
	d->room.stair = d->room.stair || stair;
}

void
fungeon_dungeon_enter(struct fungeon_dungeon *d)
{
	d->phase = FUNGEON_ROOM;
	d->rooms = d->room.number;
	if (d->npath == 0 || d->path[d->npath - 1].floor != d->room.floor) {
		if (d->npath == FUNGEON_PATH_MAX) { /* set_floor() keeps one free */
			memmove(&d->path[0], &d->path[1],
			        (FUNGEON_PATH_MAX - 1) * sizeof(d->path[0]));
			d->npath--;
		}
		d->path[d->npath].room = d->room.number;
		d->path[d->npath].floor = d->room.floor;
		d->npath++;
	}
}

int
fungeon_dungeon_floor_of(const struct fungeon_dungeon *d, int64_t n)
{
	int f = d->npath > 0 ? d->path[0].floor : d->floor;

	for (int i = 0; i < d->npath && d->path[i].room <= n; i++)
		f = d->path[i].floor;
	return f;
}

int
fungeon_dungeon_set_floor(struct fungeon_dungeon *d, int floor, char *err, size_t errlen)
{
	if (floor != d->floor && d->npath >= FUNGEON_PATH_MAX - 1) {
		snprintf(err, errlen,
		         "This dungeon's floor has changed %d times, the most the bot remembers "
		         "for the way back; head back to town before going deeper.",
		         FUNGEON_PATH_MAX - 1);
		return -1;
	}
	d->floor = floor;
	return 0;
}

int
fungeon_dungeon_take_stair(struct fungeon_dungeon *d, char *err, size_t errlen)
{
	const struct fungeon_room *r = &d->room;

	if (d->phase != FUNGEON_ROOM) {
		snprintf(err, errlen,
		         "A downward stair is taken from the room it is in, and the "
		         "party is in none.");
		return -1;
	}
	if (!r->stair && r->floor >= FUNGEON_FLOOR_MAX) {
		snprintf(err, errlen,
		         "Room %lld is on floor %d, the deepest the bot counts, and no downward "
		         "stair leads deeper, whatever Party Min did.",
		         (long long)r->number, r->floor);
		return -1;
	}
	if (!r->stair) {
		snprintf(err, errlen,
		         "Room %lld has no downward stair: the Traps player places one only when "
		         "Party Min rose in the hallway before the room.",
		         (long long)r->number);
		return -1;
	}
	if (d->floor > r->floor) {
		snprintf(err, errlen,
		         "The party took room %lld's stair already: the rooms to come are on "
		         "floor %d.",
		         (long long)r->number, d->floor);
		return -1;
	}
	if (r->floor >= FUNGEON_FLOOR_MAX) {
		snprintf(err, errlen,
		         "Floor %d is the deepest the bot counts (a replacement there joins at "
		         "level %d, the highest); the stair leads nowhere deeper.",
		         FUNGEON_FLOOR_MAX, FUNGEON_LEVEL_MAX);
		return -1;
	}
	return fungeon_dungeon_set_floor(d, r->floor + 1, err, errlen);
}

int64_t
fungeon_dungeon_next_back(const struct fungeon_dungeon *d)
{
	switch (d->phase) {
	case FUNGEON_ROOM:
		return d->rooms - 1; /* the party is in room rooms */
	case FUNGEON_HALLWAY:
		return d->rooms; /* the room it came from */
	case FUNGEON_RETREAT:
		return d->back > 0 ? d->back - 1 : 0;
	default:
		return 0;
	}
}

void
fungeon_dungeon_reenter(struct fungeon_dungeon *d, int64_t n)
{
	struct fungeon_piece *kept = NULL;
	int nkept = 0;

	for (int i = 0; d->phase == FUNGEON_HALLWAY && i < d->room.n[FUNGEON_TREASURE]; i++) {
		const struct fungeon_piece *p = &d->room.p[FUNGEON_TREASURE][i];

		if (!p->left || p->taken[0] != '\0')
			continue;
		kept = fungeon_array_grow(kept, nkept, sizeof(*kept));
		kept[nkept++] = *p;
	}
	fungeon_room_clear(&d->room);
	d->phase = FUNGEON_RETREAT;
	d->back = n;
	d->room.number = n;
	d->room.floor = fungeon_dungeon_floor_of(d, n);
	d->room.p[FUNGEON_TREASURE] = kept;
	d->room.n[FUNGEON_TREASURE] = nkept;
}

void
fungeon_dungeon_town(struct fungeon_dungeon *d)
{
	fungeon_dungeon_clear(d);
}

struct fungeon_piece *
fungeon_room_add(struct fungeon_room *r, enum fungeon_kind k)
{
	r->p[k] = fungeon_array_grow(r->p[k], r->n[k], sizeof(*r->p[k]));
	return &r->p[k][r->n[k]++];
}

void
fungeon_room_remove(struct fungeon_room *r, enum fungeon_kind k, int i)
{
	if (i < 0 || i >= r->n[k])
		return;
	r->p[k] = fungeon_array_drop(r->p[k], r->n[k], i, sizeof(*r->p[k]));
	r->n[k]--;
}

struct fungeon_piece *
fungeon_room_find(const struct fungeon_room *r, enum fungeon_kind k, const char *name)
{
	for (int i = 0; i < r->n[k]; i++)
		if (utf8_casecmp(r->p[k][i].name, name) == 0)
			return &r->p[k][i];
	return NULL;
}

/* Whether piece p of kind k was paid from the room's budget: all but the
 * wandering monsters and the treasure the dead brought in (which has no
 * maker: nobody made it for this room). */
static bool
paid(const struct fungeon_piece *p, enum fungeon_kind k)
{
	return !(k == FUNGEON_TREASURE && p->left && p->maker[0] == '\0') &&
	       !(k == FUNGEON_MONSTER && p->wanderer);
}

int64_t
fungeon_room_spent(const struct fungeon_room *r, enum fungeon_kind k)
{
	int64_t s = 0;

	for (int i = 0; i < r->n[k]; i++)
		if (paid(&r->p[k][i], k))
			s += r->p[k][i].cost;
	return s;
}

int
fungeon_room_made(const struct fungeon_room *r, enum fungeon_kind k)
{
	int n = 0;

	for (int i = 0; i < r->n[k]; i++)
		n += paid(&r->p[k][i], k);
	return n;
}

int64_t
fungeon_room_cheapest(const struct fungeon_room *r, enum fungeon_kind k)
{
	if (k == FUNGEON_TRAP)
		return 2;
	if (k == FUNGEON_MONSTER)
		return r->floor > 1 ? r->floor : 1;
	return 1;
}

bool
fungeon_room_left_usable(const struct fungeon_room *r, enum fungeon_kind k, int64_t left)
{
	return left >= fungeon_room_cheapest(r, k) && fungeon_room_made(r, k) < FUNGEON_DESIGNS_MAX;
}

enum fungeon_waiver_verdict
fungeon_room_waiver(const struct fungeon_room *r, enum fungeon_kind k, int64_t left,
                    struct fungeon_waiver *why)
{
	if (r->waived_by[k][0] == '\0')
		return FUNGEON_WAIVER_NONE;
	why->left = left;
	why->cheapest = fungeon_room_cheapest(r, k);
	if (r->waived_gm[k]) {
		why->reason = FUNGEON_WAIVER_BY_GM;
		return FUNGEON_WAIVER_STANDS;
	}
	if (left <= 0) {
		why->reason = FUNGEON_WAIVER_NOTHING_LEFT;
		return FUNGEON_WAIVER_LAPSES;
	}
	if (fungeon_room_left_usable(r, k, left)) {
		why->reason = FUNGEON_WAIVER_USABLE;
		return FUNGEON_WAIVER_LAPSES;
	}
	why->reason = left < why->cheapest ? FUNGEON_WAIVER_TOO_FEW : FUNGEON_WAIVER_ROOM_FULL;
	return FUNGEON_WAIVER_STANDS;
}

bool
fungeon_room_hold_over(const struct fungeon_room *r, const struct fungeon_effect *e)
{
	const char *slash = strchr(e->source, '/');
	char name[FUNGEON_NAME_MAX + 1];
	const struct fungeon_piece *p;

	if (e->kind != FUNGEON_EFFECT_HOLD || e->from != FUNGEON_FROM_MONSTER)
		return false;
	snprintf(name, sizeof(name), "%.*s",
	         slash != NULL ? (int)(slash - e->source) : (int)strlen(e->source), e->source);
	p = fungeon_room_find(r, FUNGEON_MONSTER, name);
	return p == NULL || p->hits <= 0;
}

int
fungeon_room_standing(const struct fungeon_room *r)
{
	int n = 0;

	for (int i = 0; i < r->n[FUNGEON_MONSTER]; i++)
		n += r->p[FUNGEON_MONSTER][i].hits > 0;
	return n;
}

/* Whether a piece of any kind in r is called name. */
static bool
name_in_room(const struct fungeon_room *r, const char *name)
{
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		if (fungeon_room_find(r, (enum fungeon_kind)k, name) != NULL)
			return true;
	return false;
}

void
fungeon_room_leave_items(struct fungeon_room *r, struct fungeon_member *m)
{
	while (m->nitems > 0) {
		struct fungeon_piece *t = fungeon_room_find(r, FUNGEON_TREASURE, m->items[0].name);
		char name[FUNGEON_NAME_MAX + 1];

		if (t != NULL &&
		    strcmp(t->taken, m->name) == 0) { /* taken here: it lies here again */
			t->taken[0] = '\0';
			t->left = true;
			snprintf(t->by, sizeof(t->by), "%s", m->dead ? "" : m->name);
			fungeon_item_remove(m, 0);
			continue;
		}
		snprintf(name, sizeof(name), "%s", m->items[0].name);
		for (int k = 2; name_in_room(r, name) && k < 1000; k++)
			fungeon_numbered_name(m->items[0].name, k, name);
		t = fungeon_room_add(r, FUNGEON_TREASURE);
		snprintf(t->name, sizeof(t->name), "%s", name);
		t->d = m->items[0].d;
		t->cost = m->items[0].cost;
		t->left = true;
		snprintf(t->by, sizeof(t->by), "%s", m->dead ? "" : m->name);
		fungeon_item_remove(m, 0);
	}
}

/* Index i of a member list after member `gone` left: -1 when it was gone. */
static int
shift(int i, int gone)
{
	return i == gone ? -1 : i > gone ? i - 1 : i;
}

void
fungeon_room_member_gone(struct fungeon_room *r, int gone)
{
	struct fungeon_picks *p = &r->picks;
	int n = 0;

	for (int i = 0; i < p->n; i++) {
		int v = shift(p->order[i], gone);

		if (v >= 0)
			p->order[n++] = v;
	}
	p->n = n;
	/* What it held goes to the highest roller left, so that every
	 * category chosen keeps a holder. */
	for (int c = 0; c < FUNGEON_CAT_COUNT; c++)
		if (p->holder[c] >= 0)
			p->holder[c] = p->holder[c] == gone ? (n > 0 ? p->order[0] : -1)
			                                    : shift(p->holder[c], gone);
	for (int i = 0; i < r->n[FUNGEON_TRAP]; i++) {
		uint32_t u = r->p[FUNGEON_TRAP][i].unaware;
		uint32_t low = u & ((1u << gone) - 1u), high = u >> (gone + 1);

		r->p[FUNGEON_TRAP][i].unaware = low | (high << gone);
	}
}

int
fungeon_room_holder(const struct fungeon_room *r, enum fungeon_category c)
{
	return r->number > 0 ? r->picks.holder[c] : -1;
}

enum fungeon_treasure_gate
fungeon_room_treasure_gate(const struct fungeon_room *r, const struct fungeon_piece **guard)
{
	bool guarded = false;

	for (int i = 0; i < r->n[FUNGEON_TRAP]; i++) {
		const struct fungeon_piece *t = &r->p[FUNGEON_TRAP][i];

		if (!t->d.guards)
			continue;
		guarded = true;
		if (!t->passed) {
			*guard = t;
			return FUNGEON_TREASURE_GUARDED;
		}
	}
	if (!guarded && fungeon_room_standing(r) > 0)
		return FUNGEON_TREASURE_MONSTERS;
	return FUNGEON_TREASURE_OPEN;
}
