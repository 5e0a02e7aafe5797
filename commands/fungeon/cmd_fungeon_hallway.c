/* /fungeon entrance, hallway, pick and enter: into the dungeon, between
 * rooms in the order of the rule text, who builds what, and into the room
 * they built. */
#include "commands/fungeon/cmd_fungeon_hallway.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/dice/rollchan.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/fungeon_render.h"
#include "rules/base/mem.h"

struct hall {
	struct fungeon_channel *c;
	const struct thwacko_style *styles;
	struct reply *out;
	int step;
	bool any;
	bool compact; /* fold an empty step into one line (/settings compact) */
};

/* Prints the headings up to step, "None." under empty ones; compact
 * output folds each empty step into "N. Heading: none.". */
static void
enter_step(struct hall *h, int step)
{
	static const char *const names[] = {"", "1. Replacements", "2. Level-ups",
	                                    "3. Continuous damage", "4. Category draw"};

	while (h->step < step) {
		if (h->step > 0 && !h->any)
			reply_line(h->out, RS_DIM, "None.");
		h->step++;
		h->any = false;
		if (h->compact && h->step < step) {
			reply_line(h->out, RS_DIM, "%s: none.", names[h->step]);
			h->any = true;
			continue;
		}
		reply_line(h->out, RS_BOLD, "%s", names[h->step]);
	}
	h->any = true;
}

/* The last value member group g rolled in a draw (after its tie
 * re-rolls). */
static int
final_die(const struct fungeon_draw *d, int g)
{
	int die = d->roll.g[g].v[0];

	for (int k = 0; k < d->rank.nrounds; k++)
		if (d->rank.round[k][g] != 0)
			die = d->rank.round[k][g];
	return die;
}

/* Round k of the tie re-rolls, one tied group after the other, the best
 * placed first: "Tie at 3, re-rolled: al ♥1, bo ◆6 · tie at 2: cy ●6,
 * di ▲5". */
static void
tie_line(struct reply *out, const struct fungeon_channel *c, const struct fungeon_draw *d,
         const struct thwacko_style *styles, int k)
{
	for (int g = 1; g <= d->n; g++) {
		bool first = true;

		for (int i = 0; i < d->n; i++) {
			int at = k == 0 ? d->rank.value[i] : d->rank.round[k - 1][i];

			if (d->rank.group[k][i] != g)
				continue;
			if (first && g == 1)
				reply_add(out, 0, "Tie at %d, re-rolled: ", at);
			else if (first)
				reply_add(out, 0, " · tie at %d: ", at);
			else
				reply_add(out, 0, ", ");
			first = false;
			reply_add(out, 0, "%s ", c->m[d->member[i]].player);
			reply_add_user(out, &styles[d->member[i]], RS_BOLD, "%d",
			               d->rank.round[k][i]);
		}
		if (first)
			break;
	}
	reply_nl(out);
}

/* Each player's die, the tie re-rolls and the order; a draw's group i is
 * member d->member[i]. Past the first three places, who chooses nothing,
 * in no order the roll decided. */
static void
draw_lines(struct reply *out, const struct fungeon_channel *c, const struct fungeon_draw *d,
           const struct thwacko_style *styles, const char *order_label)
{
	for (int i = 0; i < d->n; i++) {
		reply_add(out, 0, "%s: ", c->m[d->member[i]].player);
		reply_add_user(out, &styles[d->member[i]], RS_BOLD, "%d", d->roll.g[i].v[0]);
		reply_nl(out);
	}
	for (int k = 0; k < d->rank.nrounds; k++)
		tie_line(out, c, d, styles, k);
	if (order_label == NULL)
		return;
	reply_add(out, 0, "%s:", order_label);
	for (int i = 0; i < d->n && i < FUNGEON_CAT_COUNT; i++)
		reply_add(out, 0, "%s %d. %s", i ? "," : "", i + 1, c->m[d->order[i]].player);
	for (int i = FUNGEON_CAT_COUNT; i < d->n; i++)
		reply_add(out, 0, "%s %s",
		          i > FUNGEON_CAT_COUNT ? "," : "; no category:", c->m[d->order[i]].player);
	reply_nl(out);
}

static void
on_event(const struct fungeon_hall_event *ev, void *ctx)
{
	struct hall *h = ctx;
	const struct fungeon_member *m = ev->member >= 0 ? &h->c->m[ev->member] : NULL;
	struct reply *out = h->out;

	switch (ev->kind) {
	case FUNGEON_HALL_DUE: /* the hallway waits for it, so this is not reached */
		enter_step(h, 1);
		reply_line(out, 0, "%s's %s died: a new Fungeoneer is due at level %d.", m->player,
		           m->name, ev->level);
		break;
	case FUNGEON_HALL_FRESH:
		enter_step(h, 1);
		if (ev->was > 0)
			reply_line(
			    out, 0,
			    "%s's new Fungeoneer %s joins the party at level %d (floor %d - 1; "
			    "it was made at level %d, on the floor before).",
			    m->player, m->name, ev->level, h->c->d.floor, ev->was);
		else
			reply_line(out, 0, "%s's new Fungeoneer %s (level %d) joins the party.",
			           m->player, m->name, ev->level);
		break;
	case FUNGEON_HALL_LEVELUP:
		enter_step(h, 2);
		reply_add(out, RS_BOLD, "%s", m->name);
		reply_add(out, RS_GOOD, " level %d → %d", ev->up->from, ev->up->to);
		reply_add(out, 0, ": max hits %d → %d", ev->up->max_before, ev->up->max_after);
		if (ev->up->bonus_after != ev->up->bonus_before)
			reply_add(out, 0, ", class bonus %d → %d", ev->up->bonus_before,
			          ev->up->bonus_after);
		reply_add(out, 0, ", hits %d → %d (5 per level).", ev->up->hits_before,
		          ev->up->hits_after);
		reply_nl(out);
		break;
	case FUNGEON_HALL_HOLD_ENDS:
		enter_step(h, 3);
		reply_line(out, 0, "%s is free of %s's hold: a hold ends with the fight.", m->name,
		           ev->effect->source);
		break;
	case FUNGEON_HALL_CONT:
		enter_step(h, 3);
		fungeon_render_cont(out, h->c, ev->cont, h->styles, true);
		break;
	case FUNGEON_HALL_OUT:
		enter_step(h, 4);
		reply_line(out, RS_BAD,
		           "%s died in this hallway: %s is out until the next one and draws no "
		           "category.",
		           m->name, m->player);
		break;
	case FUNGEON_HALL_DRAW:
		enter_step(h, 4);
		draw_lines(out, h->c, ev->draw, h->styles, "Choosing order");
		break;
	case FUNGEON_HALL_NOBODY:
		enter_step(h, 4);
		reply_add(out, RS_BAD,
		          "No Fungeoneer is alive to draw a category: the players make new ones (");
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		reply_add(out, RS_BAD, ") before the next hallway.");
		reply_nl(out);
		break;
	}
}

/* The member whose player rolls for effect e: its maker, while in play. */
static int
roller_of(const struct fungeon_effect *e, void *ctx)
{
	const struct hall *h = ctx;

	return fungeon_rights_roller(h->c, e->maker);
}

/* Everything that keeps the party from starting the hallway: a dead
 * Fungeoneer not replaced yet (the new room's budgets count its
 * replacement). Returns 0, or -1 with an error reply. */
static int
may_start(const struct fungeon_channel *c, struct reply *out)
{
	if (c->n == 0) {
		reply_error(out, "No party here yet: ");
		fungeon_channel_join_how(out, RS_BAD, ".");
		return -1;
	}
	int dead, first = 0;
	struct buf b;

	buf_init(&b, 1024);
	/* every one of them named: "al's Al, bo's Bo and cy's Cy died" */
	if ((dead = fungeon_rights_fallen(c, &b)) == 0) {
		buf_free(&b);
		return 0;
	}
	while (!c->m[first].dead)
		first++;
	reply_error(out, "%s died: %s comes first in the hallway (", buf_str(&b),
	            dead == 1 ? "the new Fungeoneer" : "each new Fungeoneer");
	buf_free(&b);
	reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
	if (c->d.phase != FUNGEON_TOWN)
		reply_add(out, RS_BAD, ", at level %d",
		          fungeon_replacement_level(fungeon_channel_floor(c)));
	if (dead == 1)
		reply_add(out, RS_BAD, "), or %s leaves the party (", c->m[first].player);
	else
		reply_add(out, RS_BAD, "), or its player leaves the party (");
	reply_cmd(out, RS_BAD, "fungeon leave", NULL);
	reply_add(out, RS_BAD, ").");
	return -1;
}

/* Into the dungeon from town: a new dungeon, its entrance on Party Min
 * (hits stay as they are: a Ruling, /fungeon town session). */
static void
begin(struct fungeon_channel *c)
{
	struct fungeon_party p;

	fungeon_channel_party(c, &p);
	fungeon_dungeon_begin(&c->d, &p);
	fungeon_town_leave(c->m, c->n);
	fungeon_channel_fallen_clear(c);
	c->waived[0] = '\0';
}

void
cmd_fungeon_hallway(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	struct hall h = {
	    .c = c, .styles = styles, .out = out, .compact = rollchan_compact(inv->chan)};
	struct fungeon_hallway_out *ho;
	int first;
	bool dead[FUNGEON_PARTY_MAX], fresh = c->d.phase == FUNGEON_TOWN;
	bool leaving = c->d.phase == FUNGEON_ROOM, again = fungeon_dungeon_hallway_again(&c->d);

	if (!fungeon_channel_may(c, FUNGEON_ACT_HALLWAY, out) ||
	    !fungeon_rights_may_move(c, inv, FUNGEON_ACT_HALLWAY, out) || may_start(c, out) < 0)
		return;
	/* Leaving monsters or treasure behind is for good: asked first. */
	leaving = leaving && fungeon_render_anything_behind(&c->d.room);
	if (leaving && !invocation_bool(inv, "confirm", false)) {
		reply_add(out, 0, "Going on leaves ");
		fungeon_render_left_behind(out, &c->d.room, 0);
		if (c->d.room.stair && c->d.floor == c->d.room.floor) {
			reply_add(out, 0, " and its downward stair to floor %d, not taken (",
			          c->d.room.floor + 1);
			reply_cmd(out, 0, "fungeon stair", NULL);
			reply_add(out, 0, "),");
		}
		reply_add(out, 0, " behind for good. Go with ");
		reply_cmd(out, 0, "fungeon hallway", "confirm:", "true", NULL);
		reply_add(out, 0, ".");
		reply_nl(out);
		reply_button(out, "Go on", "fungeon hallway confirm:true");
		return;
	}
	if (fresh)
		begin(c);
	fungeon_channel_styles(c, inv->state, styles);
	reply_title(out, "Hallway: room %lld next, floor %d", (long long)(c->d.rooms + 1),
	            c->d.floor);
	if (again)
		reply_line(
		    out, RS_DIM,
		    "The hallway runs again for the new Fungeoneers: nobody was left to draw "
		    "a category when it ran; nothing rolled then is rolled again.");
	if (leaving) {
		reply_add(out, RS_DIM, "The party leaves ");
		fungeon_render_left_behind(out, &c->d.room, RS_DIM);
		reply_add(out, RS_DIM, ".");
		reply_nl(out);
	}
	ho = xmalloc(sizeof(*ho));
	fungeon_channel_dead_before(c, dead);
	fungeon_hallway(inv->rng, c->m, c->n, c->xp_rule, c->d.floor,
	                c->d.room.number > 0 ? c->d.room.party.min : 0, roller_of, on_event, &h,
	                ho);
	if (again) /* the room ahead keeps what the dead left in it */
		fungeon_dungeon_hallway_rerun(&c->d, &ho->counted, &ho->budgets, ho->stair);
	else
		fungeon_dungeon_hallway(&c->d, &ho->counted, &ho->budgets, ho->stair);
	fungeon_channel_new_room(c);
	fungeon_hallway_picks_start(&c->d.room.picks, &ho->draw);
	fungeon_channel_deaths(c, dead); /* into the new room, to plunder */
	channel_touch(inv->chan);
	if (ho->stair)
		reply_line(out, RS_BOLD,
		           "Party Min rose from %d to %d: whoever makes the Traps places a "
		           "downward stair to floor %d in the room.",
		           ho->min_from, ho->counted.min, c->d.floor + 1);
	else if (ho->rose)
		reply_line(out, RS_BOLD,
		           "Party Min rose from %d to %d, but floor %d is the deepest the bot "
		           "counts: no stair leads deeper.",
		           ho->min_from, ho->counted.min, c->d.floor);
	/* nobody drew: the budgets are counted when the hallway runs again */
	for (int k = 0; k < FUNGEON_KIND_COUNT && !fungeon_dungeon_hallway_again(&c->d); k++)
		fungeon_channel_budget_line(out, c, (enum fungeon_kind)k, 0);
	if (ho->draw.n == 0) {
		free(ho);
		return;
	}
	first = ho->draw.order[0];
	if (ho->draw.n == 1) {
		reply_add(out, 0, "A lone player makes the whole room: ");
		reply_add(out, RS_BOLD, "%s", c->m[first].player);
		reply_add(
		    out, 0,
		    " holds Traps, Monsters and Treasure, and so describes the room and draws "
		    "it on the map first.");
		reply_nl(out);
	} else {
		int g = 0;

		while (g < ho->draw.n && ho->draw.member[g] != first)
			g++;
		reply_add(out, 0, "Chooses a category first and narrates: ");
		reply_add(out, RS_BOLD, "%s", c->m[first].player);
		reply_add(out, 0, " (%s), Thwack-O ", c->m[first].name);
		reply_add_user(out, &styles[first], RS_BOLD, "%d", final_die(&ho->draw, g));
		reply_add(out, 0, ": ");
		reply_cmd(out, 0, "fungeon pick", "category", "traps|monsters|treasure", NULL);
		reply_add(out, 0, ".");
		reply_nl(out);
		reply_line(out, 0,
		           "Whoever takes Traps describes the room and draws it on the map before "
		           "anything is made.");
	}
	free(ho);
}

static enum fungeon_category
category_of(const char *word)
{
	return !strcmp(word, "traps")      ? FUNGEON_CAT_TRAPS
	       : !strcmp(word, "monsters") ? FUNGEON_CAT_MONSTERS
	                                   : FUNGEON_CAT_TREASURE;
}

void
cmd_fungeon_hallway_pick(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *who = invocation_str(inv, "who");
	enum fungeon_category k = category_of(invocation_str(inv, "category"));
	const char *names[FUNGEON_PARTY_MAX];
	struct fungeon_picks *p = &c->d.room.picks, next_p;
	char err[200];
	int i, next;

	if (!fungeon_channel_may(c, FUNGEON_ACT_PICK, out))
		return;
	i = who ? fungeon_channel_need_member(c, who, out) : fungeon_channel_need_self(c, inv, out);
	if (i < 0)
		return;
	if (fungeon_channel_member_of(c, inv->from->user_key) != i &&
	    !invocation_require_gm(inv, out))
		return;
	for (int m = 0; m < c->n; m++)
		names[m] = c->m[m].player;
	next_p = *p;
	if (fungeon_hallway_picks_choose(&next_p, i, k, names, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		return;
	}
	*p = next_p;
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "%s", c->m[i].player);
	reply_add(out, 0, " chooses %s", fungeon_hallway_category_name(k));
	if (k == FUNGEON_CAT_TRAPS)
		reply_add(out, 0, ", and so describes the room and draws it on the map first");
	reply_add(out, 0, ".");
	next = fungeon_hallway_picks_next(p);
	if (next >= 0) {
		reply_add(out, 0, " Next to choose: ");
		reply_add(out, RS_BOLD, "%s", c->m[next].player);
		reply_add(out, 0, ".");
	} else {
		for (int q = 0; q < FUNGEON_CAT_COUNT; q++)
			reply_add(out, 0, "%s%s: %s", q ? " · " : " ",
			          fungeon_hallway_category_name((enum fungeon_category)q),
			          p->holder[q] >= 0 ? c->m[p->holder[q]].player : "nobody");
		reply_add(out, 0, ".");
	}
	reply_nl(out);
}

void
cmd_fungeon_hallway_entrance(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	struct fungeon_draw *d;
	int idx[FUNGEON_PARTY_MAX], n = 0, first, g = 0;

	if (!fungeon_channel_may(c, FUNGEON_ACT_ENTRANCE, out) ||
	    !fungeon_rights_may_move(c, inv, FUNGEON_ACT_ENTRANCE, out) || may_start(c, out) < 0)
		return;
	for (int i = 0; i < c->n; i++)
		idx[n++] = i;
	begin(c);
	channel_touch(inv->chan);
	fungeon_channel_styles(c, inv->state, styles);
	d = xmalloc(sizeof(*d));
	fungeon_hallway_entrance(inv->rng, idx, n, d);
	reply_title(out, "The entrance: each player rolls, the highest describes it");
	draw_lines(out, c, d, styles, NULL);
	first = d->order[0];
	while (g < d->n && d->member[g] != first)
		g++;
	reply_add(out, 0, "Describes the entrance: ");
	reply_add(out, RS_BOLD, "%s", c->m[first].player);
	reply_add(out, 0, " (%s), Thwack-O ", c->m[first].name);
	reply_add_user(out, &styles[first], RS_BOLD, "%d", final_die(d, g));
	reply_add(out, 0, ". The entrance opens on floor %d (Party Min).", c->d.floor);
	reply_nl(out);
	free(d);
}

static const char *const cat_label[] = {"Traps", "Monsters", "Treasure"};

/* The points of category k left unspent in this room. */
static int64_t
left_of(const struct fungeon_channel *c, int k)
{
	return fungeon_channel_budget(c, (enum fungeon_kind)k) -
	       fungeon_channel_spent(c, (enum fungeon_kind)k);
}

/* Whether category k's points left stand waived (fungeon_room_waiver()). */
static bool
waived(const struct fungeon_channel *c, int k)
{
	struct fungeon_waiver why;

	return fungeon_room_waiver(&c->d.room, (enum fungeon_kind)k, left_of(c, k), &why) ==
	       FUNGEON_WAIVER_STANDS;
}

/* Appends "Traps 1 (di), Monsters 25 (bo)" for the categories with
 * points left that nobody waived; returns how many. */
static int
open_list(const struct fungeon_channel *c, char *buf, size_t len)
{
	const struct fungeon_room *r = &c->d.room;
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		int h = fungeon_room_holder(r, (enum fungeon_category)k), w;

		if (left_of(c, k) <= 0 || waived(c, k))
			continue;
		w = snprintf(buf + used, len - used, "%s%s %lld (%s)", n ? ", " : "", cat_label[k],
		             (long long)left_of(c, k), h >= 0 ? c->m[h].player : "nobody");
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
		n++;
	}
	return n;
}

/* Appends "di: Traps 1; bo: Monsters 25" (the waived points by waiver);
 * returns how many categories. */
static int
waived_list(const struct fungeon_channel *c, char *buf, size_t len)
{
	const struct fungeon_room *r = &c->d.room;
	size_t used = 0;
	int n = 0;
	bool done[FUNGEON_CAT_COUNT] = {false};

	buf[0] = '\0';
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		if (done[k] || left_of(c, k) <= 0 || !waived(c, k))
			continue;
		for (int j = k; j < FUNGEON_CAT_COUNT; j++) {
			int w;

			if (left_of(c, j) <= 0 || !waived(c, j) ||
			    strcmp(r->waived_by[j], r->waived_by[k]) != 0)
				continue;
			done[j] = true;
			w = j == k ? snprintf(buf + used, len - used, "%s%s: %s %lld",
			                      used ? "; " : "", r->waived_by[k], cat_label[j],
			                      (long long)left_of(c, j))
			           : snprintf(buf + used, len - used, ", %s %lld", cat_label[j],
			                      (long long)left_of(c, j));
			if (w < 0 || (size_t)w >= len - used)
				return n;
			used += (size_t)w;
			n++;
		}
	}
	return n;
}

int
cmd_fungeon_hallway_waived(const struct fungeon_channel *c, char *buf, size_t len)
{
	return waived_list(c, buf, len);
}

void
cmd_fungeon_hallway_waiver_check(struct fungeon_channel *c, enum fungeon_kind k, struct reply *out)
{
	struct fungeon_room *r = &c->d.room;
	struct fungeon_waiver why;

	if (c->d.phase != FUNGEON_HALLWAY)
		return;
	switch (fungeon_room_waiver(r, k, left_of(c, (int)k), &why)) {
	case FUNGEON_WAIVER_NONE:
		return;
	case FUNGEON_WAIVER_STANDS:
		if (why.reason != FUNGEON_WAIVER_BY_GM)
			reply_line(out, RS_DIM,
			           "%s's waiver stands: %s %lld left unspent, which no new %s can "
			           "use (one costs at least %lld here).",
			           r->waived_by[k], cat_label[k], (long long)why.left,
			           fungeon_cost_kind_name(k), (long long)why.cheapest);
		return;
	case FUNGEON_WAIVER_LAPSES:
		if (why.reason == FUNGEON_WAIVER_USABLE)
			reply_line(
			    out, RS_BAD,
			    "%s's waiver of %s lapses: the %lld left can buy a new %s (one "
			    "costs at least %lld here): spend them, and waive again only what "
			    "no new piece can use.",
			    r->waived_by[k], cat_label[k], (long long)why.left,
			    fungeon_cost_kind_name(k), (long long)why.cheapest);
		r->waived_by[k][0] = '\0';
		return;
	}
}

/* Whether the caller's waive:true would let category k's points go: left
 * over, not waived yet, and theirs (the GM: any). */
static bool
waivable(const struct invocation *inv, const struct fungeon_channel *c, int me, int k)
{
	const struct fungeon_room *r = &c->d.room;

	return left_of(c, k) > 0 && !waived(c, k) &&
	       (inv->is_gm || fungeon_room_holder(r, (enum fungeon_category)k) == me);
}

/* Appends "Monsters 2 can still buy a new monster (one costs at least 1
 * here)" for each category the caller would waive whose points a new
 * piece could still use; returns how many. */
static int
usable_list(const struct invocation *inv, const struct fungeon_channel *c, int me, char *buf,
            size_t len)
{
	const struct fungeon_room *r = &c->d.room;
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		int w;

		if (!waivable(inv, c, me, k) ||
		    !fungeon_room_left_usable(r, (enum fungeon_kind)k, left_of(c, k)))
			continue;
		w = snprintf(buf + used, len - used,
		             "%s%s %lld can still buy a new %s (one costs at least %lld here)",
		             n ? " and " : "", cat_label[k], (long long)left_of(c, k),
		             fungeon_cost_kind_name((enum fungeon_kind)k),
		             (long long)fungeon_room_cheapest(r, (enum fungeon_kind)k));
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
		n++;
	}
	return n;
}

/* waive:true: the caller lets the points left of the categories they hold
 * go unspent (the GM: every category's). The text has every point spent
 * (line 67); Ruling: a holder waives only points no new piece can use, and
 * the GM any, a correction outside the rules that says so. Returns how
 * many categories it waived now, or -1 (an error in out, nothing changed)
 * when it holds none of those with points left, or a new piece could
 * still use some of a holder's. */
static int
waive(struct invocation *inv, struct fungeon_channel *c, struct reply *out)
{
	struct fungeon_room *r = &c->d.room;
	int me = fungeon_channel_member_of(c, inv->from->user_key), n = 0;
	char open[160], usable[400];
	bool outside = usable_list(inv, c, me, usable, sizeof(usable)) > 0;

	if (outside && !inv->is_gm) {
		char spare[160];
		size_t used = 0;

		/* the caller's other categories, which could go once those are spent */
		spare[0] = '\0';
		for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
			int w;

			if (!waivable(inv, c, me, k) ||
			    fungeon_room_left_usable(r, (enum fungeon_kind)k, left_of(c, k)))
				continue;
			w = snprintf(spare + used, sizeof(spare) - used, "%s%s %lld",
			             used ? " and " : ", then ", cat_label[k],
			             (long long)left_of(c, k));
			if (w < 0 || (size_t)w >= sizeof(spare) - used)
				break;
			used += (size_t)w;
		}
		reply_error(
		    out,
		    "%s, and the text has every point spent: spend them first%s%s; a holder "
		    "waives only points no new piece can use (a Ruling), and the GM any, "
		    "outside the rules.",
		    usable, spare, used ? " may go" : "");
		return -1;
	}
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		if (!waivable(inv, c, me, k))
			continue;
		snprintf(r->waived_by[k], sizeof(r->waived_by[k]), "%s", inv->from->user_name);
		r->waived_gm[k] =
		    inv->is_gm &&
		    (fungeon_room_holder(r, (enum fungeon_category)k) != me ||
		     fungeon_room_left_usable(r, (enum fungeon_kind)k, left_of(c, k)));
		n++;
	}
	if (outside)
		reply_line(out, RS_BAD,
		           "The GM lets points go, outside the rules (the text has every point "
		           "spent): %s.",
		           usable);
	if (n == 0 && open_list(c, open, sizeof(open)) > 0) {
		reply_error(
		    out,
		    "Only a category's holder waives its points (a Ruling; the GM may waive "
		    "any): %s.",
		    open);
		return -1;
	}
	return n;
}

void
cmd_fungeon_hallway_enter(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const struct fungeon_room *r = &c->d.room;
	int next = fungeon_hallway_picks_next(&r->picks), now = 0;
	char open[160], waived[200];

	if (!fungeon_channel_may(c, FUNGEON_ACT_ENTER, out) ||
	    !fungeon_rights_may_move(c, inv, FUNGEON_ACT_ENTER, out))
		return;
	if (next >= 0) {
		reply_error(out, "The categories are not all chosen: %s chooses next (",
		            c->m[next].player);
		reply_cmd(out, RS_BAD, "fungeon pick", "category", "CATEGORY", NULL);
		reply_add(out, RS_BAD, ").");
		return;
	}
	if (invocation_bool(inv, "waive", false) && (now = waive(inv, c, out)) < 0)
		return;
	if (open_list(c, open, sizeof(open)) > 0) {
		if (now == 0) {
			reply_error(out,
			            "Room %lld's points are not all spent (left: %s), and the text "
			            "says every point is spent; each holder spends theirs, or lets "
			            "go what no new piece can use with ",
			            (long long)r->number, open);
			reply_cmd(out, RS_BAD, "fungeon enter", "waive:", "true", NULL);
			reply_add(out, RS_BAD, ".");
			return;
		}
		channel_touch(inv->chan);
		waived_list(c, waived, sizeof(waived));
		reply_line(out, RS_BAD, "Points left unspent, waived by %s.", waived);
		reply_add(out, 0,
		          "The party goes in once the rest is spent or waived by its holders "
		          "(left: %s) with ",
		          open);
		reply_cmd(out, 0, "fungeon enter", "waive:", "true", NULL);
		reply_add(out, 0, ".");
		reply_nl(out);
		return;
	}
	if (waived_list(c, waived, sizeof(waived)) > 0) {
		snprintf(c->waived, sizeof(c->waived),
		         "room %lld: points left unspent, waived by %.200s", (long long)r->number,
		         waived);
		reply_line(out, RS_BAD, "Points left unspent, waived by %s.", waived);
	}
	fungeon_dungeon_enter(&c->d);
	channel_touch(inv->chan);
	reply_add(out, 0, "The party enters ");
	reply_add(out, RS_BOLD, "room %lld", (long long)r->number);
	reply_add(out, 0, " on floor %d: %d trap%s, %d monster%s, %d treasure%s.", r->floor,
	          r->n[FUNGEON_TRAP], r->n[FUNGEON_TRAP] == 1 ? "" : "s", r->n[FUNGEON_MONSTER],
	          r->n[FUNGEON_MONSTER] == 1 ? "" : "s", r->n[FUNGEON_TREASURE],
	          r->n[FUNGEON_TREASURE] == 1 ? "" : "s");
	reply_nl(out);
	if (r->stair) {
		reply_add(out, 0, "A downward stair leads on to floor %d: take it with ",
		          r->floor + 1);
		reply_cmd(out, 0, "fungeon stair", NULL);
		reply_add(out, 0, " before the next hallway.");
		reply_nl(out);
	}
	if (fungeon_room_standing(r) > 0) {
		reply_add(out, 0, "Combat is sure to follow: ");
		reply_cmd(out, 0, "fungeon combat", NULL);
		reply_add(out, 0, ".");
		reply_nl(out);
	}
}
