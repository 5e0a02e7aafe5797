/* fg_roll: building, rendering and narrating Fungeon rolls, participants
 * and Annoying conflicts; see fungeon.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/fungeon.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

/* Copies src into dst[size], cut short on a character boundary: labels
 * join a name and a player's display name and may not fit. */
static void
fit_label(char *dst, size_t size, const char *src)
{
	size_t n = utf8_cut(src, strlen(src), size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int
fgroll_add(struct fgroll *fr, int player, int ndice, struct reply *out, const char *fmt, ...)
{
	char whole[256];
	va_list ap;
	int i = fr->r.ng;

	if (i == CF_GROUPS_MAX) {
		reply_error(out, "A roll may have at most %d participants.", CF_GROUPS_MAX);
		return -1;
	}
	va_start(ap, fmt);
	vsnprintf(whole, sizeof(whole), fmt, ap);
	va_end(ap);
	fit_label(fr->label[i], sizeof(fr->label[i]), whole);
	if (ndice < 0 || ndice > CF_DICE_MAX) {
		reply_error(out, "%s would roll %d dice; a participant rolls at most %d dice.",
		            fr->label[i], ndice, CF_DICE_MAX);
		return -1;
	}
	fr->r.g[i].player = player;
	fr->r.g[i].n = ndice;
	fr->r.g[i].thwacko = -1;
	fr->r.ng++;
	return i;
}

/* Renders a group's dice: the Thwack-O die in its player's style. */
static void
dice(struct reply *out, const struct cf_group *g, const struct ustyle *styles)
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

static void
group_line(struct reply *out, const struct cf_group *g, const char *label,
           const struct ustyle *styles, const char *suffix)
{
	reply_add(out, 0, "%s: ", label);
	dice(out, g, styles);
	if (suffix != NULL && *suffix)
		reply_add(out, 0, "%s", suffix);
	reply_nl(out);
}

void
fgroll_line(struct reply *out, const struct fgroll *fr, int gi, const struct ustyle *styles,
            const char *suffix)
{
	group_line(out, &fr->r.g[gi], fr->label[gi], styles, suffix);
}

void
fg_narration_lines(struct reply *out, const struct cf_narration *n, const struct fg_chan *c,
                   const struct ustyle *styles, const char *what)
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
		tie = next;
	}
	final = n->nrounds > 0 ? n->round[n->nrounds - 1][n->winner] : n->value[n->winner];
	reply_add(out, 0, "%s: ", what != NULL ? what : "Narrative control");
	reply_add(out, RS_BOLD, "%s", c->m[n->winner].player);
	reply_add(out, 0, " (%s), Thwack-O ", c->m[n->winner].name);
	reply_add_user(out, &styles[n->winner], RS_BOLD, "%d", final);
	reply_add(out, 0, ".");
	reply_nl(out);
}

void
fgroll_narrate(struct reply *out, struct rng *rng, const struct fgroll *fr, const struct fg_chan *c,
               const struct ustyle *styles, const char *what)
{
	struct cf_narration n;

	conflict_narrator(rng, &fr->r, FG_DIE, &n);
	fg_narration_lines(out, &n, c, styles, what);
}

static int
resolve_error(struct fg_chan *c, const char *word, unsigned kinds, struct reply *err)
{
	const char *what[4];
	int n = 0;
	struct buf b;

	if (kinds & FGP_MEMBER)
		what[n++] = "Fungeoneer";
	if (kinds & FGP_TRAP)
		what[n++] = "trap";
	if (kinds & FGP_MONSTER)
		what[n++] = "monster";
	if (kinds & FGP_ABILITY)
		what[n++] = "monster/ability";
	buf_init(&b, 2000);
	buf_adds(&b, "There is no ");
	for (int i = 0; i < n; i++)
		buf_addf(&b, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", what[i]);
	buf_addf(&b, " '%.40s' here;", word);
	if (kinds & FGP_MEMBER) {
		buf_adds(&b, " the party is ");
		fgchan_list_members(c, &b);
		buf_adds(&b, ";");
	}
	if (kinds & FGP_TRAP) {
		buf_adds(&b, " the traps are ");
		fgchan_list_designs(c, FG_TRAP, &b);
		buf_adds(&b, ";");
	}
	if (kinds & (FGP_MONSTER | FGP_ABILITY)) {
		buf_adds(&b, " the monsters are ");
		fgchan_list_designs(c, FG_MONSTER, &b);
		buf_adds(&b, ";");
	}
	b.p[b.len - 1] = '.';
	reply_error(err, "%s", buf_str(&b));
	buf_free(&b);
	if ((kinds & FGP_MEMBER) && c->n == 0) {
		reply_add(err, RS_BAD, " ");
		reply_cmd(err, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", "level",
		          "LEVEL", NULL);
		reply_add(err, RS_BAD, " makes one.");
	}
	return -1;
}

static int
resolve_ability(struct fg_chan *c, const char *word, struct fg_part *out, struct reply *err)
{
	char mon[FG_NAME_MAX * 2 + 2];
	const char *slash = strchr(word, '/');
	struct fg_stored *s;
	struct buf b;

	snprintf(mon, sizeof(mon), "%.*s", (int)(slash - word), word);
	s = fgchan_design(c, FG_MONSTER, mon);
	if (s == NULL)
		return resolve_error(c, mon, FGP_MONSTER, err);
	for (int i = 0; i < s->d.nab; i++) {
		if (strcasecmp(s->d.ab[i].name, slash + 1) == 0) {
			out->kind = FGP_ABILITY;
			out->s = s;
			out->ability = i;
			return 0;
		}
	}
	buf_init(&b, 500);
	for (int i = 0; i < s->d.nab; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", s->d.ab[i].name);
	reply_error(err, "The monster %s has no ability '%.40s'; its abilities are %s.", s->name,
	            slash + 1, s->d.nab ? buf_str(&b) : "none");
	buf_free(&b);
	return -1;
}

int
fg_part_resolve(struct fg_chan *c, const char *word, unsigned kinds, struct fg_part *out,
                struct reply *err)
{
	char name[FG_NAME_MAX * 2 + 2];
	const char *gt = strchr(word, '>');
	int i;

	memset(out, 0, sizeof(*out));
	out->member = -1;
	out->target = -1;
	snprintf(name, sizeof(name), "%.*s", gt ? (int)(gt - word) : (int)strlen(word), word);
	if (gt != NULL)
		snprintf(out->target_name, sizeof(out->target_name), "%s", gt + 1);
	if (strchr(name, '/') != NULL && (kinds & FGP_ABILITY))
		return resolve_ability(c, name, out, err);
	if ((kinds & FGP_MEMBER) && (i = fgchan_member_named(c, name)) >= 0) {
		out->kind = FGP_MEMBER;
		out->member = i;
		return 0;
	}
	if ((kinds & FGP_TRAP) && (out->s = fgchan_design(c, FG_TRAP, name)) != NULL) {
		out->kind = FGP_TRAP;
		return 0;
	}
	if ((kinds & FGP_MONSTER) && (out->s = fgchan_design(c, FG_MONSTER, name)) != NULL) {
		out->kind = FGP_MONSTER;
		return 0;
	}
	return resolve_error(c, name, kinds, err);
}

const char *
fg_part_name(const struct fg_chan *c, const struct fg_part *p, char *buf, size_t len)
{
	if (p->kind == FGP_MEMBER)
		snprintf(buf, len, "%s", c->m[p->member].name);
	else if (p->kind == FGP_ABILITY)
		snprintf(buf, len, "%s/%s", p->s->name, p->s->d.ab[p->ability].name);
	else
		snprintf(buf, len, "%s", p->s->name);
	return buf;
}

int
fg_part_category(const struct fg_part *p)
{
	return p->kind == FGP_TRAP ? FG_CAT_TRAPS : p->kind == FGP_MEMBER ? -1 : FG_CAT_MONSTERS;
}

void
fg_obstacle_of(const struct fg_chan *c, const struct fg_part *p, const struct invocation *inv,
               struct fg_obstacle *o)
{
	const struct fg_design *d = &p->s->d;

	memset(o, 0, sizeof(*o));
	fg_part_name(c, p, o->label, sizeof(o->label));
	o->roller = fgchan_roller(c, (enum fg_category)fg_part_category(p), inv);
	if (p->kind == FGP_TRAP) {
		o->annoy = d->annoy;
		o->pain = d->pain;
		o->type = d->type;
		o->universal = d->universal;
		o->continuous = d->continuous;
		o->xp = p->s->cost;
	} else if (p->kind == FGP_ABILITY) {
		const struct fg_ability *a = &d->ab[p->ability];

		/* it rolls level plus the ability's Annoy and/or Pain dice */
		o->annoy = a->annoy ? d->level + a->annoy : 0;
		o->pain = a->pain ? d->level + a->pain : 0;
		o->type = a->type;
		o->universal = a->universal;
		o->hold = a->hold;
		o->continuous = a->continuous;
	} else {
		o->pain = d->level; /* attacks: Pain dice = level, always universal */
		o->type = "";
		o->universal = true;
	}
}

static bool
has_effect_slot(const struct fg_member *m, const char *source)
{
	if (m->neffects < FG_EFFECTS_MAX)
		return true;
	for (int i = 0; i < m->neffects; i++)
		if (strcmp(m->effects[i].source, source) == 0)
			return true;
	return false;
}

int
fg_annoy_check(const struct fg_chan *c, const struct fg_obstacle *o, int dice, const int *members,
               int n, const char *bonus, struct reply *out)
{
	if (dice < 1) {
		reply_error(out, "%s has no Annoy dice, so nobody has to resist it.", o->label);
		return -1;
	}
	if (dice > CF_DICE_MAX) {
		reply_error(out, "%s would roll %d dice; a participant rolls at most %d dice.",
		            o->label, dice, CF_DICE_MAX);
		return -1;
	}
	if (n < 1) {
		reply_error(out,
		            "Nobody is there to resist %s: the party has no living "
		            "Fungeoneer.",
		            o->label);
		return -1;
	}
	if (fg_bonus_check(c, bonus, out) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const struct fg_member *m = &c->m[members[i]];

		for (int k = 0; k < i; k++) {
			if (members[k] == members[i]) {
				reply_error(out, "%s is named twice; name each Fungeoneer once.",
				            m->name);
				return -1;
			}
		}
		if (m->dead) {
			reply_error(out,
			            "%s is dead and rolls no more; %s makes a new Fungeoneer "
			            "in the hallway.",
			            m->name, m->player);
			return -1;
		}
		if ((o->hold || o->continuous) && !has_effect_slot(m, o->label)) {
			reply_error(out,
			            "%s already suffers %d continuous effects, the most one "
			            "Fungeoneer can carry; roll those off first.",
			            m->name, FG_EFFECTS_MAX);
			return -1;
		}
	}
	return 0;
}

static void
add_effect(struct fg_member *m, const struct fg_obstacle *o, enum fg_effect_kind kind)
{
	struct fg_effect e = {.kind = kind, .annoy = o->annoy, .pain = o->pain};
	size_t n = strnlen(o->label, sizeof(e.source) - 1); /* "monster/ability" fits */

	memcpy(e.source, o->label, n);
	e.source[n] = '\0';
	snprintf(e.type, sizeof(e.type), "%s", o->type);
	e.universal = o->universal;
	fg_effect_add(m, &e);
}

void
fg_annoy_run(struct invocation *inv, struct fg_chan *c, const struct fg_obstacle *o, int dice,
             const int *members, int n, const char *bonus, const struct ustyle *styles, bool *fails,
             struct fgroll *fr, struct reply *out)
{
	struct cf_annoy res;
	int og;

	for (int i = 0; i < n; i++) {
		const struct fg_member *m = &c->m[members[i]];
		bool b = fg_bonus_for(c, bonus, members[i]);

		fgroll_add(fr, members[i], fg_annoy_dice(m, b, o->type, o->universal, NULL), out,
		           "%s (%s)", m->name, m->player);
	}
	og = fgroll_add(fr, o->roller, dice, out, "%s", o->label);
	conflict_roll(inv->rng, &fr->r, FG_DIE);
	conflict_annoy(&fr->r, og, &res);
	{
		char suffix[40];

		snprintf(suffix, sizeof(suffix), " → %d", res.obstacle_best);
		fgroll_line(out, fr, og, styles, suffix);
	}
	for (int i = 0; i < n; i++) {
		struct fg_member *m = &c->m[members[i]];
		char suffix[80];

		fails[i] = res.fails[i];
		if (!fails[i] && o->xp > 0) {
			fg_add_xp(m, o->xp);
			snprintf(suffix, sizeof(suffix), " → %d, succeeds (+%lld XP)", res.best[i],
			         (long long)o->xp);
		} else {
			snprintf(suffix, sizeof(suffix), " → %d, %s", res.best[i],
			         fails[i] ? "fails" : "succeeds");
		}
		fgroll_line(out, fr, i, styles, suffix);
		if (fails[i] && o->hold)
			add_effect(m, o, FG_EFFECT_HOLD);
		if (fails[i] && o->continuous)
			add_effect(m, o, FG_EFFECT_DAMAGE);
	}
}

void
fg_cont_render(struct reply *out, const struct fg_chan *c, const struct fg_cont *k,
               const struct ustyle *styles)
{
	const struct fg_member *m = &c->m[k->member];
	char label[80], suffix[80], whole[256];

	reply_add(out, RS_ITALIC,
	          "Continuous %s: ", k->effect.kind == FG_EFFECT_HOLD ? "hold" : "damage");
	reply_add(out, 0, "%s on %s", k->effect.source, m->name);
	reply_nl(out);
	snprintf(suffix, sizeof(suffix), " → %d", k->annoy_res.obstacle_best);
	group_line(out, &k->annoy.g[0], k->effect.source, styles, suffix);
	/* A long player name is cut short here, as in every roll's label. */
	snprintf(whole, sizeof(whole), "%s (%s)", m->name, m->player);
	fit_label(label, sizeof(label), whole);
	snprintf(suffix, sizeof(suffix), " → %d, %s", k->annoy_res.best[1],
	         k->success ? "succeeds: the effect ends" : "fails");
	group_line(out, &k->annoy.g[1], label, styles, suffix);
	fg_narration_lines(out, &k->annoy_nar, c, styles, NULL);
	if (!k->pained)
		return;
	{
		const char *names[2] = {k->effect.source, m->name};
		const struct cf_group *g[2] = {&k->pain.g[0], &k->pain.g[1]};

		group_line(out, g[0], k->effect.source, styles, NULL);
		group_line(out, g[1], label, styles, NULL);
		fg_pain_table(out, names, g, 2, &k->pain_res, styles, c);
	}
	reply_add(out, 0, "%s takes %d: %d/%d hits.", m->name, k->pain_res.taken[1], k->hits_after,
	          fg_max_hits(m->level));
	if (k->died)
		reply_add(out, RS_BAD | RS_BOLD, " %s dies!", m->name);
	reply_nl(out);
	fg_narration_lines(out, &k->pain_nar, c, styles, NULL);
}
