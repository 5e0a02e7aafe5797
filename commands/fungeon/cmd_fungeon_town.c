/* /fungeon take, use and town: treasure carried and used, and town's
 * trading and healer (the rule text's "Heading Back to Town", whose way
 * back is cmd_fungeon_retreat.c's). */
#include "commands/fungeon/cmd_fungeon_town.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/fungeon/cmd_fungeon_design.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/fungeon/fungeon_name.h"

/* Whether member m may carry item d too: a free slot, and the magic it
 * carries stays within FUNGEON_MAGIC_MAX Annoy and Pain dice. */
static int
may_carry(const struct fungeon_member *m, const struct fungeon_design *d, struct reply *out)
{
	int annoy = d->annoy, pain = d->pain;

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

/* The member the "who" option names (the invoker by default), in play;
 * else an error and -1. */
static int
need_taker(struct invocation *inv, const struct fungeon_channel *c, const char *opt,
           struct reply *out)
{
	const char *who = invocation_str(inv, opt);
	int i =
	    who ? fungeon_channel_need_member(c, who, out) : fungeon_channel_need_self(c, inv, out);

	if (i < 0)
		return -1;
	if (strcmp(opt, "who") == 0 && !inv->is_gm &&
	    strcmp(c->m[i].user_key, inv->from->user_key) != 0) {
		reply_error(out,
		            "%s is %s's Fungeoneer, and each player takes treasure for their own "
		            "(the GM may for anyone).",
		            c->m[i].name, c->m[i].player);
		return -1;
	}
	if (!fungeon_rights_need_in_play(c, i, out) ||
	    (strcmp(opt, "who") == 0 && !fungeon_rights_need_free(c, i, out)))
		return -1;
	return i;
}

/* Whether some Fungeoneer in play has not searched for trap t in vain
 * (blissful ignorance keeps the others from searching it again). */
static bool
may_search(const struct fungeon_channel *c, const struct fungeon_piece *t)
{
	for (int i = 0; i < c->n; i++)
		if (fungeon_rights_in_play(c, i) && !(t->unaware & (1u << i)))
			return true;
	return false;
}

/* Whether the room's treasure may be taken now; -1 with an error reply
 * when not. */
static int
treasure_open(const struct fungeon_channel *c, struct reply *out)
{
	const struct fungeon_piece *guard = NULL;
	int standing = fungeon_room_standing(&c->d.room);

	switch (fungeon_room_treasure_gate(&c->d.room, &guard)) {
	case FUNGEON_TREASURE_GUARDED:
		if (guard->state == FUNGEON_TRAP_HIDDEN && !may_search(c, guard)) {
			reply_error(
			    out,
			    "%s guards the treasure and is not found yet, and nobody here "
			    "may search for it again (blissful ignorance): trigger it or get "
			    "past it (",
			    guard->name);
			reply_cmd(out, RS_BAD, "fungeon trigger", "trap", guard->name, NULL);
			reply_add(out, RS_BAD, ") before taking any.");
			return -1;
		}
		if (guard->state == FUNGEON_TRAP_HIDDEN) { /* found before disarmed */
			reply_error(
			    out,
			    "%s guards the treasure and is not found yet: trigger it or get "
			    "past it (",
			    guard->name);
			reply_cmd(out, RS_BAD, "fungeon trigger", "trap", guard->name, NULL);
			reply_add(out, RS_BAD, "), or find it (");
			reply_cmd(out, RS_BAD, "fungeon find", "trap", guard->name, NULL);
			reply_add(out, RS_BAD, ") to disarm it, before taking any.");
			return -1;
		}
		reply_error(out, "%s guards the treasure: trigger it, disarm it or get past it (",
		            guard->name);
		reply_cmd(out, RS_BAD, "fungeon trigger", "trap", guard->name, NULL);
		reply_add(out, RS_BAD, " or ");
		reply_cmd(out, RS_BAD, "fungeon disarm", "trap", guard->name, NULL);
		reply_add(out, RS_BAD, ") before taking any.");
		return -1;
	case FUNGEON_TREASURE_MONSTERS:
		reply_error(out,
		            "The treasure is found once the room's monsters are dead; %d still "
		            "stand%s.",
		            standing, standing == 1 ? "s" : "");
		return -1;
	case FUNGEON_TREASURE_OPEN:
		break;
	}
	return 0;
}

/* A treasure to take that is not here: names what is left to take (not
 * what was taken), or says that nothing is. */
static void
unknown_treasure(const struct fungeon_channel *c, const char *item, struct reply *out)
{
	const struct fungeon_room *r = &c->d.room;
	struct buf b;
	char where[96];
	int n = 0;

	if (c->d.phase == FUNGEON_TOWN) {
		reply_error(out,
		            "There is no treasure '%.40s' to take in town: treasure is taken in a "
		            "dungeon's rooms, and in town sold and bought (",
		            item);
		reply_cmd(out, RS_BAD, "fungeon town sell", "item", "ITEM", NULL);
		reply_add(out, RS_BAD, ").");
		return;
	}
	buf_init(&b, 1000);
	for (int i = 0; i < r->n[FUNGEON_TREASURE]; i++)
		if (r->p[FUNGEON_TREASURE][i].taken[0] == '\0')
			buf_addf(&b, "%s%s", n++ ? ", " : "", r->p[FUNGEON_TREASURE][i].name);
	fungeon_dungeon_where(&c->d, where, sizeof(where));
	if (n == 0)
		reply_error(out,
		            "There is no treasure '%.40s' here (the party is %s), and none is "
		            "left to take.",
		            item, where);
	else
		reply_error(out,
		            "There is no treasure '%.40s' here (the party is %s); left to take: "
		            "%s.",
		            item, where, buf_str(&b));
	buf_free(&b);
}

void
cmd_fungeon_town_take(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *item = invocation_str(inv, "item");
	struct fungeon_piece *s = fungeon_channel_piece(c, FUNGEON_TREASURE, item);
	char as[FUNGEON_NAME_MAX + 1];
	int i;

	if (s == NULL) {
		unknown_treasure(c, item, out);
		return;
	}
	if (!fungeon_channel_may(c, s->left ? FUNGEON_ACT_PLUNDER : FUNGEON_ACT_TAKE, out) ||
	    (i = need_taker(inv, c, "who", out)) < 0)
		return;
	if (s->taken[0]) {
		reply_error(out, "%s took %s already.", s->taken, s->name);
		return;
	}
	if (may_carry(&c->m[i], &s->d, out) < 0 || (!s->left && treasure_open(c, out) < 0))
		return;
	/* a name it carries already: this one is carried under a number */
	snprintf(as, sizeof(as), "%s", s->name);
	for (int k = 2; fungeon_item_find(&c->m[i], as) >= 0 && k < 1000; k++)
		fungeon_numbered_name(s->name, k, as);
	carry(&c->m[i], as, &s->d, s->cost);
	snprintf(s->taken, sizeof(s->taken), "%s", c->m[i].name);
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "%s", c->m[i].name);
	reply_add(out, 0, " %s %s (%lld point%s)%s%s%s.", s->left ? "plunders" : "takes", s->name,
	          (long long)s->cost, s->cost == 1 ? "" : "s",
	          !s->left   ? ""
	          : s->by[0] ? ", left by "
	                     : ", left by the dead",
	          s->left ? s->by : "", s->left && s->by[0] ? ", out of the party" : "");
	if (strcmp(as, s->name) != 0)
		reply_add(out, 0, " %s carries a %s already, so this one is %s.", c->m[i].name,
		          s->name, as);
	reply_nl(out);
}

/* The item named in the "item" option that member me carries, or an error
 * and -1. */
static int
own_item(const struct fungeon_channel *c, int me, const char *item, struct reply *out)
{
	const struct fungeon_member *m = &c->m[me];
	int i = fungeon_item_find(m, item);
	struct buf b;

	if (i >= 0)
		return i;
	buf_init(&b, 600);
	for (i = 0; i < m->nitems; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", m->items[i].name);
	reply_error(out, "%s carries no '%.40s'; %s carries %s.", m->name, item, m->name,
	            m->nitems ? buf_str(&b) : "nothing");
	buf_free(&b);
	return -1;
}

/* Heals member m with magic of `heal` hits: the magic also ends its
 * continuous damage. */
static void
heal_with_magic(struct reply *out, struct fungeon_member *m, const char *what, int heal)
{
	int healed = fungeon_heal(m, heal), cured = fungeon_magic_cure(m);

	reply_add(out, 0, "%s heals %d with %s: %d/%d hits.", m->name, healed, what, m->hits,
	          fungeon_max_hits(m->level));
	if (cured > 0)
		reply_add(out, RS_GOOD, " The magic ends %s's continuous damage.", m->name);
	reply_nl(out);
}

/* Whether treasure d is magic: a fancy item with a magic feature. */
static bool
is_magic(const struct fungeon_design *d)
{
	return d->fancy && (d->heal > 0 || d->annoy > 0 || d->pain > 0 || d->universal);
}

/* The continuous damage member m suffers. */
static int
damage_effects(const struct fungeon_member *m)
{
	int n = 0;

	for (int e = 0; e < m->neffects; e++)
		n += m->effects[e].kind == FUNGEON_EFFECT_DAMAGE;
	return n;
}

void
cmd_fungeon_town_use(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int me = fungeon_channel_need_self(c, inv, out), i, on;
	char name[FUNGEON_NAME_MAX + 1], what[2 * FUNGEON_NAME_MAX + 32];
	struct fungeon_member *m;
	int heal;

	/* out of the game first: a dead one's treasure lies where it fell */
	if (me < 0 || !fungeon_rights_need_in_play(c, me, out) ||
	    !fungeon_rights_need_free(c, me, out) ||
	    (i = own_item(c, me, invocation_str(inv, "item"), out)) < 0)
		return;
	m = &c->m[me];
	if (!is_magic(&m->items[i].d)) {
		reply_error(out,
		            "%s has no magic to use; magic treasure is used to heal (once) or to "
		            "end continuous damage.",
		            m->items[i].name);
		return;
	}
	on = invocation_str(inv, "on") ? need_taker(inv, c, "on", out) : me;
	if (on < 0)
		return;
	snprintf(name, sizeof(name), "%s", m->items[i].name);
	heal = m->items[i].d.heal;
	if (heal == 0) { /* lasting magic: it ends continuous damage and stays */
		int cured;

		if (damage_effects(&c->m[on]) == 0) {
			reply_error(
			    out,
			    "%s suffers no continuous damage, and %s's magic heals nothing; "
			    "its dice count by themselves.",
			    c->m[on].name, name);
			return;
		}
		cured = fungeon_magic_cure(&c->m[on]);
		channel_touch(inv->chan);
		reply_line(out, RS_GOOD,
		           "%s's %s ends %s's continuous damage (%d effect%s); the %s keeps its "
		           "magic.",
		           m->name, name, c->m[on].name, cured, cured == 1 ? "" : "s", name);
		return;
	}
	if (c->m[on].hits >= fungeon_max_hits(c->m[on].level) && damage_effects(&c->m[on]) == 0) {
		reply_error(
		    out,
		    "%s has all %d hits and no continuous damage: %s would heal nothing, and "
		    "it works once; keep it.",
		    c->m[on].name, c->m[on].hits, name);
		return;
	}
	fungeon_item_remove(m, i);
	channel_touch(inv->chan);
	snprintf(what, sizeof(what), "%s's %s, used up", m->name, name);
	heal_with_magic(out, &c->m[on], what, heal);
}

const char *
cmd_fungeon_town_points(int64_t points, char *buf, size_t len)
{
	snprintf(buf, len, "%lld point%s", (long long)points, points == 1 ? "" : "s");
	return buf;
}

static const char *
credit_words(const struct fungeon_member *m, char *buf, size_t len)
{
	return cmd_fungeon_town_points(m->credit, buf, len);
}

/* Whether the party is in town for town action a; else an error reply. A
 * player out of the game (dead, or a replacement waiting) may not head
 * back, so is told that the players in play do. */
static bool
town_may(const struct fungeon_channel *c, const struct invocation *inv, enum fungeon_act a,
         struct reply *out)
{
	int me = fungeon_channel_member_of(c, inv->from->user_key);
	char where[96];

	if (c->d.phase == FUNGEON_TOWN || inv->is_gm || me < 0 || fungeon_rights_in_play(c, me) ||
	    !fungeon_rights_anyone_in_play(c))
		return fungeon_channel_may(c, a, out);
	fungeon_dungeon_where(&c->d, where, sizeof(where));
	reply_error(out,
	            "%s, and the party is %s; %s is out of the game until %s, and the players "
	            "whose Fungeoneers are in play %s (",
	            fungeon_dungeon_town_words(a), where, c->m[me].player,
	            fungeon_rights_out_until(c),
	            c->d.phase == FUNGEON_RETREAT ? "go on back" : "head back");
	reply_cmd(out, RS_BAD, "fungeon retreat", NULL);
	reply_add(out, RS_BAD, ").");
	return false;
}

static void
town_sell(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int me, i;
	struct fungeon_member *m;
	char name[FUNGEON_NAME_MAX + 1], credit[48], gain[48], sold[48];
	int64_t cost, got;

	if (!town_may(c, inv, FUNGEON_ACT_TRADE, out) ||
	    (me = fungeon_channel_need_self(c, inv, out)) < 0 ||
	    !fungeon_rights_need_in_play(c, me, out) ||
	    (i = own_item(c, me, invocation_str(inv, "item"), out)) < 0)
		return;
	m = &c->m[me];
	snprintf(name, sizeof(name), "%s", m->items[i].name);
	cost = m->items[i].cost;
	if ((got = fungeon_sell(m, cost)) < 0) {
		reply_error(out,
		            "%s holds %lld points of credit, the most the bot keeps; buy first.",
		            m->name, (long long)m->credit);
		return;
	}
	fungeon_item_remove(m, i);
	channel_touch(inv->chan);
	reply_add(out, 0,
	          "%s sells %s (%lld point%s): what %s gave up in this visit, %s, gives half, "
	          "rounded down once over it all, so this sale adds %s: credit ",
	          m->name, name, (long long)cost, cost == 1 ? "" : "s", m->name,
	          cmd_fungeon_town_points(m->sold, sold, sizeof(sold)),
	          cmd_fungeon_town_points(got, gain, sizeof(gain)));
	reply_add(out, RS_BOLD, "%s", credit_words(m, credit, sizeof(credit)));
	reply_add(out, 0, ".");
	reply_nl(out);
}

static void
town_buy(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *name = invocation_str(inv, "name");
	struct fungeon_price *p = xmalloc(sizeof(*p));
	struct fungeon_design d;
	struct fungeon_member *m;
	char credit[48];
	int me;

	if (!town_may(c, inv, FUNGEON_ACT_TRADE, out) ||
	    (me = fungeon_channel_need_self(c, inv, out)) < 0 ||
	    !fungeon_rights_need_in_play(c, me, out) ||
	    cmd_fungeon_design_of(inv, FUNGEON_TREASURE, &d, p, out) < 0)
		goto done;
	m = &c->m[me];
	if (!cmd_fungeon_design_word(name, FUNGEON_NAME_CHARS, "a " CMD_FUNGEON_DESIGN_NAME_RULE,
	                             out))
		goto done;
	if (!cmd_fungeon_design_shows("A name", name, out) ||
	    !cmd_fungeon_design_name_free(name, out) ||
	    fungeon_channel_name_used(c, name, NULL, out))
		goto done;
	if (fungeon_item_find(m, name) >= 0) {
		reply_error(out, "%s carries a %s already; give the new one another name.", m->name,
		            name);
		goto done;
	}
	if (p->total > m->credit) {
		reply_error(out, "%s costs %lld but %s has %s of credit.", name,
		            (long long)p->total, m->name, credit_words(m, credit, sizeof(credit)));
		goto done;
	}
	if (may_carry(m, &d, out) < 0)
		goto done;
	carry(m, name, &d, p->total);
	m->credit -= p->total;
	channel_touch(inv->chan);
	reply_line(out, 0, "%s buys %s for %lld point%s (credit left %s).", m->name, name,
	           (long long)p->total, p->total == 1 ? "" : "s",
	           credit_words(m, credit, sizeof(credit)));
done:
	free(p);
}

/* The healer: a one-use healing treasure (a fancy item with Heal N, 2 + N
 * points) bought with credit and used at once. Being magic, it also ends
 * continuous damage (line 125), so one at full hits who suffers some may
 * buy the cheapest such magic, Heal 1 (3 points), to end it. */
static void
town_healer(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_member *m;
	int me, heal, missing, most;
	int64_t cost;
	char credit[48];

	if (!town_may(c, inv, FUNGEON_ACT_HEALER, out) ||
	    (me = fungeon_channel_need_self(c, inv, out)) < 0)
		return;
	m = &c->m[me];
	if (m->dead) {
		reply_error(out, "%s is dead, and no healer raises the dead; %s makes a new one.",
		            m->name, m->player);
		return;
	}
	missing = fungeon_max_hits(m->level) - m->hits;
	most = missing > 0 ? missing : damage_effects(m) > 0;
	if (most == 0) { /* whatever hits: asks, none is sold: no "hits:0 at most" */
		reply_error(out,
		            "%s has all %d hits and no continuous damage: the healer has nothing "
		            "to heal.",
		            m->name, m->hits);
		return;
	}
	heal = (int)invocation_int(inv, "hits", most);
	if (heal > most) {
		reply_error(out,
		            "%s misses %d hit%s of %d, and the healer sells no more healing than "
		            "that (hits:%d at most).",
		            m->name, missing, missing == 1 ? "" : "s", fungeon_max_hits(m->level),
		            most);
		return;
	}
	cost = 2 + (int64_t)heal;             /* fancy item 2, Magic: Heal 1 Hit per point */
	if (cost > m->credit && missing == 0) /* at full hits: the magic is for the damage */
		reply_error(
		    out,
		    "Ending %s's continuous damage costs %lld points (a fancy item, 2, with "
		    "Heal 1) but %s has %s of credit",
		    m->name, (long long)cost, m->name, credit_words(m, credit, sizeof(credit)));
	else if (cost > m->credit)
		reply_error(out,
		            "Healing %d hit%s costs %lld points (a fancy item, 2, with Heal %d) "
		            "but %s has %s of credit",
		            heal, heal == 1 ? "" : "s", (long long)cost, heal, m->name,
		            credit_words(m, credit, sizeof(credit)));
	if (cost > m->credit) {
		if (m->credit >= 3) { /* what the credit buys */
			char hits[24];

			snprintf(hits, sizeof(hits), "%lld", (long long)(m->credit - 2));
			reply_add(out, RS_BAD, ": it buys Heal %s (", hits);
			reply_cmd(out, RS_BAD, "fungeon town healer", "hits:", hits, NULL);
			reply_add(out, RS_BAD, ")%s.",
			          m->nitems > 0 ? ", or sell treasure first" : "");
		} else {
			reply_add(out, RS_BAD, "%s.",
			          m->nitems > 0 ? "; sell treasure first"
			                        : ", and nothing to sell");
		}
		return;
	}
	m->credit -= cost;
	channel_touch(inv->chan);
	reply_line(out, 0,
	           "%s pays the healer %lld points (a fancy item, 2, with Heal %d; credit "
	           "left %s).",
	           m->name, (long long)cost, heal, credit_words(m, credit, sizeof(credit)));
	heal_with_magic(out, m, "the healer's magic", heal);
}

/* A new game session (a Ruling on line 299, which limits healing to magic
 * treasure "during a game session"): in town, every living Fungeoneer's
 * hits are whole again. */
static void
town_session(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int healed = 0;
	bool alive = false;

	if (!town_may(c, inv, FUNGEON_ACT_SESSION, out) ||
	    (!inv->is_gm && fungeon_channel_need_self(c, inv, out) < 0))
		return;
	reply_add(out, RS_BOLD, "A new game session begins");
	for (int i = 0; i < c->n; i++) {
		struct fungeon_member *m = &c->m[i];
		int was = m->hits;

		alive |= !m->dead;
		if (fungeon_heal_new_session(m) == 0)
			continue;
		reply_add(out, 0, "%s%s %d → %d/%d",
		          healed++ == 0 ? ": hits are whole again, " : ", ", m->name, was, m->hits,
		          fungeon_max_hits(m->level));
	}
	if (healed == 0)
		reply_add(out, 0,
		          alive ? ": every living Fungeoneer's hits are whole already"
		                : ": nobody of the party lives");
	reply_add(out, 0, ".");
	reply_nl(out);
	fungeon_rights_town_fallen(c, out, 0);
	if (healed > 0)
		channel_touch(inv->chan);
}

static const struct cmd_opt buy_opts[] = {
    {.name = "name",
     .desc = "Its name (no spaces)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = OPT_STRING_MAX},
    {.name = "design",
     .desc = "Treasure design words (see the help on fungeon cost)",
     .type = OPT_STRING,
     .flags = OPT_REST,
     .max = FUNGEON_SPEC_MAX},
    {0},
};
static const struct cmd_opt sell_opts[] = {
    {.name = "item",
     .desc = "An item you carry",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = OPT_STRING_MAX},
    {0},
};
static const struct cmd_opt healer_opts[] = {
    {.name = "hits",
     .desc = "Hits to heal (default: all you miss)",
     .type = OPT_INT,
     .min = 1,
     .max = 5 * FUNGEON_LEVEL_MAX},
    {0},
};

const struct command cmd_fungeon_town_subs[] = {
    {.name = "sell",
     .desc = "Sell an item: half its points, rounded down, as credit",
     .help = "Treasure traded in gives half its points for new treasure, rounded down, as "
             "the text's 11-point sword gives 5. Ruling: rounded once over all you give up "
             "in one visit to town, so the order or splitting of sales costs nothing: two "
             "1-point coins give 1; a half point left is lost when the party leaves town.",
     .opts = sell_opts,
     .fn = town_sell},
    {.name = "buy",
     .desc = "Buy a new treasure with your credit",
     .opts = buy_opts,
     .fn = town_buy},
    {.name = "healer",
     .desc = "Buy healing magic with your credit and use it at once",
     .help = "Hits heal only through magic treasure during a game session: the healer "
             "sells a fancy item with Heal N (2 + N points, N at most the hits you miss) and "
             "you use it on the spot; like any magic it also ends continuous damage, so at "
             "full hits Heal 1 (3 points) is sold to end it. Ruling: "
             "a new dungeon does not heal; a new game session does ({/fungeon town "
             "session}).",
     .opts = healer_opts,
     .fn = town_healer},
    {.name = "session",
     .desc = "A new game session begins: every living Fungeoneer's hits are whole again",
     .help = "In town, when the table meets again. Ruling: the text limits healing to "
             "magic treasure \"during a game session (or one Dungeon)\" and sends the "
             "wounded to the healer in town, so hits stay as they are from one dungeon to "
             "the next within a session and are whole again only when a new one begins. "
             "Continuous damage goes on (only an Annoy success or magic ends it). Any "
             "player of the party may say so.",
     .fn = town_session},
    {0},
};
