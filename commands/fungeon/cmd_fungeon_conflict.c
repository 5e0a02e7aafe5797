/* /fungeon annoy, find, trigger, pain: the conflicts, every player rolling
 * with their Thwack-O die. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/fungeon/fungeon.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

/* "Alba, Brom" for members idx[0..n) where sel[i] (or every one if sel is
 * NULL). */
static void
names_of(const struct fg_chan *c, const int *idx, const bool *sel, int n, struct buf *b)
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
annoy_conflict(struct invocation *inv, struct fg_chan *c, const struct fg_obstacle *o, int dice,
               const char *title, bool finding, struct reply *out)
{
	int idx[FG_PARTY_MAX], n = fg_members_named(c, inv_str(inv, "who"), idx, out), failed = 0;
	const char *bonus = inv_str(inv, "bonus");
	struct ustyle styles[FG_PARTY_MAX];
	bool fails[FG_PARTY_MAX];
	struct fgroll *fr;
	struct buf b;

	if (n < 0 || fg_annoy_check(c, o, dice, idx, n, bonus, out) < 0)
		return;
	fgchan_styles(c, inv->state, styles);
	fr = xcalloc(1, sizeof(*fr));
	reply_title(out, "%s", title);
	fg_annoy_run(inv, c, o, dice, idx, n, bonus, styles, fails, fr, out);
	channel_touch(inv->chan);
	for (int i = 0; i < n; i++)
		failed += fails[i];
	buf_init(&b, 1000);
	if (finding) {
		reply_line(out, failed < n ? RS_GOOD : RS_BAD, "%s %s.", o->label,
		           failed < n ? "is found" : "stays hidden");
	} else if (failed > 0) {
		names_of(c, idx, fails, n, &b);
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
	buf_free(&b);
	fgroll_narrate(out, inv->rng, fr, c, styles, NULL);
	free(fr);
}

void
fg_annoy(struct invocation *inv, struct reply *out)
{
	struct fg_chan *c = fgchan(inv);
	struct fg_part p;
	struct fg_obstacle o;
	char title[200];

	if (fg_part_resolve(c, inv_str(inv, "obstacle"), FGP_TRAP | FGP_ABILITY, &p, out) < 0)
		return;
	fg_obstacle_of(c, &p, inv, &o);
	snprintf(title, sizeof(title), "Annoying conflict: %s (%d Annoy dice%s)", o.label, o.annoy,
	         o.universal ? ", universal" : "");
	annoy_conflict(inv, c, &o, o.annoy, title, false, out);
}

void
fg_find(struct invocation *inv, struct reply *out)
{
	struct fg_chan *c = fgchan(inv);
	struct fg_part p;
	struct fg_obstacle o;
	char title[200];

	if (fg_part_resolve(c, inv_str(inv, "trap"), FGP_TRAP, &p, out) < 0)
		return;
	fg_obstacle_of(c, &p, inv, &o);
	o.hold = o.continuous = false; /* searching springs nothing */
	snprintf(title, sizeof(title), "Finding %s: Annoy rolls against %lld dice (its cost)",
	         o.label, (long long)p.s->cost);
	annoy_conflict(inv, c, &o, (int)(p.s->cost > CF_DICE_MAX ? CF_DICE_MAX + 1 : p.s->cost),
	               title, true, out);
}

void
fg_trigger(struct invocation *inv, struct reply *out)
{
	struct fg_chan *c = fgchan(inv);
	int idx[FG_PARTY_MAX], n, bonus[CF_GROUPS_MAX], hit = 0;
	const char *bon = inv_str(inv, "bonus");
	struct ustyle styles[FG_PARTY_MAX];
	struct cf_trigger t;
	struct fgroll *fr;
	struct fg_part p;
	bool fails[FG_PARTY_MAX];
	struct buf b;
	struct fg_obstacle o;

	if (fg_part_resolve(c, inv_str(inv, "trap"), FGP_TRAP, &p, out) < 0 ||
	    (n = fg_members_named(c, inv_str(inv, "who"), idx, out)) < 0)
		return;
	fg_obstacle_of(c, &p, inv, &o);
	o.hold = o.continuous = false;
	if (fg_annoy_check(c, &o, 1, idx, n, bon, out) < 0)
		return;
	fgchan_styles(c, inv->state, styles);
	fr = xcalloc(1, sizeof(*fr));
	for (int i = 0; i < n; i++) {
		const struct fg_member *m = &c->m[idx[i]];

		bonus[i] = m->level + (fg_bonus_for(c, bon, idx[i]) ? fg_class_bonus(m->level) : 0);
		fgroll_add(fr, idx[i], 1, out, "%s (%s)", m->name, m->player);
	}
	conflict_roll(inv->rng, &fr->r, FG_DIE);
	conflict_trigger(&fr->r, bonus, &t);
	reply_title(out, "Triggering %s: one die + level each, the highest avoids it", o.label);
	for (int i = 0; i < n; i++) {
		char suffix[80];

		fails[i] = !t.avoids[i];
		hit += fails[i];
		snprintf(suffix, sizeof(suffix), " + %d = %d, %s", bonus[i], t.total[i],
		         t.avoids[i] ? "avoids it" : "is caught");
		fgroll_line(out, fr, i, styles, suffix);
	}
	buf_init(&b, 1000);
	names_of(c, idx, fails, n, &b);
	if (hit > 0) {
		reply_add(out, RS_BAD, "Caught, they must resist it: ");
		reply_cmd(out, RS_BAD, "fungeon annoy", "obstacle", o.label, "who", buf_str(&b),
		          NULL);
		reply_nl(out);
	}
	buf_free(&b);
	fgroll_narrate(out, inv->rng, fr, c, styles, NULL);
	free(fr);
}

void
fg_pain(struct invocation *inv, struct reply *out)
{
	struct fg_chan *c = fgchan(inv);
	char w[CF_PARTS_MAX][FG_NAME_MAX * 2 + 2];
	struct fg_part parts[CF_PARTS_MAX];
	struct ustyle styles[FG_PARTY_MAX];
	const char *bonus = inv_str(inv, "bonus");
	int n = fg_split_names(inv_str(inv, "who"), w, CF_PARTS_MAX, out);

	if (n < 0)
		return;
	for (int i = 0; i < n; i++)
		if (fg_part_resolve(c, w[i], FGP_MEMBER | FGP_TRAP | FGP_MONSTER | FGP_ABILITY,
		                    &parts[i], out) < 0)
			return;
	if (fg_pain_check(c, parts, n, bonus, out) < 0)
		return;
	fgchan_styles(c, inv->state, styles);
	reply_title(out, "Painful conflict");
	fg_pain_run(inv, c, parts, n, bonus, styles, out);
	channel_touch(inv->chan);
}
