/* /fungeon sheet, party, floor, stair, adjust, xp-rule: the party as it
 * stands, and the corrections made to it by hand. */
#include "commands/fungeon/cmd_fungeon_party.h"

#include <stdio.h>
#include <string.h>

#include "commands/fungeon/cmd_fungeon_hallway.h"
#include "commands/fungeon/cmd_fungeon_town.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/fungeon/fungeon_roll.h"

/* "level 4 at 80 XP", or why no level comes after this one. */
static void
next_level(const struct fungeon_channel *c, const struct fungeon_member *m, struct reply *out)
{
	int64_t need = fungeon_xp_needed(c->xp_rule, m->level + 1);

	if (need < 0)
		reply_add(out, 0, " (level %d would need more XP than 64-bit arithmetic holds)",
		          m->level + 1);
	else
		reply_add(out, 0, " (level %d at %lld)", m->level + 1, (long long)need);
}

static void
sheet_of(const struct fungeon_channel *c, int i, struct reply *out)
{
	char credit[48];
	const struct fungeon_member *m = &c->m[i];

	reply_title(out, "%s (%s): level %d %s%s%s%s%s", m->name, m->player, m->level, m->cls,
	            m->ctype[0] ? ", class type " : "", m->ctype, m->dead ? ", dead" : "",
	            !m->fresh                       ? ""
	            : c->d.phase == FUNGEON_RETREAT ? ", joins in town"
	                                            : ", joins in the next hallway");
	reply_add(out, 0, "Hits ");
	reply_add(out, m->dead ? RS_BAD | RS_BOLD : RS_BOLD, "%d/%d", m->hits,
	          fungeon_max_hits(m->level));
	reply_add(out, 0, " · class bonus %d · XP %lld", fungeon_class_bonus(m->level),
	          (long long)m->xp);
	next_level(c, m, out);
	reply_nl(out);
	if (!m->dead && fungeon_level_for_xp(c->xp_rule, m->xp) > m->level)
		reply_line(out, RS_GOOD, "Level-up due in the hallway: the XP reach level %d.",
		           fungeon_level_for_xp(c->xp_rule, m->xp));
	if (m->dead) {
		if (c->d.phase == FUNGEON_TOWN)
			reply_add(out, RS_BAD, "Dead: %s makes a new one (", m->player);
		else
			reply_add(out, RS_BAD, "Dead: %s is out until %s and makes a new one (",
			          m->player, fungeon_rights_out_until(c));
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		/* on the way back the new one joins in town, at the level chosen */
		if (c->d.phase != FUNGEON_TOWN && c->d.phase != FUNGEON_RETREAT)
			reply_add(out, RS_BAD, ", at level %d",
			          fungeon_replacement_level(fungeon_channel_floor(c)));
		reply_line(out, RS_BAD, ").");
	}
	for (int e = 0; e < m->neffects; e++) {
		const struct fungeon_effect *ef = &m->effects[e];

		reply_line(out, 0, "Suffers %s's continuous %s (annoy %d, pain %d%s): %s.",
		           ef->source, ef->kind == FUNGEON_EFFECT_HOLD ? "hold" : "damage",
		           ef->annoy, ef->pain, ef->universal ? ", universal" : "",
		           ef->kind == FUNGEON_EFFECT_HOLD
		               ? "rolled at the start of each combat turn"
		           : ef->from == FUNGEON_FROM_TRAP
		               ? "rolled in each hallway"
		               : "rolled at the start of each combat turn and in each hallway");
	}
	if (m->aim[0])
		reply_line(out, 0, "Aims at %s in this room's fights.", m->aim);
	for (int k = 0; k < m->nitems; k++) {
		char spec[FUNGEON_SPEC_MAX + 1];

		fungeon_cost_format(&m->items[k].d, spec, sizeof(spec));
		reply_line(out, 0, "Carries %s: %s (%lld point%s).", m->items[k].name, spec,
		           (long long)m->items[k].cost, m->items[k].cost == 1 ? "" : "s");
	}
	if (m->credit)
		reply_line(out, 0, "Town credit %s.",
		           cmd_fungeon_town_points(m->credit, credit, sizeof(credit)));
	for (int k = 0; k < m->nwander; k++)
		reply_line(out, 0, "Wandering monster to build: %lld points.",
		           (long long)m->wanderer[k]);
}

void
cmd_fungeon_sheet(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *who = invocation_str(inv, "who");
	int i = who != NULL ? fungeon_channel_need_member(c, who, out)
	                    : fungeon_channel_need_self(c, inv, out);

	if (i >= 0)
		sheet_of(c, i, out);
}

/* Appends where the party stands: "floor 2", or in a room whose stair it
 * took "floor 2 (the rooms to come: floor 3)"; on the way back the floor of
 * the room re-entered. */
static void
floor_words(const struct fungeon_channel *c, unsigned style, struct reply *out)
{
	const struct fungeon_dungeon *d = &c->d;
	bool in_room = d->phase == FUNGEON_ROOM || (d->phase == FUNGEON_RETREAT && d->back > 0);
	int here = in_room ? d->room.floor : fungeon_channel_floor(c);

	if (d->phase == FUNGEON_TOWN) {
		reply_add(out, style, "no floor in town (a new dungeon opens on Party Min)");
		return;
	}
	reply_add(out, style, "floor %d", here);
	if (d->phase == FUNGEON_ROOM && d->floor != here)
		reply_add(out, style, " (the rooms to come: floor %d)", d->floor);
}

/* How many monsters standing in the room nobody in play directs (their
 * maker left or is out of the game): they follow the defaults. */
static int
undirected_monsters(const struct fungeon_channel *c)
{
	const struct fungeon_room *r = &c->d.room;
	int n = 0;

	for (int i = 0; i < r->n[FUNGEON_MONSTER]; i++)
		n += r->p[FUNGEON_MONSTER][i].hits > 0 &&
		     fungeon_rights_director(c, &r->p[FUNGEON_MONSTER][i]) < 0;
	return n;
}

/* Who holds what in the room, and whose choice is next. */
static void
holders_line(const struct fungeon_channel *c, struct reply *out)
{
	const struct fungeon_picks *pk = &c->d.room.picks;
	int next = fungeon_hallway_picks_next(pk), undirected;

	if (next >= 0) {
		reply_add(out, 0, "Choosing categories: %s is next (", c->m[next].player);
		reply_cmd(out, 0, "fungeon pick", "category", "CATEGORY", NULL);
		reply_line(out, 0, ").");
	}
	reply_add(out, 0, "Room %lld is made by:", (long long)c->d.room.number);
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		int h = fungeon_channel_holder(c, (enum fungeon_category)k);

		reply_add(out, 0, "%s %s %s", k ? " ·" : "",
		          fungeon_hallway_category_name((enum fungeon_category)k),
		          h >= 0 ? c->m[h].player : "nobody");
		if (k == FUNGEON_CAT_MONSTERS && (undirected = undirected_monsters(c)) > 0)
			reply_add(out, 0,
			          " (%d made by a player out of the game or gone, following the "
			          "defaults; only the GM directs %s)",
			          undirected, undirected == 1 ? "it" : "them");
	}
	reply_nl(out);
}

/* Whether the recorded waiver ("room 5: ... waived by al: ...") is of the room
 * the party is in: it is shown there, not in later rooms or in town. */
static bool
waived_here(const struct fungeon_channel *c)
{
	char prefix[32];
	int n = snprintf(prefix, sizeof(prefix), "room %lld:", (long long)c->d.room.number);

	return c->d.phase == FUNGEON_ROOM && strncmp(c->waived, prefix, (size_t)n) == 0;
}

/* What waits to be done before the party goes on: a downward stair not
 * taken; on the way back, the wandering monsters to build or fight, or the
 * next step back. */
static void
pending_lines(const struct fungeon_channel *c, struct reply *out)
{
	const struct fungeon_dungeon *d = &c->d;
	int standing = fungeon_room_standing(&d->room);
	bool anyone = false;

	if (d->phase == FUNGEON_ROOM && d->room.stair && d->floor == d->room.floor) {
		reply_add(out, 0, "A downward stair in room %lld leads on to floor %d, not taken: ",
		          (long long)d->room.number, d->room.floor + 1);
		reply_cmd(out, 0, "fungeon stair", NULL);
		reply_line(out, 0, " before the next hallway.");
	}
	if (d->phase == FUNGEON_HALLWAY && d->room.stair)
		reply_line(
		    out, 0,
		    "Party Min rose: whoever makes the Traps places a downward stair to floor "
		    "%d in room %lld.",
		    d->room.floor + 1, (long long)d->room.number);
	if (d->phase != FUNGEON_RETREAT)
		return;
	reply_line(out, 0, "Heading back to town: room %lld re-entered.",
	           (long long)d->room.number);
	for (int i = 0; i < c->n; i++) {
		const struct fungeon_member *m = &c->m[i];

		if (m->dead)
			continue;
		for (int k = 0; k < m->nwander; k++) {
			reply_add(out, 0,
			          "%s builds a wandering monster of %lld points: ", m->player,
			          (long long)m->wanderer[k]);
			reply_cmd(out, 0, "fungeon monster add", "name", "NAME", "design", "DESIGN",
			          NULL);
			reply_line(out, 0, ".");
		}
	}
	for (int i = 0; i < c->n; i++)
		anyone |= fungeon_rights_in_play(c, i);
	if (standing > 0 && !anyone) {
		reply_add(out, 0,
		          "Nobody of the party is in play, so nobody fights the wandering "
		          "monster%s here: any of its players takes it on to town (",
		          standing == 1 ? "" : "s");
		reply_cmd(out, 0, "fungeon retreat", NULL);
		reply_line(out, 0, ").");
	} else if (standing > 0) {
		reply_add(out, 0, "%d wandering monster%s stand%s: ", standing,
		          standing == 1 ? "" : "s", standing == 1 ? "s" : "");
		reply_cmd(out, 0, "fungeon combat", NULL);
		reply_line(out, 0, " before going on back.");
	}
	fungeon_render_go_on_back(c, out);
}

/* Those who wait to join (a replacement made since the last hallway),
 * named with their levels, which the Party figures before them leave out
 * until the hallway counts them: "Alba4 (level 2) waits to join, not
 * counted · "; nothing when nobody waits. */
static void
waiting_words(const struct fungeon_channel *c, struct reply *out)
{
	int n = 0, k = 0;

	for (int i = 0; i < c->n; i++)
		n += c->m[i].fresh && !c->m[i].dead;
	for (int i = 0; i < c->n; i++) {
		if (!c->m[i].fresh || c->m[i].dead)
			continue;
		reply_add(out, 0, "%s%s (level %d)",
		          reply_list_sep((size_t)k++, (size_t)n, " and "), c->m[i].name,
		          c->m[i].level);
	}
	if (n > 0)
		reply_add(out, 0, " wait%s to join, not counted · ", n == 1 ? "s" : "");
}

void
cmd_fungeon_party(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"Fungeoneer", "player", "class", "level",
	                                  "hits",       "XP",     "bonus"};
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_party p, now;
	char where[96], waived[200];

	if (c->n == 0) {
		reply_add(out, 0, "No party here yet: ");
		fungeon_channel_join_how(out, 0, ".");
		reply_nl(out);
		return;
	}
	fungeon_channel_party(c, &p);
	fungeon_dungeon_where(&c->d, where, sizeof(where));
	reply_title(out, "The party, %s", where);
	reply_table(out, 7, hdr);
	for (int i = 0; i < c->n; i++) {
		const struct fungeon_member *m = &c->m[i];
		char level[8], hits[24], xp[24], bonus[8];
		const char *cells[] = {m->name, m->player, m->cls, level, hits, xp, bonus};

		snprintf(level, sizeof(level), "%d", m->level);
		snprintf(hits, sizeof(hits),
		         m->dead    ? "dead"
		         : m->fresh ? "%d/%d, waits"
		                    : "%d/%d",
		         m->hits, fungeon_max_hits(m->level));
		snprintf(xp, sizeof(xp), "%lld", (long long)m->xp);
		snprintf(bonus, sizeof(bonus), "%d", fungeon_class_bonus(m->level));
		reply_row(out, !strcmp(m->user_key, inv->from->user_key), cells);
	}
	fungeon_party_in_play(c->m, c->n, &now);
	if (now.n > 0)
		reply_add(out, 0, "Party now: Min %d · Max %d · Total %d · ", now.min, now.max,
		          now.total);
	else if (p.n > 0)
		reply_add(out, 0, "No Fungeoneer in play (no Party Min, Max or Total) · ");
	else
		reply_add(out, 0, "No Fungeoneer lives (no Party Min, Max or Total) · ");
	waiting_words(c, out);
	floor_words(c, 0, out);
	reply_line(out, 0, " · XP rule: %s.",
	           c->xp_rule == FUNGEON_XP_FORMULA ? "formula" : "table");
	if (fungeon_dungeon_hallway_again(&c->d)) {
		reply_add(out, 0,
		          "Room %lld's budgets are counted when its hallway runs again, once each "
		          "player whose Fungeoneer died has made a new one (",
		          (long long)c->d.room.number);
		reply_cmd(out, 0, "fungeon hallway", NULL);
		reply_line(out, 0, ").");
	} else if (c->d.phase == FUNGEON_HALLWAY || c->d.phase == FUNGEON_ROOM) {
		for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
			fungeon_channel_budget_line(out, c, (enum fungeon_kind)k, 0);
		holders_line(c, out);
	}
	if (c->waived[0] && waived_here(c))
		reply_line(out, RS_DIM, "Waived: %s.", c->waived);
	if (c->d.phase == FUNGEON_HALLWAY &&
	    cmd_fungeon_hallway_waived(c, waived, sizeof(waived)) > 0)
		reply_line(out, RS_DIM,
		           "Waived so far: %s (a player's waiver holds while no new piece can use "
		           "the points; it is checked again at each piece made or unmade and at "
		           "entry).",
		           waived);
	pending_lines(c, out);
	if ((c->d.phase != FUNGEON_TOWN || fungeon_rights_town_fallen(c, out, RS_DIM) == 0) &&
	    (c->d.phase == FUNGEON_TOWN || c->d.phase == FUNGEON_ENTRANCE)) {
		reply_add(out, RS_DIM, "Categories are drawn in the hallway (");
		reply_cmd(out, RS_DIM, "fungeon hallway", NULL);
		reply_line(out, RS_DIM, ").");
	}
}

void
cmd_fungeon_floor(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	char err[200];

	if (invocation_has(inv, "n")) {
		int n = (int)invocation_int(inv, "n", 1);

		/* the GM's alone, wherever the party is: a player hears that
		 * first, not where the GM could set it */
		if (!inv->is_gm) {
			reply_error(out,
			            "Only the GM sets the floor by hand, a correction outside the "
			            "rules: the entrance opens on Party Min, and a downward stair "
			            "leads one floor deeper (");
			reply_cmd(out, RS_BAD, "fungeon stair", NULL);
			reply_add(out, RS_BAD, ").");
			return;
		}
		if (!fungeon_channel_may(c, FUNGEON_ACT_FLOOR, out))
			return;
		if (fungeon_dungeon_set_floor(&c->d, n, err, sizeof(err)) < 0) {
			reply_error(out, "%s", err);
			return;
		}
		channel_touch(inv->chan);
		reply_line(out, RS_BAD,
		           "Set by hand, outside the rules (the entrance opens on Party Min, and "
		           "a downward stair leads one floor deeper):");
	}
	reply_add(out, 0, "The party is on ");
	floor_words(c, RS_BOLD, out);
	if (c->d.phase == FUNGEON_TOWN)
		reply_add(out, 0, ": a dungeon's entrance opens on Party Min");
	reply_add(out, 0, ".");
	reply_nl(out);
}

void
cmd_fungeon_stair(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	char err[240];

	if (!fungeon_channel_may(c, FUNGEON_ACT_STAIR, out) ||
	    !fungeon_rights_may_move(c, inv, FUNGEON_ACT_STAIR, out))
		return;
	if (fungeon_dungeon_take_stair(&c->d, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		return;
	}
	channel_touch(inv->chan);
	reply_add(out, 0, "The party takes room %lld's downward stair: the rooms to come are on ",
	          (long long)c->d.room.number);
	reply_add(out, RS_BOLD, "floor %d", c->d.floor);
	reply_add(out, 0, ".");
	reply_nl(out);
}

/* The hits half of /fungeon adjust, on a Fungeoneer (alive) or a monster
 * of the room. */
static void
adjust_hits(struct fungeon_channel *c, const struct fungeon_part *p, int n, struct reply *out)
{
	bool dead[FUNGEON_PARTY_MAX];
	struct fungeon_member *m;
	int before;

	if (p->kind == FGP_MONSTER) {
		int max = fungeon_cost_monster_hits(p->s->d.level);

		before = p->s->hits;
		p->s->hits = n < 0 ? (-n >= before ? 0 : before + n)
		                   : (n >= max - before ? max : before + n);
		reply_line(out, 0, "%s's hits %d → %d of %d%s.", p->s->name, before, p->s->hits,
		           max, p->s->hits == 0 ? ": defeated" : "");
		fungeon_channel_lift_holds(c, out);
		fungeon_channel_orders_lapse(c, -1);
		return;
	}
	m = &c->m[p->member];
	before = m->hits;
	fungeon_channel_dead_before(c, dead);
	if (n < 0)
		fungeon_damage(m, -n);
	else
		fungeon_heal(m, n);
	reply_add(out, 0, "%s's hits %d → %d of %d.", m->name, before, m->hits,
	          fungeon_max_hits(m->level));
	if (m->dead)
		fungeon_render_death(out, c, m, "stays to plunder");
	reply_nl(out);
	fungeon_channel_deaths(c, dead);
}

/* The XP half of /fungeon adjust (checked already). */
static void
adjust_xp(struct fungeon_channel *c, int i, int64_t n, struct reply *out)
{
	struct fungeon_member *m = &c->m[i];
	int64_t before = m->xp;
	int reach;

	m->xp += n;
	reach = fungeon_level_for_xp(c->xp_rule, m->xp);
	reply_add(out, 0, "%s's XP %lld → ", m->name, (long long)before);
	reply_add(out, RS_BOLD, "%lld", (long long)m->xp);
	reply_add(out, 0, ".");
	if (reach > m->level)
		reply_add(out, RS_GOOD, " Level %d is due in the hallway.", reach);
	reply_nl(out);
}

/* Whether adjusting p's hits by dh (not 0) changes them: not when they
 * are at their most and dh adds, or at 0 and dh takes. Sets *now and
 * *max to p's hits and their most. */
static bool
adjust_moves_hits(const struct fungeon_channel *c, const struct fungeon_part *p, int64_t dh,
                  int *now, int *max)
{
	const struct fungeon_member *m = p->kind == FGP_MEMBER ? &c->m[p->member] : NULL;

	*now = m != NULL ? m->hits : p->s->hits;
	*max = m != NULL ? fungeon_max_hits(m->level) : fungeon_cost_monster_hits(p->s->d.level);
	return dh > 0 ? *now < *max : *now > 0;
}

/* Everything an adjustment could break, checked before it changes
 * anything. Returns 0, or -1 with an error reply. */
static int
adjust_check(const struct fungeon_channel *c, const struct fungeon_part *p, bool hits, int64_t dh,
             bool xp, int64_t dx, struct reply *out)
{
	const struct fungeon_member *m = p->kind == FGP_MEMBER ? &c->m[p->member] : NULL;
	int now, max;

	if (!hits && !xp) {
		reply_error(out, "Say what to adjust: hits:+N or hits:-N, xp:+N or xp:-N.");
		return -1;
	}
	if ((hits && dh == 0) || (xp && dx == 0)) {
		reply_error(out, "An adjustment of 0 changes nothing; give +N or -N.");
		return -1;
	}
	if (xp && m == NULL) {
		reply_error(out, "%s is a monster, and monsters have no XP; adjust its hits.",
		            p->s->name);
		return -1;
	}
	if (m != NULL && m->dead) {
		reply_error(out, "%s is dead, and an adjustment changes nothing of the dead; ",
		            m->name);
		reply_cmd(out, RS_BAD, "undo", NULL);
		reply_add(out, RS_BAD, " takes back a death that was a mistake.");
		return -1;
	}
	if (hits && !xp && !adjust_moves_hits(c, p, dh, &now, &max)) {
		reply_error(out, "%s's hits are already %d of %d; nothing changed.",
		            m != NULL ? m->name : p->s->name, now, max);
		return -1;
	}
	if (xp && dx < 0 && -dx > m->xp) {
		reply_error(out, "%s has %lld XP, so an adjustment takes away at most %lld.",
		            m->name, (long long)m->xp, (long long)m->xp);
		return -1;
	}
	if (xp && dx > 0 && m->xp > FUNGEON_XP_MAX - dx) {
		reply_error(out,
		            "%s has %lld XP, and %lld more would pass %lld, the most 64-bit "
		            "arithmetic holds.",
		            m->name, (long long)m->xp, (long long)dx, (long long)FUNGEON_XP_MAX);
		return -1;
	}
	return 0;
}

void
cmd_fungeon_adjust(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_part p;
	bool hits = invocation_has(inv, "hits"), xp = invocation_has(inv, "xp");
	int64_t dh = invocation_int(inv, "hits", 0), dx = invocation_int(inv, "xp", 0);
	int now, max;

	if (fungeon_roll_part_resolve(c, invocation_str(inv, "who"), FGP_MEMBER | FGP_MONSTER, &p,
	                              out) < 0 ||
	    adjust_check(c, &p, hits, dh, xp, dx, out) < 0)
		return;
	if (!inv->is_gm &&
	    (p.kind != FGP_MEMBER || strcmp(c->m[p.member].user_key, inv->from->user_key) != 0)) {
		reply_error(out,
		            "A player adjusts only their own Fungeoneer; the GM adjusts any other "
		            "Fungeoneer or a monster.");
		return;
	}
	/* With the XP adjusted too, hits that stay as they are go unsaid:
	 * the reply shows only what changed. */
	hits = hits && adjust_moves_hits(c, &p, dh, &now, &max);
	/* The reminder of how hits come back is for a Fungeoneer healed by
	 * hand, not for every correction. */
	reply_add(out, RS_BAD, "Adjusted by hand, outside the rules (%s",
	          hits && dh > 0 && p.kind == FGP_MEMBER
	              ? "in a dungeon only magic treasure and levelling up heal; "
	              : "");
	reply_cmd(out, RS_BAD, "undo", NULL);
	reply_add(out, RS_BAD, " takes back a mistake):");
	reply_nl(out);
	if (xp)
		adjust_xp(c, p.member, dx, out);
	if (hits)
		adjust_hits(c, &p, (int)dh, out);
	channel_touch(inv->chan);
}

/* Whether the invoker may set the channel's XP rule: the GM's where a GM
 * holds the seat, at any time; in a masterless game (nobody holds it), any
 * player of the party's, in town (between dungeons, where the party
 * decides together). Else an error reply. */
static bool
may_set_xp_rule(struct invocation *inv, const struct fungeon_channel *c, struct reply *out)
{
	char where[96];

	if (inv->is_gm || (inv->seat != NULL && channel_gm_name(inv->seat) != NULL))
		return invocation_require_gm(inv, out);
	if (fungeon_channel_member_of(c, inv->from->user_key) < 0) {
		reply_error(out, "With nobody in the GM seat, the XP rule is set by a player of "
		                 "the party, and you have no Fungeoneer here; ");
		fungeon_channel_join_how(out, RS_BAD, " makes one.");
		return false;
	}
	if (c->d.phase == FUNGEON_TOWN)
		return true;
	fungeon_dungeon_where(&c->d, where, sizeof(where));
	reply_error(out,
	            "With nobody in the GM seat, a player of the party sets the XP rule only in "
	            "town, between dungeons, and the party is %s.",
	            where);
	return false;
}

void
cmd_fungeon_xprule(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *rule = invocation_str(inv, "rule");

	if (rule != NULL) {
		enum fungeon_xp_rule was = c->xp_rule;

		if (!may_set_xp_rule(inv, c, out))
			return;
		c->xp_rule = strcmp(rule, "formula") ? FUNGEON_XP_TABLE : FUNGEON_XP_FORMULA;
		channel_touch(inv->chan);
		/* said to the channel, naming who set it and what it was */
		reply_add(out, 0, "%s sets the XP rule (it was %s). ", inv->from->user_name,
		          was == FUNGEON_XP_FORMULA ? "formula" : "table");
	}
	reply_add(out, 0, "XP rule here: ");
	reply_add(out, RS_BOLD, "%s", c->xp_rule == FUNGEON_XP_FORMULA ? "formula" : "table");
	reply_add(out, 0,
	          c->xp_rule == FUNGEON_XP_FORMULA
	              ? " (level up when XP >= 10 x 2^(current level - 1): level 3 at 20)."
	              : " (0 10 40 80 160 320 640 1280 2560 5120, then 10 x "
	                "2^(level - 1): level 3 at 40).");
	reply_nl(out);
}
