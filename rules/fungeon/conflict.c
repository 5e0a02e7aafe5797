/* conflict: Fungeon dice mechanics; see conflict.h. */
#include "rules/fungeon/conflict.h"

#include <string.h>

#include "rules/base/rng.h"

void
conflict_place_thwacko(struct cf_roll *r)
{
	bool placed[CF_PLAYERS_MAX] = {false};

	for (int i = 0; i < r->ng; i++) {
		struct cf_group *g = &r->g[i];

		g->thwacko = -1;
		if (g->player < 0 || g->player >= CF_PLAYERS_MAX || g->n < 1 || placed[g->player])
			continue;
		g->thwacko = 0;
		placed[g->player] = true;
	}
}

void
conflict_roll(struct rng *rng, struct cf_roll *r, int sides)
{
	for (int i = 0; i < r->ng; i++)
		for (int k = 0; k < r->g[i].n; k++)
			r->g[i].v[k] = (int)rng_die(rng, sides);
	conflict_place_thwacko(r);
}

int
conflict_highest(const struct cf_group *g)
{
	int best = 0;

	for (int k = 0; k < g->n; k++)
		if (g->v[k] > best)
			best = g->v[k];
	return best;
}

void
conflict_sort(struct cf_group *g)
{
	int tv = g->thwacko >= 0 ? g->v[g->thwacko] : 0;

	for (int i = 1; i < g->n; i++) {
		int x = g->v[i], j = i;

		while (j > 0 && g->v[j - 1] < x) {
			g->v[j] = g->v[j - 1];
			j--;
		}
		g->v[j] = x;
	}
	if (g->thwacko < 0)
		return;
	for (int i = 0; i < g->n; i++) {
		if (g->v[i] == tv) {
			g->thwacko = i;
			break;
		}
	}
}

/* Whether a's keys (rounds 0..depth) beat b's: higher at the first
 * difference. Equal keys compare false both ways. */
static int
key_cmp(const int key[][CF_ROUNDS_MAX + 1], int a, int b, int depth)
{
	for (int k = 0; k <= depth; k++)
		if (key[a][k] != key[b][k])
			return key[a][k] > key[b][k] ? -1 : 1;
	return 0;
}

/*
 * The shared tie-breaker: orders the `in` players by their keys, re-rolling
 * the tied groups that begin within the first `upto` places until no such
 * tie is left or CF_ROUNDS_MAX rounds were rolled. order receives the
 * indices best first; round the re-rolls; group (when not NULL) each
 * re-roller's group, numbered from the best placed.
 */
static int
break_ties(struct rng *rng, const int *values, const bool *in, int n, int sides, int upto,
           int *order, int round[][CF_PLAYERS_MAX], int group[][CF_PLAYERS_MAX])
{
	int key[CF_PLAYERS_MAX][CF_ROUNDS_MAX + 1];
	int m = 0, depth = 0;

	memset(key, 0, sizeof(key));
	for (int i = 0; i < n; i++) {
		if (!in[i])
			continue;
		key[i][0] = values[i];
		order[m++] = i;
	}
	for (;;) {
		int tied[CF_PLAYERS_MAX] = {0}, ngroups = 0;

		/* insertion sort: stable, so equal keys keep party order */
		for (int i = 1; i < m; i++) {
			int x = order[i], j = i;

			while (j > 0 && key_cmp(key, x, order[j - 1], depth) < 0) {
				order[j] = order[j - 1];
				j--;
			}
			order[j] = x;
		}
		for (int i = 0; i + 1 < m && i < upto; i++) {
			int j = i;

			while (j + 1 < m && key_cmp(key, order[i], order[j + 1], depth) == 0)
				j++;
			if (j == i)
				continue;
			ngroups++;
			for (int k = i; k <= j; k++)
				tied[order[k]] = ngroups;
			i = j;
		}
		if (ngroups == 0 || depth == CF_ROUNDS_MAX)
			return depth;
		for (int i = 0; i < n; i++) {
			key[i][depth + 1] = tied[i] ? (int)rng_die(rng, sides) : 0;
			round[depth][i] = key[i][depth + 1];
			if (group != NULL)
				group[depth][i] = tied[i];
		}
		depth++;
	}
}

/* Fills out from each player's Thwack-O value (in[p]: p rolled one),
 * re-rolling a tie for the highest. */
static void
narrate(struct rng *rng, const int *value, const bool *in, int sides, struct cf_narration *out)
{
	int order[CF_PLAYERS_MAX], any = 0;

	memset(out, 0, sizeof(*out));
	out->winner = -1;
	for (int p = 0; p < CF_PLAYERS_MAX; p++) {
		out->value[p] = in[p] ? value[p] : 0;
		any += in[p];
	}
	if (any == 0)
		return;
	out->nrounds =
	    break_ties(rng, out->value, in, CF_PLAYERS_MAX, sides, 1, order, out->round, NULL);
	out->winner = order[0];
}

void
conflict_narrator(struct rng *rng, const struct cf_roll *r, int sides, struct cf_narration *out)
{
	bool in[CF_PLAYERS_MAX] = {false};
	int value[CF_PLAYERS_MAX] = {0};

	for (int i = 0; i < r->ng; i++) {
		const struct cf_group *g = &r->g[i];

		if (g->thwacko < 0 || g->player < 0 || g->player >= CF_PLAYERS_MAX)
			continue;
		value[g->player] = g->v[g->thwacko];
		in[g->player] = true;
	}
	narrate(rng, value, in, sides, out);
}

int
conflict_turn_take(struct cf_turn *t, struct cf_roll *r)
{
	int took = 0;

	for (int i = 0; i < r->ng; i++) {
		struct cf_group *g = &r->g[i];

		if (g->thwacko < 0 || g->player < 0 || g->player >= CF_PLAYERS_MAX)
			continue;
		if (t->value[g->player] > 0) {
			g->thwacko = -1;
			continue;
		}
		t->value[g->player] = g->v[g->thwacko];
		took++;
	}
	return took;
}

int
conflict_turn_leader(const struct cf_turn *t, int *tied)
{
	int best = -1;

	*tied = 0;
	for (int p = 0; p < CF_PLAYERS_MAX; p++) {
		if (t->value[p] <= 0)
			continue;
		if (best < 0 || t->value[p] > t->value[best]) {
			best = p;
			*tied = 1;
		} else if (t->value[p] == t->value[best]) {
			(*tied)++;
		}
	}
	return best;
}

void
conflict_turn_narrator(struct rng *rng, const struct cf_turn *t, int sides,
                       struct cf_narration *out)
{
	bool in[CF_PLAYERS_MAX];

	for (int p = 0; p < CF_PLAYERS_MAX; p++)
		in[p] = t->value[p] > 0;
	narrate(rng, t->value, in, sides, out);
}

void
conflict_roll_turn(struct rng *rng, struct cf_roll *r, int sides, struct cf_turn *t)
{
	conflict_roll(rng, r, sides);
	if (t != NULL)
		conflict_turn_take(t, r);
}

void
conflict_narrator_turn(struct rng *rng, const struct cf_roll *r, int sides, const struct cf_turn *t,
                       struct cf_narration *out)
{
	if (t == NULL) {
		conflict_narrator(rng, r, sides, out);
		return;
	}
	memset(out, 0, sizeof(*out));
	out->winner = -1;
}

void
conflict_rank(struct rng *rng, const int *values, int n, int upto, int sides,
              struct cf_ranking *out)
{
	bool in[CF_PLAYERS_MAX];

	memset(out, 0, sizeof(*out));
	if (n > CF_PLAYERS_MAX)
		n = CF_PLAYERS_MAX;
	for (int i = 0; i < n; i++) {
		in[i] = true;
		out->value[i] = values[i];
	}
	out->n = n;
	if (n > 0)
		out->nrounds =
		    break_ties(rng, values, in, n, sides, upto, out->order, out->round, out->group);
}

void
conflict_annoy(const struct cf_roll *r, int obstacle, struct cf_annoy *out)
{
	memset(out, 0, sizeof(*out));
	out->obstacle_best = conflict_highest(&r->g[obstacle]);
	for (int i = 0; i < r->ng; i++) {
		out->best[i] = conflict_highest(&r->g[i]);
		out->fails[i] = i != obstacle && out->best[i] < out->obstacle_best;
	}
}

void
conflict_trigger(const struct cf_roll *r, const int *bonus, struct cf_trigger *out)
{
	int best = 0;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < r->ng; i++) {
		out->total[i] = conflict_highest(&r->g[i]) + bonus[i];
		if (out->total[i] > best)
			best = out->total[i];
	}
	for (int i = 0; i < r->ng; i++)
		out->avoids[i] = out->total[i] == best;
}

/* The participant that takes the point won by w at rank k, or -1. */
static int
pick_target(const struct cf_pain_part *p, int n, const struct cf_pain_rank *rk, const int *hits,
            int w)
{
	int best = -1, t = p[w].target;

	if (t >= 0 && t < n && t != w && hits[t] > 0) /* any other, of either side */
		return t;
	for (int i = 0; i < n; i++) {
		if (p[i].side == p[w].side || hits[i] <= 0)
			continue;
		if (best < 0 || rk->value[i] < rk->value[best])
			best = i;
	}
	return best;
}

int
conflict_pain(const struct cf_pain_part *p, int n, struct cf_pain *out)
{
	memset(out, 0, sizeof(*out));
	if (n < 1 || n > CF_PARTS_MAX)
		return -1;
	out->n = n;
	for (int i = 0; i < n; i++) {
		out->hits[i] = p[i].hits;
		if (p[i].g->n > out->nranks)
			out->nranks = p[i].g->n;
	}
	for (int k = 0; k < out->nranks; k++) {
		struct cf_pain_rank *rk = &out->rank[k];
		int best = 0, nbest = 0, w = -1;

		for (int i = 0; i < n; i++) {
			rk->fallen[i] = out->hits[i] == 0; /* a trap's -1 never falls */
			rk->value[i] = k < p[i].g->n && !rk->fallen[i] ? p[i].g->v[k] : 0;
			if (rk->value[i] > best) {
				best = rk->value[i];
				nbest = 1;
				w = i;
			} else if (rk->value[i] == best) {
				nbest++;
			}
		}
		rk->winner = nbest == 1 ? w : -1;
		rk->target = -1;
		if (rk->winner < 0)
			continue;
		rk->held = p[w].held;
		if (rk->held)
			continue;
		rk->target = pick_target(p, n, rk, out->hits, w);
		if (rk->target < 0)
			continue;
		out->dealt[w]++;
		out->taken[rk->target]++;
		out->hits[rk->target]--;
	}
	return 0;
}
