/* /fungeon combat: a combat turn in its three steps (the rule text's
 * combat): (1) continuous monster features, (2) the monsters' special
 * abilities, (3) everyone's Painful conflict. */
#include "commands/fungeon/cmd_fungeon_combat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/dice/rollchan.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_pain.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/fungeon/fungeon_roll.h"
#include "rules/base/mem.h"

#define TARGETS_MAX CF_PARTS_MAX

struct turn {
	int nmon;
	struct fungeon_part mon[CF_PARTS_MAX];
	int nuse;
	struct fungeon_part use[CF_PARTS_MAX]; /* abilities used this turn */
	int nfight;
	int fight[FUNGEON_PARTY_MAX];
	bool held[FUNGEON_PARTY_MAX]; /* by member index */
	int ntarget;
	char target[TARGETS_MAX][FUNGEON_NAME_MAX * 2 + 2]; /* "who>target" */
};

static int
pick_monsters(struct fungeon_channel *c, const char *list, struct turn *t, struct reply *out)
{
	char w[CF_PARTS_MAX][FUNGEON_NAME_MAX * 2 + 2];
	struct fungeon_room *r = &c->d.room;
	int n;

	if (list == NULL) {
		for (int i = 0; i < r->n[FUNGEON_MONSTER]; i++) {
			if (r->p[FUNGEON_MONSTER][i].hits <= 0)
				continue;
			if (t->nmon == CF_PARTS_MAX - 1) {
				reply_error(out,
				            "More than %d monsters stand; name the ones in this "
				            "fight.",
				            CF_PARTS_MAX - 1);
				return -1;
			}
			t->mon[t->nmon] = (struct fungeon_part){.kind = FGP_MONSTER,
			                                        .member = -1,
			                                        .s = &r->p[FUNGEON_MONSTER][i],
			                                        .target = -1};
			t->nmon++;
		}
		if (t->nmon == 0) {
			reply_error(out, "No monster of this room has hits left: there is nothing "
			                 "to fight here.");
			return -1;
		}
		return 0;
	}
	n = fungeon_channel_split_names(list, w, CF_PARTS_MAX - 1, out);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		struct fungeon_part *p = &t->mon[t->nmon++];

		if (fungeon_roll_part_resolve(c, w[i], FGP_MONSTER, p, out) < 0)
			return -1;
		if (p->s->hits <= 0) {
			reply_error(out, "%s is already defeated; name a monster with hits left.",
			            p->s->name);
			return -1;
		}
	}
	return 0;
}

/* The abilities used: each monster's first by default, none, or a list. */
static int
pick_uses(struct fungeon_channel *c, const char *list, struct turn *t, struct reply *out)
{
	char w[CF_PARTS_MAX][FUNGEON_NAME_MAX * 2 + 2];
	int n;

	if (list != NULL && !strcasecmp(list, "none"))
		return 0;
	if (list == NULL) {
		for (int i = 0; i < t->nmon; i++)
			if (t->mon[i].s->d.nab > 0)
				t->use[t->nuse++] = (struct fungeon_part){.kind = FGP_ABILITY,
				                                          .member = -1,
				                                          .s = t->mon[i].s,
				                                          .ability = 0,
				                                          .target = -1};
		return 0;
	}
	n = fungeon_channel_split_names(list, w, CF_PARTS_MAX, out);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		struct fungeon_part *u = &t->use[t->nuse];
		bool fights = false;

		if (strchr(w[i], '/') == NULL) {
			reply_error(out,
			            "Name abilities as monster/ability (or use:none); '%.40s' is "
			            "not one.",
			            w[i]);
			return -1;
		}
		if (fungeon_roll_part_resolve(c, w[i], FGP_ABILITY, u, out) < 0)
			return -1;
		for (int k = 0; k < t->nmon; k++)
			fights |= t->mon[k].s == u->s;
		for (int k = 0; k < t->nuse; k++) {
			if (t->use[k].s == u->s) {
				reply_error(out, "%s uses one special ability a turn; name one.",
				            u->s->name);
				return -1;
			}
		}
		if (!fights) {
			reply_error(out, "%s is not in this fight; its abilities cannot be used.",
			            u->s->name);
			return -1;
		}
		t->nuse++;
	}
	return 0;
}

/* The participants of step 3: the party (held ones rolling no dice) and
 * the monsters, each with its target from the targets option. */
static int
step3_parts(struct fungeon_channel *c, const struct turn *t, struct fungeon_part *parts)
{
	int n = 0;

	for (int f = 0; f < t->nfight; f++) {
		int i = t->fight[f];

		if (c->m[i].dead)
			continue;
		parts[n++] = (struct fungeon_part){
		    .kind = FGP_MEMBER, .member = i, .target = -1, .held = t->held[i]};
	}
	for (int i = 0; i < t->nmon; i++)
		if (t->mon[i].s->hits > 0)
			parts[n++] = t->mon[i];
	for (int k = 0; k < t->ntarget; k++) {
		const char *gt = strchr(t->target[k], '>');
		char name[FUNGEON_SOURCE_MAX], who[FUNGEON_NAME_MAX * 2 + 2];

		snprintf(who, sizeof(who), "%.*s", (int)(gt - t->target[k]), t->target[k]);
		for (int i = 0; i < n; i++) {
			bool named =
			    !strcasecmp(fungeon_roll_part_name(c, &parts[i], name, sizeof(name)),
			                who) ||
			    (parts[i].kind == FGP_MEMBER &&
			     !strcasecmp(c->m[parts[i].member].player, who));

			if (named)
				snprintf(parts[i].target_name, sizeof(parts[i].target_name), "%s",
				         gt + 1);
		}
	}
	return n;
}

/* Reads the targets option: "Alba>goblin Brom>Alba", each naming one who
 * fights and the one it hurts when it wins a rank. */
static int
pick_targets(struct fungeon_channel *c, const char *list, struct turn *t, struct reply *out)
{
	struct fungeon_part parts[CF_PARTS_MAX];
	int n;

	if (list == NULL)
		return 0;
	t->ntarget = fungeon_channel_split_names(list, t->target, TARGETS_MAX, out);
	if (t->ntarget < 0)
		return -1;
	for (int k = 0; k < t->ntarget; k++) {
		const char *gt = strchr(t->target[k], '>');

		if (gt == NULL || gt == t->target[k] || gt[1] == '\0') {
			reply_error(out,
			            "A target is written who>target (Alba>goblin); '%.40s' is not.",
			            t->target[k]);
			return -1;
		}
	}
	n = step3_parts(c, t, parts);
	for (int k = 0; k < t->ntarget; k++) {
		char who[FUNGEON_NAME_MAX * 2 + 2], name[FUNGEON_SOURCE_MAX];
		const char *gt = strchr(t->target[k], '>');
		bool found = false;

		snprintf(who, sizeof(who), "%.*s", (int)(gt - t->target[k]), t->target[k]);
		for (int i = 0; i < n && !found; i++)
			found =
			    !strcasecmp(fungeon_roll_part_name(c, &parts[i], name, sizeof(name)),
			                who) ||
			    (parts[i].kind == FGP_MEMBER &&
			     !strcasecmp(c->m[parts[i].member].player, who));
		if (!found) {
			reply_error(out,
			            "'%.40s' does not fight this turn; a target is given to a "
			            "Fungeoneer or monster in the fight.",
			            who);
			return -1;
		}
	}
	return 0;
}

/* Everything checked before the first die: the Painful conflict of the
 * whole party against the monsters, and each ability's Annoy roll. */
static int
check_turn(struct invocation *inv, struct fungeon_channel *c, struct turn *t, struct reply *out)
{
	struct fungeon_part parts[CF_PARTS_MAX];
	const char *bonus = invocation_str(inv, "bonus");
	int n;

	for (int i = 0; i < c->n; i++)
		if (fungeon_channel_in_play(c, i)) /* a replacement waits for the hallway */
			t->fight[t->nfight++] = i;
	if (t->nfight == 0) {
		reply_error(out, "No Fungeoneer of the party is alive and in the room to fight.");
		return -1;
	}
	if (t->nfight + t->nmon > CF_PARTS_MAX) {
		reply_error(out,
		            "A combat turn takes at most %d participants; name fewer monsters.",
		            CF_PARTS_MAX);
		return -1;
	}
	if (pick_targets(c, invocation_str(inv, "targets"), t, out) < 0)
		return -1;
	n = step3_parts(c, t, parts);
	if (fungeon_pain_check(c, parts, n, bonus, out) < 0)
		return -1;
	for (int i = 0; i < t->nuse; i++) {
		struct fungeon_play_obstacle o;

		fungeon_roll_obstacle_of(c, &t->use[i], &o);
		if (o.annoy > 0 &&
		    fungeon_roll_annoy_check(c, &o, o.annoy, t->fight, t->nfight, bonus, out) < 0)
			return -1;
	}
	return 0;
}

/* Runs a Painful conflict checked before the turn began; should the check
 * fail after all (a death changed who can take part), it says so on a
 * line rather than replacing the reply. */
static void
pain_safe(struct invocation *inv, struct fungeon_channel *c, struct fungeon_part *parts, int n,
          const struct thwacko_style *styles, struct reply *out)
{
	struct reply *tmp = reply_new();
	const char *bonus = invocation_str(inv, "bonus");

	if (fungeon_pain_check(c, parts, n, bonus, tmp) == 0)
		fungeon_pain_run(inv, c, parts, n, bonus, styles, out);
	else
		reply_line(out, RS_BAD, "%s", reply_error_text(tmp));
	reply_free(tmp);
}

/* Step 1: continuous monster features (a trap's continuous damage waits
 * for the hallway). */
static void
step_effects(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
             const struct thwacko_style *styles, struct reply *out)
{
	struct fungeon_cont *k;
	bool dead[FUNGEON_PARTY_MAX], any = false;
	int rolled = 0;

	for (int f = 0; f < t->nfight; f++)
		for (int e = 0; e < c->m[t->fight[f]].neffects; e++)
			any |= c->m[t->fight[f]].effects[e].from == FUNGEON_FROM_MONSTER;
	if (!any && rollchan_compact(inv->chan)) {
		reply_line(out, RS_DIM, "1. Continuous monster features: none.");
		return;
	}
	k = xmalloc(sizeof(*k));
	reply_line(out, RS_BOLD, "1. Continuous monster features");
	fungeon_channel_dead_before(c, dead);
	for (int f = 0; f < t->nfight; f++) {
		int i = t->fight[f];

		for (int e = 0; e < c->m[i].neffects && !c->m[i].dead;) {
			const struct fungeon_effect *ef = &c->m[i].effects[e];
			bool hold = ef->kind == FUNGEON_EFFECT_HOLD;

			if (ef->from != FUNGEON_FROM_MONSTER) {
				e++;
				continue;
			}
			fungeon_hallway_cont_roll(inv->rng, c->m, i, e,
			                          fungeon_channel_roller(c, ef->maker), k);
			fungeon_render_cont(out, c, k, styles);
			rolled++;
			if (hold && !k->success) {
				t->held[i] = true;
				reply_line(out, RS_BAD,
				           "%s is held and may not act this turn (rolls no dice, "
				           "but can be hurt).",
				           c->m[i].name);
			}
			if (!k->success)
				e++;
		}
	}
	fungeon_channel_deaths(c, dead);
	if (rolled == 0)
		reply_line(out, RS_DIM, "None.");
	free(k);
}

/* One ability used in step 2: its Annoy roll against every Fungeoneer in
 * the fight, then its Pain roll against those who failed. */
static void
use_ability(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
            struct fungeon_part *use, const struct thwacko_style *styles, struct reply *out)
{
	const char *bonus = invocation_str(inv, "bonus");
	struct fungeon_play_obstacle o;
	struct fungeon_part parts[CF_PARTS_MAX];
	int targets[FUNGEON_PARTY_MAX], nt = 0, np = 0, a_extra, p_extra;
	bool fails[FUNGEON_PARTY_MAX];

	fungeon_roll_obstacle_of(c, use, &o);
	for (int f = 0; f < t->nfight; f++)
		if (!c->m[t->fight[f]].dead)
			targets[nt++] = t->fight[f];
	if (nt == 0)
		return;
	a_extra = o.annoy ? o.annoy - use->s->d.level : 0;
	p_extra = o.pain ? o.pain - use->s->d.level : 0;
	reply_line(out, RS_ITALIC, "%s: level + %d Annoy %s, level + %d Pain %s%s", o.label,
	           a_extra, fungeon_channel_dice_word(a_extra), p_extra,
	           fungeon_channel_dice_word(p_extra), o.universal ? ", universal" : "");
	if (o.annoy > 0) {
		struct fungeon_play_annoy *a = xcalloc(1, sizeof(*a));

		if (fungeon_roll_annoy_play(inv, c, &o, o.annoy, targets, nt, bonus, styles, a,
		                            out) < 0)
			for (int i = 0; i < nt; i++)
				a->fails[i] = false;
		for (int i = 0; i < nt; i++)
			fails[i] = a->fails[i];
		fungeon_render_narration_lines(out, &a->nar, c, styles, NULL);
		free(a);
	} else {
		for (int i = 0; i < nt; i++)
			fails[i] = true;
	}
	for (int i = 0; i < nt; i++) {
		if (!fails[i])
			continue;
		if (o.hold) {
			t->held[targets[i]] = true;
			reply_line(
			    out, RS_BAD,
			    "%s is held and may not act this turn (rolls no dice, but can be "
			    "hurt).",
			    c->m[targets[i]].name);
		}
		parts[np++] =
		    (struct fungeon_part){.kind = FGP_MEMBER, .member = targets[i], .target = -1};
	}
	if (np == 0 || o.pain == 0)
		return;
	parts[np++] = *use;
	pain_safe(inv, c, parts, np, styles, out);
}

static void
step_abilities(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
               const struct thwacko_style *styles, struct reply *out)
{
	if (t->nuse == 0 && rollchan_compact(inv->chan)) {
		reply_line(out, RS_DIM, "2. Special abilities: none.");
		return;
	}
	reply_line(out, RS_BOLD, "2. Special abilities");
	if (t->nuse == 0)
		reply_line(out, RS_DIM, "None.");
	for (int u = 0; u < t->nuse; u++)
		if (t->use[u].s->hits > 0)
			use_ability(inv, c, t, &t->use[u], styles, out);
}

static void
step_pain(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
          const struct thwacko_style *styles, struct reply *out)
{
	struct fungeon_part parts[CF_PARTS_MAX];
	int n = step3_parts(c, t, parts), members = 0, monsters = 0;

	reply_line(out, RS_BOLD, "3. Painful conflict");
	for (int i = 0; i < n; i++) {
		members += parts[i].kind == FGP_MEMBER;
		monsters += parts[i].kind != FGP_MEMBER;
	}
	if (members == 0) {
		reply_line(out, RS_BAD, "No Fungeoneer is left standing in this fight.");
		return;
	}
	if (monsters == 0) {
		reply_line(out, RS_GOOD, "No monster is left standing in this fight.");
		return;
	}
	pain_safe(inv, c, parts, n, styles, out);
}

/* While a monster of this fight stands, a button plays the next turn
 * against the same monsters. */
static void
next_buttons(struct invocation *inv, const struct turn *t, struct reply *out)
{
	const char *list = invocation_str(inv, "monsters");
	char action[120];
	bool standing = false;

	for (int i = 0; i < t->nmon; i++)
		standing |= t->mon[i].s->hits > 0;
	if (!standing)
		return;
	if ((size_t)snprintf(action, sizeof(action), "fungeon combat%s%s", list ? " " : "",
	                     list ? list : "") <= 100)
		reply_button(out, "Next combat turn", action);
}

void
cmd_fungeon_combat(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct turn *t;
	struct thwacko_style styles[FUNGEON_PARTY_MAX];

	if (!fungeon_channel_may(c, FUNGEON_ACT_COMBAT, out))
		return;
	t = xcalloc(1, sizeof(*t));
	if (pick_monsters(c, invocation_str(inv, "monsters"), t, out) < 0 ||
	    pick_uses(c, invocation_str(inv, "use"), t, out) < 0 ||
	    check_turn(inv, c, t, out) < 0) {
		free(t);
		return;
	}
	fungeon_channel_styles(c, inv->state, styles);
	reply_title(out, "Combat turn");
	step_effects(inv, c, t, styles, out);
	step_abilities(inv, c, t, styles, out);
	step_pain(inv, c, t, styles, out);
	channel_touch(inv->chan);
	next_buttons(inv, t, out);
	if (fungeon_room_standing(&c->d.room) == 0) {
		reply_add(out, RS_GOOD, "Every monster here is defeated");
		if (c->d.phase == FUNGEON_ROOM && c->d.room.n[FUNGEON_TREASURE] > 0)
			reply_add(out, RS_GOOD,
			          ": the treasure can be taken unless a trap guards it");
		reply_add(out, RS_GOOD, ".");
		reply_nl(out);
	}
	free(t);
}
