/* /fungeon cost, trap, monster, treasure, take, use, town: designs priced
 * against the room's budget, stored by name, and treasure carried. */
#include "commands/fungeon/cmd_fungeon_design.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/fungeon_channel.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

/* Parses, prices and bounds the design in the "design" option. Returns 0,
 * or -1 with an error reply. */
static int
design_of(struct invocation *inv, enum fungeon_kind k, struct fungeon_design *d,
          struct fungeon_price *p, struct reply *out)
{
	const char *spec = invocation_str(inv, "design");
	char err[300];

	/* What a new design lacks, all of it at once, before what its price
	 * needs. */
	if (fungeon_cost_parse(k, spec ? spec : "", d, err, sizeof(err)) < 0 ||
	    fungeon_cost_check(d, err, sizeof(err)) < 0 ||
	    fungeon_cost_price(d, p, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		return -1;
	}
	if (k == FUNGEON_MONSTER) {
		int resist = 0;

		for (int i = 0; i < d->nab; i++) {
			const struct fungeon_ability *a = &d->ab[i];
			int most = a->annoy > a->pain ? a->annoy : a->pain;

			resist += a->resist;
			if (d->level + most > FUNGEON_DICE_MAX) {
				reply_error(
				    out,
				    "The ability %s would roll level + %d = %d dice; a roll "
				    "has at most %d.",
				    a->name, most, d->level + most, FUNGEON_DICE_MAX);
				return -1;
			}
		}
		if (d->level + resist > FUNGEON_DICE_MAX) {
			reply_error(out,
			            "With its Resist dice this monster would roll %d Pain dice; "
			            "a roll has at most %d.",
			            d->level + resist, FUNGEON_DICE_MAX);
			return -1;
		}
	}
	return 0;
}

/* The arithmetic: plain points, each doubling, the total. */
static void
price_lines(struct reply *out, enum fungeon_kind k, const struct fungeon_design *d,
            const struct fungeon_price *p)
{
	int64_t run = p->plain;

	reply_add(out, 0, "Plain: ");
	for (int i = 0; i < p->nterms; i++)
		reply_add(out, 0, "%s%s (%lld)", i ? " + " : "", p->term[i].what,
		          (long long)p->term[i].points);
	reply_add(out, 0, " = %lld", (long long)p->plain);
	reply_nl(out);
	if (p->ndoubles > 0) {
		reply_add(out, 0, "Doubled:");
		for (int i = 0; i < p->ndoubles; i++) {
			run *= 2;
			reply_add(out, 0, "%s %s → %lld", i ? "," : "", p->dbl[i], (long long)run);
		}
		reply_nl(out);
	}
	reply_add(out, 0, "Cost: ");
	reply_add(out, RS_BOLD, "%lld", (long long)p->total);
	reply_add(out, 0, " point%s.", p->total == 1 ? "" : "s");
	if (k == FUNGEON_MONSTER)
		reply_add(out, 0, " Hits %d (3 x level); attacks roll %d Pain %s, universal.",
		          fungeon_cost_monster_hits(d->level), d->level,
		          d->level == 1 ? "die" : "dice");
	if (k == FUNGEON_TREASURE)
		reply_add(out, 0, " Sells in town for %lld.",
		          (long long)fungeon_cost_sell_value(p->total));
	reply_nl(out);
}

static void
cost_cmd(struct invocation *inv, struct reply *out, enum fungeon_kind k)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_design d;
	struct fungeon_price *p = xmalloc(sizeof(*p));
	char spec[FUNGEON_SPEC_MAX + 1];

	if (design_of(inv, k, &d, p, out) == 0) {
		fungeon_cost_format(&d, spec, sizeof(spec));
		static const char *const what[] = {"Trap", "Monster", "Treasure"};

		reply_title(out, "%s: %s", what[k], spec);
		price_lines(out, k, &d, p);
		fungeon_channel_budget_line(out, c, k, p->total);
		if (k == FUNGEON_MONSTER && p->total < fungeon_channel_floor(c))
			reply_line(out, RS_BAD,
			           "Every monster here costs at least %d points (the "
			           "floor).",
			           fungeon_channel_floor(c));
	}
	free(p);
}

static void
cost_trap(struct invocation *inv, struct reply *out)
{
	cost_cmd(inv, out, FUNGEON_TRAP);
}

static void
cost_monster(struct invocation *inv, struct reply *out)
{
	cost_cmd(inv, out, FUNGEON_MONSTER);
}

static void
cost_treasure(struct invocation *inv, struct reply *out)
{
	cost_cmd(inv, out, FUNGEON_TREASURE);
}

/* Checks that the design d costing `cost` may be stored as asked; fills
 * *payer with the member paying wander points (or -1). */
static int
may_store(struct invocation *inv, struct fungeon_channel *c, enum fungeon_kind k, const char *name,
          int64_t cost, bool wander, int *payer, struct reply *out)
{
	int64_t left = fungeon_channel_budget(c, k) - fungeon_channel_spent(c, k);

	*payer = -1;
	if (!fungeon_cost_name_valid(name)) {
		reply_error(out, "A name is 1 to %d characters with no spaces or : , > / \" #.",
		            FUNGEON_NAME_MAX);
		return -1;
	}
	if (fungeon_channel_name_used(c, name)) {
		reply_error(out, "The name %s is taken here; pick another.", name);
		return -1;
	}
	if (c->nd[k] == FUNGEON_DESIGNS_MAX) {
		reply_error(out,
		            "This channel holds %d %ss already, the most it can; remove one "
		            "first.",
		            FUNGEON_DESIGNS_MAX, fungeon_cost_kind_name(k));
		return -1;
	}
	if (wander) {
		if (k != FUNGEON_MONSTER) {
			reply_error(out,
			            "Wandering-monster points build monsters only; store a %s "
			            "with budget:room.",
			            fungeon_cost_kind_name(k));
			return -1;
		}
		*payer = fungeon_channel_need_self(c, inv, out);
		if (*payer < 0)
			return -1;
		if (c->m[*payer].nwander == 0) {
			reply_error(out, "You have no wandering monster to build; a failure on the "
			                 "way back to town (");
			reply_cmd(out, RS_BAD, "fungeon retreat", NULL);
			reply_add(out, RS_BAD, ") gives one.");
			return -1;
		}
		if (cost > c->m[*payer].wanderer[0]) {
			reply_error(out,
			            "%s costs %lld but your next wandering monster has %lld "
			            "points; points from separate failures never pool.",
			            name, (long long)cost, (long long)c->m[*payer].wanderer[0]);
			return -1;
		}
		if (cost < fungeon_channel_floor(c)) {
			reply_error(out,
			            "%s costs %lld but every monster on floor %d costs at least "
			            "%d points.",
			            name, (long long)cost, fungeon_channel_floor(c),
			            fungeon_channel_floor(c));
			return -1;
		}
		return 0;
	}
	if (cost > left) {
		reply_error(out,
		            "%s costs %lld but the %s budget has %lld left this room (budget "
		            "%lld, spent %lld); make it cheaper.",
		            name, (long long)cost,
		            k == FUNGEON_TRAP      ? "Traps"
		            : k == FUNGEON_MONSTER ? "Monsters"
		                                   : "Treasure",
		            (long long)left, (long long)fungeon_channel_budget(c, k),
		            (long long)fungeon_channel_spent(c, k));
		return -1;
	}
	if (k == FUNGEON_MONSTER && cost < fungeon_channel_floor(c)) {
		reply_error(out,
		            "%s costs %lld but every monster on floor %d costs at least %d "
		            "points.",
		            name, (long long)cost, fungeon_channel_floor(c),
		            fungeon_channel_floor(c));
		return -1;
	}
	return 0;
}

static void
add_cmd(struct invocation *inv, struct reply *out, enum fungeon_kind k)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *name = invocation_str(inv, "name"), *budget = invocation_str(inv, "budget");
	bool wander = budget != NULL && !strcmp(budget, "wander");
	struct fungeon_price *p = xmalloc(sizeof(*p));
	struct fungeon_stored *s;
	struct fungeon_design d;
	int payer;

	if (design_of(inv, k, &d, p, out) < 0 ||
	    may_store(inv, c, k, name, p->total, wander, &payer, out) < 0) {
		free(p);
		return;
	}
	s = fungeon_channel_design_add(c, k);
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->d = d;
	s->cost = p->total;
	s->room = !wander;
	s->hits = k == FUNGEON_MONSTER ? fungeon_cost_monster_hits(d.level) : 0;
	if (payer >= 0)
		fungeon_wanderer_remove(&c->m[payer], 0); /* one monster per failure */
	channel_touch(inv->chan);
	reply_add(out, 0, "Stored %s ", fungeon_cost_kind_name(k));
	reply_add(out, RS_BOLD, "%s", s->name);
	reply_add(out, 0, "%s.", wander ? " as a wandering monster" : "");
	reply_nl(out);
	price_lines(out, k, &d, p);
	if (wander)
		reply_line(out, 0, "Wandering monsters left to build: %d.", c->m[payer].nwander);
	else
		fungeon_channel_budget_line(out, c, k, 0);
	free(p);
}

static void
list_cmd(struct invocation *inv, struct reply *out, enum fungeon_kind k)
{
	static const char *const hdr[] = {"name", "design", "cost", "state"};
	struct fungeon_channel *c = fungeon_channel(inv);

	if (c->nd[k] == 0) {
		char path[64];

		snprintf(path, sizeof(path), "fungeon %s add", fungeon_cost_kind_name(k));
		reply_add(out, 0, "No %ss here yet: ", fungeon_cost_kind_name(k));
		reply_cmd(out, 0, path, "name", "NAME", "design", "DESIGN", NULL);
		reply_line(out, 0, ".");
		return;
	}
	reply_table(out, 4, hdr);
	for (int i = 0; i < c->nd[k]; i++) {
		const struct fungeon_stored *s = &c->d[k][i];
		char spec[FUNGEON_SPEC_MAX + 1], cost[24], state[64];
		const char *cells[] = {s->name, spec, cost, state};

		fungeon_cost_format(&s->d, spec, sizeof(spec));
		snprintf(cost, sizeof(cost), "%lld", (long long)s->cost);
		if (k == FUNGEON_MONSTER && s->hits == 0)
			snprintf(state, sizeof(state), "defeated");
		else if (k == FUNGEON_MONSTER)
			snprintf(state, sizeof(state), "%d/%d hits", s->hits,
			         fungeon_cost_monster_hits(s->d.level));
		else if (s->taken[0])
			snprintf(state, sizeof(state), "taken by %s", s->taken);
		else
			state[0] = '\0';
		if (!s->room)
			snprintf(state + strlen(state), sizeof(state) - strlen(state), "%s%s",
			         state[0] ? ", " : "", "not this room's");
		reply_row(out, false, cells);
	}
	fungeon_channel_budget_line(out, c, k, 0);
}

/* The stored design of kind k called name, or an error listing them. */
static struct fungeon_stored *
need_design(struct fungeon_channel *c, enum fungeon_kind k, const char *name, struct reply *out)
{
	struct fungeon_stored *s = fungeon_channel_design(c, k, name);
	struct buf b;

	if (s != NULL)
		return s;
	buf_init(&b, 1000);
	fungeon_channel_list_designs(c, k, &b);
	reply_error(out, "There is no %s '%.40s' here; the %s%s are %s.", fungeon_cost_kind_name(k),
	            name, fungeon_cost_kind_name(k), k == FUNGEON_TREASURE ? "" : "s", buf_str(&b));
	buf_free(&b);
	return NULL;
}

static void
remove_cmd(struct invocation *inv, struct reply *out, enum fungeon_kind k)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_stored *s = need_design(c, k, invocation_str(inv, "name"), out);
	char name[FUNGEON_NAME_MAX + 1];

	if (s == NULL)
		return;
	snprintf(name, sizeof(name), "%s", s->name);
	fungeon_channel_design_remove(c, k, (int)(s - c->d[k]));
	channel_touch(inv->chan);
	reply_line(out, 0, "Removed %s %s.", fungeon_cost_kind_name(k), name);
	fungeon_channel_budget_line(out, c, k, 0);
}

#define KIND_HANDLERS(kind, suffix)                                                                \
	static void add_##suffix(struct invocation *inv, struct reply *out)                        \
	{                                                                                          \
		add_cmd(inv, out, kind);                                                           \
	}                                                                                          \
	static void list_##suffix(struct invocation *inv, struct reply *out)                       \
	{                                                                                          \
		list_cmd(inv, out, kind);                                                          \
	}                                                                                          \
	static void remove_##suffix(struct invocation *inv, struct reply *out)                     \
	{                                                                                          \
		remove_cmd(inv, out, kind);                                                        \
	}

KIND_HANDLERS(FUNGEON_TRAP, trap)
KIND_HANDLERS(FUNGEON_MONSTER, monster)
KIND_HANDLERS(FUNGEON_TREASURE, treasure)

/* Whether member m may carry item d too: a free slot, and the magic it
 * carries stays within FUNGEON_MAGIC_MAX Annoy and Pain dice. */
static int
may_carry(const struct fungeon_member *m, const struct fungeon_design *d, struct reply *out)
{
	int annoy = d->annoy, pain = d->pain;

	if (m->dead) {
		reply_error(out, "%s is dead and carries nothing more.", m->name);
		return -1;
	}
	if (m->nitems == FUNGEON_ITEMS_MAX) {
		reply_error(out,
		            "%s carries %d items already, the most one can; sell one in town "
		            "first.",
		            m->name, FUNGEON_ITEMS_MAX);
		return -1;
	}
	for (int i = 0; i < m->nitems; i++) {
		annoy += m->items[i].d.annoy;
		pain += m->items[i].d.pain;
	}
	if (annoy > FUNGEON_MAGIC_MAX || pain > FUNGEON_MAGIC_MAX) {
		reply_error(out,
		            "%s would carry more than %d magic Annoy or Pain dice; that is the "
		            "most one Fungeoneer can.",
		            m->name, FUNGEON_MAGIC_MAX);
		return -1;
	}
	return 0;
}

static void
carry(struct fungeon_member *m, const char *name, const struct fungeon_design *d, int64_t cost)
{
	struct fungeon_item *it = fungeon_item_add(m); /* may_carry() found room */

	snprintf(it->name, sizeof(it->name), "%s", name);
	it->d = *d;
	it->cost = cost;
}

/* Takes `item` from a dead Fungeoneer for member i (plunder). Returns 1
 * when done, 0 when no dead Fungeoneer carries it, -1 with an error. */
static int
plunder(struct invocation *inv, struct fungeon_channel *c, int i, const char *item,
        struct reply *out)
{
	for (int d = 0; d < c->n; d++) {
		struct fungeon_member *dead = &c->m[d];

		if (!dead->dead)
			continue;
		for (int k = 0; k < dead->nitems; k++) {
			char name[FUNGEON_NAME_MAX + 1];
			int64_t cost = dead->items[k].cost;

			if (strcasecmp(dead->items[k].name, item) != 0)
				continue;
			if (c->m[i].dead || c->m[i].fresh) {
				reply_error(out, "%s cannot plunder: %s.", c->m[i].name,
				            c->m[i].dead
				                ? "the dead take nothing"
				                : "a replacement is out until the next hallway");
				return -1;
			}
			if (may_carry(&c->m[i], &dead->items[k].d, out) < 0)
				return -1;
			snprintf(name, sizeof(name), "%s", dead->items[k].name);
			if (fungeon_plunder(dead, k, &c->m[i]) < 0) {
				reply_error(out, "%s carries %d items already, the most one can.",
				            c->m[i].name, FUNGEON_ITEMS_MAX);
				return -1;
			}
			channel_touch(inv->chan);
			reply_add(out, RS_BOLD, "%s", c->m[i].name);
			reply_add(out, 0, " plunders %s (%lld points) from the dead %s.", name,
			          (long long)cost, dead->name);
			reply_nl(out);
			return 1;
		}
	}
	return 0;
}

/* Whether the room's treasure may be taken now (rules/fungeon/fungeon_play.h); -1 with
 * an error reply when not. */
static int
treasure_open(const struct fungeon_channel *c, struct reply *out)
{
	bool passed[FUNGEON_DESIGNS_MAX];
	const struct fungeon_stored *guard[FUNGEON_DESIGNS_MAX];
	int ng = 0, standing = 0, which = 0;

	for (int k = 0; k < c->nd[FUNGEON_TRAP]; k++) {
		const struct fungeon_stored *t = &c->d[FUNGEON_TRAP][k];

		if (t->room && t->d.guards) {
			guard[ng] = t;
			passed[ng++] = t->passed;
		}
	}
	for (int k = 0; k < c->nd[FUNGEON_MONSTER]; k++)
		standing += c->d[FUNGEON_MONSTER][k].room && c->d[FUNGEON_MONSTER][k].hits > 0;
	switch (fungeon_play_treasure_gate(passed, ng, standing, &which)) {
	case FGP_TREASURE_GUARDED:
		reply_error(out, "%s guards the treasure: trigger it, disarm it or get past it (",
		            guard[which]->name);
		reply_cmd(out, RS_BAD, "fungeon trigger", "trap", guard[which]->name, NULL);
		reply_add(out, RS_BAD, " or ");
		reply_cmd(out, RS_BAD, "fungeon annoy", "obstacle", guard[which]->name, NULL);
		reply_add(out, RS_BAD, ") before taking any.");
		return -1;
	case FGP_TREASURE_MONSTERS:
		reply_error(out,
		            "The treasure is found once the room's monsters are dead; %d still "
		            "stand%s.",
		            standing, standing == 1 ? "s" : "");
		return -1;
	case FGP_TREASURE_OPEN:
		break;
	}
	return 0;
}

void
cmd_fungeon_design_take(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *who = invocation_str(inv, "who"), *item = invocation_str(inv, "item");
	int i = who ? fungeon_channel_need_member(c, who, out)
	            : fungeon_channel_need_self(c, inv, out),
	    r;
	struct fungeon_stored *s;

	if (i < 0)
		return;
	s = fungeon_channel_design(c, FUNGEON_TREASURE, item);
	if (s == NULL || s->taken[0]) { /* perhaps on a dead Fungeoneer */
		r = plunder(inv, c, i, item, out);
		if (r != 0)
			return;
	}
	if ((s = need_design(c, FUNGEON_TREASURE, item, out)) == NULL)
		return;
	if (s->taken[0]) {
		reply_error(out, "%s took %s already.", s->taken, s->name);
		return;
	}
	if (c->m[i].dead) {
		reply_error(out, "%s is dead and takes nothing.", c->m[i].name);
		return;
	}
	if (c->m[i].fresh) {
		reply_error(out,
		            "%s is a replacement: %s is out until the next hallway, where %s joins "
		            "the party.",
		            c->m[i].name, c->m[i].player, c->m[i].name);
		return;
	}
	if (may_carry(&c->m[i], &s->d, out) < 0 || (!s->left && treasure_open(c, out) < 0))
		return;
	carry(&c->m[i], s->name, &s->d, s->cost);
	snprintf(s->taken, sizeof(s->taken), "%s", c->m[i].name);
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "%s", c->m[i].name);
	reply_add(out, 0, " %s %s (%lld points)%s.", s->left ? "plunders" : "takes", s->name,
	          (long long)s->cost, s->left ? ", left by the dead" : "");
	s->left = false;
	reply_nl(out);
}

/* The invoker's item named in the "item" option, or an error and -1. */
static int
own_item(const struct fungeon_channel *c, int me, const char *item, struct reply *out)
{
	const struct fungeon_member *m = &c->m[me];
	struct buf b;

	for (int i = 0; i < m->nitems; i++)
		if (!strcasecmp(m->items[i].name, item))
			return i;
	buf_init(&b, 600);
	for (int i = 0; i < m->nitems; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", m->items[i].name);
	reply_error(out, "%s carries no '%.40s'; %s carries %s.", m->name, item, m->name,
	            m->nitems ? buf_str(&b) : "nothing");
	buf_free(&b);
	return -1;
}

void
cmd_fungeon_design_use(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int me = fungeon_channel_need_self(c, inv, out), i, healed, cured;
	struct fungeon_member *m;
	char name[FUNGEON_NAME_MAX + 1];

	if (me < 0 || (i = own_item(c, me, invocation_str(inv, "item"), out)) < 0)
		return;
	m = &c->m[me];
	if (m->items[i].d.heal == 0) {
		reply_error(out, "%s has no magic heal; only healing items are used up.",
		            m->items[i].name);
		return;
	}
	if (m->dead) {
		reply_error(out, "%s is dead; no magic heals the dead.", m->name);
		return;
	}
	snprintf(name, sizeof(name), "%s", m->items[i].name);
	healed = fungeon_heal(m, m->items[i].d.heal);
	cured = fungeon_magic_cure(m);
	fungeon_item_remove(m, i);
	channel_touch(inv->chan);
	reply_add(out, 0, "%s uses up %s and heals %d: %d/%d hits.", m->name, name, healed, m->hits,
	          fungeon_max_hits(m->level));
	if (cured > 0)
		reply_add(out, RS_GOOD, " The magic ends its continuous damage.");
	reply_nl(out);
}

static void
town_sell(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int me = fungeon_channel_need_self(c, inv, out), i;
	struct fungeon_member *m;
	char name[FUNGEON_NAME_MAX + 1];
	int64_t cost, got;

	if (me < 0 || (i = own_item(c, me, invocation_str(inv, "item"), out)) < 0)
		return;
	m = &c->m[me];
	snprintf(name, sizeof(name), "%s", m->items[i].name);
	cost = m->items[i].cost;
	got = fungeon_cost_sell_value(cost);
	fungeon_item_remove(m, i);
	m->credit += got;
	channel_touch(inv->chan);
	reply_add(out, 0, "%s sells %s (%lld points) for half, rounded down: ", m->name, name,
	          (long long)cost);
	reply_add(out, RS_BOLD, "%lld", (long long)got);
	reply_add(out, 0, " points of credit (%lld in all).", (long long)m->credit);
	reply_nl(out);
}

static void
town_buy(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int me = fungeon_channel_need_self(c, inv, out);
	const char *name = invocation_str(inv, "name");
	struct fungeon_price *p = xmalloc(sizeof(*p));
	struct fungeon_design d;
	struct fungeon_member *m;

	if (me < 0 || design_of(inv, FUNGEON_TREASURE, &d, p, out) < 0)
		goto done;
	m = &c->m[me];
	if (!fungeon_cost_name_valid(name)) {
		reply_error(out, "A name is 1 to %d characters with no spaces or : , > / \" #.",
		            FUNGEON_NAME_MAX);
		goto done;
	}
	if (p->total > m->credit) {
		reply_error(out, "%s costs %lld but %s has %lld points of credit.", name,
		            (long long)p->total, m->name, (long long)m->credit);
		goto done;
	}
	if (may_carry(m, &d, out) < 0)
		goto done;
	carry(m, name, &d, p->total);
	m->credit -= p->total;
	channel_touch(inv->chan);
	reply_line(out, 0, "%s buys %s for %lld points (credit left %lld).", m->name, name,
	           (long long)p->total, (long long)m->credit);
done:
	free(p);
}

#define NAME_OPT                                                                                   \
	{                                                                                          \
		.name = "name", .desc = "Its name (no spaces)", .type = OPT_STRING,                \
		.flags = OPT_REQUIRED, .max = FUNGEON_NAME_MAX                                     \
	}
#define DESIGN_OPT(what)                                                                           \
	{                                                                                          \
		.name = "design", .desc = (what), .type = OPT_STRING, .flags = OPT_REST,           \
		.max = FUNGEON_SPEC_MAX                                                            \
	}

static const struct cmd_opt design_opts[] = {
    DESIGN_OPT("Design words, e.g. annoy 2 type fire pain 2 (see the help on fungeon cost)"),
    {0},
};
static const char *const budget_choices[] = {"room", "wander", NULL};
static const struct cmd_opt add_opts[] = {
    NAME_OPT,
    DESIGN_OPT("Design words (see the help on fungeon cost)"),
    {.name = "budget",
     .desc = "room (default: this room's budget) or wander (your wandering points)",
     .type = OPT_STRING,
     .choices = budget_choices},
    {0},
};
static const struct cmd_opt buy_opts[] = {
    NAME_OPT,
    DESIGN_OPT("Treasure design words (see the help on fungeon cost)"),
    {0},
};
static const struct cmd_opt name_opts[] = {NAME_OPT, {0}};
static const struct cmd_opt sell_opts[] = {
    {.name = "item",
     .desc = "An item you carry",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = FUNGEON_NAME_MAX},
    {0},
};

const struct command cmd_fungeon_design_cost_subs[] = {
    {.name = "trap",
     .desc = "Price a trap",
     .opts = design_opts,
     .fn = cost_trap,
     .read_only = true},
    {.name = "monster",
     .desc = "Price a monster",
     .opts = design_opts,
     .fn = cost_monster,
     .read_only = true},
    {.name = "treasure",
     .desc = "Price a treasure",
     .opts = design_opts,
     .fn = cost_treasure,
     .read_only = true},
    {0},
};

#define STORE_SUBS(kind, suffix)                                                                   \
	{                                                                                          \
		{.name = "add",                                                                    \
		 .desc = "Store a priced " kind " by name (paid from the budget)",                 \
		 .opts = add_opts,                                                                 \
		 .fn = add_##suffix},                                                              \
		    {.name = "list",                                                               \
		     .desc = "The stored " kind "s",                                               \
		     .fn = list_##suffix,                                                          \
		     .read_only = true},                                                           \
		    {.name = "remove",                                                             \
		     .desc = "Remove a stored " kind,                                              \
		     .opts = name_opts,                                                            \
		     .fn = remove_##suffix},                                                       \
		    {0},                                                                           \
	}

const struct command cmd_fungeon_design_trap_subs[] = STORE_SUBS("trap", trap);
const struct command cmd_fungeon_design_monster_subs[] = STORE_SUBS("monster", monster);
const struct command cmd_fungeon_design_treasure_subs[] = STORE_SUBS("treasure", treasure);

const struct command cmd_fungeon_design_town_subs[] = {
    {.name = "sell",
     .desc = "Sell an item for half its points, rounded down, as credit",
     .opts = sell_opts,
     .fn = town_sell},
    {.name = "buy",
     .desc = "Buy a new treasure with your credit",
     .opts = buy_opts,
     .fn = town_buy},
    {0},
};
