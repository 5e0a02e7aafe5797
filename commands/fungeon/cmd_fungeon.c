/* /fungeon: the masterless dungeon crawl (RULES.md section 4). This file
 * holds the command table and the party's own commands; the rest are in
 * cmd_fungeon_*.c. */
#include "commands/fungeon/cmd_fungeon.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/core/complete.h"
#include "commands/fungeon/cmd_fungeon_combat.h"
#include "commands/fungeon/cmd_fungeon_conflict.h"
#include "commands/fungeon/cmd_fungeon_design.h"
#include "commands/fungeon/cmd_fungeon_hallway.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_roll.h"
#include "commands/fungeon/thwacko_style.h"
#include "rules/base/buf.h"

void
cmd_fungeon_join(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *name = invocation_str(inv, "name"), *cls = invocation_str(inv, "class");
	int me = fungeon_channel_member_of(c, inv->from->user_key), level;
	struct fungeon_party p;
	struct fungeon_member *m;
	bool replacing = me >= 0 && c->m[me].dead;

	fungeon_channel_party(c, &p);
	if (me >= 0 && !replacing) {
		reply_error(out, "You already play %s here (one Fungeoneer per player); ",
		            c->m[me].name);
		reply_cmd(out, RS_BAD, "fungeon leave", NULL);
		reply_add(out, RS_BAD, " first.");
		return;
	}
	if (!fungeon_cost_name_valid(name)) {
		reply_error(out,
		            "A Fungeoneer's name is 1 to %d characters with no spaces or "
		            ": , > / \" #.",
		            FUNGEON_NAME_MAX);
		return;
	}
	if (fungeon_channel_name_used(c, name) &&
	    !(replacing && !strcasecmp(c->m[me].name, name))) {
		reply_error(out, "The name %s is taken here; pick another.", name);
		return;
	}
	if (!replacing && c->n == FUNGEON_PARTY_MAX) {
		reply_error(out, "The party is full (%d Fungeoneers).", FUNGEON_PARTY_MAX);
		return;
	}
	if (replacing || fungeon_channel_fallen(c, inv->from->user_key)) {
		/* after a death, however the player comes back */
		level = fungeon_replacement_level(fungeon_channel_floor(c));
		if (invocation_has(inv, "level") && invocation_int(inv, "level", 0) != level) {
			reply_error(
			    out,
			    "A new Fungeoneer after a death starts at level %d (floor %d "
			    "- 1, at least 1) for the rest of this dungeon; join at level %d.",
			    level, fungeon_channel_floor(c), level);
			return;
		}
	} else {
		level = (int)invocation_int(inv, "level", p.n > 0 ? p.min : 1);
	}
	if (replacing) {
		int lost = fungeon_channel_leave_behind(c, me); /* left in the room to plunder */

		if (lost > 0)
			reply_line(out, RS_BAD,
			           "%d of %s's items could not stay in the room (it holds "
			           "%d treasures) and are lost.",
			           lost, c->m[me].name, FUNGEON_DESIGNS_MAX);
		m = &c->m[me];
		fungeon_member_free(m); /* the new Fungeoneer carries nothing */
	} else {
		m = fungeon_channel_member_add(c);
	}
	fungeon_member_init(m, inv->from->user_key, inv->from->user_name, name, cls, level);
	m->fresh = replacing || fungeon_channel_fallen(c, inv->from->user_key);
	if (replacing)
		fungeon_channel_fallen_add(c, inv->from->user_key);
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "%s", m->player);
	reply_add(out, 0, " %s ", replacing ? "makes a new Fungeoneer:" : "joins as");
	reply_add(out, RS_BOLD, "%s", m->name);
	reply_add(out, 0, ", level %d %s: %d hits, class bonus %d, %lld XP.", m->level, m->cls,
	          m->hits, fungeon_class_bonus(m->level), (long long)m->xp);
	reply_nl(out);
}

void
cmd_fungeon_leave(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int me = fungeon_channel_need_self(c, inv, out);
	char name[FUNGEON_NAME_MAX + 1];

	if (me < 0)
		return;
	snprintf(name, sizeof(name), "%s", c->m[me].name);
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		if (!strcmp(c->holder[k], c->m[me].user_key))
			c->holder[k][0] = '\0';
	if (c->m[me].dead) {
		fungeon_channel_fallen_add(c, c->m[me].user_key);
		fungeon_channel_leave_behind(c, me);
	}
	fungeon_channel_member_remove(c, me);
	if (c->n == 0)
		fungeon_channel_fallen_clear(c); /* the party is gone: that dungeon is over */
	channel_touch(inv->chan);
	reply_line(out, 0, "%s leaves the party with %s.", inv->from->user_name, name);
}

static void
sheet_of(const struct fungeon_channel *c, int i, struct reply *out)
{
	const struct fungeon_member *m = &c->m[i];
	int next = m->level < FUNGEON_LEVEL_MAX ? m->level + 1 : 0;

	reply_title(out, "%s (%s): level %d %s%s", m->name, m->player, m->level, m->cls,
	            m->dead ? ", dead" : "");
	reply_add(out, 0, "Hits ");
	reply_add(out, m->dead ? RS_BAD | RS_BOLD : RS_BOLD, "%d/%d", m->hits,
	          fungeon_max_hits(m->level));
	reply_add(out, 0, " · class bonus %d · XP %lld", fungeon_class_bonus(m->level),
	          (long long)m->xp);
	if (next)
		reply_add(out, 0, " (level %d at %lld)", next,
		          (long long)fungeon_xp_needed(c->xp_rule, next));
	reply_nl(out);
	if (!m->dead && fungeon_level_for_xp(c->xp_rule, m->xp) > m->level)
		reply_line(out, RS_GOOD, "Level-up due in the hallway: the XP reach level %d.",
		           fungeon_level_for_xp(c->xp_rule, m->xp));
	if (m->dead) {
		reply_add(out, RS_BAD, "Dead: %s makes a new Fungeoneer at level %d (", m->player,
		          fungeon_replacement_level(fungeon_channel_floor(c)));
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		reply_line(out, RS_BAD, ").");
	}
	for (int e = 0; e < m->neffects; e++)
		reply_line(out, 0, "Suffers %s: continuous %s (annoy %d, pain %d%s).",
		           m->effects[e].source,
		           m->effects[e].kind == FUNGEON_EFFECT_HOLD ? "hold" : "damage",
		           m->effects[e].annoy, m->effects[e].pain,
		           m->effects[e].universal ? ", universal" : "");
	for (int k = 0; k < m->nitems; k++) {
		char spec[FUNGEON_SPEC_MAX + 1];

		fungeon_cost_format(&m->items[k].d, spec, sizeof(spec));
		reply_line(out, 0, "Carries %s: %s (%lld points).", m->items[k].name, spec,
		           (long long)m->items[k].cost);
	}
	if (m->credit)
		reply_line(out, 0, "Town credit %lld.", (long long)m->credit);
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

void
cmd_fungeon_party(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"Fungeoneer", "player", "class", "level",
	                                  "hits",       "XP",     "bonus"};
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_party p;
	struct fungeon_picks pk;
	int next;

	if (c->n == 0) {
		reply_add(out, 0, "No party here yet: ");
		reply_cmd(out, 0, "fungeon join", "name", "NAME", "class", "CLASS", "level",
		          "LEVEL", NULL);
		reply_line(out, 0, ".");
		return;
	}
	fungeon_channel_party(c, &p);
	reply_title(out, "The party");
	reply_table(out, 7, hdr);
	for (int i = 0; i < c->n; i++) {
		const struct fungeon_member *m = &c->m[i];
		char level[8], hits[24], xp[24], bonus[8];
		const char *cells[] = {m->name, m->player, m->cls, level, hits, xp, bonus};

		snprintf(level, sizeof(level), "%d", m->level);
		snprintf(hits, sizeof(hits), m->dead ? "dead" : "%d/%d", m->hits,
		         fungeon_max_hits(m->level));
		snprintf(xp, sizeof(xp), "%lld", (long long)m->xp);
		snprintf(bonus, sizeof(bonus), "%d", fungeon_class_bonus(m->level));
		reply_row(out, !strcmp(m->user_key, inv->from->user_key), cells);
	}
	reply_line(out, 0, "Party Min %d · Max %d · Total %d · floor %d%s · XP rule: %s.", p.min,
	           p.max, p.total, fungeon_channel_floor(c),
	           c->floor ? "" : " (the entrance: Party Min)",
	           c->xp_rule == FUNGEON_XP_FORMULA ? "formula" : "table");
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		fungeon_channel_budget_line(out, c, (enum fungeon_kind)k, 0);
	if (c->waived[0])
		reply_line(out, RS_DIM, "Waived: %s.", c->waived);
	fungeon_channel_picks(c, &pk);
	next = fungeon_hallway_picks_next(&pk);
	if (pk.n > 0 && next >= 0) {
		reply_add(out, 0, "Choosing categories: %s is next (", c->m[next].player);
		reply_cmd(out, 0, "fungeon pick", "category", "CATEGORY", NULL);
		reply_line(out, 0, ").");
	}
	if (fungeon_channel_holder(c, FUNGEON_CAT_TRAPS) < 0 &&
	    fungeon_channel_holder(c, FUNGEON_CAT_MONSTERS) < 0 &&
	    fungeon_channel_holder(c, FUNGEON_CAT_TREASURE) < 0) {
		if (pk.n == 0) {
			reply_add(out, RS_DIM, "Categories are drawn in the hallway (");
			reply_cmd(out, RS_DIM, "fungeon hallway", NULL);
			reply_line(out, RS_DIM, ").");
		}
		return;
	}
	reply_add(out, 0, "Picking:");
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		int h = fungeon_channel_holder(c, (enum fungeon_category)k);

		reply_add(out, 0, "%s %s %s", k ? " ·" : "",
		          fungeon_hallway_category_name((enum fungeon_category)k),
		          h >= 0 ? c->m[h].player : "nobody");
	}
	reply_nl(out);
}

void
cmd_fungeon_floor(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);

	if (invocation_has(inv, "n")) {
		c->floor = (int)invocation_int(inv, "n", 1);
		channel_touch(inv->chan);
	}
	reply_add(out, 0, "Floor ");
	reply_add(out, RS_BOLD, "%d", fungeon_channel_floor(c));
	reply_add(out, 0, "%s.", c->floor ? "" : " (the entrance: Party Min)");
	reply_nl(out);
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		fungeon_channel_budget_line(out, c, (enum fungeon_kind)k, 0);
}

/* Damage or healing to a Fungeoneer or a stored monster. */
static void
hits_cmd(struct invocation *inv, struct reply *out, bool damage)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_part p;
	int n = (int)invocation_int(inv, "n", 1);

	if (fungeon_roll_part_resolve(c, invocation_str(inv, "who"), FGP_MEMBER | FGP_MONSTER, &p,
	                              out) < 0)
		return;
	if (p.kind == FGP_MONSTER) {
		int max = fungeon_cost_monster_hits(p.s->d.level);

		if (!damage && p.s->hits == 0) {
			reply_error(out, "%s is defeated; nothing heals it.", p.s->name);
			return;
		}
		p.s->hits = damage ? (n >= p.s->hits ? 0 : p.s->hits - n)
		                   : (n >= max - p.s->hits ? max : p.s->hits + n);
		channel_touch(inv->chan);
		reply_add(out, 0, "%s %s %d: %d/%d hits.", p.s->name, damage ? "takes" : "heals", n,
		          p.s->hits, max);
		if (p.s->hits == 0)
			reply_add(out, RS_GOOD | RS_BOLD, " %s is defeated!", p.s->name);
		reply_nl(out);
		return;
	}
	{
		struct fungeon_member *m = &c->m[p.member];
		bool died;

		if (m->dead) {
			reply_error(out, "%s is dead; %s makes a new Fungeoneer in the hallway.",
			            m->name, m->player);
			return;
		}
		died = damage ? fungeon_damage(m, n) : (fungeon_heal(m, n), false);
		channel_touch(inv->chan);
		reply_add(out, 0, "%s %s %d: %d/%d hits.", m->name, damage ? "takes" : "heals", n,
		          m->hits, fungeon_max_hits(m->level));
		if (died)
			reply_add(out, RS_BAD | RS_BOLD,
			          " %s dies! %s makes a new Fungeoneer at level %d in the hallway.",
			          m->name, m->player,
			          fungeon_replacement_level(fungeon_channel_floor(c)));
		reply_nl(out);
	}
}

void
cmd_fungeon_damage(struct invocation *inv, struct reply *out)
{
	hits_cmd(inv, out, true);
}

void
cmd_fungeon_heal(struct invocation *inv, struct reply *out)
{
	hits_cmd(inv, out, false);
}

void
cmd_fungeon_xp(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int i = fungeon_channel_need_member(c, invocation_str(inv, "who"), out);
	int64_t n = invocation_int(inv, "n", 0);
	struct fungeon_member *m;
	int reach;

	if (i < 0)
		return;
	m = &c->m[i];
	if (m->dead) {
		reply_error(out, "%s is dead and earns no more XP.", m->name);
		return;
	}
	fungeon_add_xp(m, n);
	channel_touch(inv->chan);
	reach = fungeon_level_for_xp(c->xp_rule, m->xp);
	reply_add(out, 0, "%s %s %lld XP: ", m->name, n < 0 ? "loses" : "gains",
	          (long long)(n < 0 ? -n : n));
	reply_add(out, RS_BOLD, "%lld", (long long)m->xp);
	reply_add(out, 0, " in all.");
	if (reach > m->level)
		reply_add(out, RS_GOOD, " Level %d is due in the hallway.", reach);
	else if (m->level < FUNGEON_LEVEL_MAX)
		reply_add(out, 0, " Level %d at %lld.", m->level + 1,
		          (long long)fungeon_xp_needed(c->xp_rule, m->level + 1));
	reply_nl(out);
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

/* --- the command table --- */

static const char *const rule_choices[] = {"table", "formula", NULL};
static const char *const cat_choices[] = {"traps", "monsters", "treasure", NULL};

#define WHO(req)                                                                                   \
	{                                                                                          \
		.name = "who", .desc = "A Fungeoneer, by character or player name",                \
		.type = OPT_STRING, .flags = (req) | OPT_AUTOCOMPLETE,                             \
		.max = 2 * FUNGEON_NAME_MAX + 1, .complete = complete_fg_who                       \
	}
#define WHO_LIST(what)                                                                             \
	{                                                                                          \
		.name = "who", .desc = (what), .type = OPT_STRING,                                 \
		.flags = OPT_REST | OPT_AUTOCOMPLETE, .max = 400, .complete = complete_fg_who      \
	}
#define BONUS                                                                                      \
	{                                                                                          \
		.name = "bonus", .desc = "Whose class fits (class bonus): names, or all",          \
		.type = OPT_STRING, .max = 400                                                     \
	}

static const struct cmd_opt join_opts[] = {
    {.name = "name",
     .desc = "Your Fungeoneer's name (no spaces)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = FUNGEON_NAME_MAX},
    {.name = "class",
     .desc = "A class, free text (quote it if it has spaces)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = FUNGEON_CLASS_MAX},
    {.name = "level",
     .desc = "Level 1 to 20 (default: Party Min; after a death: floor - 1)",
     .type = OPT_INT,
     .min = FUNGEON_LEVEL_MIN,
     .max = FUNGEON_LEVEL_MAX},
    {0},
};
static const struct cmd_opt who_opts[] = {WHO(0), {0}};
static const struct cmd_opt floor_opts[] = {
    {.name = "n",
     .desc = "The floor, 1 to 99",
     .type = OPT_INT,
     .min = 1,
     .max = FUNGEON_FLOOR_MAX},
    {0},
};
static const struct cmd_opt hits_opts[] = {
    WHO(OPT_REQUIRED),
    {.name = "n",
     .desc = "Hits, 1 to 1000",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = 1,
     .max = 1000},
    {0},
};
static const struct cmd_opt xp_opts[] = {
    WHO(OPT_REQUIRED),
    {.name = "n",
     .desc = "XP to add (negative to take away)",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = -1000000,
     .max = 1000000},
    {0},
};
static const struct cmd_opt xprule_opts[] = {
    {.name = "rule",
     .desc = "table (default) or formula; setting it is the GM's",
     .type = OPT_STRING,
     .choices = rule_choices},
    {0},
};
static const struct cmd_opt hallway_opts[] = {
    {.name = "waive",
     .desc = "Leave the room with points unspent (recorded and shown)",
     .type = OPT_BOOL},
    {0},
};
static const struct cmd_opt pick_opts[] = {
    {.name = "category",
     .desc = "traps, monsters or treasure",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = cat_choices},
    WHO(0),
    {0},
};
static const struct cmd_opt item_opts[] = {
    {.name = "item",
     .desc = "A treasure's name",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = FUNGEON_NAME_MAX},
    WHO(0),
    {0},
};
static const struct cmd_opt use_opts[] = {
    {.name = "item",
     .desc = "A healing item you carry",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = FUNGEON_NAME_MAX},
    {0},
};
static const struct cmd_opt annoy_opts[] = {
    {.name = "obstacle",
     .desc = "A trap, or a monster's ability as monster/ability",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_AUTOCOMPLETE,
     .max = 2 * FUNGEON_NAME_MAX + 1,
     .complete = complete_fg_obstacle},
    WHO_LIST("Who resists (default: every living Fungeoneer)"),
    BONUS,
    {0},
};
static const struct cmd_opt find_opts[] = {
    {.name = "trap",
     .desc = "The trap",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_AUTOCOMPLETE,
     .max = FUNGEON_NAME_MAX,
     .complete = complete_fg_trap},
    WHO_LIST("Who searches or triggers (default: every living Fungeoneer)"),
    BONUS,
    {0},
};
static const struct cmd_opt pain_opts[] = {
    {.name = "who",
     .desc = "Fungeoneers, traps, monsters, monster/ability; name>target picks a target",
     .type = OPT_STRING,
     .flags = OPT_REST | OPT_REQUIRED,
     .max = 400},
    BONUS,
    {0},
};
static const struct cmd_opt combat_opts[] = {
    {.name = "monsters",
     .desc = "The monsters fighting (default: every monster with hits left)",
     .type = OPT_STRING,
     .flags = OPT_REST | OPT_AUTOCOMPLETE,
     .max = 400,
     .complete = complete_fg_monsters},
    {.name = "use",
     .desc = "Abilities used as monster/ability, or none (default: each one's first)",
     .type = OPT_STRING,
     .max = 400},
    BONUS,
    {0},
};
static const struct cmd_opt retreat_opts[] = {
    WHO_LIST("Who makes the roll (default: every living Fungeoneer)"),
    BONUS,
    {0},
};

static const struct command fungeon_subs[] = {
    {.name = "join",
     .desc = "Make your Fungeoneer: name, class, level (one per player here)",
     .help = "Max hits = 5 x level; class bonus = level / 2. After your Fungeoneer died, "
             "join again: the new one starts at level floor - 1 (at least 1).",
     .opts = join_opts,
     .fn = cmd_fungeon_join},
    {.name = "leave", .desc = "Take your Fungeoneer out of the party", .fn = cmd_fungeon_leave},
    {.name = "sheet",
     .desc = "A Fungeoneer's sheet: hits, XP, effects, treasure",
     .opts = who_opts,
     .fn = cmd_fungeon_sheet,
     .read_only = true},
    {.name = "party",
     .desc = "The party, Party Min/Max/Total, the floor and the three budgets",
     .fn = cmd_fungeon_party,
     .read_only = true},
    {.name = "floor",
     .desc = "Show or set the dungeon floor (the entrance is Party Min)",
     .opts = floor_opts,
     .fn = cmd_fungeon_floor},
    {.name = "damage",
     .desc = "Take hits from a Fungeoneer or a monster; 0 hits is death",
     .opts = hits_opts,
     .fn = cmd_fungeon_damage},
    {.name = "heal",
     .desc = "Give hits back, up to max hits",
     .opts = hits_opts,
     .fn = cmd_fungeon_heal},
    {.name = "xp",
     .desc = "Give XP to a Fungeoneer (levels are gained in the hallway)",
     .opts = xp_opts,
     .fn = cmd_fungeon_xp},
    {.name = "xp-rule",
     .desc = "Show or set the XP rule: table (default) or formula",
     .help = "Ruling: the level table is the default (level 3 at 40 XP); the prose "
             "formula, level up when XP >= 10 x 2^(current level - 1), disagrees from "
             "level 3 on (20 XP) and is the alternative. Setting it is the GM's.",
     .opts = xprule_opts,
     .fn = cmd_fungeon_xprule},
    {.name = "entrance",
     .desc = "When the players don't agree on the dungeon: each rolls, the highest describes it",
     .help = "Every player rolls one die, their Thwack-O (ties re-rolled); the highest "
             "describes the entrance. It opens on floor = Party Min.",
     .fn = cmd_fungeon_hallway_entrance},
    {.name = "hallway",
     .desc = "Between rooms: replacements, level-ups, continuous damage, category draw",
     .opts = hallway_opts,
     .help = "In order: (1) dead Fungeoneers are replaced at level floor - 1 (minimum 1); "
             "(2) level-ups, several at once, each level recomputing class bonus and max "
             "hits and healing 5 hits; (3) continuous-damage rolls (holds end with the "
             "fight); (4) every player rolls one die, their Thwack-O: the highest chooses "
             "first among Traps, Monsters, Treasure with {/fungeon pick category=CATEGORY}, then "
             "the next "
             "(ties re-rolled; a player chooses again only when there are fewer players "
             "than categories). If Party Min rose, the Traps player places a downward "
             "stair. The room's budgets are computed once, after (1) and (2), and stay "
             "fixed for the room. A dead Fungeoneer's player makes the new one before the "
             "hallway. All points must be spent first, unless the players waive it "
             "({/fungeon hallway waive:true}, recorded and shown).",
     .fn = cmd_fungeon_hallway},
    {.name = "pick",
     .desc = "Choose a category (traps, monsters, treasure) in the draw's order",
     .opts = pick_opts,
     .fn = cmd_fungeon_hallway_pick},
    {.name = "cost",
     .desc = "Price a trap, monster or treasure against this room's budget",
     .help = "Design words: trap: annoy N and type WORD (both needed), then any of pain N, "
             "guards, unlimited, universal, continuous (annoy 2 type fire pain 2). monster: "
             "level N (needed), then per ability: ability NAME with annoy N and type WORD "
             "(both needed), then any of pain N, resist N TYPE, hold, continuous, universal. "
             "treasure: mundane|fancy, value N, heal N, annoy N, pain N, universal, type WORD "
             "(magic dice need fancy, and a type or universal). Plain points add first, then "
             "each doubling feature doubles the sum. Ruling: an odd number of Annoy dice costs "
             "as the next even number.",
     .subs = cmd_fungeon_design_cost_subs},
    {.name = "trap",
     .desc = "Store, list or remove this channel's traps",
     .subs = cmd_fungeon_design_trap_subs},
    {.name = "monster",
     .desc = "Store, list or remove this channel's monsters",
     .subs = cmd_fungeon_design_monster_subs},
    {.name = "treasure",
     .desc = "Store, list or remove this channel's treasure",
     .subs = cmd_fungeon_design_treasure_subs},
    {.name = "take",
     .desc = "A Fungeoneer takes a treasure of this room",
     .opts = item_opts,
     .fn = cmd_fungeon_design_take},
    {.name = "use",
     .desc = "Use up a magic healing item you carry",
     .opts = use_opts,
     .fn = cmd_fungeon_design_use},
    {.name = "annoy",
     .desc = "Annoying conflict: an obstacle's Annoy dice against each resister",
     .help = "The obstacle keeps its highest die; each resister rolls level dice (+ class "
             "bonus if the class fits: bonus:NAME or bonus:all; + matching magic Annoy "
             "dice unless the obstacle is universal) and keeps the highest. Lower fails, "
             "equal succeeds. Against a trap this is getting past or disarming it (the "
             "class bonus where it fits): a success earns the trap's cost in XP, and a "
             "trap without Unlimited Use is then spent, sprung or not. A monster's ability "
             "rolls level + its Annoy dice.",
     .opts = annoy_opts,
     .fn = cmd_fungeon_conflict_annoy},
    {.name = "find",
     .desc = "Search for a trap: Annoy rolls against as many dice as its cost",
     .opts = find_opts,
     .fn = cmd_fungeon_conflict_find},
    {.name = "trigger",
     .desc = "Fungeoneers stumble into a trap: an Annoy roll against its Annoy dice",
     .help = "One Fungeoneer makes an Annoy roll against the trap's Annoy dice. Several at "
             "once each roll one die + level first: the highest total (and everyone tied "
             "with it) avoids it, the others make that Annoy roll. A trap without "
             "Unlimited Use springs once: after that it cannot be triggered or rolled "
             "against again.",
     .opts = find_opts,
     .fn = cmd_fungeon_conflict_trigger},
    {.name = "pain",
     .desc = "Painful conflict: Pain dice sorted, compared rank by rank",
     .help = "Each roll is sorted high to low; at each rank the single highest die deals "
             "1 damage to a participant of the other side (its target if one was given as "
             "name>target, else the one with the lowest die at that rank). A roll that ran "
             "out counts 0. Ruling: a tie for highest at a rank deals no damage. Traps "
             "deal but never take damage. Universal damage (monsters' attacks always): "
             "no class bonus or magic protection. Each point dealt to a monster earns XP "
             "equal to its cost.",
     .opts = pain_opts,
     .fn = cmd_fungeon_conflict_pain},
    {.name = "combat",
     .desc = "One combat turn: continuous effects, monster abilities, the Painful conflict",
     .opts = combat_opts,
     .fn = cmd_fungeon_combat},
    {.name = "retreat",
     .desc = "Back to town: Annoy rolls against floor dice; failures build wanderers",
     .help = "Each failure gives that player one wandering monster of level + floor "
             "points (at least the floor; points from separate failures never pool), "
             "built with {/fungeon monster add name=NAME design=DESIGN budget:wander}.",
     .opts = retreat_opts,
     .fn = cmd_fungeon_combat_retreat},
    {.name = "town",
     .desc = "In town: sell treasure for half its points, buy new with the credit",
     .subs = cmd_fungeon_design_town_subs},
    {0},
};

const struct command cmd_fungeon = {
    .name = "fungeon",
    .desc = "Fungeon: masterless dungeon crawling with Thwack-O dice",
    .help = "Every player rolls in every conflict; each player's Thwack-O die replaces one "
            "of their dice (one per player per roll) and is drawn in their style "
            "({/thwacko show}). The highest Thwack-O narrates. Ruling: a tie for the highest "
            "Thwack-O is broken by re-rolling the tied dice, shown. Costs: plain points "
            "first, then one doubling per doubling feature. Ruling: an odd number of "
            "Annoy dice costs as the next even number. Ruling: a tie at a rank of a "
            "Painful conflict deals no damage. Ruling: XP use the level table unless the "
            "channel chose the formula ({/fungeon xp-rule}).",
    .subs = fungeon_subs,
    .default_sub = "party",
};
