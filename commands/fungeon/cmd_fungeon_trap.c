/* /fungeon find, trigger, disarm: what Fungeoneers do with a room's trap
 * (rules/fungeon/fungeon_trap.h decides, this renders). */
#include "commands/fungeon/cmd_fungeon_trap.h"

#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "commands/dice/rollchan.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/fungeon_roll.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/fungeon/fungeon_trap.h"

/* The tie for highest among several who trigger a trap, re-rolled round
 * by round ("Tie at 8, re-rolled: Alba 3, Brom 5"), and who avoids it. */
static void
render_tie(struct reply *out, const struct fungeon_channel *c, const struct fungeon_trap_out *t,
           const struct thwacko_style *styles)
{
	int tied[FUNGEON_PARTY_MAX], nt = 0;

	for (int i = 0; i < t->n; i++)
		if (t->tied[i])
			tied[nt++] = i;
	if (nt == 0)
		return;
	for (int k = 0; k < t->tie.nrounds; k++) {
		bool first = true;

		for (int j = 0; j < nt; j++) {
			int at = k == 0 ? t->tie.value[j] : t->tie.round[k - 1][j];
			int mi = t->member[tied[j]];

			if (t->tie.group[k][j] == 0)
				continue;
			if (first)
				reply_add(out, 0, "Tie at %d, re-rolled: ", at);
			else
				reply_add(out, 0, ", ");
			first = false;
			reply_add(out, 0, "%s ", c->m[mi].name);
			reply_add_user(out, &styles[mi], RS_BOLD, "%d", t->tie.round[k][j]);
		}
		reply_nl(out);
	}
	for (int i = 0; i < t->n; i++)
		if (t->tied[i] && t->t.avoids[i])
			reply_line(out, 0, "%s avoids it.", c->m[t->member[i]].name);
}

/* The several who trigger it at once: one die + level each. */
static void
render_draw(struct reply *out, const struct fungeon_channel *c, const struct fungeon_trap_out *t,
            const struct thwacko_style *styles)
{
	reply_title(out, "Triggering %s together: one die + level each, the highest avoids it",
	            t->o.label);
	for (int i = 0; i < t->n; i++) {
		const struct fungeon_member *m = &c->m[t->member[i]];
		char suffix[80], label[FUNGEON_LABEL_MAX], whole[256];

		snprintf(suffix, sizeof(suffix), " + %d = %d, %s", t->level[i], t->t.total[i],
		         t->tied[i]       ? "tied for highest"
		         : t->t.avoids[i] ? "avoids it"
		                          : "is caught");
		snprintf(whole, sizeof(whole), "%s (%s)", m->name, m->player);
		fungeon_render_fit_label(label, sizeof(label), whole);
		fungeon_render_group_line(out, &t->draw.g[i], label, styles, suffix);
	}
	render_tie(out, c, t, styles);
	fungeon_render_narration_lines(out, &t->draw_nar, c, styles, NULL);
}

/* One failer's Pain roll against the trap. */
static void
render_pain(struct reply *out, const struct fungeon_channel *c, const struct fungeon_trap_out *t,
            const struct fungeon_trap_pain *p, const struct thwacko_style *styles, bool compact)
{
	const struct fungeon_member *m = &c->m[p->member];
	const char *names[2] = {m->name, t->o.label};
	const struct cf_group *g[2] = {&p->roll.roll.g[0], &p->roll.roll.g[1]};
	char label[FUNGEON_LABEL_MAX], whole[256];

	reply_line(out, RS_ITALIC, "%s's Pain roll against %s (%d Pain %s%s):", m->name, t->o.label,
	           t->o.pain, fungeon_channel_dice_word(t->o.pain),
	           t->o.universal ? ", universal" : "");
	snprintf(whole, sizeof(whole), "%s (%s)", m->name, m->player);
	fungeon_render_fit_label(label, sizeof(label), whole);
	if (!compact) { /* compact: the rank table below shows every die */
		fungeon_render_group_line(out, g[0], label, styles, NULL);
		fungeon_render_group_line(out, g[1], t->o.label, styles, NULL);
	}
	fungeon_render_pain_table(out, names, g, 2, &p->roll.res, styles, c);
	reply_add(out, 0, "%s takes %d: %d/%d hits.", m->name, p->roll.res.taken[0], m->hits,
	          fungeon_max_hits(m->level));
	if (p->roll.died[0])
		fungeon_render_death(out, c, m, "stays here to plunder");
	reply_nl(out);
	fungeon_render_narration_lines(out, &p->roll.nar, c, styles, NULL);
}

/* What became of the trap and those who faced it. */
static void
render_end(struct reply *out, const struct fungeon_channel *c, const struct fungeon_trap_out *t)
{
	const char *name = t->o.label;

	for (int i = 0; i < t->n; i++) {
		int g = t->annoy_of[i];

		if (g >= 0 && t->annoy.capped[g])
			reply_line(out, RS_BAD, "%s's XP is at the most the bot can count.",
			           c->m[t->member[i]].name);
	}
	switch (t->act) {
	case FUNGEON_TRAP_SEARCH:
		if (t->state == FUNGEON_TRAP_FOUND)
			reply_line(out, RS_GOOD, "%s is found: it is not triggered.", name);
		else
			reply_line(out, 0,
			           "Nothing is found: blissful ignorance. Those who failed may "
			           "not search for it again.");
		return;
	case FUNGEON_TRAP_DISARM:
		if (t->state == FUNGEON_TRAP_DISARMED) {
			reply_line(out, RS_GOOD, "%s is disarmed; it springs no more.", name);
			return;
		}
		reply_line(out, RS_BAD, "The disarming fails, and %s springs.", name);
		break;
	case FUNGEON_TRAP_TRIGGER: {
		int failed = 0;

		for (int g = 0; t->annoyed && g < t->annoy.n; g++)
			failed += t->annoy.fails[g];
		if (!t->annoyed)
			reply_line(out, RS_GOOD, "Nobody is caught by %s.", name);
		else if (failed == 0)
			reply_line(out, RS_GOOD, "%s is sidestepped.", name);
		else if (t->o.pain == 0)
			reply_line(out, RS_BAD, "%s springs, but it has no Pain dice to roll.",
			           name);
		break;
	}
	}
	if (t->o.continuous && t->annoyed) {
		for (int i = 0; i < t->n; i++) {
			int g = t->annoy_of[i];
			const struct fungeon_member *m = &c->m[t->member[i]];

			if (g >= 0 && t->annoy.fails[g] && !m->dead && t->annoy.full[g])
				fungeon_render_effect_full(out, m, name);
			else if (g >= 0 && t->annoy.fails[g] && !m->dead)
				reply_line(
				    out, RS_BAD,
				    "%s suffers %s's continuous damage: rolled again in each "
				    "hallway until one successful Annoy roll.",
				    m->name, name);
		}
	}
	if (t->state == FUNGEON_TRAP_SPRUNG)
		reply_line(out, 0, "%s has sprung: without Unlimited Use it springs no more.",
		           name);
	else if (t->state == FUNGEON_TRAP_FOUND)
		reply_line(out, 0, "%s has Unlimited Use: it can be triggered again.", name);
}

/* Leaves out of idx[0..n) the held (who may not act, line 175) when the
 * list is a default (everyone in the room), so long as someone is left,
 * saying in a line of out who was left out; a held one named, or every
 * one of a default, is refused, naming each held one. Returns how many
 * are left, or -1 with an error. */
static int
free_of_holds(const struct fungeon_channel *c, const struct fungeon_piece *trap, bool by_default,
              int *idx, int n, struct reply *out)
{
	int k = 0;
	struct buf b;

	if (!by_default)
		return fungeon_rights_need_all_free(c, idx, n, out) ? n : -1;
	buf_init(&b, 1024);
	if (fungeon_rights_held_clause(c, idx, n, &b) == 0) {
		buf_free(&b);
		return n;
	}
	for (int i = 0; i < n; i++)
		if (fungeon_rights_held_by(c, idx[i]) == NULL)
			idx[k++] = idx[i];
	if (k > 0) {
		reply_line(out, 0, "Left out: %s and may not act.", buf_str(&b));
	} else {
		reply_error(out,
		            "Nobody in room %lld is free to face %s: %s and may not act until %s (",
		            (long long)c->d.room.number, trap->name, buf_str(&b),
		            n == 1 ? "a roll in a combat turn breaks the hold"
		                   : "rolls in combat turns break the holds");
		reply_cmd(out, RS_BAD, "fungeon combat", NULL);
		reply_add(out, RS_BAD, ").");
		k = -1;
	}
	buf_free(&b);
	return k;
}

/* Whether who is the one word all (any case): everyone in the room. */
static bool
names_all(const char *who)
{
	char w[2][FUNGEON_NAME_MAX * 2 + 2];

	return who != NULL && fungeon_channel_split_names(who, w, 2, NULL) == 1 &&
	       !strcasecmp(w[0], "all");
}

/* Refuses a bare trigger by one who may name others (the trap's maker,
 * the GM) while a Fungeoneer other than their own, not held, is in the room: a trap
 * springs by a Fungeoneer's own action, which its maker announces by
 * naming whose. Returns whether it refused. */
static bool
bare_trigger_ambiguous(const struct fungeon_channel *c, const struct fungeon_piece *trap, int me,
                       struct reply *out)
{
	int idx[FUNGEON_PARTY_MAX], n = fungeon_channel_members_named(c, NULL, idx, NULL);

	for (int i = 0; i < n; i++) {
		if (idx[i] == me || fungeon_rights_held_by(c, idx[i]) != NULL)
			continue; /* the held may not act: no action of theirs springs it */
		reply_error(out,
		            "A trap springs by a Fungeoneer's own action, so name whose action "
		            "sprang %s (",
		            trap->name);
		reply_cmd(out, RS_BAD, "fungeon trigger", "trap", trap->name, "who", "NAME", NULL);
		reply_add(out, RS_BAD,
		          ", or all when everyone in the room sprang it, as across a "
		          "footplate).");
		return true;
	}
	return false;
}

/* Who faces the trap: those named, or by default the invoker's own
 * Fungeoneer (for the GM searching, everyone in the room). Each player
 * decides for their own; the trap's maker announces whose action sprang
 * it (naming them, or all), and the GM may for anyone, but neither
 * triggers it on others without naming them. Returns how many, or -1 with
 * an error. */
static int
facing(struct invocation *inv, const struct fungeon_channel *c, enum fungeon_trap_act act,
       const struct fungeon_piece *trap, int *idx, struct reply *out)
{
	const char *who = invocation_str(inv, "who");
	int me = fungeon_channel_member_of(c, inv->from->user_key), n;
	bool maker = fungeon_rights_in_play(c, me) && !strcmp(c->m[me].user_key, trap->maker);
	bool anyone = inv->is_gm || (act == FUNGEON_TRAP_TRIGGER && maker);
	bool all = names_all(who);

	if (all && !anyone) {
		reply_error(out,
		            "Only %s's maker (with /fungeon trigger) or the GM may say that "
		            "everyone in the room faces it; each player %s with their own "
		            "Fungeoneer.",
		            trap->name,
		            act == FUNGEON_TRAP_TRIGGER  ? "triggers it"
		            : act == FUNGEON_TRAP_DISARM ? "disarms it"
		                                         : "searches");
		return -1;
	}
	if (who == NULL && act == FUNGEON_TRAP_TRIGGER && anyone &&
	    bare_trigger_ambiguous(c, trap, me, out))
		return -1;
	if (who == NULL && (act != FUNGEON_TRAP_SEARCH || !anyone)) {
		idx[0] = fungeon_channel_need_self(c, inv, out);
		if (idx[0] < 0 || !fungeon_rights_need_in_play(c, idx[0], out) ||
		    !fungeon_rights_need_free(c, idx[0], out))
			return -1;
		return 1;
	}
	n = fungeon_channel_members_named(c, all ? NULL : who, idx, out);
	for (int i = 0; i < n; i++)
		if (!fungeon_rights_need_in_play(c, idx[i], out))
			return -1;
	for (int i = 0; i < n && !anyone; i++) {
		if (idx[i] == me)
			continue;
		if (act == FUNGEON_TRAP_TRIGGER)
			reply_error(
			    out,
			    "%s is %s's Fungeoneer, and each player decides for their own "
			    "(the Traps player says who stumbles into their trap; the GM may "
			    "for anyone).",
			    c->m[idx[i]].name, c->m[idx[i]].player);
		else /* the Traps player too: their right is only to trigger */
			reply_error(
			    out,
			    "%s is %s's Fungeoneer, and each player %s for their own (the "
			    "Traps player names who stumbles in only with /fungeon trigger; "
			    "the GM may for anyone).",
			    c->m[idx[i]].name, c->m[idx[i]].player,
			    act == FUNGEON_TRAP_DISARM ? "disarms" : "searches");
		return -1;
	}
	return free_of_holds(c, trap, who == NULL || all, idx, n, out);
}

/* The line by which the trap's maker (or the GM) announces whose action
 * sprang it, when they named a Fungeoneer not their own. */
static void
render_announce(struct reply *out, const struct fungeon_channel *c, struct invocation *inv,
                const struct fungeon_piece *trap, const int *idx, int n)
{
	int me = fungeon_channel_member_of(c, inv->from->user_key);
	bool others = false;

	for (int i = 0; i < n; i++)
		others |= idx[i] != me;
	if (!others || invocation_str(inv, "who") == NULL)
		return;
	if (me >= 0 && !strcmp(c->m[me].user_key, trap->maker))
		reply_add(out, 0, "%s, who made %s, announces it sprung by ", c->m[me].player,
		          trap->name);
	else
		reply_add(out, 0, "The GM announces %s sprung by ", trap->name);
	for (int i = 0; i < n; i++)
		reply_add(out, 0, "%s%s", reply_list_sep((size_t)i, (size_t)n, " and "),
		          c->m[idx[i]].name);
	reply_add(out, 0, "%s.", n > 1 ? ", at the same time" : "");
	reply_nl(out);
}

static void
trap_cmd(struct invocation *inv, struct reply *out, enum fungeon_trap_act act)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int idx[FUNGEON_PARTY_MAX], n, roller;
	const char *bonus = invocation_str(inv, "bonus");
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	struct fungeon_trap_out *t;
	struct fungeon_part p;
	bool b[FUNGEON_PARTY_MAX], dead[FUNGEON_PARTY_MAX];
	char err[300];

	if (!fungeon_channel_may(c, FUNGEON_ACT_TRAP, out) ||
	    !fungeon_rights_need_invoker_in_play(c, inv, out) ||
	    fungeon_roll_part_resolve(c, invocation_str(inv, "trap"), FGP_TRAP, &p, out) < 0 ||
	    fungeon_channel_bonus_check(c, bonus, out) < 0)
		return;
	if ((n = facing(inv, c, act, p.s, idx, out)) < 0)
		return;
	if (fungeon_trap_check(p.s, act, c->m, idx, n, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		return;
	}
	fungeon_channel_styles(c, inv->state, styles);
	fungeon_roll_bonus_flags(c, bonus, p.s->d.universal ? "" : p.s->d.type, idx, n, b);
	roller = fungeon_rights_roller(c, p.s->maker);
	t = xcalloc(1, sizeof(*t));
	if (fungeon_trap_play(inv->rng, c->m, idx, n, b, p.s, roller, act, t, err, sizeof(err)) <
	    0) {
		reply_error(out, "%s", err);
		free(t);
		return;
	}
	fungeon_channel_dead_before(c, dead);
	fungeon_trap_apply(c->m, p.s, t);
	channel_touch(inv->chan);
	if (act == FUNGEON_TRAP_TRIGGER)
		render_announce(out, c, inv, p.s, idx, n);
	if (t->several)
		render_draw(out, c, t, styles);
	if (t->annoyed) {
		if (t->several)
			reply_line(out, 0, "Those caught roll against %s:", t->o.label);
		else if (act == FUNGEON_TRAP_SEARCH)
			rollchan_heading(inv->chan, out,
			                 "Searching for %s: Annoy rolls against %lld %s (its cost)",
			                 t->o.label, (long long)p.s->cost,
			                 fungeon_channel_dice_word(p.s->cost));
		else
			rollchan_heading(
			    inv->chan, out, "%s %s: an Annoy roll against its %d Annoy %s",
			    act == FUNGEON_TRAP_DISARM ? "Disarming" : "Triggering", t->o.label,
			    t->o.annoy, fungeon_channel_dice_word(t->o.annoy));
		fungeon_render_annoy(out, c, &t->o, &t->annoy, styles);
		fungeon_render_narration_lines(out, &t->annoy.nar, c, styles, NULL);
	}
	for (int k = 0; k < t->npain; k++)
		render_pain(out, c, t, &t->pain[k], styles, rollchan_compact(inv->chan));
	render_end(out, c, t);
	fungeon_channel_deaths(c, dead); /* after: it moves the room's treasure */
	free(t);
}

void
cmd_fungeon_trap_find(struct invocation *inv, struct reply *out)
{
	trap_cmd(inv, out, FUNGEON_TRAP_SEARCH);
}

void
cmd_fungeon_trap_trigger(struct invocation *inv, struct reply *out)
{
	trap_cmd(inv, out, FUNGEON_TRAP_TRIGGER);
}

void
cmd_fungeon_trap_disarm(struct invocation *inv, struct reply *out)
{
	trap_cmd(inv, out, FUNGEON_TRAP_DISARM);
}
