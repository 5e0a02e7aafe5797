/* /fungeon hallway and pick: between rooms, in the order of RULES.md, and
 * who builds what. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/fungeon.h"

struct hall {
	struct fg_chan *c;
	const struct ustyle *styles;
	struct reply *out;
	int step;
	bool any;
	int first;     /* who picks first (narrates), -1 before the draw */
	int first_die; /* their final Thwack-O value */
	char stair[200];
};

/* Prints the headings up to step, "None." under empty ones. */
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
		reply_line(h->out, RS_BOLD, "%s", names[h->step]);
	}
	h->any = true;
}

/* Member i picks category k (user keys fit: both are FG_KEY_MAX). */
static void
set_holder(struct fg_chan *c, int k, int i)
{
	memcpy(c->holder[k], c->m[i].user_key, sizeof(c->holder[k]));
}

static void
draw_lines(struct hall *h, const struct fg_draw *d)
{
	struct fg_chan *c = h->c;
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
	for (int k = 0; k < FG_CAT_COUNT; k++) {
		const struct fg_member *m = &c->m[d->holder[k]];

		reply_add(out, 0, "%s%s: ", k ? " · " : "", fg_category_name((enum fg_category)k));
		reply_add(out, RS_BOLD, "%s", m->player);
		set_holder(c, k, d->holder[k]);
	}
	reply_add(out, 0, " (swap with ");
	reply_cmd(out, 0, "fungeon pick", NULL);
	reply_add(out, 0, ").");
	reply_nl(out);
	h->first = d->rank.order[0];
	h->first_die = d->roll.g[h->first].v[0];
	for (int k = 0; k < d->rank.nrounds; k++)
		if (d->rank.round[k][h->first] != 0)
			h->first_die = d->rank.round[k][h->first];
}

static void
on_event(const struct fg_hall_event *ev, void *ctx)
{
	struct hall *h = ctx;
	const struct fg_member *m = ev->member >= 0 ? &h->c->m[ev->member] : NULL;
	struct reply *out = h->out;

	switch (ev->kind) {
	case FG_HALL_DUE:
		enter(h, 1);
		reply_add(out, 0, "%s's %s died: make a new Fungeoneer at level %d with ",
		          m->player, m->name, ev->level);
		reply_cmd(out, 0, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		reply_line(out, 0, ".");
		break;
	case FG_HALL_FRESH:
		enter(h, 1);
		reply_line(out, 0, "%s's new Fungeoneer %s (level %d) joins the party.", m->player,
		           m->name, ev->level);
		break;
	case FG_HALL_LEVELUP:
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
	case FG_HALL_HOLD_ENDS:
		enter(h, 3);
		reply_line(out, 0, "%s is free of %s: holds end with the fight.", m->name,
		           ev->effect->source);
		break;
	case FG_HALL_CONT:
		enter(h, 3);
		fg_cont_render(out, h->c, ev->cont, h->styles);
		break;
	case FG_HALL_DRAW:
		enter(h, 4);
		draw_lines(h, ev->draw);
		break;
	case FG_HALL_STAIR:
		snprintf(h->stair, sizeof(h->stair),
		         "Party Min rose from %d to %d: %s (Traps) must place a downward stair.",
		         ev->level, ev->to, m != NULL ? m->player : "the Traps player");
		break;
	}
}

/* A new room: the old room's designs no longer count against its budgets;
 * treasure taken and monsters defeated are cleared away. */
static void
new_room(struct fg_chan *c)
{
	for (int k = 0; k < FG_KIND_COUNT; k++) {
		for (int i = 0; i < c->nd[k];) {
			struct fg_stored *s = &c->d[k][i];

			if ((k == FG_TREASURE && s->taken[0]) ||
			    (k == FG_MONSTER && s->hits == 0)) {
				fgchan_design_remove(c, (enum fg_kind)k, i);
				continue;
			}
			s->room = false;
			i++;
		}
	}
	c->rooms++;
}

void
fg_hallway_cmd(struct invocation *inv, struct reply *out)
{
	struct fg_chan *c = fgchan(inv);
	struct ustyle styles[FG_PARTY_MAX];
	struct hall h = {.c = c, .styles = styles, .out = out, .first = -1};

	if (c->n == 0) {
		reply_error(out, "No party here yet: ");
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", "level",
		          "LEVEL", NULL);
		reply_add(out, RS_BAD, ".");
		return;
	}
	fgchan_styles(c, inv->state, styles);
	if (c->floor == 0)
		c->floor = fgchan_floor(c); /* the entrance opens on Party Min, then stays */
	reply_title(out, "Hallway: room %d next", c->rooms + 1);
	fg_hallway(inv->rng, c->m, c->n, c->xp_rule, fgchan_floor(c), on_event, &h);
	new_room(c);
	channel_touch(inv->chan);
	if (h.stair[0])
		reply_line(out, RS_BOLD, "%s", h.stair);
	for (int k = 0; k < FG_KIND_COUNT; k++)
		fg_budget_line(out, c, (enum fg_kind)k, 0);
	reply_add(out, 0, "Picks first and narrates: ");
	reply_add(out, RS_BOLD, "%s", c->m[h.first].player);
	reply_add(out, 0, " (%s), Thwack-O ", c->m[h.first].name);
	reply_add_user(out, &styles[h.first], RS_BOLD, "%d", h.first_die);
	reply_add(out, 0, ".");
	reply_nl(out);
}

void
fg_pick(struct invocation *inv, struct reply *out)
{
	struct fg_chan *c = fgchan(inv);
	const char *who = inv_str(inv, "who"), *cat = inv_str(inv, "category");
	int i = who ? fg_need_member(c, who, out) : fg_need_self(c, inv, out);
	int k = !strcmp(cat, "traps")      ? FG_CAT_TRAPS
	        : !strcmp(cat, "monsters") ? FG_CAT_MONSTERS
	                                   : FG_CAT_TREASURE;
	int was;

	if (i < 0)
		return;
	was = fgchan_holder(c, (enum fg_category)k);
	set_holder(c, k, i);
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "%s", c->m[i].player);
	reply_add(out, 0, " picks %s", fg_category_name((enum fg_category)k));
	if (was >= 0 && was != i)
		reply_add(out, 0, " (instead of %s)", c->m[was].player);
	reply_add(out, 0, ".");
	reply_nl(out);
}
