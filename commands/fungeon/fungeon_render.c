/* fungeon_render: how Fungeon rolls and the outcomes of
 * rules/fungeon/fungeon_play.h look in a reply (shared by every conflict
 * command); see fungeon_render.h. Renders only: nothing here changes the
 * channel's state or draws a die. */
#include "commands/fungeon/fungeon_render.h"

#include <stdio.h>
#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "rules/base/utf8.h"

/* Copies src into dst[size], cut short on a character boundary and
 * marked: labels join a name and a player's display name and may not fit. */
void
fungeon_render_fit_label(char *dst, size_t size, const char *src)
{
	static const char mark[] = "\xe2\x80\xa6"; /* … */
	size_t len = strlen(src), n;

	if (len < size) {
		memcpy(dst, src, len + 1);
		return;
	}
	n = utf8_cut_text(src, len, size - sizeof(mark));
	memcpy(dst, src, n);
	memcpy(dst + n, mark, sizeof(mark));
}

/* Renders a group's dice: the Thwack-O die in its player's style. */
static void
dice(struct reply *out, const struct cf_group *g, const struct thwacko_style *styles)
{
	if (g->n == 0)
		reply_add(out, RS_DIM, "no dice");
	for (int k = 0; k < g->n; k++) {
		if (k > 0)
			reply_add(out, 0, " ");
		if (k == g->thwacko && g->player >= 0)
			reply_add_user(out, &styles[g->player], RS_BOLD, "%d", g->v[k]);
		else
			reply_add(out, 0, "%d", g->v[k]);
	}
}

void
fungeon_render_group_line(struct reply *out, const struct cf_group *g, const char *label,
                          const struct thwacko_style *styles, const char *suffix)
{
	reply_add(out, 0, "%s: ", label);
	dice(out, g, styles);
	if (suffix != NULL && *suffix)
		reply_add(out, 0, "%s", suffix);
	reply_nl(out);
	if (suffix == NULL || !*suffix) /* dice alone: how a result was reached */
		reply_working(out);
}

/* "alice (Alba), Thwack-O ◆5": player p with its Thwack-O value v. */
static void
narrator_of(struct reply *out, const struct fungeon_channel *c, const struct thwacko_style *styles,
            int p, int v)
{
	reply_add(out, RS_BOLD, "%s", c->m[p].player);
	reply_add(out, 0, " (%s), Thwack-O ", c->m[p].name);
	reply_add_user(out, &styles[p], RS_BOLD, "%d", v);
}

void
fungeon_render_narration_lines(struct reply *out, const struct cf_narration *n,
                               const struct fungeon_channel *c, const struct thwacko_style *styles,
                               const char *what)
{
	int tie = 0, final;

	if (n->winner < 0)
		return;
	for (int p = 0; p < CF_PLAYERS_MAX; p++)
		if (n->value[p] > tie)
			tie = n->value[p];
	for (int k = 0; k < n->nrounds; k++) {
		int next = 0;
		bool first = true;

		reply_add(out, 0, "Thwack-O tie at %d (", tie);
		for (int p = 0; p < CF_PLAYERS_MAX && p < c->n; p++) {
			if (n->round[k][p] == 0)
				continue;
			reply_add(out, 0, "%s%s", first ? "" : ", ", c->m[p].player);
			first = false;
		}
		reply_add(out, 0, "): re-rolled");
		for (int p = 0; p < CF_PLAYERS_MAX && p < c->n; p++) {
			if (n->round[k][p] == 0)
				continue;
			reply_add(out, 0, " %s ", c->m[p].player);
			reply_add_user(out, &styles[p], RS_BOLD, "%d", n->round[k][p]);
			if (n->round[k][p] > next)
				next = n->round[k][p];
		}
		reply_nl(out);
		reply_working(out); /* the narrator line names the outcome */
		tie = next;
	}
	final = n->nrounds > 0 ? n->round[n->nrounds - 1][n->winner] : n->value[n->winner];
	reply_add(out, 0, "%s: ", what != NULL ? what : "Narrative control");
	narrator_of(out, c, styles, n->winner, final);
	reply_add(out, 0, ".");
	reply_nl(out);
}

void
fungeon_render_turn_so_far(struct reply *out, const struct cf_turn *t,
                           const struct fungeon_channel *c, const struct thwacko_style *styles)
{
	int tied, lead = conflict_turn_leader(t, &tied), said = 0;

	if (lead < 0 || lead >= c->n)
		return;
	reply_add(out, 0, "Narrative control so far this turn: ");
	if (tied > 1)
		reply_add(out, 0, "tied between ");
	for (int p = lead; p < CF_PLAYERS_MAX && p < c->n; p++) {
		if (t->value[p] != t->value[lead])
			continue;
		said++;
		reply_add(out, 0, "%s", said == 1 ? "" : said == tied ? " and " : ", ");
		narrator_of(out, c, styles, p, t->value[p]);
	}
	reply_add(out, 0, "%s.", tied > 1 ? " (re-rolled if still tied when the turn ends)" : "");
	reply_nl(out);
}

void
fungeon_render_pain_table(struct reply *out, const char *const *names,
                          const struct cf_group *const *g, int n, const struct cf_pain *res,
                          const struct thwacko_style *styles, const struct fungeon_channel *c)
{
	const char *hdr[CF_PARTS_MAX + 3];
	char cells[CF_PARTS_MAX + 3][FUNGEON_SOURCE_MAX + 32];
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

			if (rk->fallen[i] && k < g[i]->n) /* the die it rolled, shown */
				snprintf(cells[i + 1], sizeof(cells[i + 1]),
				         "0 (dead, rolled %s%d)",
				         thw ? styles[g[i]->player].mark : "", g[i]->v[k]);
			else if (rk->fallen[i])
				snprintf(cells[i + 1], sizeof(cells[i + 1]), "0 (dead)");
			else
				snprintf(cells[i + 1], sizeof(cells[i + 1]), "%s%d",
				         thw ? styles[g[i]->player].mark : "", rk->value[i]);
		}
		snprintf(cells[n + 1], sizeof(cells[n + 1]), "%s",
		         rk->winner < 0 ? "tie" : names[rk->winner]);
		if (rk->winner < 0)
			snprintf(cells[n + 2], sizeof(cells[n + 2]), "0 (tie)");
		else if (rk->held)
			snprintf(cells[n + 2], sizeof(cells[n + 2]), "0 (held: may not act)");
		else if (rk->target < 0)
			snprintf(cells[n + 2], sizeof(cells[n + 2]), "0 (no one it can hurt)");
		else
			snprintf(cells[n + 2], sizeof(cells[n + 2]), "1 → %s", names[rk->target]);
		for (int i = 0; i < n + 3; i++)
			row[i] = cells[i];
		reply_row(out, false, row);
		for (int i = 0; i < n; i++)
			if (k == g[i]->thwacko && g[i]->player >= 0 && g[i]->player < c->n &&
			    !rk->fallen[i])
				reply_cell_user(out, i + 1, &styles[g[i]->player]);
	}
	reply_working(out);
}

void
fungeon_render_death(struct reply *out, const struct fungeon_channel *c,
                     const struct fungeon_member *m, const char *fate)
{
	reply_add(out, RS_BAD | RS_BOLD, " %s dies! %s is out until %s", m->name, m->player,
	          fungeon_rights_out_until(c));
	if (m->nitems > 0)
		reply_add(out, RS_BAD | RS_BOLD, ", and %s's treasure %s", m->name, fate);
	reply_add(out, RS_BAD | RS_BOLD, ".");
}

void
fungeon_render_cont(struct reply *out, const struct fungeon_channel *c,
                    const struct fungeon_cont *k, const struct thwacko_style *styles,
                    bool in_hallway)
{
	const struct fungeon_member *m = &c->m[k->member];
	char label[FUNGEON_LABEL_MAX], suffix[96], whole[256];

	reply_add(out, RS_ITALIC, "Continuous %s: ",
	          k->hold                                 ? "hold and damage"
	          : k->effect.kind == FUNGEON_EFFECT_HOLD ? "hold"
	                                                  : "damage");
	reply_add(out, 0, "%s on %s", k->effect.source, m->name);
	reply_nl(out);
	snprintf(suffix, sizeof(suffix), " → %d", k->annoy_res.obstacle_best);
	fungeon_render_group_line(out, &k->annoy.g[1], k->effect.source, styles, suffix);
	reply_working(out); /* its best shows in whether the sufferer fails */
	/* A long player name is cut short here, as in every roll's label. */
	snprintf(whole, sizeof(whole), "%s (%s)", m->name, m->player);
	fungeon_render_fit_label(label, sizeof(label), whole);
	if (k->success && k->xp > 0)
		snprintf(suffix, sizeof(suffix), " → %d, succeeds: the effect ends (+%lld XP)",
		         k->annoy_res.best[0], (long long)k->xp);
	else
		snprintf(suffix, sizeof(suffix), " → %d, %s", k->annoy_res.best[0],
		         !k->success ? "fails"
		         : k->hold   ? "succeeds: both end"
		                     : "succeeds: the effect ends");
	fungeon_render_group_line(out, &k->annoy.g[0], label, styles, suffix);
	fungeon_render_narration_lines(out, &k->annoy_nar, c, styles, NULL);
	if (k->xp_capped)
		reply_line(out, RS_BAD, "%s's XP is at the most the bot can count.", m->name);
	if (!k->pained)
		return;
	{
		const char *names[2] = {m->name, k->effect.source};
		const struct cf_group *g[2] = {&k->pain.g[0], &k->pain.g[1]};

		fungeon_render_group_line(out, g[1], k->effect.source, styles, NULL);
		fungeon_render_group_line(out, g[0], label, styles, NULL);
		fungeon_render_pain_table(out, names, g, 2, &k->pain_res, styles, c);
	}
	reply_add(out, 0, "%s takes %d: %d/%d hits.", m->name, k->pain_res.taken[0], k->hits_after,
	          fungeon_max_hits(m->level));
	if (k->died)
		fungeon_render_death(out, c, m,
		                     in_hallway ? "lies in the room ahead, to plunder"
		                                : "stays here to plunder");
	reply_nl(out);
	fungeon_render_narration_lines(out, &k->pain_nar, c, styles, NULL);
}

void
fungeon_render_annoy(struct reply *out, const struct fungeon_channel *c,
                     const struct fungeon_play_obstacle *o, const struct fungeon_play_annoy *a,
                     const struct thwacko_style *styles)
{
	char suffix[80], label[FUNGEON_LABEL_MAX], whole[256];
	int resist = 0;

	snprintf(suffix, sizeof(suffix), " → %d", a->res.obstacle_best);
	fungeon_render_group_line(out, &a->roll.g[a->n], o->label, styles, suffix);
	reply_working(out); /* its best shows in who fails */
	/* in its place where room is short: what the others were measured
	 * against, and how many resisted, as their lines are left out */
	for (int i = 0; i < a->n; i++)
		resist += !a->fails[i];
	reply_add(out, 0, "%s → %d: ", o->label, a->res.obstacle_best);
	if (resist == a->n)
		reply_add(out, 0, "everyone resists.");
	else if (resist == 0)
		reply_add(out, 0, "nobody resists.");
	else
		reply_add(out, 0, "%d of %d %s.", resist, a->n, resist == 1 ? "resists" : "resist");
	reply_nl(out);
	reply_brief(out);
	for (int i = 0; i < a->n; i++) {
		const struct fungeon_member *m = &c->m[a->member[i]];

		if (a->xp[i] > 0)
			snprintf(suffix, sizeof(suffix), " → %d, succeeds (+%lld XP)",
			         a->res.best[i], (long long)a->xp[i]);
		else
			snprintf(suffix, sizeof(suffix), " → %d, %s", a->res.best[i],
			         a->fails[i] ? "fails" : "succeeds");
		snprintf(whole, sizeof(whole), "%s (%s)", m->name, m->player);
		fungeon_render_fit_label(label, sizeof(label), whole);
		fungeon_render_group_line(out, &a->roll.g[i], label, styles, suffix);
		if (!a->fails[i] && a->xp[i] == 0)
			reply_working(out); /* nothing follows from it */
	}
}

/* Appends "troll, rat" (the names of room r's monsters standing, or of
 * its treasure nobody took: kind k; only what the dead left when
 * dead_only; at most six, then "..."); returns how many there are. */
static int
names_of(const struct fungeon_room *r, enum fungeon_kind k, bool dead_only, char *buf, size_t len)
{
	size_t used = 0;
	int n = 0;

	buf[0] = '\0';
	for (int i = 0; i < r->n[k]; i++) {
		const struct fungeon_piece *p = &r->p[k][i];
		int w;

		if (k == FUNGEON_MONSTER ? p->hits <= 0
		                         : p->taken[0] != '\0' || (dead_only && !p->left))
			continue;
		w = n < 6    ? snprintf(buf + used, len - used, "%s%s", n ? ", " : "", p->name)
		    : n == 6 ? snprintf(buf + used, len - used, ", ...")
		             : 0;
		if (w > 0 && (size_t)w < len - used)
			used += (size_t)w;
		n++;
	}
	return n;
}

static int
behind_names(const struct fungeon_room *r, enum fungeon_kind k, char *buf, size_t len)
{
	return names_of(r, k, false, buf, len);
}

int
fungeon_render_dead_left(const struct fungeon_room *r, char *buf, size_t len)
{
	return names_of(r, FUNGEON_TREASURE, true, buf, len);
}

bool
fungeon_render_anything_behind(const struct fungeon_room *r)
{
	char tre[160];

	return fungeon_room_standing(r) > 0 ||
	       behind_names(r, FUNGEON_TREASURE, tre, sizeof(tre)) > 0;
}

void
fungeon_render_left_behind(struct reply *out, const struct fungeon_room *r, unsigned style)
{
	char mon[160], tre[160];
	int standing = behind_names(r, FUNGEON_MONSTER, mon, sizeof(mon));
	int treasure = behind_names(r, FUNGEON_TREASURE, tre, sizeof(tre));
	reply_add(out, style, "room %lld with ", (long long)r->number);
	if (standing > 0)
		reply_add(out, style, "%d monster%s standing (%s)", standing,
		          standing == 1 ? "" : "s", mon);
	if (standing > 0 && treasure > 0)
		reply_add(out, style, " and ");
	if (treasure > 0)
		reply_add(out, style, "%d treasure%s untaken (%s)", treasure,
		          treasure == 1 ? "" : "s", tre);
}

bool
fungeon_render_go_on_back(const struct fungeon_channel *c, struct reply *out)
{
	int64_t next = fungeon_dungeon_next_back(&c->d);
	bool any = false;

	for (int i = 0; i < c->n; i++) {
		any |= fungeon_rights_in_play(c, i);
		if (c->m[i].nwander > 0 && !c->m[i].dead)
			return false;
	}
	if (c->d.phase != FUNGEON_RETREAT || fungeon_room_standing(&c->d.room) > 0)
		return false;
	reply_add(out, 0, "Go on back with ");
	reply_cmd(out, 0, "fungeon retreat", NULL);
	if (next > 0 && any)
		reply_add(out, 0, ": the rolls before room %lld.", (long long)next);
	else
		reply_add(out, 0, ": out of the dungeon, to town.");
	reply_nl(out);
	reply_button(out, "Go on", "fungeon retreat");
	return true;
}

void
fungeon_render_effect_full(struct reply *out, const struct fungeon_member *m, const char *source)
{
	reply_line(out, RS_DIM,
	           "%s carries %d continuous effects already, the most the bot keeps: %s's is "
	           "not added.",
	           m->name, FUNGEON_EFFECTS_MAX, source);
}

void
fungeon_render_effects_full(struct reply *out, const struct fungeon_channel *c,
                            const struct fungeon_play_annoy *a, const char *source)
{
	for (int i = 0; i < a->n; i++)
		if (a->full[i])
			fungeon_render_effect_full(out, &c->m[a->member[i]], source);
}

/* Names the new Fungeoneers who join the party in town, made on the way
 * or in the dungeon before the party turned back (at floor - 1 then): in
 * town a new one's level is its player's to choose. */
void
fungeon_render_joining_in_town(const struct fungeon_channel *c, struct reply *out)
{
	int n = 0;

	for (int i = 0; i < c->n; i++) {
		if (!c->m[i].fresh || c->m[i].dead)
			continue;
		reply_add(out, 0, "%s%s (%s, level %d)",
		          n++ ? ", " : "Joining the party here: ", c->m[i].name, c->m[i].player,
		          c->m[i].level);
	}
	if (n == 0)
		return;
	reply_add(out, 0,
	          "; in town a new Fungeoneer's level is its player's to choose, and one made "
	          "anew (");
	reply_cmd(out, 0, "fungeon leave", NULL);
	reply_add(out, 0, ", then ");
	fungeon_channel_join_how(out, 0, ") takes the level typed.");
	reply_nl(out);
}

bool
fungeon_render_dead_left_behind(struct reply *out, const struct fungeon_room *r, bool ask)
{
	char left[160];
	int n = fungeon_render_dead_left(r, left, sizeof(left));

	if (n == 0)
		return false;
	if (!ask) {
		reply_line(out, 0, "What the dead left in room %lld (%s) stays behind for good.",
		           (long long)r->number, left);
		return false;
	}
	reply_add(out, 0,
	          "Going on back leaves what the dead left in room %lld (%s) behind for good; take "
	          "it first (",
	          (long long)r->number, left);
	reply_cmd(out, 0, "fungeon take", "item", "ITEM", NULL);
	reply_add(out, 0, "), or go with ");
	reply_cmd(out, 0, "fungeon retreat", "confirm:", "true", NULL);
	reply_add(out, 0, ".");
	reply_nl(out);
	reply_button(out, "Go on back", "fungeon retreat confirm:true");
	return true;
}
