/* /fungeon cost, trap, monster, treasure: designs priced against the
 * room's budget and made for the room by the player holding their
 * category (or, on the way back to town, wandering monsters built from a
 * player's own points). */
#include "commands/fungeon/cmd_fungeon_design.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/core/complete.h"
#include "commands/fungeon/cmd_fungeon_hallway.h"
#include "commands/fungeon/cmd_fungeon_town.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"
#include "rules/fungeon/fungeon.h"
#include "rules/fungeon/fungeon_name.h"

static const char *const kind_label[] = {"Traps", "Monsters", "Treasure"};

bool
cmd_fungeon_design_word(const char *word, size_t chars, const char *rule, struct reply *out)
{
	size_t n = strlen(word);
	char quoted[4 * FUNGEON_CLASS_CHARS + 4];

	if (fungeon_name_word_valid(word, chars))
		return true;
	if (n > 4 * chars || (utf8_valid(word, n) && utf8_len(word) > chars)) {
		size_t cut = utf8_cut_text(word, n, utf8_prefix(word, n, chars));

		snprintf(quoted, sizeof(quoted), "%.*s%s", (int)cut, word, cut < n ? "…" : "");
		reply_error(out, "'%s' is too long: %s.", quoted, rule);
	} else {
		reply_error_sentence(out, rule);
	}
	return false;
}

/* The characters the renderers set a reply's parts apart with: IRC's
 * " · " between lines, the console's " | " between columns, "→" before a
 * roll's result, "▶" before a highlighted entry. */
static const char *const separators[] = {"·", "|", "→", "▶"};

bool
cmd_fungeon_design_shows(const char *what, const char *text, struct reply *out)
{
	if (!fungeon_name_shows(text)) {
		reply_error(out,
		            "%s shows as it is typed: this one holds an invisible character or a "
		            "control, or an accent with no letter under it.",
		            what);
		return false;
	}
	for (size_t i = 0; i < sizeof(separators) / sizeof(separators[0]); i++) {
		if (strstr(text, separators[i]) == NULL)
			continue;
		reply_error(out,
		            "%s may not hold %s, which the bot's replies set their parts apart "
		            "with (as they do · | → and ▶).",
		            what, separators[i]);
		return false;
	}
	return true;
}

bool
cmd_fungeon_design_name_free(const char *name, struct reply *out)
{
	int n;
	enum fungeon_level_form form = fungeon_level_typed(name, &n);

	if (fungeon_name_reserved(name)) {
		reply_error(out,
		            "'%s' reads as a number or as a word the bot's replies and options use "
		            "(none, all, tie, dead); pick another name.",
		            name);
		return false;
	}
	/* "III" and "L3" name a level where /fungeon join takes one, as "Ⅲ"
	 * and "3" do */
	if (form != FUNGEON_LEVEL_ROMAN &&
	    (form != FUNGEON_LEVEL_LABELLED || fungeon_level_label(name)))
		return true;
	reply_error(out,
	            "'%s' reads as a level, as /fungeon join takes one (a Roman numeral, or a "
	            "level's label with its number); pick another name.",
	            name);
	return false;
}

int
cmd_fungeon_design_of(struct invocation *inv, enum fungeon_kind k, struct fungeon_design *d,
                      struct fungeon_price *p, struct reply *out)
{
	const char *spec = invocation_str(inv, "design");
	char err[300];

	if (spec != NULL && !cmd_fungeon_design_shows("A design", spec, out))
		return -1;

	/* What a new design lacks, all of it at once, before what its price
	 * needs. */
	if (fungeon_cost_parse_suggest(k, spec ? spec : "", d, err, sizeof(err), registry_suggest) <
	        0 ||
	    fungeon_cost_check(d, err, sizeof(err)) < 0 ||
	    fungeon_cost_price(d, p, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		return -1;
	}
	if (k == FUNGEON_MONSTER) {
		for (int i = 0; i < d->nab; i++) {
			const struct fungeon_ability *a = &d->ab[i];
			int most = a->annoy > a->pain ? a->annoy : a->pain;

			if (d->level + most > CF_DICE_MAX) {
				reply_error(
				    out,
				    "The ability %s would roll level + %d = %d dice; a roll "
				    "has at most %d.",
				    a->name, most, d->level + most, CF_DICE_MAX);
				return -1;
			}
		}
	}
	return 0;
}

/* The arithmetic: plain points, each doubling, the total; typed is the
 * design as its player wrote it. */
static void
price_lines(struct reply *out, enum fungeon_kind k, const struct fungeon_design *d,
            const struct fungeon_price *p, const char *typed)
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
		          fungeon_channel_dice_word(d->level));
	if (k == FUNGEON_TREASURE) {
		char words[48];

		reply_add(out, 0, " Sells in town for %s",
		          cmd_fungeon_town_points(fungeon_cost_sell_credit(p->total), words,
		                                  sizeof(words)));
		/* half is rounded down once over a visit's sales: its odd point
		 * counts with another's */
		reply_add(out, 0,
		          p->total % 2 ? " (one more after an odd-point sale in the same visit)."
		                       : ".");
	}
	reply_nl(out);
	if (k == FUNGEON_TREASURE && !fungeon_cost_treasure_kind_named(typed ? typed : ""))
		reply_line(out, RS_BAD,
		           "Neither mundane nor fancy was named, so this is priced as a mundane "
		           "item (1 point); a fancy one costs 2 and only it may be magic.");
}

/* A monster's Resist dice must be against a Type a Fungeoneer has. */
static int
resist_fits(const struct fungeon_channel *c, const struct fungeon_design *d, struct reply *out)
{
	for (int a = 0; a < d->nab; a++) {
		bool fits = false;

		if (d->ab[a].resist == 0)
			continue;
		for (int i = 0; i < c->n && !fits; i++)
			fits = !c->m[i].dead && fungeon_has_type(&c->m[i], d->ab[a].resist_type);
		if (!fits) {
			reply_error(out,
			            "No Fungeoneer of the party has %s as a class type or a magic "
			            "type, so %s's Resist dice would resist nothing; resist a type "
			            "one of them has.",
			            d->ab[a].resist_type, d->ab[a].name);
			return -1;
		}
	}
	return 0;
}

static void
cost_cmd(struct invocation *inv, struct reply *out, enum fungeon_kind k)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_design d;
	struct fungeon_price *p = xmalloc(sizeof(*p));
	char spec[FUNGEON_SPEC_MAX + 1];

	if (cmd_fungeon_design_of(inv, k, &d, p, out) == 0 &&
	    !(c->n > 0 && k == FUNGEON_MONSTER && resist_fits(c, &d, out) < 0)) {
		static const char *const what[] = {"Trap", "Monster", "Treasure"};

		fungeon_cost_format(&d, spec, sizeof(spec));
		reply_title(out, "%s: %s", what[k], spec);
		price_lines(out, k, &d, p, invocation_str(inv, "design"));
		if (c->n > 0) /* a party's budget to price it against */
			fungeon_channel_budget_line(out, c, k, p->total);
		if (c->n > 0 && k == FUNGEON_MONSTER && p->total < fungeon_channel_floor(c))
			reply_line(out, RS_BAD,
			           "Every monster on floor %d costs at least %d points (the "
			           "floor).",
			           fungeon_channel_floor(c), fungeon_channel_floor(c));
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

/* The invoker may make pieces of kind k for the room: it holds the
 * category. Returns its member index, or -1 with an error reply. */
static int
need_holder(struct invocation *inv, const struct fungeon_channel *c, enum fungeon_kind k,
            struct reply *out)
{
	int me = fungeon_channel_need_self(c, inv, out), h;

	if (me < 0)
		return -1;
	h = fungeon_channel_holder(c, (enum fungeon_category)k);
	if (h == me)
		return me;
	if (h >= 0) {
		reply_error(out,
		            "%s %s %s's to make in room %lld: the player who holds a category "
		            "alone makes its pieces.",
		            kind_label[k], k == FUNGEON_TREASURE ? "is" : "are", c->m[h].player,
		            (long long)c->d.room.number);
		return -1;
	}
	h = fungeon_hallway_picks_next(&c->d.room.picks);
	if (h >= 0) {
		reply_error(out, "Nobody holds %s in room %lld yet: %s chooses a category next (",
		            kind_label[k], (long long)c->d.room.number, c->m[h].player);
		reply_cmd(out, RS_BAD, "fungeon pick", "category", "CATEGORY", NULL);
		reply_add(out, RS_BAD, ").");
	} else {
		reply_error(out,
		            "Nobody holds %s in room %lld (more categories than players chose "
		            "them), so none are made.",
		            kind_label[k], (long long)c->d.room.number);
	}
	return -1;
}

/* Checks that the invoker may make a piece of kind k called name now, before
 * its design is read: the phase, the category (or a wandering monster to
 * build), then the name. Fills *payer with the member paying wandering
 * points (or -1). */
static int
may_make(struct invocation *inv, struct fungeon_channel *c, enum fungeon_kind k, const char *name,
         int *payer, struct reply *out)
{
	*payer = -1;
	if (k == FUNGEON_MONSTER && c->d.phase == FUNGEON_RETREAT) {
		if (!fungeon_channel_may(c, FUNGEON_ACT_WANDERER, out))
			return -1;
		*payer = fungeon_channel_need_self(c, inv, out);
		if (*payer < 0)
			return -1;
		if (c->m[*payer].nwander == 0) {
			reply_error(out,
			            "You have no wandering monster to build: points for one come "
			            "from failing the Annoy roll before a room on the way back.");
			return -1;
		}
	} else if (!fungeon_channel_may(c, FUNGEON_ACT_DESIGN, out) ||
	           need_holder(inv, c, k, out) < 0) {
		return -1;
	}
	if (!cmd_fungeon_design_word(name, FUNGEON_NAME_CHARS, "a " CMD_FUNGEON_DESIGN_NAME_RULE,
	                             out))
		return -1;
	if (!cmd_fungeon_design_shows("A name", name, out) ||
	    !cmd_fungeon_design_name_free(name, out) ||
	    fungeon_channel_name_used(c, name, NULL, out))
		return -1;
	return 0;
}

/* The refusal of piece `name` of kind k costing more than the `left`
 * points of the room's budget: with none left, that the budget is spent;
 * with less left than any new piece costs, that a piece is remade bigger
 * or the points let go; else that a cheaper piece would fit. Returns -1. */
static int
over_budget(const struct fungeon_channel *c, enum fungeon_kind k, const char *name, int64_t cost,
            int64_t left, struct reply *out)
{
	const char *kind = fungeon_cost_kind_name(k);
	char remove[32];
	int64_t cheapest = fungeon_room_cheapest(&c->d.room, k);

	snprintf(remove, sizeof(remove), "fungeon %s remove", kind);
	if (left <= 0) {
		reply_error(out,
		            "The %s budget of room %lld is spent (%lld of %lld): nothing more can "
		            "be made; unmake a piece first (",
		            kind_label[k], (long long)c->d.room.number,
		            (long long)fungeon_channel_spent(c, k),
		            (long long)fungeon_channel_budget(c, k));
		reply_cmd(out, RS_BAD, remove, "name", "NAME", NULL);
		reply_add(out, RS_BAD, ") to change the room.");
		return -1;
	}
	reply_error(
	    out,
	    "%s costs %lld but the %s budget has %lld left this room (budget %lld, spent %lld)",
	    name, (long long)cost, kind_label[k], (long long)left,
	    (long long)fungeon_channel_budget(c, k), (long long)fungeon_channel_spent(c, k));
	if (left >= cheapest) {
		reply_add(out, RS_BAD, "; make it cheaper.");
		return -1;
	}
	reply_add(out, RS_BAD,
	          ", less than any new %s costs here (at least %lld): unmake a piece first (", kind,
	          (long long)cheapest);
	reply_cmd(out, RS_BAD, remove, "name", "NAME", NULL);
	reply_add(out, RS_BAD, ") to make it again bigger, or let the %lld go (", (long long)left);
	reply_cmd(out, RS_BAD, "fungeon enter", "waive:", "true", NULL);
	reply_add(out, RS_BAD, ").");
	return -1;
}

/* Checks that the design d costing `cost` fits: the wandering points of
 * payer (>= 0), or the room's count and budget; a monster's floor and
 * Resist dice. */
static int
may_cost(struct fungeon_channel *c, enum fungeon_kind k, const struct fungeon_design *d,
         const char *name, int64_t cost, int payer, struct reply *out)
{
	int64_t left = fungeon_channel_budget(c, k) - fungeon_channel_spent(c, k);
	int floor = c->d.room.floor;

	if (payer >= 0 && cost != c->m[payer].wanderer[0]) {
		reply_error(out,
		            "%s costs %lld, but your wandering monster has %lld points to "
		            "spend, all of them (points from separate failures never pool).",
		            name, (long long)cost, (long long)c->m[payer].wanderer[0]);
		return -1;
	}
	if (payer < 0 && fungeon_room_made(&c->d.room, k) == FUNGEON_DESIGNS_MAX) {
		reply_error(out, "Room %lld holds %d %ss already, the most it can.",
		            (long long)c->d.room.number, FUNGEON_DESIGNS_MAX,
		            fungeon_cost_kind_name(k));
		return -1;
	}
	if (payer < 0 && cost > left)
		return over_budget(c, k, name, cost, left, out);
	if (k == FUNGEON_MONSTER && cost < floor) {
		reply_error(out,
		            "%s costs %lld but every monster on floor %d costs at least %d points.",
		            name, (long long)cost, floor, floor);
		return -1;
	}
	if (k == FUNGEON_MONSTER && resist_fits(c, d, out) < 0)
		return -1;
	return 0;
}

static void
add_cmd(struct invocation *inv, struct reply *out, enum fungeon_kind k)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *name = invocation_str(inv, "name");
	struct fungeon_price *p = xmalloc(sizeof(*p));
	struct fungeon_piece *s;
	struct fungeon_design d;
	int payer;

	if (may_make(inv, c, k, name, &payer, out) < 0 ||
	    cmd_fungeon_design_of(inv, k, &d, p, out) < 0 ||
	    may_cost(c, k, &d, name, p->total, payer, out) < 0) {
		free(p);
		return;
	}
	s = fungeon_room_add(&c->d.room, k);
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->maker, sizeof(s->maker), "%s", inv->from->user_key);
	s->d = d;
	s->cost = p->total;
	s->hits = k == FUNGEON_MONSTER ? fungeon_cost_monster_hits(d.level) : 0;
	s->wanderer = payer >= 0;
	if (payer >= 0)
		fungeon_wanderer_remove(&c->m[payer], 0); /* one monster per failure */
	channel_touch(inv->chan);
	reply_add(out, 0, "Made %s ", fungeon_cost_kind_name(k));
	reply_add(out, RS_BOLD, "%s", s->name);
	if (payer >= 0)
		reply_add(out, 0, ", a wandering monster in room %lld.",
		          (long long)c->d.room.number);
	else
		reply_add(out, 0, " for room %lld.", (long long)c->d.room.number);
	reply_nl(out);
	price_lines(out, k, &d, p, invocation_str(inv, "design"));
	if (payer >= 0)
		reply_line(out, 0, "Wandering monsters %s has left to build: %d.",
		           c->m[payer].player, c->m[payer].nwander);
	else {
		fungeon_channel_budget_line(out, c, k, 0);
		cmd_fungeon_hallway_waiver_check(c, k, out);
	}
	free(p);
}

/* The state column of a piece. */
static void
state_of(const struct fungeon_channel *c, enum fungeon_kind k, const struct fungeon_piece *s,
         char *state, size_t len)
{
	int maker = fungeon_channel_member_of(c, s->maker);
	const char *by = maker >= 0 ? c->m[maker].player : "";

	if (k == FUNGEON_TRAP)
		snprintf(state, len, "%s%s", fungeon_trap_state_name(s->state),
		         s->d.unlimited && s->passed && s->state != FUNGEON_TRAP_DISARMED
		             ? ", triggered"
		             : "");
	else if (k == FUNGEON_MONSTER && s->hits == 0)
		snprintf(state, len, "defeated%s", s->wanderer ? ", wandering" : "");
	else if (k == FUNGEON_MONSTER)
		snprintf(state, len, "%d/%d hits%s", s->hits, fungeon_cost_monster_hits(s->d.level),
		         s->wanderer ? ", wandering" : "");
	else if (s->taken[0])
		snprintf(state, len, "taken by %s", s->taken);
	else if (s->left && s->by[0])
		snprintf(state, len, "left by %s, out of the party", s->by);
	else if (s->left)
		snprintf(state, len, "left by the dead");
	else
		snprintf(state, len, "here");
	if (by[0] && !s->left)
		snprintf(state + strlen(state), len - strlen(state), " (made by %s)", by);
	if (k == FUNGEON_MONSTER && s->aim[0])
		snprintf(state + strlen(state), len - strlen(state), ", aims at %s", s->aim);
	if (k == FUNGEON_MONSTER && s->use[0])
		snprintf(state + strlen(state), len - strlen(state), ", uses %s", s->use);
}

/* In place of the monster table where room is short (IRC): the standing
 * monsters with their hits, then how many are defeated. */
static void
monsters_brief(const struct fungeon_room *r, struct reply *out)
{
	int standing = 0;

	reply_working(out);
	for (int i = 0; i < r->n[FUNGEON_MONSTER]; i++) {
		const struct fungeon_piece *s = &r->p[FUNGEON_MONSTER][i];

		if (s->hits == 0)
			continue;
		reply_add(out, 0, "%s%s %d/%d", standing++ == 0 ? "Standing (hits): " : ", ",
		          s->name, s->hits, fungeon_cost_monster_hits(s->d.level));
	}
	if (standing == 0)
		reply_add(out, 0, "None standing");
	reply_add(out, 0, "; %d defeated.", r->n[FUNGEON_MONSTER] - standing);
	reply_nl(out);
	reply_brief(out);
}

static void
list_cmd(struct invocation *inv, struct reply *out, enum fungeon_kind k)
{
	static const char *const hdr[] = {"name", "design", "cost", "state"};
	struct fungeon_channel *c = fungeon_channel(inv);
	const struct fungeon_room *r = &c->d.room;
	char where[96];

	fungeon_dungeon_where(&c->d, where, sizeof(where));
	if (r->n[k] == 0) {
		reply_line(out, 0, "No %ss here: the party is %s.", fungeon_cost_kind_name(k),
		           where);
		return;
	}
	reply_title(out, "%s of room %lld", kind_label[k], (long long)r->number);
	reply_table(out, 4, hdr);
	for (int i = 0; i < r->n[k]; i++) {
		const struct fungeon_piece *s = &r->p[k][i];
		char spec[FUNGEON_SPEC_MAX + 1], cost[24], state[128];
		const char *cells[] = {s->name, spec, cost, state};

		fungeon_cost_format(&s->d, spec, sizeof(spec));
		snprintf(cost, sizeof(cost), "%lld", (long long)s->cost);
		state_of(c, k, s, state, sizeof(state));
		reply_row(out, false, cells);
	}
	if (k == FUNGEON_MONSTER)
		monsters_brief(r, out);
	if (c->d.phase == FUNGEON_HALLWAY || c->d.phase == FUNGEON_ROOM)
		fungeon_channel_budget_line(out, c, k, 0);
}

/* The room's piece of kind k called name, or an error listing them. */
static struct fungeon_piece *
need_piece(struct fungeon_channel *c, enum fungeon_kind k, const char *name, struct reply *out)
{
	struct fungeon_piece *s = fungeon_channel_piece(c, k, name);
	struct buf b;

	if (s != NULL)
		return s;
	if (c->d.room.n[k] == 0) {
		reply_error(out, "There is no %s '%.40s' in room %lld; it has no %s%s yet.",
		            fungeon_cost_kind_name(k), name, (long long)c->d.room.number,
		            fungeon_cost_kind_name(k), k == FUNGEON_TREASURE ? "" : "s");
		return NULL;
	}
	buf_init(&b, 1000);
	fungeon_channel_list_pieces(c, k, &b);
	reply_error(out, "There is no %s '%.40s' in room %lld; its %s%s %s.",
	            fungeon_cost_kind_name(k), name, (long long)c->d.room.number,
	            fungeon_cost_kind_name(k), k == FUNGEON_TREASURE ? " is" : "s are",
	            buf_str(&b));
	buf_free(&b);
	return NULL;
}

static void
remove_cmd(struct invocation *inv, struct reply *out, enum fungeon_kind k)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_piece *s;
	char name[FUNGEON_NAME_MAX + 1];

	if (c->d.phase == FUNGEON_RETREAT && k == FUNGEON_MONSTER) {
		reply_error(
		    out, "On the way back a wandering monster, once built, stays: whoever failed "
		         "the roll creates it with all its points (/undo takes back a build made "
		         "by mistake).");
		return;
	}
	if (!fungeon_channel_may(c, FUNGEON_ACT_DESIGN, out) || need_holder(inv, c, k, out) < 0 ||
	    (s = need_piece(c, k, invocation_str(inv, "name"), out)) == NULL)
		return;
	if (s->left) {
		reply_error(out, "%s was left by %s%s; it is not yours to unmake.", s->name,
		            s->by[0] ? s->by : "the dead", s->by[0] ? ", out of the party" : "");
		return;
	}
	snprintf(name, sizeof(name), "%s", s->name);
	fungeon_room_remove(&c->d.room, k, (int)(s - c->d.room.p[k]));
	channel_touch(inv->chan);
	reply_line(out, 0, "Unmade %s %s.", fungeon_cost_kind_name(k), name);
	fungeon_channel_budget_line(out, c, k, 0);
	cmd_fungeon_hallway_waiver_check(c, k, out);
}

/* Whether the invoker may rename piece s: its maker, the GM, or, when its
 * maker is no longer of the party, any player of it; else an error. */
static bool
may_rename(const struct invocation *inv, const struct fungeon_channel *c,
           const struct fungeon_piece *s, enum fungeon_kind k, struct reply *out)
{
	int maker = fungeon_channel_member_of(c, s->maker);

	if (inv->is_gm || strcmp(s->maker, inv->from->user_key) == 0 ||
	    (maker < 0 && fungeon_channel_member_of(c, inv->from->user_key) >= 0))
		return true;
	if (maker >= 0)
		reply_error(out,
		            "The %s %s is %s's, and only its maker renames it (the GM may rename "
		            "any; a player of the party may once its maker has left).",
		            fungeon_cost_kind_name(k), s->name, c->m[maker].player);
	else
		reply_error(out,
		            "Only a player of the party or the GM renames the %s %s, whose maker "
		            "has left the party.",
		            fungeon_cost_kind_name(k), s->name);
	return false;
}

/* What a piece of kind k called from is called by elsewhere follows it to
 * its new name to: the Fungeoneers' standing aims at a monster, and the
 * continuous effects it (its maker's piece of that name) left on them
 * ("spider/web" becomes "crawler/web"). */
static void
renamed_refs(struct fungeon_channel *c, enum fungeon_kind k, const struct fungeon_piece *s,
             const char *from, const char *to)
{
	size_t n = strlen(from);

	for (int i = 0; i < c->n; i++) {
		struct fungeon_member *m = &c->m[i];

		if (k == FUNGEON_MONSTER && strcmp(m->aim, from) == 0)
			snprintf(m->aim, sizeof(m->aim), "%s", to);
		for (int e = 0; e < m->neffects && k != FUNGEON_TREASURE; e++) {
			struct fungeon_effect *ef = &m->effects[e];
			char was[FUNGEON_SOURCE_MAX];
			bool mine =
			    strcmp(ef->maker, s->maker) == 0 &&
			    (k == FUNGEON_TRAP
			         ? ef->from == FUNGEON_FROM_TRAP && strcmp(ef->source, from) == 0
			         : ef->from == FUNGEON_FROM_MONSTER &&
			               strncmp(ef->source, from, n) == 0 && ef->source[n] == '/');

			if (!mine)
				continue;
			snprintf(was, sizeof(was), "%s", ef->source + n);
			snprintf(ef->source, sizeof(ef->source), "%s%s", to, was);
		}
	}
}

static void
rename_cmd(struct invocation *inv, struct reply *out, enum fungeon_kind k)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *to = invocation_str(inv, "new");
	struct fungeon_piece *s = need_piece(c, k, invocation_str(inv, "name"), out);
	char from[FUNGEON_NAME_MAX + 1];

	if (s == NULL || !fungeon_rights_need_invoker_in_play(c, inv, out) ||
	    !may_rename(inv, c, s, k, out))
		return;
	/* A taken treasure is its carrier's item, carried under the name it
	 * was taken by (numbered beside one of that name), perhaps used up
	 * or sold since: no one else renames what a Fungeoneer carries. */
	if (k == FUNGEON_TREASURE && s->taken[0]) {
		reply_error(
		    out,
		    "The treasure %s was taken by %s and is carried under that name now, so "
		    "it keeps it; only a treasure left to take is renamed.",
		    s->name, s->taken);
		return;
	}
	if (strcmp(s->name, to) == 0) {
		reply_error(out, "The %s is called %s already; give it another name.",
		            fungeon_cost_kind_name(k), s->name);
		return;
	}
	if (!cmd_fungeon_design_word(to, FUNGEON_NAME_CHARS, "a " CMD_FUNGEON_DESIGN_NAME_RULE,
	                             out) ||
	    !cmd_fungeon_design_shows("A name", to, out) || !cmd_fungeon_design_name_free(to, out))
		return;
	/* the piece itself aside: a new case of its own name is no clash */
	snprintf(from, sizeof(from), "%s", s->name);
	s->name[0] = '\0';
	if (fungeon_channel_name_used(c, to, NULL, out)) {
		snprintf(s->name, sizeof(s->name), "%s", from);
		return;
	}
	snprintf(s->name, sizeof(s->name), "%s", to);
	renamed_refs(c, k, s, from, to);
	channel_touch(inv->chan);
	reply_line(out, 0, "The %s %s is now called %s.", fungeon_cost_kind_name(k), from, s->name);
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
	}                                                                                          \
	static void rename_##suffix(struct invocation *inv, struct reply *out)                     \
	{                                                                                          \
		rename_cmd(inv, out, kind);                                                        \
	}

KIND_HANDLERS(FUNGEON_TRAP, trap)
KIND_HANDLERS(FUNGEON_MONSTER, monster)
KIND_HANDLERS(FUNGEON_TREASURE, treasure)

#define NAME_OPT                                                                                   \
	{                                                                                          \
		.name = "name", .desc = "Its name (no spaces)", .type = OPT_STRING,                \
		.flags = OPT_REQUIRED, .max = OPT_STRING_MAX                                       \
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
static const struct cmd_opt add_opts[] = {
    NAME_OPT,
    DESIGN_OPT("Design words (see the help on fungeon cost)"),
    {0},
};
/* The name of a piece of the room, completed from those of its kind, and
 * a new name. */
#define PIECE_OPT(fn)                                                                              \
	{                                                                                          \
		.name = "name", .desc = "Its name", .type = OPT_STRING,                            \
		.flags = OPT_REQUIRED | OPT_AUTOCOMPLETE, .max = OPT_STRING_MAX, .complete = (fn)  \
	}
#define NEW_OPT                                                                                    \
	{                                                                                          \
		.name = "new", .desc = "Its new name, one word", .type = OPT_STRING,               \
		.flags = OPT_REQUIRED, .max = OPT_STRING_MAX                                       \
	}
#define PIECE_OPTS(suffix, fn)                                                                     \
	static const struct cmd_opt name_opts_##suffix[] = {PIECE_OPT(fn), {0}};                   \
	static const struct cmd_opt rename_opts_##suffix[] = {PIECE_OPT(fn), NEW_OPT, {0}};

PIECE_OPTS(trap, complete_fg_trap)
PIECE_OPTS(monster, complete_fg_monster)
PIECE_OPTS(treasure, complete_fg_treasure)

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

#define STORE_SUBS(kind, suffix, add_help)                                                         \
	{                                                                                          \
		{.name = "add",                                                                    \
		 .desc = "Make a " kind " for this room (its category's holder, in the hallway)",  \
		 .help = add_help,                                                                 \
		 .opts = add_opts,                                                                 \
		 .fn = add_##suffix},                                                              \
		    {.name = "list",                                                               \
		     .desc = "The " kind "s of this room, with their state",                       \
		     .fn = list_##suffix,                                                          \
		     .read_only = true},                                                           \
		    {.name = "remove",                                                             \
		     .desc = "Unmake a " kind " of this room, in the hallway",                     \
		     .opts = name_opts_##suffix,                                                   \
		     .fn = remove_##suffix},                                                       \
		    {.name = "rename",                                                             \
		     .desc = "Rename a " kind " of this room (its maker, the GM, or any party "    \
		             "player once its maker left)",                                        \
		     .help =                                                                       \
		         "The " kind "'s maker renames it, or the GM; once its maker has left "    \
		         "the party, any player of it may. The new name follows the rules of "     \
		         "a new one's, and orders and effects naming it follow it.",               \
		     .opts = rename_opts_##suffix,                                                 \
		     .fn = rename_##suffix},                                                       \
		    {0},                                                                           \
	}

const struct command cmd_fungeon_design_trap_subs[] = STORE_SUBS(
    "trap", trap,
    "Only the player holding Traps in this room makes them, from the Traps budget (Party Max "
    "+ floor), in the hallway before entering. A trap starts hidden. Ruling: a room holds at "
    "most 24 traps, 24 monsters made for it and 24 treasures (a limit of the bot; the text "
    "sets none beyond the points).");
const struct command cmd_fungeon_design_monster_subs[] = STORE_SUBS(
    "monster", monster,
    "Only the player holding Monsters in this room makes them, from the Monsters budget "
    "(Party Total + floor), each costing at least the floor. Resist dice must be against a "
    "type a Fungeoneer has (a class type or magic). On the way back to town, a player who "
    "failed the Annoy roll before a room builds one wandering monster here instead, "
    "spending all of its points. Ruling: a room holds at most 24 monsters made for it (a "
    "limit of the bot; the text sets none beyond the points).");
const struct command cmd_fungeon_design_treasure_subs[] = STORE_SUBS(
    "treasure", treasure,
    "Only the player holding Treasure in this room makes it, from the Treasure budget (Party "
    "Min + floor). It can be taken once the room's monsters are dead, or, if a trap guards "
    "it, once that trap was triggered, disarmed or sidestepped. Ruling: a room holds at "
    "most 24 treasures made for it (a limit of the bot; the text sets none beyond the "
    "points).");
