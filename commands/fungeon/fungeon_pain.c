/* fungeon_pain: the Painful conflicts of a combat turn; see fungeon_pain.h. */
#include "commands/fungeon/fungeon_pain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/dice/rollchan.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/fungeon/fungeon_roll.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

/* The most Resist dice an opposing monster of parts[0..n) has against
 * `type` ("" none). */
static int
resist_vs(const struct fungeon_part *parts, int n, const char *type)
{
	int most = 0;

	for (int k = 0; k < n && type[0]; k++) {
		const struct fungeon_design *d;

		if (parts[k].kind == FGP_MEMBER)
			continue;
		d = &parts[k].s->d;
		for (int a = 0; a < d->nab; a++)
			if (d->ab[a].resist > most && !utf8_casecmp(d->ab[a].resist_type, type))
				most = d->ab[a].resist;
	}
	return most;
}

/* The damage the Fungeoneers face: universal if any opponent deals
 * universal damage (monsters' attacks always do), of the first typed
 * opponent's type otherwise; and the most Resist dice an opposing monster
 * has against that type. */
static void
faced(const struct fungeon_channel *c, const struct fungeon_part *parts, int n,
      struct fungeon_play_obstacle *type, bool *universal, int *resist)
{
	memset(type, 0, sizeof(*type));
	*universal = false;
	*resist = 0;
	for (int k = 0; k < n; k++) {
		struct fungeon_play_obstacle o;

		if (parts[k].kind == FGP_MEMBER)
			continue;
		fungeon_roll_obstacle_of(c, &parts[k], &o);
		*universal |= o.universal;
		if (!type->type[0] && o.type[0])
			*type = o;
	}
	*resist = resist_vs(parts, n, type->type);
}

/* The Pain dice an obstacle participant rolls. */
static int
obstacle_dice(const struct fungeon_part *p)
{
	if (p->kind == FGP_MONSTER)
		return p->s->d.level; /* its attacks: Resist dice never add to them */
	if (p->kind == FGP_ABILITY)
		return p->s->d.ab[p->ability].pain ? p->s->d.level + p->s->d.ab[p->ability].pain
		                                   : 0;
	return p->s->d.pain;
}

static bool
same_part(const struct fungeon_part *a, const struct fungeon_part *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == FGP_MEMBER)
		return a->member == b->member;
	return a->s == b->s && (a->kind != FGP_ABILITY || a->ability == b->ability);
}

/* Whether participant k is the one a target names: name is a Fungeoneer's
 * or monster's own name (fungeon_roll_target_name()), so it matches that
 * name alone, byte for byte: never a player's name, nor another name that
 * folds alike (a monster using an ability is its monster). */
static bool
called(const struct fungeon_channel *c, const struct fungeon_part *k, const char *name)
{
	char own[FUNGEON_SOURCE_MAX];

	if (k->kind == FGP_ABILITY)
		return strcmp(k->s->name, name) == 0;
	return strcmp(fungeon_roll_part_name(c, k, own, sizeof(own)), name) == 0;
}

/* Resolves participant i's target among the others: a Fungeoneer's of
 * either side, a monster's among the Fungeoneers (fungeon_rights_may_aim);
 * a standing order whose target is not in this conflict, or no longer
 * allowed, leaves the default. */
static int
find_target(const struct fungeon_channel *c, struct fungeon_part *parts, int n, int i,
            struct reply *out)
{
	char me[FUNGEON_SOURCE_MAX];

	fungeon_roll_part_name(c, &parts[i], me, sizeof(me));
	for (int k = 0; k < n; k++) {
		if (!called(c, &parts[k], parts[i].target_name))
			continue;
		if (k == i && parts[i].target_soft)
			break;
		if (k == i) {
			reply_error(
			    out, "%s cannot target itself; a winner hurts one of the others.", me);
			return -1;
		}
		if (!fungeon_rights_may_aim(c, me, &parts[i], &parts[k],
		                            parts[i].target_soft ? NULL : out)) {
			if (!parts[i].target_soft)
				return -1;
			break; /* a standing order saved before the rule: the default */
		}
		parts[i].target = k;
		return 0;
	}
	if (parts[i].target_soft) {
		parts[i].target = -1;
		return 0;
	}
	reply_error(out,
	            "%s targets '%.40s', who is not in this conflict; a target is one of the "
	            "others in it.",
	            me, parts[i].target_name);
	return -1;
}

static int
check_one(const struct fungeon_channel *c, const struct fungeon_part *p, struct reply *out)
{
	char name[FUNGEON_SOURCE_MAX];

	fungeon_roll_part_name(c, p, name, sizeof(name));
	if (p->kind == FGP_MEMBER && !fungeon_rights_need_in_play(c, p->member, out))
		return -1;
	if (p->kind != FGP_MEMBER && p->s->hits <= 0) {
		reply_error(out, "%s is already defeated; name a monster with hits left.", name);
		return -1;
	}
	if (p->kind == FGP_ABILITY && p->s->d.ab[p->ability].pain < 1) {
		reply_error(out, "%s has no Pain dice, so it takes no part in a Painful conflict.",
		            name);
		return -1;
	}
	return 0;
}

/* Participant i of parts[0..n) as the rules take it: a member's class
 * bonus counts when its class fits the damage faced (or bonus: names it);
 * against universal damage, every monster's attacks included, it never
 * does (fungeon_play_member_dice). */
static struct fungeon_play_part
part_of(const struct fungeon_channel *c, const struct fungeon_part *parts, int i, const char *bonus,
        const char *type)
{
	const struct fungeon_part *p = &parts[i];

	if (p->kind != FGP_MEMBER)
		return (struct fungeon_play_part){
		    .member = -1,
		    .dice = obstacle_dice(p),
		    .hits = p->s->hits, /* an ability: its monster's */
		    .worth = p->s->cost,
		    .player = fungeon_rights_roller(c, p->s->maker),
		    .target = p->target,
		};
	return (struct fungeon_play_part){
	    .member = p->member,
	    .hits = -1,
	    .player = p->member,
	    .target = p->target,
	    .bonus = fungeon_channel_bonus_for(c, bonus, p->member, type),
	    .held = p->held,
	};
}

int
fungeon_pain_check(struct fungeon_channel *c, struct fungeon_part *parts, int n, const char *bonus,
                   struct reply *out)
{
	struct fungeon_part sorted[CF_PARTS_MAX];
	struct fungeon_play_obstacle type;
	bool universal;
	int members = 0, k = 0, resist;

	if (n < 2 || n > CF_PARTS_MAX) {
		reply_error(out, "A Painful conflict takes 2 to %d participants (got %d).",
		            CF_PARTS_MAX, n);
		return -1;
	}
	if (fungeon_channel_bonus_check(c, bonus, out) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char name[FUNGEON_SOURCE_MAX];

		for (int j = 0; j < i; j++) {
			if (same_part(&parts[i], &parts[j])) {
				reply_error(
				    out, "%s is named twice; name each participant once.",
				    fungeon_roll_part_name(c, &parts[i], name, sizeof(name)));
				return -1;
			}
		}
		if (check_one(c, &parts[i], out) < 0)
			return -1;
		members += parts[i].kind == FGP_MEMBER;
	}
	if (members == 0 || members == n) {
		reply_error(out,
		            "A Painful conflict needs Fungeoneers on one side and at least one "
		            "monster or ability on the other.");
		return -1;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			if ((parts[i].kind == FGP_MEMBER) == (pass == 0))
				sorted[k++] = parts[i];
	memcpy(parts, sorted, (size_t)n * sizeof(parts[0]));
	faced(c, parts, n, &type, &universal, &resist);
	for (int i = 0; i < n; i++) {
		char name[FUNGEON_SOURCE_MAX];
		struct fungeon_play_part pp = part_of(c, parts, i, bonus, type.type);
		int resisted,
		    d = parts[i].kind == FGP_MEMBER
		            ? fungeon_play_member_dice(&c->m[parts[i].member], &pp, type.type,
		                                       universal, resist, &resisted)
		            : pp.dice;

		if (parts[i].target_name[0] && find_target(c, parts, n, i, out) < 0)
			return -1;
		if (d > CF_DICE_MAX) {
			reply_error(out, "%s would roll %d dice; a participant rolls at most %d.",
			            fungeon_roll_part_name(c, &parts[i], name, sizeof(name)), d,
			            CF_DICE_MAX);
			return -1;
		}
	}
	return 0;
}

/* Says the outcome: each participant's damage dealt and taken, hits,
 * XP, deaths and defeats. */
static void
render(const struct fungeon_channel *c, const struct fungeon_part *parts, int n,
       const char names[][FUNGEON_SOURCE_MAX], const struct fungeon_play_pain *o, struct reply *out)
{
	for (int i = 0; i < n; i++) {
		const struct fungeon_part *p = &parts[i];

		reply_add(out, RS_BOLD, "%s", names[i]);
		reply_add(out, 0, " deals %d and takes %d: ", o->res.dealt[i], o->res.taken[i]);
		if (p->kind == FGP_MEMBER) {
			const struct fungeon_member *m = &c->m[p->member];

			reply_add(out, 0, "%d/%d hits", o->hits[i] < 0 ? 0 : o->hits[i],
			          fungeon_max_hits(m->level));
			if (o->xp[i] > 0)
				reply_add(out, RS_GOOD, ", +%lld XP", (long long)o->xp[i]);
			reply_add(out, 0, ".");
			if (o->capped[i])
				reply_add(out, RS_BAD, " %s's XP is at the most the bot can count.",
				          m->name);
			if (o->died[i])
				fungeon_render_death(out, c, m, "stays here to plunder");
		} else {
			reply_add(out, 0, "%d/%d hits.", o->hits[i] < 0 ? 0 : o->hits[i],
			          fungeon_cost_monster_hits(p->s->d.level));
			if (o->defeated[i])
				reply_add(out, RS_GOOD | RS_BOLD, " %s is defeated!", p->s->name);
		}
		reply_nl(out);
		if (o->res.dealt[i] == 0 && o->res.taken[i] == 0 && o->xp[i] == 0)
			reply_working(out); /* nothing changed for it */
	}
}

/* The label of participant i's dice line, with what changed its dice. */
static void
label_of(const struct fungeon_channel *c, const struct fungeon_part *p, const char *name,
         int resisted, char *label, size_t len)
{
	char whole[FUNGEON_SOURCE_MAX + FUNGEON_PLAYER_MAX + 64];

	if (p->kind == FGP_MEMBER && p->held && resisted > 0)
		snprintf(whole, sizeof(whole), "%.*s (%s, held: deals no damage, %d resisted)",
		         FUNGEON_SOURCE_MAX, name, c->m[p->member].player, resisted);
	else if (p->kind == FGP_MEMBER && p->held)
		snprintf(whole, sizeof(whole), "%.*s (%s, held: deals no damage)",
		         FUNGEON_SOURCE_MAX, name, c->m[p->member].player);
	else if (p->kind == FGP_MEMBER && resisted > 0)
		snprintf(whole, sizeof(whole), "%.*s (%s, %d resisted)", FUNGEON_SOURCE_MAX, name,
		         c->m[p->member].player, resisted);
	else if (p->kind == FGP_MEMBER)
		snprintf(whole, sizeof(whole), "%.*s (%s)", FUNGEON_SOURCE_MAX, name,
		         c->m[p->member].player);
	else
		snprintf(whole, sizeof(whole), "%.*s", FUNGEON_SOURCE_MAX, name);
	fungeon_render_fit_label(label, len, whole);
}

void
fungeon_pain_run(struct invocation *inv, struct fungeon_channel *c, struct fungeon_part *parts,
                 int n, const char *bonus, const struct thwacko_style *styles, struct cf_turn *turn,
                 struct reply *out)
{
	struct fungeon_play_pain *o = xmalloc(sizeof(*o));
	struct fungeon_play_part pp[CF_PARTS_MAX];
	char names[CF_PARTS_MAX][FUNGEON_SOURCE_MAX], err[200];
	const char *np[CF_PARTS_MAX] = {NULL};
	const struct cf_group *gp[CF_PARTS_MAX] = {NULL};
	struct fungeon_play_obstacle type;
	bool universal, dead[FUNGEON_PARTY_MAX];
	int resist;

	faced(c, parts, n, &type, &universal, &resist);
	for (int i = 0; i < n; i++) {
		fungeon_roll_part_name(c, &parts[i], names[i], sizeof(names[i]));
		pp[i] = part_of(c, parts, i, bonus, type.type);
	}
	if (fungeon_play_pain(inv->rng, c->m, pp, n, type.type, universal, resist, turn, o, err,
	                      sizeof(err)) < 0) {
		reply_line(out, RS_BAD, "%s", err);
		free(o);
		return;
	}
	for (int i = 0; i < n; i++) {
		char label[FUNGEON_LABEL_MAX];

		label_of(c, &parts[i], names[i], o->resisted[i], label, sizeof(label));
		/* Compact output: the rank table below shows every die, so the
		 * sides' dice are not listed above it too. */
		if (!rollchan_compact(inv->chan))
			fungeon_render_group_line(out, &o->roll.g[i], label, styles, NULL);
		np[i] = names[i];
		gp[i] = &o->roll.g[i];
	}
	fungeon_render_pain_table(out, np, gp, n, &o->res, styles, c);
	fungeon_channel_dead_before(c, dead);
	fungeon_play_pain_apply(c->m, pp, o);
	render(c, parts, n, (const char(*)[FUNGEON_SOURCE_MAX])names, o, out);
	for (int i = 0; i < n; i++)
		if (parts[i].kind != FGP_MEMBER)
			parts[i].s->hits = o->hits[i] < 0 ? 0 : o->hits[i];
	fungeon_channel_deaths(c, dead);
	fungeon_channel_lift_holds(c, out);
	fungeon_render_narration_lines(out, &o->nar, c, styles, NULL);
	free(o);
}
