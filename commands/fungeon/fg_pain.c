/* fg_pain: Painful conflicts among Fungeoneers, traps and monsters (shared
 * by /fungeon pain and /fungeon combat); see fungeon.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/fungeon.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

void
fg_pain_table(struct reply *out, const char *const *names, const struct cf_group *const *g, int n,
              const struct cf_pain *res, const struct ustyle *styles, const struct fg_chan *c)
{
	const char *hdr[CF_PARTS_MAX + 3];
	char cells[CF_PARTS_MAX + 3][FG_SOURCE_MAX + 32];
	const char *row[CF_PARTS_MAX + 3];

	hdr[0] = "rank";
	for (int i = 0; i < n; i++)
		hdr[i + 1] = names[i];
	hdr[n + 1] = "winner";
	hdr[n + 2] = "damage";
	reply_table(out, n + 3, hdr);
	for (int k = 0; k < res->nranks; k++) {
		const struct cf_pain_rank *rk = &res->rank[k];

		snprintf(cells[0], sizeof(cells[0]), "%d", k + 1);
		for (int i = 0; i < n; i++) {
			bool thw = k == g[i]->thwacko && g[i]->player >= 0 && g[i]->player < c->n;

			snprintf(cells[i + 1], sizeof(cells[i + 1]), "%s%d",
			         thw ? styles[g[i]->player].mark : "", rk->value[i]);
		}
		snprintf(cells[n + 1], sizeof(cells[n + 1]), "%s",
		         rk->winner < 0 ? "tie" : names[rk->winner]);
		if (rk->winner < 0)
			snprintf(cells[n + 2], sizeof(cells[n + 2]), "0 (tie)");
		else if (rk->target < 0)
			snprintf(cells[n + 2], sizeof(cells[n + 2]), "0 (no one it can hurt)");
		else
			snprintf(cells[n + 2], sizeof(cells[n + 2]), "1 → %s", names[rk->target]);
		for (int i = 0; i < n + 3; i++)
			row[i] = cells[i];
		reply_row(out, false, row);
		for (int i = 0; i < n; i++)
			if (k == g[i]->thwacko && g[i]->player >= 0 && g[i]->player < c->n)
				reply_cell_user(out, i + 1, &styles[g[i]->player]);
	}
}

/* Whether any member taking part carries magic matching `type`. */
static bool
magic_among(const struct fg_chan *c, const struct fg_part *parts, int n, const char *type)
{
	for (int i = 0; i < n; i++) {
		const struct fg_member *m;

		if (parts[i].kind != FGP_MEMBER)
			continue;
		m = &c->m[parts[i].member];
		for (int k = 0; k < m->nitems; k++)
			if ((m->items[k].d.annoy || m->items[k].d.pain) &&
			    fg_item_matches(&m->items[k].d, type))
				return true;
	}
	return false;
}

/* The Pain dice participant i rolls. Fungeoneers face the opposition's
 * damage: universal if any opponent deals universal damage (monsters'
 * attacks always do), of the first typed opponent's type otherwise. */
static int
pain_dice(const struct fg_chan *c, const struct fg_part *parts, int n, int i, const char *bonus)
{
	const struct fg_part *p = &parts[i];

	if (p->kind == FGP_MEMBER) {
		const char *type = "";
		bool universal = false;

		for (int k = 0; k < n; k++) {
			struct fg_obstacle o;

			if (parts[k].kind == FGP_MEMBER)
				continue;
			fg_obstacle_of(c, &parts[k], NULL, &o);
			universal |= o.universal;
			if (!type[0] && o.type[0])
				type = o.type;
		}
		return fg_pain_dice(&c->m[p->member], fg_bonus_for(c, bonus, p->member), type,
		                    universal, NULL);
	}
	if (p->kind == FGP_MONSTER) {
		int dice = p->s->d.level;

		for (int a = 0; a < p->s->d.nab; a++)
			if (p->s->d.ab[a].resist &&
			    magic_among(c, parts, n, p->s->d.ab[a].resist_type))
				dice += p->s->d.ab[a].resist;
		return dice;
	}
	if (p->kind == FGP_ABILITY)
		return p->s->d.ab[p->ability].pain ? p->s->d.level + p->s->d.ab[p->ability].pain
		                                   : 0;
	return p->s->d.pain;
}

static bool
same_part(const struct fg_part *a, const struct fg_part *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == FGP_MEMBER)
		return a->member == b->member;
	return a->s == b->s && (a->kind != FGP_ABILITY || a->ability == b->ability);
}

static int
find_target(const struct fg_chan *c, struct fg_part *parts, int n, int i, struct reply *out)
{
	char name[FG_SOURCE_MAX];

	for (int k = 0; k < n; k++) {
		bool named = !strcasecmp(fg_part_name(c, &parts[k], name, sizeof(name)),
		                         parts[i].target_name) ||
		             (parts[k].kind == FGP_MEMBER &&
		              !strcasecmp(c->m[parts[k].member].player, parts[i].target_name));

		if (!named)
			continue;
		if ((parts[k].kind == FGP_MEMBER) == (parts[i].kind == FGP_MEMBER)) {
			reply_error(out, "%s cannot target %s: they are on the same side.",
			            fg_part_name(c, &parts[i], name, sizeof(name)),
			            parts[i].target_name);
			return -1;
		}
		parts[i].target = k;
		return 0;
	}
	reply_error(out,
	            "%s targets '%.40s', who is not in this conflict; a target must be "
	            "named among the participants.",
	            fg_part_name(c, &parts[i], name, sizeof(name)), parts[i].target_name);
	return -1;
}

static int
check_one(const struct fg_chan *c, const struct fg_part *p, struct reply *out)
{
	char name[FG_SOURCE_MAX];

	fg_part_name(c, p, name, sizeof(name));
	if (p->kind == FGP_MEMBER && c->m[p->member].dead) {
		reply_error(out,
		            "%s is dead and rolls no more; %s makes a new Fungeoneer in the "
		            "hallway.",
		            name, c->m[p->member].player);
		return -1;
	}
	if (p->kind == FGP_MONSTER && p->s->hits <= 0) {
		reply_error(out, "%s is already defeated; name a monster with hits left.", name);
		return -1;
	}
	if ((p->kind == FGP_TRAP && p->s->d.pain < 1) ||
	    (p->kind == FGP_ABILITY && p->s->d.ab[p->ability].pain < 1)) {
		reply_error(out, "%s has no Pain dice, so it takes no part in a Painful conflict.",
		            name);
		return -1;
	}
	return 0;
}

int
fg_pain_check(struct fg_chan *c, struct fg_part *parts, int n, const char *bonus, struct reply *out)
{
	struct fg_part sorted[CF_PARTS_MAX];
	int members = 0, k = 0;

	if (n < 2 || n > CF_PARTS_MAX) {
		reply_error(out, "A Painful conflict takes 2 to %d participants (got %d).",
		            CF_PARTS_MAX, n);
		return -1;
	}
	if (fg_bonus_check(c, bonus, out) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char name[FG_SOURCE_MAX];

		for (int j = 0; j < i; j++) {
			if (same_part(&parts[i], &parts[j])) {
				reply_error(out, "%s is named twice; name each participant once.",
				            fg_part_name(c, &parts[i], name, sizeof(name)));
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
		            "trap or monster on the other.");
		return -1;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			if ((parts[i].kind == FGP_MEMBER) == (pass == 0))
				sorted[k++] = parts[i];
	memcpy(parts, sorted, (size_t)n * sizeof(parts[0]));
	for (int i = 0; i < n; i++) {
		char name[FG_SOURCE_MAX];
		int d = pain_dice(c, parts, n, i, bonus);

		if (parts[i].target_name[0] && find_target(c, parts, n, i, out) < 0)
			return -1;
		if (d > CF_DICE_MAX) {
			reply_error(out,
			            "%s would roll %d dice; a participant rolls at most %d dice.",
			            fg_part_name(c, &parts[i], name, sizeof(name)), d, CF_DICE_MAX);
			return -1;
		}
	}
	return 0;
}

/* Applies the outcome to hits, deaths and XP, and says it. */
static void
apply(struct fg_chan *c, struct fg_part *parts, int n, const char names[][FG_SOURCE_MAX],
      const struct cf_pain *res, struct reply *out)
{
	int64_t xp[CF_PARTS_MAX] = {0};

	for (int k = 0; k < res->nranks; k++) {
		const struct cf_pain_rank *rk = &res->rank[k];

		if (rk->winner >= 0 && rk->target >= 0 && parts[rk->winner].kind == FGP_MEMBER &&
		    parts[rk->target].kind == FGP_MONSTER)
			xp[rk->winner] += parts[rk->target].s->cost;
	}
	for (int i = 0; i < n; i++) {
		struct fg_part *p = &parts[i];

		reply_add(out, RS_BOLD, "%s", names[i]);
		reply_add(out, 0, " deals %d", res->dealt[i]);
		if (p->kind == FGP_TRAP || p->kind == FGP_ABILITY) {
			reply_add(out, 0, ".");
			reply_nl(out);
			continue;
		}
		reply_add(out, 0, " and takes %d: ", res->taken[i]);
		if (p->kind == FGP_MEMBER) {
			struct fg_member *m = &c->m[p->member];
			bool died = fg_damage(m, res->taken[i]);

			fg_add_xp(m, xp[i]);
			reply_add(out, 0, "%d/%d hits", m->hits, fg_max_hits(m->level));
			if (xp[i] > 0)
				reply_add(out, RS_GOOD, ", +%lld XP", (long long)xp[i]);
			reply_add(out, 0, ".");
			if (died)
				reply_add(out, RS_BAD | RS_BOLD,
				          " %s dies! %s makes a new Fungeoneer at level %d in the "
				          "hallway.",
				          m->name, m->player,
				          fg_replacement_level(fgchan_floor(c)));
		} else {
			p->s->hits = res->hits[i] < 0 ? 0 : res->hits[i];
			reply_add(out, 0, "%d/%d hits.", p->s->hits,
			          fg_monster_hits(p->s->d.level));
			if (p->s->hits == 0)
				reply_add(out, RS_GOOD | RS_BOLD, " %s is defeated!", names[i]);
		}
		reply_nl(out);
	}
}

void
fg_pain_run(struct invocation *inv, struct fg_chan *c, struct fg_part *parts, int n,
            const char *bonus, const struct ustyle *styles, struct reply *out)
{
	struct fgroll *fr = xcalloc(1, sizeof(*fr));
	struct cf_pain *res = xmalloc(sizeof(*res));
	struct cf_pain_part pp[CF_PARTS_MAX];
	char names[CF_PARTS_MAX][FG_SOURCE_MAX];
	const char *np[CF_PARTS_MAX] = {NULL};
	const struct cf_group *gp[CF_PARTS_MAX] = {NULL};

	for (int i = 0; i < n; i++) {
		int cat = fg_part_category(&parts[i]);
		int player = cat < 0 ? parts[i].member : fgchan_roller(c, cat, inv);

		fg_part_name(c, &parts[i], names[i], sizeof(names[i]));
		if (parts[i].kind == FGP_MEMBER)
			fgroll_add(fr, player, pain_dice(c, parts, n, i, bonus), out, "%s (%s)",
			           names[i], c->m[parts[i].member].player);
		else
			fgroll_add(fr, player, pain_dice(c, parts, n, i, bonus), out, "%s",
			           names[i]);
	}
	conflict_roll(inv->rng, &fr->r, FG_DIE);
	for (int i = 0; i < n; i++) {
		struct fg_part *p = &parts[i];

		conflict_sort(&fr->r.g[i]);
		fgroll_line(out, fr, i, styles, NULL);
		pp[i].g = &fr->r.g[i];
		pp[i].side = p->kind == FGP_MEMBER ? 0 : 1;
		pp[i].hits = p->kind == FGP_MEMBER    ? c->m[p->member].hits
		             : p->kind == FGP_MONSTER ? p->s->hits
		                                      : -1;
		pp[i].target = p->target;
		np[i] = names[i];
		gp[i] = &fr->r.g[i];
	}
	conflict_pain(pp, n, res);
	fg_pain_table(out, np, gp, n, res, styles, c);
	apply(c, parts, n, (const char(*)[FG_SOURCE_MAX])names, res, out);
	fgroll_narrate(out, inv->rng, fr, c, styles, NULL);
	free(res);
	free(fr);
}
