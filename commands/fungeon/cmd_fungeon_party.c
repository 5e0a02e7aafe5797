/* /fungeon join, leave, sheet, party, floor, adjust, xp-rule: the party's
 * own subcommands. */
#include "commands/fungeon/cmd_fungeon_party.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/cmd_fungeon_design.h"
#include "commands/fungeon/cmd_fungeon_hallway.h"
#include "commands/fungeon/cmd_fungeon_town.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/fungeon/fungeon_roll.h"
#include "rules/base/buf.h"
#include "rules/base/utf8.h"

/* Whether s holds something besides spaces. */
static bool
has_text(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return true;
	return false;
}

/* Refuses a class that reads as a number: the level typed where the class
 * goes (line 16: a class is a career). Returns 0, or -1 with an error. */
static int
class_no_level(struct invocation *inv, const char *name, const char *cls, struct reply *out)
{
	int n;

	if (fungeon_level_typed(cls, &n) == FUNGEON_LEVEL_NONE)
		return 0;
	if (invocation_has(inv, "level"))
		reply_error(out,
		            "'%s' reads as a number, not a class: a class is any career, such as "
		            "fighter (/fungeon join %s CLASS %lld).",
		            cls, name, (long long)invocation_int(inv, "level", 0));
	else if (n > 0)
		reply_error(out,
		            "'%s' reads as a level, not a class: the class comes first and is any "
		            "career, such as fighter (/fungeon join %s CLASS %d).",
		            cls, name, n);
	else
		reply_error(out,
		            "'%s' reads as a number, not a class: a class is any career, such as "
		            "fighter, and the level after it a whole number from %d to %d in the "
		            "digits 0 to "
		            "9.",
		            cls, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
	return -1;
}

/* Refuses a class type that reads as a number: a level in words or as an
 * ordinal (S8: "three" was taken as a type), in another script's digits,
 * or one mistyped ("2.5"). Returns 0, or -1 with an error. */
static int
type_no_level(struct invocation *inv, const char *name, const char *cls, const char *type,
              struct reply *out)
{
	int n;
	enum fungeon_level_form form = fungeon_level_typed(type, &n);

	if (form == FUNGEON_LEVEL_NONE)
		return 0;
	if (form == FUNGEON_LEVEL_DIGITS)
		reply_error(out,
		            "'%s' is no level (a level is a whole number from %d to %d) and no "
		            "class type (a word, such as fire).",
		            type, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
	else if (form == FUNGEON_LEVEL_OTHER_DIGITS)
		reply_error(
		    out,
		    "'%s' reads as a number, not a class type: a level is a whole number from "
		    "%d to %d in the digits 0 to 9, a class type a word such as fire "
		    "(type:fire).",
		    type, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
	else if (invocation_has(inv, "level"))
		reply_error(out,
		            "'%s' reads as a number, not a class type, and the level is %lld "
		            "already: a class type is a word such as fire (type:fire).",
		            type, (long long)invocation_int(inv, "level", 0));
	else if (n > 0)
		reply_error(out,
		            "'%s' reads as a level%s, not a class type: a level is a number "
		            "(/fungeon join %s %s %d), a class type a word such as fire "
		            "(type:fire).",
		            type, isdigit((unsigned char)type[0]) ? "" : " written in words", name,
		            cls, n);
	else
		reply_error(out,
		            "'%s' reads as a level written in words, not a class type: a level is "
		            "a number from %d to %d, a class type a word such as fire (type:fire).",
		            type, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
	return -1;
}

/* Checks the name, class and class type of the invoker's Fungeoneer
 * joining (a new one, or its replacement). Returns 0, or -1 with an error
 * reply. */
static int
join_words(struct invocation *inv, const struct fungeon_channel *c, struct reply *out)
{
	const char *name = invocation_str(inv, "name"), *cls = invocation_str(inv, "class");
	const char *type = invocation_str(inv, "type");

	if (!fungeon_cost_name_valid(name)) {
		reply_error(out,
		            "A Fungeoneer's name is 1 to %d characters with no spaces or "
		            ": , > / \" #.",
		            FUNGEON_NAME_CHARS);
		return -1;
	}
	if (!cmd_fungeon_design_shows("A Fungeoneer's name", name, out) ||
	    !cmd_fungeon_design_name_free(name, out))
		return -1;
	if (!has_text(cls)) {
		reply_error(out,
		            "A Fungeoneer needs a class, any career at all (Warrior, Shadow Mage); "
		            "the class may not be empty.");
		return -1;
	}
	if (!cmd_fungeon_design_shows("A class", cls, out) ||
	    class_no_level(inv, name, cls, out) < 0)
		return -1;
	if (utf8_len(cls) > FUNGEON_CLASS_CHARS) {
		reply_error(out,
		            "A class is at most %d characters (Drazzorian Puddle Thumper fits); "
		            "this one has %zu.",
		            FUNGEON_CLASS_CHARS, utf8_len(cls));
		return -1;
	}
	if (type != NULL && !fungeon_cost_word_valid(type, FUNGEON_TYPE_CHARS)) {
		reply_error(out,
		            "A class type is one word of 1 to %d characters (fire, frost, "
		            "poison) with no spaces or : , > / \" #.",
		            FUNGEON_TYPE_CHARS);
		return -1;
	}
	if (type != NULL && !cmd_fungeon_design_shows("A class type", type, out))
		return -1;
	if (type != NULL && type_no_level(inv, name, cls, type, out) < 0)
		return -1;
	if (fungeon_channel_name_used(c, name, inv->from->user_key, out))
		return -1;
	return 0;
}

/* Says so when member i's player chose a Thwack-O mark another die of
 * this party has already: their die keeps another here. */
static void
mark_taken_here(struct invocation *inv, const struct fungeon_channel *c, int i, struct reply *out)
{
	const struct thwacko_style *mine = user_style(inv->user);
	struct thwacko_style all[FUNGEON_PARTY_MAX];

	if (mine == NULL)
		return;
	fungeon_channel_styles(c, inv->state, all);
	if (strcmp(all[i].mark, mine->mark) == 0)
		return;
	reply_add(out, 0,
	          "Thwack-O mark %s is another player's in this party, so %s's die here is ",
	          mine->mark, c->m[i].player);
	reply_add_user(out, &all[i], RS_BOLD, "6");
	reply_add(out, 0, " (%s, mark %s; ", thwacko_style_colour_name(all[i].colour), all[i].mark);
	reply_cmd(out, 0, "thwacko style", NULL);
	reply_add(out, 0, " chooses another).");
	reply_nl(out);
}

/* At the entrance a join or leave moves the floor with Party Min. */
static void
entrance_follows(struct fungeon_channel *c, struct reply *out)
{
	struct fungeon_party p;

	fungeon_channel_party(c, &p);
	if (fungeon_dungeon_entrance_follows(&c->d, &p))
		reply_line(out, 0, "The entrance now opens on floor %d, the Party Min.",
		           c->d.floor);
}

void
cmd_fungeon_join(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *type = invocation_str(inv, "type");
	int me = fungeon_channel_member_of(c, inv->from->user_key), level;
	/* On the way back the new one joins in town, where the level is the
	 * player's to choose, as for one who falls there. */
	bool replacing = me >= 0 && c->m[me].dead,
	     in_dungeon = c->d.phase != FUNGEON_TOWN && c->d.phase != FUNGEON_RETREAT;
	bool after_death =
	    in_dungeon && (replacing || fungeon_channel_fallen(c, inv->from->user_key));
	/* A dungeon under way (past its entrance): whoever joins starts where
	 * a replacement does, however they come (line 53; line 18 wants a
	 * party to begin at one level, which only town and the entrance
	 * choose). */
	bool under_way = c->d.phase == FUNGEON_HALLWAY || c->d.phase == FUNGEON_ROOM;
	struct fungeon_party p;
	struct fungeon_member *m;
	bool other = false;

	if (me >= 0 && !replacing) {
		reply_error(out, "You already play %s here (one Fungeoneer per player); ",
		            c->m[me].name);
		reply_cmd(out, RS_BAD, "fungeon leave", NULL);
		reply_add(out, RS_BAD, " first.");
		return;
	}
	if (join_words(inv, c, out) < 0)
		return;
	if (!replacing && c->n == FUNGEON_PARTY_MAX) {
		reply_error(out, "The party is full (%d Fungeoneers).", FUNGEON_PARTY_MAX);
		return;
	}
	fungeon_channel_party(c, &p);
	if (after_death || under_way) {
		level = fungeon_replacement_level(fungeon_channel_floor(c));
		/* one level is allowed: a different one typed is taken as that,
		 * and said (play-test 3, F8) */
		other = invocation_has(inv, "level") && invocation_int(inv, "level", 0) != level;
	} else {
		level = (int)invocation_int(inv, "level", p.n > 0 ? p.min : 1);
	}
	if (replacing) {
		fungeon_room_leave_items(&c->d.room, &c->m[me]); /* what death left, if any */
		m = &c->m[me];
		fungeon_member_free(m);
	} else {
		struct thwacko_style st;

		fungeon_channel_new_style(c, inv->state, inv->from->user_key, &st);
		m = fungeon_channel_member_add(c, &st);
	}
	fungeon_member_init(m, inv->from->user_key, inv->from->user_name,
	                    invocation_str(inv, "name"), invocation_str(inv, "class"), level);
	snprintf(m->ctype, sizeof(m->ctype), "%s", type != NULL ? type : "");
	/* Out until the next hallway: a replacement, and anyone joining a room
	 * under way. */
	m->fresh = after_death || c->d.phase == FUNGEON_ROOM || c->d.phase == FUNGEON_RETREAT;
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "%s", m->player);
	reply_add(out, 0, " %s ", replacing ? "makes a new Fungeoneer:" : "joins as");
	reply_add(out, RS_BOLD, "%s", m->name);
	reply_add(out, 0, ", level %d %s%s%s%s: %d hits, class bonus %d, %lld XP.", m->level,
	          m->cls, m->ctype[0] ? " (class type " : "", m->ctype, m->ctype[0] ? ")" : "",
	          m->hits, fungeon_class_bonus(m->level), (long long)m->xp);
	if (other)
		reply_add(out, 0,
		          after_death ? " Level %d is the only one after a death: floor %d - 1, at "
		                        "least 1, for the rest of this dungeon."
		                      : " Level %d is the only one for whoever joins a dungeon "
		                        "under way: floor %d - 1, at least 1, as a replacement.",
		          level, fungeon_channel_floor(c));
	if (m->fresh && c->d.phase == FUNGEON_RETREAT)
		reply_add(out, 0,
		          " %s joins the party when it reaches town (no hallway comes on the way "
		          "back).",
		          m->name);
	else if (m->fresh)
		reply_add(out, 0, " %s joins the party in the next hallway.", m->name);
	reply_nl(out);
	mark_taken_here(inv, c, (int)(m - c->m), out);
	entrance_follows(c, out);
}

/* "Monsters pass to al, the highest roller left, with 3 points left to
 * spend." for category k, whose holder just left. */
static void
holder_passed(const struct fungeon_channel *c, enum fungeon_category k, struct reply *out)
{
	static const char *const label[] = {"Traps", "Monsters", "Treasure"};
	int h = fungeon_room_holder(&c->d.room, k);
	int64_t left = fungeon_channel_budget(c, (enum fungeon_kind)k) -
	               fungeon_channel_spent(c, (enum fungeon_kind)k);

	if (h < 0)
		return;
	reply_add(out, 0, "%s pass%s to ", label[k], k == FUNGEON_CAT_TREASURE ? "es" : "");
	reply_add(out, RS_BOLD, "%s", c->m[h].player);
	reply_add(out, 0, ", the highest roller left");
	if (c->d.phase == FUNGEON_HALLWAY)
		reply_add(out, 0, ", with %lld point%s left to spend", (long long)left,
		          left == 1 ? "" : "s");
	reply_line(out, 0, ".");
}

/* Into b (initialised here), what member i leaves behind in the dungeon
 * when it leaves the party alive: "What Ala carried stays in room 1 for the
 * others to take: ring, c." and "al's wandering monster of 6 points, not
 * built yet, goes with Ala."; nothing in town or at the entrance, where it
 * takes what it carries. */
static void
what_stays(const struct fungeon_channel *c, int i, struct buf *b)
{
	const struct fungeon_member *m = &c->m[i];

	buf_init(b, 1024);
	if (c->d.phase == FUNGEON_TOWN || c->d.phase == FUNGEON_ENTRANCE || m->dead)
		return;
	for (int k = 0; k < m->nitems; k++) {
		if (k == 0 && c->d.phase == FUNGEON_HALLWAY)
			buf_addf(b,
			         "What %s carried lies in room %lld ahead, for the others to take "
			         "once they go in: ",
			         m->name, (long long)c->d.room.number);
		else if (k == 0)
			buf_addf(b, "What %s carried stays in room %lld for the others to take: ",
			         m->name, (long long)c->d.room.number);
		buf_addf(b, "%s%s", k > 0 ? ", " : "", m->items[k].name);
		if (k == 5 && m->nitems > 6) {
			buf_addf(b, " and %d more", m->nitems - 6);
			break;
		}
	}
	if (m->nitems > 0)
		buf_adds(b, ".");
	for (int k = 0; k < m->nwander; k++)
		buf_addf(b, "%s%s's wandering monster of %lld points, not built yet, goes with %s.",
		         b->len > 0 ? " " : "", m->player, (long long)m->wanderer[k], m->name);
}

void
cmd_fungeon_leave(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *who = invocation_str(inv, "who");
	int me = who != NULL ? fungeon_channel_need_member(c, who, out)
	                     : fungeon_channel_need_self(c, inv, out);
	char name[FUNGEON_NAME_MAX + 1], player[FUNGEON_PLAYER_MAX];
	bool held[FUNGEON_CAT_COUNT], own;
	struct buf stays;

	if (me < 0)
		return;
	own = strcmp(c->m[me].user_key, inv->from->user_key) == 0;
	if (!own && !inv->is_gm) {
		reply_error(out,
		            "%s is %s's Fungeoneer: only the GM takes another player's Fungeoneer "
		            "out of the party (for a player who is away).",
		            c->m[me].name, c->m[me].player);
		return;
	}
	snprintf(name, sizeof(name), "%s", c->m[me].name);
	snprintf(player, sizeof(player), "%s", c->m[me].player);
	what_stays(c, me, &stays);
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		held[k] = fungeon_room_holder(&c->d.room, (enum fungeon_category)k) == me;
	if (c->m[me].dead && c->d.phase != FUNGEON_TOWN)
		fungeon_channel_fallen_add(c, c->m[me].user_key);
	fungeon_room_leave_items(&c->d.room, &c->m[me]);
	fungeon_channel_orders_lapse(c, me);
	fungeon_channel_member_remove(c, me);
	if (c->n == 0) { /* the party is gone: so is its dungeon */
		fungeon_dungeon_town(&c->d);
		fungeon_channel_fallen_clear(c);
	}
	channel_touch(inv->chan);
	if (own)
		reply_line(out, 0, "%s leaves the party with %s.", inv->from->user_name, name);
	else
		reply_line(out, 0, "The GM takes %s's %s out of the party.", player, name);
	if (stays.len > 0)
		reply_line(out, 0, "%s", buf_str(&stays));
	buf_free(&stays);
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		if (held[k])
			holder_passed(c, (enum fungeon_category)k, out);
	entrance_follows(c, out);
}

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
	if (m->credit || m->half)
		reply_line(out, 0, "Town credit %s.",
		           cmd_fungeon_town_points(m->credit, m->half, credit, sizeof(credit)));
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

void
cmd_fungeon_party(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"Fungeoneer", "player", "class", "level",
	                                  "hits",       "XP",     "bonus"};
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_party p;
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
	if (p.n > 0)
		reply_add(out, 0, "Party now: Min %d · Max %d · Total %d · ", p.min, p.max,
		          p.total);
	else
		reply_add(out, 0, "No Fungeoneer lives (no Party Min, Max or Total) · ");
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

/* Everything an adjustment could break, checked before it changes
 * anything. Returns 0, or -1 with an error reply. */
static int
adjust_check(const struct fungeon_channel *c, const struct fungeon_part *p, bool hits, int64_t dh,
             bool xp, int64_t dx, struct reply *out)
{
	const struct fungeon_member *m = p->kind == FGP_MEMBER ? &c->m[p->member] : NULL;

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

void
cmd_fungeon_xprule(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *rule = invocation_str(inv, "rule");

	if (rule != NULL) {
		if (!invocation_require_gm(inv, out))
			return;
		c->xp_rule = strcmp(rule, "formula") ? FUNGEON_XP_TABLE : FUNGEON_XP_FORMULA;
		channel_touch(inv->chan);
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
