/* fungeon_roll: the participants of Fungeon conflicts and the Annoying conflict
 * played through rules/fungeon/fungeon_play.h; see fungeon_roll.h. */
#include "commands/fungeon/fungeon_roll.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/core/registry.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/fungeon_render.h"
#include "rules/fungeon/fungeon_trap.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

static int
resolve_error(struct fungeon_channel *c, const char *word, unsigned kinds, struct reply *err)
{
	const char *what[4];
	int n = 0;
	struct buf b;

	if (fungeon_channel_option_word(word, err))
		return -1;
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
	registry_or_list(&b, what, (size_t)n, "");
	buf_addf(&b, " '%.40s' here;", word);
	if (kinds & FGP_MEMBER) {
		buf_adds(&b, " the party is ");
		fungeon_channel_list_members(c, &b);
		buf_adds(&b, ";");
	}
	if (kinds & FGP_TRAP) {
		buf_adds(&b, " the room's traps are ");
		fungeon_channel_list_pieces(c, FUNGEON_TRAP, &b);
		buf_adds(&b, ";");
	}
	if (kinds & (FGP_MONSTER | FGP_ABILITY)) {
		buf_adds(&b, " the room's monsters are ");
		fungeon_channel_list_pieces(c, FUNGEON_MONSTER, &b);
		buf_adds(&b, ";");
	}
	b.p[b.len - 1] = '.';
	reply_error(err, "%s", buf_str(&b));
	buf_free(&b);
	if ((kinds & FGP_MEMBER) && c->n == 0) {
		reply_add(err, RS_BAD, " ");
		fungeon_channel_join_how(err, RS_BAD, " makes one.");
	}
	return -1;
}

/* Whether "monster/ability" word (slash at its '/') names both; else an
 * error reply. */
static bool
names_both(const char *word, const char *slash, struct reply *err)
{
	if (slash != word && slash[1] != '\0')
		return true;
	reply_error(err,
	            "'%.40s' names no %s: an ability is written monster/ability (wolf/howl), or "
	            "monster/none.",
	            word, slash == word ? "monster" : "ability");
	return false;
}

static int
resolve_ability(struct fungeon_channel *c, const char *word, struct fungeon_part *out,
                struct reply *err)
{
	char mon[FUNGEON_NAME_MAX * 2 + 2];
	const char *slash = strchr(word, '/');
	struct fungeon_piece *s;
	struct buf b;

	if (!names_both(word, slash, err))
		return -1;
	snprintf(mon, sizeof(mon), "%.*s", (int)(slash - word), word);
	s = fungeon_channel_piece(c, FUNGEON_MONSTER, mon);
	if (s == NULL)
		return resolve_error(c, mon, FGP_MONSTER, err);
	if (s->d.nab == 0) {
		reply_error(err, "The monster %s has no special ability: %s/none is all it takes.",
		            s->name, s->name);
		return -1;
	}
	for (int i = 0; i < s->d.nab; i++) {
		if (utf8_casecmp(s->d.ab[i].name, slash + 1) == 0) {
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
	            slash + 1, buf_str(&b));
	buf_free(&b);
	return -1;
}

/* The room's piece of one of the kinds allowed that is called name, or
 * NULL. */
static struct fungeon_piece *
piece_of_kinds(struct fungeon_channel *c, const char *name, unsigned kinds)
{
	struct fungeon_piece *s = NULL;

	if (kinds & FGP_TRAP)
		s = fungeon_channel_piece(c, FUNGEON_TRAP, name);
	if (s == NULL && (kinds & FGP_MONSTER))
		s = fungeon_channel_piece(c, FUNGEON_MONSTER, name);
	return s;
}

/* Whether name, which finds member i, is also a piece of one of the kinds
 * allowed (a player joined, or took a nick, that a piece has): then an
 * error reply names both and what to type for each. */
static bool
piece_clash(struct fungeon_channel *c, int i, const char *name, unsigned kinds, struct reply *err)
{
	const struct fungeon_member *m = &c->m[i];
	const struct fungeon_piece *s = piece_of_kinds(c, name, kinds);
	bool by_player = utf8_casecmp(m->name, name) != 0;
	const char *kind;

	if (s == NULL)
		return false;
	kind = fungeon_channel_piece(c, FUNGEON_TRAP, name) == s ? "trap" : "monster";
	reply_error(err,
	            "'%.40s' names both %s %s and the room's %s %s; say %s for the first, and "
	            "for the second its maker or the GM renames it first (/fungeon %s rename %s "
	            "NEW).",
	            name, by_player ? "the player" : "the Fungeoneer",
	            by_player ? m->player : m->name, kind, s->name, by_player ? m->name : m->player,
	            kind, s->name);
	return true;
}

int
fungeon_roll_part_resolve(struct fungeon_channel *c, const char *word, unsigned kinds,
                          struct fungeon_part *out, struct reply *err)
{
	char name[FUNGEON_NAME_MAX * 2 + 2];
	const char *gt = strchr(word, '>');
	int i;

	memset(out, 0, sizeof(*out));
	out->member = -1;
	out->target = -1;
	snprintf(name, sizeof(name), "%.*s", gt ? (int)(gt - word) : (int)strlen(word), word);
	if (gt != NULL && fungeon_roll_target_name(c, gt + 1, out->target_name,
	                                           sizeof(out->target_name), err) < 0)
		return -1;
	if (strchr(name, '/') != NULL && (kinds & FGP_ABILITY))
		return resolve_ability(c, name, out, err);
	if ((kinds & FGP_MEMBER) && (i = fungeon_channel_member_named(c, name)) >= 0) {
		if (fungeon_channel_name_clash(c, i, name, err) ||
		    piece_clash(c, i, name, kinds, err))
			return -1;
		out->kind = FGP_MEMBER;
		out->member = i;
		return 0;
	}
	if ((kinds & FGP_TRAP) && (out->s = fungeon_channel_piece(c, FUNGEON_TRAP, name)) != NULL) {
		out->kind = FGP_TRAP;
		return 0;
	}
	if ((kinds & FGP_MONSTER) &&
	    (out->s = fungeon_channel_piece(c, FUNGEON_MONSTER, name)) != NULL) {
		out->kind = FGP_MONSTER;
		return 0;
	}
	return resolve_error(c, name, kinds, err);
}

bool
fungeon_roll_names_two(struct fungeon_channel *c, const char *word, struct reply *err)
{
	int i = fungeon_channel_member_named(c, word);

	return i >= 0 && (fungeon_channel_name_clash(c, i, word, err) ||
	                  piece_clash(c, i, word, FGP_MONSTER | FGP_TRAP, err));
}

int
fungeon_roll_target_name(struct fungeon_channel *c, const char *word, char *name, size_t len,
                         struct reply *err)
{
	struct fungeon_part p;
	struct reply *scratch;

	if (fungeon_roll_names_two(c, word, err))
		return -1;
	scratch = reply_new();
	if (fungeon_roll_part_resolve(c, word, FGP_MEMBER | FGP_MONSTER, &p, scratch) == 0)
		fungeon_roll_part_name(c, &p, name, len);
	else
		snprintf(name, len, "%s", word);
	reply_free(scratch);
	return 0;
}

int
fungeon_roll_use_resolve(struct fungeon_channel *c, const struct invocation *inv, const char *word,
                         struct fungeon_part *out, struct reply *err)
{
	const char *slash = strchr(word, '/');
	char mon[FUNGEON_NAME_MAX * 2 + 2];

	if (slash == NULL) {
		reply_error(err,
		            "Name an ability as monster/ability, or monster/none; '%.40s' is not "
		            "one.",
		            word);
		return -1;
	}
	if (!names_both(word, slash, err))
		return -1;
	snprintf(mon, sizeof(mon), "%.*s", (int)(slash - word), word);
	if (fungeon_roll_part_resolve(c, mon, FGP_MONSTER, out, err) < 0 ||
	    !fungeon_rights_may_direct(c, inv, out, err))
		return -1;
	if (!strcasecmp(slash + 1, "none"))
		return 0;
	return fungeon_roll_part_resolve(c, word, FGP_ABILITY, out, err);
}

const char *
fungeon_roll_part_name(const struct fungeon_channel *c, const struct fungeon_part *p, char *buf,
                       size_t len)
{
	if (p->kind == FGP_MEMBER)
		snprintf(buf, len, "%s", c->m[p->member].name);
	else if (p->kind == FGP_ABILITY)
		snprintf(buf, len, "%s/%s", p->s->name, p->s->d.ab[p->ability].name);
	else
		snprintf(buf, len, "%s", p->s->name);
	return buf;
}

void
fungeon_roll_obstacle_of(const struct fungeon_channel *c, const struct fungeon_part *p,
                         struct fungeon_play_obstacle *o)
{
	const struct fungeon_design *d = &p->s->d;

	if (p->kind == FGP_TRAP) {
		fungeon_trap_obstacle(p->s, fungeon_rights_roller(c, p->s->maker), o);
		return;
	}
	memset(o, 0, sizeof(*o));
	fungeon_roll_part_name(c, p, o->label, sizeof(o->label));
	o->roller = fungeon_rights_roller(c, p->s->maker);
	snprintf(o->maker, sizeof(o->maker), "%s", p->s->maker);
	o->from = FUNGEON_FROM_MONSTER;
	if (p->kind == FGP_ABILITY) {
		const struct fungeon_ability *a = &d->ab[p->ability];

		/* it rolls level plus the ability's Annoy and/or Pain dice */
		o->annoy = a->annoy ? d->level + a->annoy : 0;
		o->pain = a->pain ? d->level + a->pain : 0;
		snprintf(o->type, sizeof(o->type), "%s", a->type);
		o->universal = a->universal;
		o->hold = a->hold;
		o->continuous = a->continuous;
	} else {
		o->pain = d->level; /* attacks: Pain dice = level, always universal */
		o->universal = true;
	}
}

int
fungeon_roll_annoy_check(const struct fungeon_channel *c, const struct fungeon_play_obstacle *o,
                         int dice, const int *members, int n, const char *bonus, struct reply *out)
{
	bool b[FUNGEON_PARTY_MAX];

	if (dice < 1) {
		reply_error(out, "%s has no Annoy dice, so nobody has to resist it.", o->label);
		return -1;
	}
	if (dice > CF_DICE_MAX) {
		reply_error(out, "%s would roll %d dice; a participant rolls at most %d.", o->label,
		            dice, CF_DICE_MAX);
		return -1;
	}
	if (n < 1) {
		reply_error(out,
		            "Nobody is there to resist %s: the party has no living "
		            "Fungeoneer.",
		            o->label);
		return -1;
	}
	if (fungeon_channel_bonus_check(c, bonus, out) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const struct fungeon_member *m = &c->m[members[i]];

		for (int k = 0; k < i; k++) {
			if (members[k] == members[i]) {
				reply_error(out, "%s is named twice; name each Fungeoneer once.",
				            m->name);
				return -1;
			}
		}
		if (!fungeon_rights_need_in_play(c, members[i], out))
			return -1;
	}
	fungeon_roll_bonus_flags(c, bonus, o->type, members, n, b);
	for (int i = 0; i < n; i++) {
		int d = fungeon_play_annoy_dice(&c->m[members[i]], b[i], o);

		if (d > CF_DICE_MAX) {
			reply_error(out, "%s would roll %d dice; a participant rolls at most %d.",
			            c->m[members[i]].name, d, CF_DICE_MAX);
			return -1;
		}
	}
	return 0;
}

void
fungeon_roll_bonus_flags(const struct fungeon_channel *c, const char *bonus, const char *type,
                         const int *members, int n, bool *out)
{
	for (int i = 0; i < n; i++)
		out[i] = fungeon_channel_bonus_for(c, bonus, members[i], type);
}

int
fungeon_roll_annoy_play(struct invocation *inv, struct fungeon_channel *c,
                        const struct fungeon_play_obstacle *o, int dice, const int *members, int n,
                        const char *bonus, const struct thwacko_style *styles, struct cf_turn *turn,
                        struct fungeon_play_annoy *a, struct reply *out)
{
	bool b[FUNGEON_PARTY_MAX];
	char err[200];

	fungeon_roll_bonus_flags(c, bonus, o->type, members, n, b);
	if (fungeon_play_annoy(inv->rng, c->m, members, n, b, o, dice, turn, a, err, sizeof(err)) <
	    0) {
		reply_line(out, RS_BAD, "%s", err);
		return -1;
	}
	fungeon_render_annoy(out, c, o, a, styles);
	fungeon_play_annoy_apply(c->m, a);
	fungeon_render_effects_full(out, c, a, o->label);
	return 0;
}
