/* /fungeon hallway and pick: between rooms, in the order of RULES.md, and
 * who builds what. */
#include "commands/fungeon/cmd_fungeon_hallway.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/dice/rollchan.h"
#include "rules/base/mem.h"

struct hall {
	struct fungeon_channel *c;
	const struct thwacko_style *styles;
	struct reply *out;
	int step;
	bool any;
	bool compact;  /* fold an empty step into one line (/settings compact) */
	int first;     /* who picks first (narrates), -1 before the draw */
	int first_die; /* their final Thwack-O value */
	char stair[200];
	struct fungeon_picks picks;
};

/* Prints the headings up to step, "None." under empty ones; compact
 * output folds each empty step into "N. Heading: none.". */
static void
enter(struct hall *h, int step)
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

static void
draw_lines(struct hall *h, const struct fungeon_draw *d)
{
	struct fungeon_channel *c = h->c;
	struct reply *out = h->out;

	for (int i = 0; i < d->n; i++) {
		reply_add(out, 0, "%s: ", c->m[i].player);
		reply_add_user(out, &h->styles[i], RS_BOLD, "%d", d->roll.g[i].v[0]);
		reply_nl(out);
	}
	for (int k = 0; k < d->rank.nrounds; k++) {
		reply_add(out, 0, "Tied, re-rolled:");
		for (int i = 0; i < d->n; i++) {
			if (d->rank.round[k][i] == 0)
				continue;
			reply_add(out, 0, " %s ", c->m[i].player);
			reply_add_user(out, &h->styles[i], RS_BOLD, "%d", d->rank.round[k][i]);
		}
		reply_nl(out);
	}
	reply_add(out, 0, "Pick order:");
	for (int i = 0; i < d->n; i++)
		reply_add(out, 0, "%s %d. %s", i ? "," : "", i + 1, c->m[d->rank.order[i]].player);
	reply_nl(out);
	fungeon_hallway_picks_start(&h->picks, d);
	h->first = d->rank.order[0];
	h->first_die = d->roll.g[h->first].v[0];
	for (int k = 0; k < d->rank.nrounds; k++)
		if (d->rank.round[k][h->first] != 0)
			h->first_die = d->rank.round[k][h->first];
}

static void
on_event(const struct fungeon_hall_event *ev, void *ctx)
{
	struct hall *h = ctx;
	const struct fungeon_member *m = ev->member >= 0 ? &h->c->m[ev->member] : NULL;
	struct reply *out = h->out;

	switch (ev->kind) {
	case FUNGEON_HALL_DUE:
		enter(h, 1);
		reply_add(out, 0, "%s's %s died: make a new Fungeoneer at level %d with ",
		          m->player, m->name, ev->level);
		reply_cmd(out, 0, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		reply_line(out, 0, ".");
		break;
	case FUNGEON_HALL_FRESH:
		enter(h, 1);
		reply_line(out, 0, "%s's new Fungeoneer %s (level %d) joins the party.", m->player,
		           m->name, ev->level);
		break;
	case FUNGEON_HALL_LEVELUP:
		enter(h, 2);
		reply_add(out, RS_BOLD, "%s", m->name);
		reply_add(out, RS_GOOD, " level %d → %d", ev->up->from, ev->up->to);
		reply_add(out, 0,
		          ": max hits %d → %d, class bonus %d → %d, hits %d → %d (5 per "
		          "level).",
		          ev->up->max_before, ev->up->max_after, ev->up->bonus_before,
		          ev->up->bonus_after, ev->up->hits_before, ev->up->hits_after);
		reply_nl(out);
		break;
	case FUNGEON_HALL_HOLD_ENDS:
		enter(h, 3);
		reply_line(out, 0, "%s is free of %s: holds end with the fight.", m->name,
		           ev->effect->source);
		break;
	case FUNGEON_HALL_CONT:
		enter(h, 3);
		fungeon_render_cont(out, h->c, ev->cont, h->styles);
		break;
	case FUNGEON_HALL_DRAW:
		enter(h, 4);
		draw_lines(h, ev->draw);
		break;
	case FUNGEON_HALL_STAIR:
		snprintf(h->stair, sizeof(h->stair),
		         "Party Min rose from %d to %d: whoever chooses Traps must place a "
		         "downward stair.",
		         ev->level, ev->to);
		break;
	}
}

/* A new room: the old room's designs no longer count against its budgets;
 * treasure taken and monsters defeated are cleared away. */
static void
new_room(struct fungeon_channel *c)
{
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		for (int i = 0; i < c->nd[k];) {
			struct fungeon_stored *s = &c->d[k][i];

			if ((k == FUNGEON_TREASURE && s->taken[0]) ||
			    (k == FUNGEON_MONSTER && s->hits == 0)) {
				fungeon_channel_design_remove(c, (enum fungeon_kind)k, i);
				continue;
			}
			s->room = false;
			i++;
		}
	}
	c->rooms++;
}

/* Appends "Traps 2, Treasure 1" for the budgets with points unspent this
 * room; returns how many. */
static int
unspent(const struct fungeon_channel *c, char *buf, size_t len)
{
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		int64_t left = fungeon_channel_budget(c, (enum fungeon_kind)k) -
		               fungeon_channel_spent(c, (enum fungeon_kind)k);
		static const char *const label[] = {"Traps", "Monsters", "Treasure"};
		int r;

		if (left <= 0)
			continue;
		r = snprintf(buf + used, len - used, "%s%s %lld", n ? ", " : "", label[k],
		             (long long)left);
		if (r < 0 || (size_t)r >= len - used)
			break;
		used += (size_t)r;
		n++;
	}
	return n;
}

/* Everything that keeps the party from leaving the room: a replacement not
 * made yet (the new room's budgets count it), points unspent and not
 * waived. Returns 0, or -1 with an error reply. */
static int
may_leave_room(struct invocation *inv, struct fungeon_channel *c, struct reply *out)
{
	char left[120];

	for (int i = 0; i < c->n; i++) {
		if (!c->m[i].dead)
			continue;
		reply_error(out, "%s's %s died: the new Fungeoneer comes first in the hallway (",
		            c->m[i].player, c->m[i].name);
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		reply_add(out, RS_BAD, ", at level %d), or %s leaves the party (",
		          fungeon_replacement_level(fungeon_channel_floor(c)), c->m[i].player);
		reply_cmd(out, RS_BAD, "fungeon leave", NULL);
		reply_add(out, RS_BAD, ").");
		return -1;
	}
	if (c->rooms > 0 && unspent(c, left, sizeof(left)) > 0 &&
	    !invocation_bool(inv, "waive", false)) {
		reply_error(out,
		            "This room's points are not all spent (%s left); spend them, or leave "
		            "anyway with ",
		            left);
		reply_cmd(out, RS_BAD, "fungeon hallway", "waive:", "true", NULL);
		reply_add(out, RS_BAD, ".");
		return -1;
	}
	return 0;
}

void
cmd_fungeon_hallway(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	struct hall h = {.c = c,
	                 .styles = styles,
	                 .out = out,
	                 .first = -1,
	                 .compact = rollchan_compact(inv->chan)};
	char left[120];

	if (c->n == 0) {
		reply_error(out, "No party here yet: ");
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", "level",
		          "LEVEL", NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	if (may_leave_room(inv, c, out) < 0)
		return;
	fungeon_channel_styles(c, inv->state, styles);
	if (c->floor == 0)
		c->floor =
		    fungeon_channel_floor(c); /* the entrance opens on Party Min, then stays */
	reply_title(out, "Hallway: room %d next", c->rooms + 1);
	if (c->rooms > 0 && unspent(c, left, sizeof(left)) > 0) {
		snprintf(c->waived, sizeof(c->waived), "room %d: %.120s unspent, waived by %.64s",
		         c->rooms, left, inv->from->user_name);
		reply_line(out, RS_BAD, "Points left unspent, waived by %s: %s.",
		           inv->from->user_name, left);
	}
	fungeon_hallway(inv->rng, c->m, c->n, c->xp_rule, fungeon_channel_floor(c), &c->room,
	                on_event, &h);
	new_room(c);
	c->norder = 0;
	for (int i = 0; i < h.picks.n; i++)
		c->order[c->norder++] = h.picks.order[i];
	fungeon_channel_picks_store(c, &h.picks);
	channel_touch(inv->chan);
	if (h.stair[0])
		reply_line(out, RS_BOLD, "%s", h.stair);
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		fungeon_channel_budget_line(out, c, (enum fungeon_kind)k, 0);
	reply_add(out, 0, "Chooses a category first and narrates: ");
	reply_add(out, RS_BOLD, "%s", c->m[h.first].player);
	reply_add(out, 0, " (%s), Thwack-O ", c->m[h.first].name);
	reply_add_user(out, &styles[h.first], RS_BOLD, "%d", h.first_die);
	reply_add(out, 0, ": ");
	reply_cmd(out, 0, "fungeon pick", "category", "traps|monsters|treasure", NULL);
	reply_add(out, 0, ".");
	reply_nl(out);
}

void
cmd_fungeon_hallway_pick(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *who = invocation_str(inv, "who"), *cat = invocation_str(inv, "category");
	int i =
	    who ? fungeon_channel_need_member(c, who, out) : fungeon_channel_need_self(c, inv, out);
	int k = !strcmp(cat, "traps")      ? FUNGEON_CAT_TRAPS
	        : !strcmp(cat, "monsters") ? FUNGEON_CAT_MONSTERS
	                                   : FUNGEON_CAT_TREASURE;
	const char *names[FUNGEON_PARTY_MAX];
	struct fungeon_picks p;
	char err[200];
	int next;

	if (i < 0)
		return;
	if (fungeon_channel_member_of(c, inv->from->user_key) != i &&
	    !invocation_require_gm(inv, out))
		return;
	for (int m = 0; m < c->n; m++)
		names[m] = c->m[m].player;
	fungeon_channel_picks(c, &p);
	if (p.n == 0) {
		reply_error(out, "No category draw yet: ");
		reply_cmd(out, RS_BAD, "fungeon hallway", NULL);
		reply_add(out, RS_BAD, " draws who chooses first.");
		return;
	}
	if (fungeon_hallway_picks_choose(&p, i, (enum fungeon_category)k, names, err, sizeof(err)) <
	    0) {
		reply_error(out, "%s", err);
		return;
	}
	fungeon_channel_picks_store(c, &p);
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "%s", c->m[i].player);
	reply_add(out, 0, " chooses %s.", fungeon_hallway_category_name((enum fungeon_category)k));
	next = fungeon_hallway_picks_next(&p);
	if (next >= 0) {
		reply_add(out, 0, " Next to choose: ");
		reply_add(out, RS_BOLD, "%s", c->m[next].player);
		reply_add(out, 0, ".");
	} else {
		for (int q = 0; q < FUNGEON_CAT_COUNT; q++)
			reply_add(out, 0, "%s%s: %s", q ? " · " : " ",
			          fungeon_hallway_category_name((enum fungeon_category)q),
			          c->m[p.holder[q]].player);
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
	int first, die;

	if (c->n == 0) {
		reply_error(out, "No party here yet: ");
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", "level",
		          "LEVEL", NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	fungeon_channel_styles(c, inv->state, styles);
	d = xmalloc(sizeof(*d));
	fungeon_hallway_entrance(inv->rng, c->n, d);
	reply_title(out, "The entrance: each player rolls, the highest describes it");
	for (int i = 0; i < d->n; i++) {
		reply_add(out, 0, "%s: ", c->m[i].player);
		reply_add_user(out, &styles[i], RS_BOLD, "%d", d->roll.g[i].v[0]);
		reply_nl(out);
	}
	for (int k = 0; k < d->rank.nrounds; k++) {
		reply_add(out, 0, "Tied, re-rolled:");
		for (int i = 0; i < d->n; i++) {
			if (d->rank.round[k][i] == 0)
				continue;
			reply_add(out, 0, " %s ", c->m[i].player);
			reply_add_user(out, &styles[i], RS_BOLD, "%d", d->rank.round[k][i]);
		}
		reply_nl(out);
	}
	first = d->rank.order[0];
	die = d->roll.g[first].v[0];
	for (int k = 0; k < d->rank.nrounds; k++)
		if (d->rank.round[k][first] != 0)
			die = d->rank.round[k][first];
	reply_add(out, 0, "Describes the entrance: ");
	reply_add(out, RS_BOLD, "%s", c->m[first].player);
	reply_add(out, 0, " (%s), Thwack-O ", c->m[first].name);
	reply_add_user(out, &styles[first], RS_BOLD, "%d", die);
	reply_add(out, 0, ". The entrance opens on floor %d (Party Min).",
	          fungeon_channel_floor(c));
	reply_nl(out);
	free(d);
}
