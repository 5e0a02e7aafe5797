/* /fungeon annoy, find, trigger, pain: the conflicts, every player rolling
 * with their Thwack-O die. */
#include "commands/fungeon/cmd_fungeon_conflict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_pain.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/fungeon/fungeon_roll.h"
#include "commands/dice/rollchan.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

/* "Alba, Brom" for members idx[0..n) where sel[i] (or every one if sel is
 * NULL). */
static void
names_of(const struct fungeon_channel *c, const int *idx, const bool *sel, int n, struct buf *b)
{
	bool first = true;

	for (int i = 0; i < n; i++) {
		if (sel != NULL && !sel[i])
			continue;
		buf_addf(b, "%s%s", first ? "" : " ", c->m[idx[i]].name);
		first = false;
	}
}

/* The shared body of annoy and find: o against the members named. */
static void
annoy_conflict(struct invocation *inv, struct fungeon_channel *c,
               const struct fungeon_play_obstacle *o, int dice, const char *title, bool finding,
               struct fungeon_stored *trap, struct reply *out)
{
	int idx[FUNGEON_PARTY_MAX],
	    n = fungeon_channel_members_named(c, invocation_str(inv, "who"), idx, out), failed = 0;
	const char *bonus = invocation_str(inv, "bonus");
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	struct fungeon_play_annoy *a;
	struct buf b;

	if (n < 0 || fungeon_roll_annoy_check(c, o, dice, idx, n, bonus, out) < 0)
		return;
	fungeon_channel_styles(c, inv->state, styles);
	a = xcalloc(1, sizeof(*a));
	/* Compact output: the heading opens the obstacle's line. */
	rollchan_heading(inv->chan, out, "%s", title);
	if (fungeon_roll_annoy_play(inv, c, o, dice, idx, n, bonus, styles, a, out) < 0) {
		free(a);
		return;
	}
	if (trap != NULL) {
		trap->passed = true;
		trap->sprung = !trap->d.unlimited;
	}
	channel_touch(inv->chan);
	for (int i = 0; i < n; i++)
		failed += a->fails[i];
	buf_init(&b, 1000);
	if (finding) {
		reply_line(out, failed < n ? RS_GOOD : RS_BAD, "%s %s.", o->label,
		           failed < n ? "is found" : "stays hidden");
	} else if (failed > 0) {
		names_of(c, idx, a->fails, n, &b);
		if (o->pain > 0) {
			char who[1200];

			snprintf(who, sizeof(who), "%s %s", o->label, buf_str(&b));
			reply_add(out, RS_BAD, "Those who failed suffer it: ");
			reply_cmd(out, RS_BAD, "fungeon pain", "who", who, NULL);
			reply_nl(out);
		} else {
			reply_line(out, RS_BAD, "Failed: %s.", buf_str(&b));
		}
		if (o->hold || o->continuous)
			reply_line(out, 0,
			           "They now suffer continuous %s until one successful "
			           "Annoy roll.",
			           o->hold ? "hold" : "damage");
	} else {
		reply_line(out, RS_GOOD, "Everyone resists %s.", o->label);
	}
	if (trap != NULL && trap->sprung)
		reply_line(out, 0, "%s has sprung: it cannot be triggered or rolled against again.",
		           o->label);
	buf_free(&b);
	fungeon_render_narration_lines(out, &a->nar, c, styles, NULL);
	free(a);
}

/* Refuses a trap already sprung (one without Unlimited Use springs once). */
static int
trap_live(const struct fungeon_stored *s, struct reply *out)
{
	if (!s->sprung)
		return 0;
	reply_error(out,
	            "%s has already sprung; a trap without Unlimited Use springs once and "
	            "gives no more XP.",
	            s->name);
	return -1;
}

void
cmd_fungeon_conflict_annoy(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_part p;
	struct fungeon_play_obstacle o;
	char title[200];

	if (fungeon_roll_part_resolve(c, invocation_str(inv, "obstacle"), FGP_TRAP | FGP_ABILITY,
	                              &p, out) < 0)
		return;
	if (p.kind == FGP_TRAP && trap_live(p.s, out) < 0)
		return;
	fungeon_roll_obstacle_of(c, &p, inv, &o);
	snprintf(title, sizeof(title), "Annoying conflict: %s (%d Annoy dice%s)", o.label, o.annoy,
	         o.universal ? ", universal" : "");
	annoy_conflict(inv, c, &o, o.annoy, title, false, p.kind == FGP_TRAP ? p.s : NULL, out);
}

void
cmd_fungeon_conflict_find(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	struct fungeon_part p;
	struct fungeon_play_obstacle o;
	char title[200];

	if (fungeon_roll_part_resolve(c, invocation_str(inv, "trap"), FGP_TRAP, &p, out) < 0 ||
	    trap_live(p.s, out) < 0) /* a sprung trap is rolled against no more */
		return;
	fungeon_roll_obstacle_of(c, &p, inv, &o);
	o.hold = o.continuous = false; /* searching springs nothing */
	snprintf(title, sizeof(title), "Finding %s: Annoy rolls against %lld dice (its cost)",
	         o.label, (long long)p.s->cost);
	annoy_conflict(inv, c, &o, (int)(p.s->cost > CF_DICE_MAX ? CF_DICE_MAX + 1 : p.s->cost),
	               title, true, NULL, out);
}

void
cmd_fungeon_conflict_trigger(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int idx[FUNGEON_PARTY_MAX], n, hit = 0;
	const char *bon = invocation_str(inv, "bonus");
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	struct fungeon_play_trigger *t;
	struct fungeon_part p;
	bool b[FUNGEON_PARTY_MAX], fails[FUNGEON_PARTY_MAX];
	struct buf names;
	struct fungeon_play_obstacle o;
	char err[200];

	if (fungeon_roll_part_resolve(c, invocation_str(inv, "trap"), FGP_TRAP, &p, out) < 0 ||
	    (n = fungeon_channel_members_named(c, invocation_str(inv, "who"), idx, out)) < 0 ||
	    trap_live(p.s, out) < 0)
		return;
	fungeon_roll_obstacle_of(c, &p, inv, &o);
	if (fungeon_roll_annoy_check(c, &o, o.annoy, idx, n, bon, out) < 0)
		return;
	fungeon_channel_styles(c, inv->state, styles);
	fungeon_roll_bonus_flags(c, bon, idx, n, b);
	t = xcalloc(1, sizeof(*t));
	if (fungeon_play_trigger(inv->rng, c->m, idx, n, b, &o, p.s->d.unlimited, t, err,
	                         sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		free(t);
		return;
	}
	if (t->several) {
		reply_title(out,
		            "Triggering %s together: one die + level each, the highest avoids it",
		            o.label);
		for (int i = 0; i < n; i++) {
			const struct fungeon_member *m = &c->m[idx[i]];
			char suffix[80], label[80], whole[256];

			snprintf(suffix, sizeof(suffix), " + %d = %d, %s", t->bonus[i],
			         t->t.total[i], t->t.avoids[i] ? "avoids it" : "is caught");
			snprintf(whole, sizeof(whole), "%s (%s)", m->name, m->player);
			fungeon_render_fit_label(label, sizeof(label), whole);
			fungeon_render_group_line(out, &t->draw.g[i], label, styles, suffix);
		}
		fungeon_render_narration_lines(out, &t->draw_nar, c, styles, NULL);
	} else {
		rollchan_heading(inv->chan, out,
		                 "Triggering %s: an Annoy roll against its %d Annoy dice", o.label,
		                 o.annoy);
	}
	if (t->annoyed) {
		if (t->several)
			reply_line(out, 0, "Those caught roll against %s:", o.label);
		fungeon_render_annoy(out, c, &o, &t->annoy, styles);
	}
	fungeon_play_trigger_apply(c->m, t);
	p.s->passed = true;
	if (t->sprung)
		p.s->sprung = true;
	channel_touch(inv->chan);
	for (int i = 0; i < n; i++) {
		fails[i] = t->annoy_of[i] >= 0 && t->annoy.fails[t->annoy_of[i]];
		hit += fails[i];
	}
	buf_init(&names, 1000);
	names_of(c, idx, fails, n, &names);
	if (hit > 0 && o.pain > 0) {
		char who[1200];

		snprintf(who, sizeof(who), "%s %s", o.label, buf_str(&names));
		reply_add(out, RS_BAD, "Those who failed suffer it: ");
		reply_cmd(out, RS_BAD, "fungeon pain", "who", who, NULL);
		reply_nl(out);
	} else if (hit > 0) {
		reply_line(out, RS_BAD, "Failed: %s.", buf_str(&names));
	} else {
		reply_line(out, RS_GOOD, "Nobody is caught by %s.", o.label);
	}
	if (t->sprung)
		reply_line(out, 0, "%s has sprung: it cannot be triggered or rolled against again.",
		           o.label);
	buf_free(&names);
	if (t->annoyed)
		fungeon_render_narration_lines(out, &t->annoy.nar, c, styles, NULL);
	free(t);
}

void
cmd_fungeon_conflict_pain(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	char w[CF_PARTS_MAX][FUNGEON_NAME_MAX * 2 + 2];
	struct fungeon_part parts[CF_PARTS_MAX];
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	const char *bonus = invocation_str(inv, "bonus");
	int n = fungeon_channel_split_names(invocation_str(inv, "who"), w, CF_PARTS_MAX, out);

	if (n < 0)
		return;
	for (int i = 0; i < n; i++)
		if (fungeon_roll_part_resolve(c, w[i],
		                              FGP_MEMBER | FGP_TRAP | FGP_MONSTER | FGP_ABILITY,
		                              &parts[i], out) < 0)
			return;
	if (fungeon_pain_check(c, parts, n, bonus, out) < 0)
		return;
	fungeon_channel_styles(c, inv->state, styles);
	reply_title(out, "Painful conflict");
	fungeon_pain_run(inv, c, parts, n, bonus, styles, out);
	channel_touch(inv->chan);
}
