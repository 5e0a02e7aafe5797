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
#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/fungeon_pain.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/fungeon/fungeon_roll.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#define TARGETS_MAX CF_PARTS_MAX

typedef char word_t[FUNGEON_NAME_MAX * 2 + 2];

struct turn {
	int nmon;
	struct fungeon_part mon[CF_PARTS_MAX];
	int nnamed;           /* mon[0..nnamed) were named; the rest filled the turn */
	int ab[CF_PARTS_MAX]; /* the ability mon[i] uses: an index, or -1 for none */
	int nuse;
	struct fungeon_part use[CF_PARTS_MAX]; /* abilities used this turn */
	int nfight;
	int fight[FUNGEON_PARTY_MAX];
	bool held[FUNGEON_PARTY_MAX]; /* by member index */
	/* each one's target, by member index and by mon index; firm: named in
	 * this turn's targets option (else a standing order, or none) */
	char maim[FUNGEON_PARTY_MAX][FUNGEON_NAME_MAX * 2 + 2];
	bool mfirm[FUNGEON_PARTY_MAX];
	char naim[CF_PARTS_MAX][FUNGEON_NAME_MAX * 2 + 2];
	bool nfirm[CF_PARTS_MAX];
	/* the monster effects each member suffered as the turn began: its one
	 * Annoy roll a turn against those sources is in step 1 */
	int nfaced[FUNGEON_PARTY_MAX];
	char faced[FUNGEON_PARTY_MAX][FUNGEON_EFFECTS_MAX][FUNGEON_SOURCE_MAX];
	/* the Thwack-O dice of the turn: one a player, in the first roll of
	 * the turn they take part in (text 000, line 271) */
	struct cf_turn thw;
};

/* Whether the invoker directs monster p; for tests of a list, no reply. */
static bool
directs(const struct fungeon_channel *c, const struct invocation *inv,
        const struct fungeon_piece *p)
{
	struct fungeon_part part = {
	    .kind = FGP_MONSTER, .member = -1, .s = (struct fungeon_piece *)p};

	return fungeon_rights_may_direct(c, inv, &part, NULL);
}

/* The Fungeoneers of this turn: every one alive and in the room (a
 * replacement waits for the hallway). */
static int
pick_fighters(const struct fungeon_channel *c, struct turn *t, struct reply *out)
{
	for (int i = 0; i < c->n; i++)
		if (fungeon_rights_in_play(c, i))
			t->fight[t->nfight++] = i;
	if (t->nfight == 0) {
		reply_error(out, "No Fungeoneer of the party is alive and in the room to fight.");
		return -1;
	}
	return 0;
}

/* Whether monster m is in this turn already. */
static bool
in_turn(const struct turn *t, const struct fungeon_piece *m)
{
	for (int k = 0; k < t->nmon; k++)
		if (t->mon[k].s == m)
			return true;
	return false;
}

/* Says which standing monsters of the room the names leave out, when a
 * turn would hold every one of them: monsters attack on sight (line 136)
 * and everyone makes the Painful conflict roll (line 252), so none sits a
 * turn out. Returns 0, or -1 with the error. */
static int
all_fight(const struct fungeon_channel *c, const struct turn *t, int standing, int room,
          struct reply *out)
{
	const struct fungeon_room *r = &c->d.room;
	struct buf b;
	int left = 0;

	if (standing > room || t->nmon == standing)
		return 0;
	buf_init(&b, 2000);
	for (int i = 0; i < r->n[FUNGEON_MONSTER]; i++) {
		const struct fungeon_piece *m = &r->p[FUNGEON_MONSTER][i];

		if (in_turn(t, m) || m->hits <= 0)
			continue;
		buf_addf(&b, "%s%s", left++ ? ", " : "", m->name);
	}
	reply_error(out,
	            "Every standing monster fights each turn (monsters attack on sight, and "
	            "everyone makes the Painful conflict roll), and %s stand%s here too; name "
	            "monsters only when more stand than a turn holds (",
	            buf_str(&b), left == 1 ? "s" : "");
	reply_cmd(out, RS_BAD, "fungeon combat", NULL);
	reply_add(out, RS_BAD, " takes them all).");
	buf_free(&b);
	return -1;
}

/* Adds the room's standing monsters not in the turn yet, first made
 * first, until the turn holds room of them. */
static void
fill_turn(struct fungeon_room *r, struct turn *t, int room)
{
	for (int i = 0; i < r->n[FUNGEON_MONSTER] && t->nmon < room; i++) {
		if (r->p[FUNGEON_MONSTER][i].hits <= 0 || in_turn(t, &r->p[FUNGEON_MONSTER][i]))
			continue;
		t->mon[t->nmon] = (struct fungeon_part){.kind = FGP_MONSTER,
		                                        .member = -1,
		                                        .s = &r->p[FUNGEON_MONSTER][i],
		                                        .target = -1};
		t->nmon++;
	}
}

/* The monsters of this turn: every standing one, as many as a turn holds
 * (the first made; the others wait). When more stand than it holds, the
 * ones named take their places first and the next standing fill the rest:
 * naming picks which monsters fight, never how few (monsters attack on
 * sight, line 136, and combat is sure once in a room, line 246). Only the
 * one directing a monster may leave it out. */
static int
pick_monsters(struct invocation *inv, struct fungeon_channel *c, const char *list, struct turn *t,
              struct reply *out)
{
	word_t w[CF_PARTS_MAX];
	struct fungeon_room *r = &c->d.room;
	int n, room = CF_PARTS_MAX - t->nfight, standing = fungeon_room_standing(r);

	if (list == NULL) {
		fill_turn(r, t, room);
		if (t->nmon == 0) {
			bool loot = false;

			for (int i = 0; i < r->n[FUNGEON_TREASURE]; i++)
				loot |= r->p[FUNGEON_TREASURE][i].taken[0] == '\0';
			reply_error(out, "%s: there is nothing to fight here; ",
			            r->n[FUNGEON_MONSTER] == 0
			                ? "No monster is in this room"
			                : "No monster of this room has hits left");
			if (loot) {
				reply_add(out, RS_BAD, "take its treasure (");
				reply_cmd(out, RS_BAD, "fungeon take", "item", "ITEM", NULL);
				reply_add(out, RS_BAD, ") or ");
			}
			/* on the way back no hallway comes: the party goes on
			 * back, as /fungeon party says */
			reply_add(out, RS_BAD, "go on%s (",
			          c->d.phase == FUNGEON_RETREAT ? " back" : "");
			reply_cmd(out, RS_BAD,
			          c->d.phase == FUNGEON_RETREAT ? "fungeon retreat"
			                                        : "fungeon hallway",
			          NULL);
			reply_add(out, RS_BAD, ").");
			return -1;
		}
		return 0;
	}
	n = fungeon_channel_split_names(list, w, CF_PARTS_MAX - 1, out);
	if (n < 0)
		return -1;
	if (n > room) {
		reply_error(out,
		            "%d Fungeoneers and %d monsters would be %d participants, and a turn "
		            "takes at most %d: name at most %d monster%s.",
		            t->nfight, n, t->nfight + n, CF_PARTS_MAX, room, room == 1 ? "" : "s");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct fungeon_part *p = &t->mon[t->nmon];

		if (fungeon_roll_part_resolve(c, w[i], FGP_MONSTER, p, out) < 0)
			return -1;
		if (p->s->hits <= 0) {
			reply_error(out, "%s is already defeated; name a monster with hits left.",
			            p->s->name);
			return -1;
		}
		t->nmon++;
	}
	t->nnamed = t->nmon;
	if (all_fight(c, t, standing, room, out) < 0)
		return -1;
	fill_turn(r, t, room);
	for (int i = 0; i < r->n[FUNGEON_MONSTER]; i++) {
		const struct fungeon_piece *m = &r->p[FUNGEON_MONSTER][i];
		int d;

		if (in_turn(t, m) || m->hits <= 0 || directs(c, inv, m))
			continue;
		d = fungeon_rights_director(c, m);
		reply_error(out,
		            "%s stands here and is %s's to direct: only %s may leave it out of a "
		            "turn (without a list, ",
		            m->name, d >= 0 ? c->m[d].player : "nobody in play",
		            d >= 0 ? c->m[d].player : "the GM");
		reply_cmd(out, RS_BAD, "fungeon combat", NULL);
		reply_add(out, RS_BAD, " takes every standing monster that fits).");
		return -1;
	}
	return 0;
}

/* The ability monster p uses by its standing order: its first unless the
 * order says none or another (-1: none). */
static int
standing_ability(const struct fungeon_piece *p)
{
	if (p->d.nab == 0 || !strcmp(p->use, "none"))
		return -1;
	for (int a = 0; a < p->d.nab; a++)
		if (!utf8_casecmp(p->d.ab[a].name, p->use))
			return a;
	return 0;
}

/* The abilities used: each monster's by its standing order, or as the use
 * option says for the monsters the invoker directs (none: none of
 * theirs). */
static int
pick_uses(struct invocation *inv, struct fungeon_channel *c, const char *list, struct turn *t,
          struct reply *out)
{
	word_t w[CF_PARTS_MAX];
	bool set[CF_PARTS_MAX] = {false};
	int n;

	for (int i = 0; i < t->nmon; i++)
		t->ab[i] = standing_ability(t->mon[i].s);
	if (list != NULL && !strcasecmp(list, "none")) {
		int mine = 0;

		for (int i = 0; i < t->nmon; i++) {
			if (!directs(c, inv, t->mon[i].s))
				continue;
			t->ab[i] = -1;
			mine++;
		}
		if (mine == 0) {
			reply_error(out, "use:none holds back the abilities of the monsters you "
			                 "direct, and you direct none in this fight.");
			return -1;
		}
	} else if (list != NULL) {
		n = fungeon_channel_split_names(list, w, CF_PARTS_MAX, out);
		if (n < 0)
			return -1;
		if (n == 0) {
			reply_error(
			    out,
			    "use: needs monster/ability (wolf/howl), monster/none, or none for "
			    "this turn; without it the monsters use their standing ones.");
			return -1;
		}
		for (int i = 0; i < n; i++) {
			struct fungeon_part u;
			int k = 0;

			if (fungeon_roll_use_resolve(c, inv, w[i], &u, out) < 0)
				return -1;
			while (k < t->nmon && t->mon[k].s != u.s)
				k++;
			if (k == t->nmon) {
				reply_error(
				    out, "%s is not in this fight; its abilities cannot be used.",
				    u.s->name);
				return -1;
			}
			if (set[k]) {
				reply_error(out, "%s uses one special ability a turn; name one.",
				            u.s->name);
				return -1;
			}
			set[k] = true;
			t->ab[k] = u.kind == FGP_ABILITY ? u.ability : -1;
		}
	}
	for (int i = 0; i < t->nmon; i++)
		if (t->ab[i] >= 0)
			t->use[t->nuse++] = (struct fungeon_part){.kind = FGP_ABILITY,
			                                          .member = -1,
			                                          .s = t->mon[i].s,
			                                          .ability = t->ab[i],
			                                          .target = -1};
	return 0;
}

/* The target of participant p this turn, and whether it is firm. */
static const char *
aim_of(const struct turn *t, const struct fungeon_part *p, bool *firm)
{
	if (p->kind == FGP_MEMBER) {
		*firm = t->mfirm[p->member];
		return t->maim[p->member];
	}
	for (int i = 0; i < t->nmon; i++) {
		if (t->mon[i].s == p->s) {
			*firm = t->nfirm[i];
			return t->naim[i];
		}
	}
	*firm = false;
	return "";
}

/* Gives parts[0..n) their targets of this turn. */
static void
set_targets(const struct turn *t, struct fungeon_part *parts, int n)
{
	for (int i = 0; i < n; i++) {
		bool firm;
		const char *aim = aim_of(t, &parts[i], &firm);

		snprintf(parts[i].target_name, sizeof(parts[i].target_name), "%s", aim);
		parts[i].target_soft = !firm;
		parts[i].target = -1;
	}
}

/* The participants of step 3: the party (held ones rolling no dice) and
 * the monsters, each with its target. */
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
	set_targets(t, parts, n);
	return n;
}

/* The targets: each one's standing order, and the targets option
 * ("Alba>goblin goblin>Brom") for those the invoker decides for. */
static int
pick_targets(struct invocation *inv, struct fungeon_channel *c, const char *list, struct turn *t,
             struct reply *out)
{
	struct fungeon_part parts[CF_PARTS_MAX];
	word_t w[TARGETS_MAX];
	int n, nw;

	for (int i = 0; i < c->n; i++)
		snprintf(t->maim[i], sizeof(t->maim[i]), "%s", c->m[i].aim);
	for (int i = 0; i < t->nmon; i++)
		snprintf(t->naim[i], sizeof(t->naim[i]), "%s", t->mon[i].s->aim);
	if (list == NULL)
		return 0;
	nw = fungeon_channel_split_names(list, w, TARGETS_MAX, out);
	if (nw < 0)
		return -1;
	if (nw == 0) {
		reply_error(out,
		            "targets: needs who>target (Alba>goblin) for this turn; without it "
		            "each side aims as its standing orders say.");
		return -1;
	}
	n = step3_parts(c, t, parts);
	for (int k = 0; k < nw; k++) {
		const char *gt = strchr(w[k], '>');
		char who[sizeof(word_t)], name[FUNGEON_SOURCE_MAX], aim[sizeof(word_t)];
		int i = 0;

		if (gt == NULL || gt == w[k] || gt[1] == '\0') {
			reply_error(out,
			            "A target is written who>target (Alba>goblin); '%.40s' is not.",
			            w[k]);
			return -1;
		}
		snprintf(who, sizeof(who), "%.*s", (int)(gt - w[k]), w[k]);
		if (fungeon_roll_names_two(c, who, out) ||
		    fungeon_roll_target_name(c, gt + 1, aim, sizeof(aim), out) < 0)
			return -1;
		while (
		    i < n &&
		    utf8_casecmp(fungeon_roll_part_name(c, &parts[i], name, sizeof(name)), who) &&
		    !(parts[i].kind == FGP_MEMBER &&
		      !utf8_casecmp(c->m[parts[i].member].player, who)))
			i++;
		if (i == n) {
			reply_error(out,
			            "'%.40s' does not fight this turn; a target is given to a "
			            "Fungeoneer or monster in the fight.",
			            who);
			return -1;
		}
		if (!fungeon_rights_may_direct(c, inv, &parts[i], out))
			return -1;
		if (parts[i].kind == FGP_MEMBER) {
			snprintf(t->maim[parts[i].member], sizeof(t->maim[0]), "%s", aim);
			t->mfirm[parts[i].member] = true;
		}
		for (int m = 0; m < t->nmon && parts[i].kind != FGP_MEMBER; m++) {
			if (t->mon[m].s != parts[i].s)
				continue;
			snprintf(t->naim[m], sizeof(t->naim[0]), "%s", aim);
			t->nfirm[m] = true;
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

	if (pick_targets(inv, c, invocation_str(inv, "targets"), t, out) < 0)
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
	for (int f = 0; f < t->nfight; f++) {
		int i = t->fight[f];

		for (int e = 0; e < c->m[i].neffects; e++)
			if (c->m[i].effects[e].from == FUNGEON_FROM_MONSTER)
				snprintf(t->faced[i][t->nfaced[i]++], FUNGEON_SOURCE_MAX, "%s",
				         c->m[i].effects[e].source);
	}
	return 0;
}

/* Whether member i suffered an effect of source at the turn's start. */
static bool
faced_at_start(const struct turn *t, int i, const char *source)
{
	for (int k = 0; k < t->nfaced[i]; k++)
		if (!strcmp(t->faced[i][k], source))
			return true;
	return false;
}

/* After a roll of the turn: names who narrates so far when the roll held
 * a Thwack-O die the turn had not seen (before: the turn as it was). */
static void
say_so_far(struct reply *out, const struct fungeon_channel *c, const struct turn *t,
           const struct cf_turn *before, const struct thwacko_style *styles)
{
	if (memcmp(before, &t->thw, sizeof(*before)) != 0)
		fungeon_render_turn_so_far(out, &t->thw, c, styles);
}

/* Runs a Painful conflict of the turn checked before the turn began;
 * should the check fail after all (a death changed who can take part), it
 * says so on a line rather than replacing the reply. */
static void
pain_safe(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
          struct fungeon_part *parts, int n, const struct thwacko_style *styles, struct reply *out)
{
	struct reply *tmp = reply_new();
	const char *bonus = invocation_str(inv, "bonus");

	if (fungeon_pain_check(c, parts, n, bonus, tmp) == 0)
		fungeon_pain_run(inv, c, parts, n, bonus, styles, &t->thw, out);
	else
		reply_line(out, RS_BAD, "%s", reply_error_text(tmp));
	reply_free(tmp);
}

/* What a hold does this turn (line 175: the held may not act; rolling
 * the dice it is made to roll is no action, dealing damage is). */
static void
say_held(struct reply *out, const struct fungeon_member *m)
{
	reply_line(out, RS_BAD,
	           "%s is held and may not act this turn: %s rolls in every Painful conflict, "
	           "but a rank %s wins deals no damage.",
	           m->name, m->name, m->name);
}

/* The next monster effect of member i to roll in step 1, skipping the
 * sources done: continuous damage stands for a hold of the same source
 * (one Annoy roll a source). Returns its index, or -1. */
static int
next_effect(const struct fungeon_member *m, char done[][FUNGEON_SOURCE_MAX], int ndone)
{
	for (int e = 0; e < m->neffects; e++) {
		const struct fungeon_effect *ef = &m->effects[e];
		bool seen = false;

		for (int k = 0; k < ndone; k++)
			seen |= !strcmp(done[k], ef->source);
		if (ef->from != FUNGEON_FROM_MONSTER || seen)
			continue;
		for (int d = 0; ef->kind == FUNGEON_EFFECT_HOLD && d < m->neffects; d++)
			if (m->effects[d].kind == FUNGEON_EFFECT_DAMAGE &&
			    !strcmp(m->effects[d].source, ef->source))
				return d;
		return e;
	}
	return -1;
}

/* Step 1: continuous monster features (a trap's continuous damage waits
 * for the hallway), one Annoy roll for each source. */
static void
step_effects(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
             const struct thwacko_style *styles, struct reply *out)
{
	struct fungeon_cont *k;
	bool dead[FUNGEON_PARTY_MAX], any = false;
	int rolled = 0;

	for (int f = 0; f < t->nfight; f++)
		any |= t->nfaced[t->fight[f]] > 0;
	if (!any && rollchan_compact(inv->chan)) {
		reply_line(out, RS_DIM, "1. Continuous monster features: none.");
		return;
	}
	k = xmalloc(sizeof(*k));
	reply_line(out, RS_BOLD, "1. Continuous monster features");
	rolled += fungeon_channel_lift_holds(c, out); /* a state from before holds ended so */
	fungeon_channel_dead_before(c, dead);
	for (int f = 0; f < t->nfight; f++) {
		int i = t->fight[f], ndone = 0, e;
		char done[FUNGEON_EFFECTS_MAX][FUNGEON_SOURCE_MAX];

		while (!c->m[i].dead && (e = next_effect(&c->m[i], done, ndone)) >= 0) {
			const struct fungeon_effect *ef = &c->m[i].effects[e];
			bool hold = ef->kind == FUNGEON_EFFECT_HOLD;
			struct cf_turn before = t->thw;

			snprintf(done[ndone++], FUNGEON_SOURCE_MAX, "%s", ef->source);
			fungeon_hallway_cont_roll(inv->rng, c->m, i, e,
			                          fungeon_rights_roller(c, ef->maker), &t->thw, k);
			fungeon_render_cont(out, c, k, styles, false);
			say_so_far(out, c, t, &before, styles);
			rolled++;
			if ((hold || k->hold) && !k->success && !c->m[i].dead) {
				t->held[i] = true;
				say_held(out, &c->m[i]);
			}
		}
	}
	fungeon_channel_deaths(c, dead);
	if (rolled == 0)
		reply_line(out, RS_DIM, "None.");
	free(k);
}

/* "level + 2 Annoy dice, level + 1 Pain die", as the ability has them. */
static void
ability_line(struct reply *out, const struct fungeon_play_obstacle *o, int level)
{
	int a = o->annoy ? o->annoy - level : 0, p = o->pain ? o->pain - level : 0;

	reply_add(out, RS_ITALIC, "%s: level + %d Annoy %s", o->label, a,
	          fungeon_channel_dice_word(a));
	if (p > 0)
		reply_add(out, RS_ITALIC, ", level + %d Pain %s", p, fungeon_channel_dice_word(p));
	else
		reply_add(out, RS_ITALIC, ", no Pain dice");
	reply_add(out, RS_ITALIC, "%s%s%s", o->hold ? ", hold" : "",
	          o->continuous ? ", continuous" : "", o->universal ? ", universal" : "");
	reply_nl(out);
}

/* One ability used in step 2: its Annoy roll against every Fungeoneer in
 * the fight but those who rolled against it in step 1 (one roll a turn
 * against an ability they suffer), then its Pain roll, the monster's, in
 * a Painful conflict with those who failed. */
static void
use_ability(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
            struct fungeon_part *use, const struct thwacko_style *styles, struct reply *out)
{
	const char *bonus = invocation_str(inv, "bonus");
	struct fungeon_play_obstacle o;
	struct fungeon_part parts[CF_PARTS_MAX];
	int targets[FUNGEON_PARTY_MAX], nt = 0, np = 0, skipped = 0;
	bool fails[FUNGEON_PARTY_MAX];
	struct cf_turn before = t->thw;

	fungeon_roll_obstacle_of(c, use, &o);
	for (int f = 0; f < t->nfight; f++) {
		int i = t->fight[f];

		if (c->m[i].dead)
			continue;
		if (faced_at_start(t, i, o.label))
			skipped++;
		else
			targets[nt++] = i;
	}
	ability_line(out, &o, use->s->d.level);
	if (o.pain == 0 && !o.hold && !o.continuous) {
		reply_line(out, RS_DIM,
		           "It has no Pain dice, hold or continuous damage: a failure would bring "
		           "nothing, so it is not rolled (its Resist dice still act).");
		return;
	}
	if (nt == 0) {
		if (skipped > 0)
			reply_line(out, 0, "Everyone it would face rolled against it in step 1.");
		return;
	}
	if (o.annoy > 0) {
		struct fungeon_play_annoy *a = xcalloc(1, sizeof(*a));

		if (fungeon_roll_annoy_play(inv, c, &o, o.annoy, targets, nt, bonus, styles,
		                            &t->thw, a, out) < 0)
			for (int i = 0; i < nt; i++)
				a->fails[i] = false;
		for (int i = 0; i < nt; i++)
			fails[i] = a->fails[i];
		say_so_far(out, c, t, &before, styles);
		before = t->thw;
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
			say_held(out, &c->m[targets[i]]);
		}
		parts[np++] = (struct fungeon_part){.kind = FGP_MEMBER,
		                                    .member = targets[i],
		                                    .target = -1,
		                                    .held = t->held[targets[i]]};
	}
	if (np == 0 || o.pain == 0)
		return;
	parts[np++] = *use;
	set_targets(t, parts, np);
	for (int i = 0; i < np; i++)
		parts[i].target_soft = true; /* this turn's targets are the Painful conflict's */
	pain_safe(inv, c, t, parts, np, styles, out);
	say_so_far(out, c, t, &before, styles);
}

/* Step 2. A bonus: counts only in an ability's conflicts (a monster's
 * attacks in step 3 are Universal), so a turn with none says it counts
 * for nothing rather than setting it aside silently. */
static void
step_abilities(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
               const struct thwacko_style *styles, struct reply *out)
{
	int used = 0;

	for (int u = 0; u < t->nuse; u++)
		used += t->use[u].s->hits > 0;
	if (t->nuse == 0 && rollchan_compact(inv->chan))
		reply_line(out, RS_DIM, "2. Special abilities: none.");
	else
		reply_line(out, RS_BOLD, "2. Special abilities");
	if (t->nuse == 0 && !rollchan_compact(inv->chan))
		reply_line(out, RS_DIM, "None.");
	for (int u = 0; u < t->nuse; u++)
		if (t->use[u].s->hits > 0)
			use_ability(inv, c, t, &t->use[u], styles, out);
	if (used == 0 && invocation_str(inv, "bonus") != NULL)
		reply_line(out, RS_DIM,
		           "bonus: counts only against a special ability; no monster uses one this "
		           "turn.");
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
	pain_safe(inv, c, t, parts, n, styles, out);
}

/* The turn's narrator: the highest Thwack-O rolled in the whole turn (line
 * 244), a tie re-rolled and shown. */
static void
say_narrator(struct invocation *inv, const struct fungeon_channel *c, const struct turn *t,
             const struct thwacko_style *styles, struct reply *out)
{
	struct cf_narration nar;

	conflict_turn_narrator(inv->rng, &t->thw, FUNGEON_DIE, &nar);
	fungeon_render_narration_lines(out, &nar, c, styles, NULL);
}

/* Names the standing monsters left out of this turn, when the turn could
 * not hold them all. */
static void
say_waiting(const struct fungeon_channel *c, const struct turn *t, struct reply *out)
{
	const struct fungeon_room *r = &c->d.room;
	int out_of[FUNGEON_ROOM_MONSTERS_MAX], n = 0, d;

	if (t->nfight + t->nmon < CF_PARTS_MAX)
		return;
	if (t->nnamed > 0 && t->nnamed < t->nmon) {
		for (int k = t->nnamed; k < t->nmon; k++)
			reply_add(out, RS_DIM, "%s%s",
			          k == t->nnamed     ? ""
			          : k == t->nmon - 1 ? " and "
			                             : ", ",
			          t->mon[k].s->name);
		reply_add(out, RS_DIM,
		          " %s the places the names leave: naming picks which monsters fight, "
		          "and a turn takes as many as it holds.",
		          t->nmon - t->nnamed == 1 ? "fills" : "fill");
		reply_nl(out);
	}
	for (int i = 0; i < r->n[FUNGEON_MONSTER] && n < FUNGEON_ROOM_MONSTERS_MAX; i++) {
		if (!in_turn(t, &r->p[FUNGEON_MONSTER][i]) && r->p[FUNGEON_MONSTER][i].hits > 0)
			out_of[n++] = i;
	}
	if (n == 0)
		return;
	for (int k = 0; k < n; k++)
		reply_add(out, RS_DIM, "%s%s",
		          k == 0       ? ""
		          : k == n - 1 ? " and "
		                       : ", ",
		          r->p[FUNGEON_MONSTER][out_of[k]].name);
	reply_add(out, RS_DIM, " %s out of this turn: a turn takes at most %d participants",
	          n == 1 ? "stays" : "stay", CF_PARTS_MAX);
	d = fungeon_rights_director(c, &r->p[FUNGEON_MONSTER][out_of[0]]);
	if (d >= 0)
		reply_add(out, RS_DIM, " (%s, who directs them, may name the ones that fight)",
		          c->m[d].player);
	reply_add(out, RS_DIM, ".");
	reply_nl(out);
	if (n < 2)
		return;
	/* Where room is short the names give way to their count, so that
	 * the turn's results are what stays. */
	reply_working(out);
	reply_add(out, RS_DIM, "%d monsters stay out of this turn (a turn takes at most %d): ", n,
	          CF_PARTS_MAX);
	reply_cmd(out, RS_DIM, "fungeon monster list", NULL);
	reply_add(out, RS_DIM, " names them.");
	reply_nl(out);
	reply_brief(out);
}

/* While a monster of this fight stands and a Fungeoneer is in play to
 * fight it, a button plays the next turn against the same monsters. */
static void
next_buttons(const struct fungeon_channel *c, const struct turn *t, struct reply *out)
{
	char action[120];
	bool standing = false, fighter = false;
	size_t len;

	for (int i = 0; i < t->nmon; i++)
		standing |= t->mon[i].s->hits > 0;
	for (int i = 0; i < c->n && standing; i++)
		fighter |= fungeon_rights_in_play(c, i);
	if (!standing || !fighter)
		return;
	/* the monsters named that still stand: the next turn fills the rest */
	len = (size_t)snprintf(action, sizeof(action), "fungeon combat");
	for (int i = 0; i < t->nnamed && len < sizeof(action); i++)
		if (t->mon[i].s->hits > 0)
			len += (size_t)snprintf(action + len, sizeof(action) - len, " %s",
			                        t->mon[i].s->name);
	if (len <= 100)
		reply_button(out, "Next combat turn", action);
}

void
cmd_fungeon_combat(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct turn *t;
	struct thwacko_style styles[FUNGEON_PARTY_MAX];

	if (!fungeon_channel_may(c, FUNGEON_ACT_COMBAT, out) ||
	    !fungeon_rights_may_move(c, inv, FUNGEON_ACT_COMBAT, out) ||
	    (c->d.phase == FUNGEON_RETREAT && fungeon_rights_wanderers_due(c, out) < 0))
		return;
	t = xcalloc(1, sizeof(*t));
	if (pick_fighters(c, t, out) < 0 ||
	    pick_monsters(inv, c, invocation_str(inv, "monsters"), t, out) < 0 ||
	    pick_uses(inv, c, invocation_str(inv, "use"), t, out) < 0 ||
	    check_turn(inv, c, t, out) < 0) {
		free(t);
		return;
	}
	fungeon_channel_styles(c, inv->state, styles);
	reply_title(out, "Combat turn");
	reply_results_last(out);
	say_waiting(c, t, out);
	step_effects(inv, c, t, styles, out);
	step_abilities(inv, c, t, styles, out);
	step_pain(inv, c, t, styles, out);
	say_narrator(inv, c, t, styles, out);
	channel_touch(inv->chan);
	next_buttons(c, t, out);
	if (fungeon_room_standing(&c->d.room) == 0) {
		reply_add(out, RS_GOOD, "Every monster here is defeated");
		if (c->d.phase == FUNGEON_ROOM && c->d.room.n[FUNGEON_TREASURE] > 0)
			reply_add(out, RS_GOOD,
			          ": the treasure can be taken unless a trap guards it");
		reply_add(out, RS_GOOD, ".");
		reply_nl(out);
		if (c->d.phase == FUNGEON_RETREAT)
			fungeon_render_go_on_back(c, out);
	}
	free(t);
}
