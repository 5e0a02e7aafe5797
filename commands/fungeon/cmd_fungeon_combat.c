/* /fungeon combat and retreat: a combat turn in its three steps, and the
 * back-to-town check. */
#include "commands/fungeon/cmd_fungeon_combat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_pain.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/fungeon/fungeon_roll.h"
#include "commands/dice/rollchan.h"
#include "rules/base/mem.h"

struct turn {
	int nmon;
	struct fungeon_part mon[CF_PARTS_MAX];
	int nuse;
	struct fungeon_part use[CF_PARTS_MAX]; /* abilities used this turn */
	int nfight;
	int fight[FUNGEON_PARTY_MAX];
	bool held[FUNGEON_PARTY_MAX]; /* by member index */
};

static int
pick_monsters(struct fungeon_channel *c, const char *list, struct turn *t, struct reply *out)
{
	char w[CF_PARTS_MAX][FUNGEON_NAME_MAX * 2 + 2];
	int n;

	if (list == NULL) {
		for (int i = 0; i < c->nd[FUNGEON_MONSTER]; i++) {
			if (c->d[FUNGEON_MONSTER][i].hits <= 0)
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
			                                        .s = &c->d[FUNGEON_MONSTER][i],
			                                        .target = -1};
			t->nmon++;
		}
		if (t->nmon == 0) {
			reply_error(out, "No monster with hits left is stored here; ");
			reply_cmd(out, RS_BAD, "fungeon monster add", "name", "NAME", "design",
			          "DESIGN", NULL);
			reply_add(out, RS_BAD, " makes one.");
			return -1;
		}
		return 0;
	}
	n = fungeon_channel_split_names(list, w, CF_PARTS_MAX - 1, out);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (fungeon_roll_part_resolve(c, w[i], FGP_MONSTER, &t->mon[t->nmon++], out) < 0)
			return -1;
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

/* Everything checked before the first die: the Painful conflict of the
 * whole party against the monsters, and each ability's Annoy roll. */
static int
check_turn(struct invocation *inv, struct fungeon_channel *c, struct turn *t, struct reply *out)
{
	struct fungeon_part parts[CF_PARTS_MAX];
	const char *bonus = invocation_str(inv, "bonus");
	int n = 0;

	for (int i = 0; i < c->n; i++)
		if (!c->m[i].dead && !c->m[i].fresh) /* a replacement waits for the hallway */
			t->fight[t->nfight++] = i;
	if (t->nfight == 0) {
		reply_error(out, "The party has no living Fungeoneer to fight.");
		return -1;
	}
	if (t->nfight + t->nmon > CF_PARTS_MAX) {
		reply_error(out,
		            "A combat turn takes at most %d participants; name fewer monsters.",
		            CF_PARTS_MAX);
		return -1;
	}
	for (int i = 0; i < t->nfight; i++)
		parts[n++] =
		    (struct fungeon_part){.kind = FGP_MEMBER, .member = t->fight[i], .target = -1};
	for (int i = 0; i < t->nmon; i++)
		parts[n++] = t->mon[i];
	if (fungeon_pain_check(c, parts, n, bonus, out) < 0)
		return -1;
	for (int i = 0; i < t->nuse; i++) {
		struct fungeon_play_obstacle o;

		fungeon_roll_obstacle_of(c, &t->use[i], inv, &o);
		if (o.annoy > 0 &&
		    fungeon_roll_annoy_check(c, &o, o.annoy, t->fight, t->nfight, bonus, out) < 0)
			return -1;
	}
	return 0;
}

/* Runs a Painful conflict checked before the turn began; should the check
 * fail after all, it says so on a line rather than replacing the reply. */
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

static void
step_effects(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
             const struct thwacko_style *styles, struct reply *out)
{
	struct fungeon_cont *k;
	int rolled = 0;
	bool any = false;

	for (int f = 0; f < t->nfight; f++)
		any |= c->m[t->fight[f]].neffects > 0 && !c->m[t->fight[f]].dead;
	if (!any && rollchan_compact(inv->chan)) {
		reply_line(out, RS_DIM, "1. Continuous effects: none.");
		return;
	}
	k = xmalloc(sizeof(*k));
	reply_line(out, RS_BOLD, "1. Continuous effects");
	for (int f = 0; f < t->nfight; f++) {
		int i = t->fight[f];

		for (int e = 0; e < c->m[i].neffects && !c->m[i].dead;) {
			bool hold = c->m[i].effects[e].kind == FUNGEON_EFFECT_HOLD;

			fungeon_hallway_cont_roll(
			    inv->rng, c->m, i, e,
			    fungeon_channel_bonus_for(c, invocation_str(inv, "bonus"), i), k);
			fungeon_render_cont(out, c, k, styles);
			rolled++;
			if (hold && !k->success) {
				t->held[i] = true;
				reply_line(out, RS_BAD, "%s is held and loses this turn.",
				           c->m[i].name);
			}
			if (!k->success)
				e++;
		}
	}
	if (rolled == 0)
		reply_line(out, RS_DIM, "None.");
	free(k);
}

static void
step_abilities(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
               const struct thwacko_style *styles, struct reply *out)
{
	const char *bonus = invocation_str(inv, "bonus");

	if (t->nuse == 0 && rollchan_compact(inv->chan)) {
		reply_line(out, RS_DIM, "2. Monster abilities: none.");
		return;
	}
	reply_line(out, RS_BOLD, "2. Monster abilities");
	if (t->nuse == 0)
		reply_line(out, RS_DIM, "None.");
	for (int u = 0; u < t->nuse; u++) {
		struct fungeon_play_obstacle o;
		struct fungeon_part parts[CF_PARTS_MAX];
		int targets[FUNGEON_PARTY_MAX], nt = 0, np = 0;
		bool fails[FUNGEON_PARTY_MAX];

		fungeon_roll_obstacle_of(c, &t->use[u], inv, &o);
		for (int f = 0; f < t->nfight; f++)
			if (!c->m[t->fight[f]].dead)
				targets[nt++] = t->fight[f];
		if (nt == 0)
			break;
		reply_line(out, RS_ITALIC, "%s: level + %d Annoy, level + %d Pain dice%s", o.label,
		           o.annoy ? o.annoy - t->use[u].s->d.level : 0,
		           o.pain ? o.pain - t->use[u].s->d.level : 0,
		           o.universal ? ", universal" : "");
		if (o.annoy > 0) {
			struct fungeon_play_annoy *a = xcalloc(1, sizeof(*a));

			if (fungeon_roll_annoy_play(inv, c, &o, o.annoy, targets, nt, bonus, styles,
			                            a, out) < 0)
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
				reply_line(out, RS_BAD, "%s is held and loses this turn.",
				           c->m[targets[i]].name);
			}
			parts[np++] = (struct fungeon_part){
			    .kind = FGP_MEMBER, .member = targets[i], .target = -1};
		}
		if (np == 0 || o.pain == 0)
			continue;
		parts[np++] = t->use[u];
		pain_safe(inv, c, parts, np, styles, out);
	}
}

static void
step_pain(struct invocation *inv, struct fungeon_channel *c, struct turn *t,
          const struct thwacko_style *styles, struct reply *out)
{
	struct fungeon_part parts[CF_PARTS_MAX];
	int n = 0, fighters = 0;

	reply_line(out, RS_BOLD, "3. Painful conflict");
	for (int f = 0; f < t->nfight; f++) {
		int i = t->fight[f];

		if (c->m[i].dead || t->held[i])
			continue;
		parts[n++] = (struct fungeon_part){.kind = FGP_MEMBER, .member = i, .target = -1};
		fighters++;
	}
	if (fighters == 0) {
		reply_line(out, RS_BAD, "No Fungeoneer can fight this turn.");
		return;
	}
	for (int i = 0; i < t->nmon; i++)
		parts[n++] = t->mon[i];
	pain_safe(inv, c, parts, n, styles, out);
}

/* While a monster of this fight stands, a button plays the next turn
 * against the same monsters; once none does, one opens the hallway. */
static void
next_buttons(struct invocation *inv, const struct turn *t, struct reply *out)
{
	const char *list = invocation_str(inv, "monsters");
	char action[120];
	bool standing = false;

	for (int i = 0; i < t->nmon; i++)
		standing |= t->mon[i].s->hits > 0;
	if (!standing) {
		reply_button(out, "Hallway", "fungeon hallway");
		return;
	}
	if ((size_t)snprintf(action, sizeof(action), "fungeon combat%s%s", list ? " " : "",
	                     list ? list : "") <= 100)
		reply_button(out, "Next combat turn", action);
}

void
cmd_fungeon_combat(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct turn *t = xcalloc(1, sizeof(*t));
	struct thwacko_style styles[FUNGEON_PARTY_MAX];

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
	free(t);
}

void
cmd_fungeon_combat_retreat(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int idx[FUNGEON_PARTY_MAX],
	    n = fungeon_channel_members_named(c, invocation_str(inv, "who"), idx, out);
	int floor = fungeon_channel_floor(c);
	const char *bonus = invocation_str(inv, "bonus");
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	struct fungeon_play_obstacle o = {.roller = -1};
	struct fungeon_play_retreat *r;
	bool b[FUNGEON_PARTY_MAX];
	char err[200];

	snprintf(o.label, sizeof(o.label), "floor %d", floor);
	o.annoy = floor;
	if (n < 0 || fungeon_roll_annoy_check(c, &o, floor, idx, n, bonus, out) < 0)
		return;
	for (int i = 0; i < n; i++) {
		if (c->m[idx[i]].nwander == FUNGEON_WANDERERS_MAX) {
			reply_error(out,
			            "%s already has %d wandering monsters to build, the most one "
			            "player may hold; build them first (",
			            c->m[idx[i]].player, FUNGEON_WANDERERS_MAX);
			reply_cmd(out, RS_BAD, "fungeon monster add", "name", "NAME", "design",
			          "DESIGN", "budget:", "wander", NULL);
			reply_add(out, RS_BAD, ").");
			return;
		}
	}
	fungeon_channel_styles(c, inv->state, styles);
	fungeon_roll_bonus_flags(c, bonus, idx, n, b);
	r = xcalloc(1, sizeof(*r));
	if (fungeon_play_retreat(inv->rng, c->m, idx, n, b, floor, r, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		free(r);
		return;
	}
	rollchan_heading(inv->chan, out, "Back to town: Annoy rolls against %d dice (the floor)",
	                 floor);
	fungeon_render_annoy(out, c, &o, &r->annoy, styles);
	fungeon_play_retreat_apply(c->m, r);
	for (int i = 0; i < n; i++) {
		const struct fungeon_member *m = &c->m[idx[i]];

		if (r->wander[i] == 0)
			continue;
		reply_add(out, RS_BAD,
		          "%s builds one wandering monster of %lld points (level %d + floor %d, "
		          "at least the floor): ",
		          m->player, (long long)r->wander[i], m->level, floor);
		reply_cmd(out, RS_BAD, "fungeon monster add", "name", "NAME", "design", "DESIGN",
		          "budget:", "wander", NULL);
		reply_nl(out);
	}
	channel_touch(inv->chan);
	fungeon_render_narration_lines(out, &r->annoy.nar, c, styles, NULL);
	free(r);
}
