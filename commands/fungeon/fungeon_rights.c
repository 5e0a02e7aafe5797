/* fungeon_rights: who may do what at a Fungeon table now; see
 * fungeon_rights.h. */
#include "commands/fungeon/fungeon_rights.h"

#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "rules/base/buf.h"

bool
fungeon_rights_in_play(const struct fungeon_channel *c, int i)
{
	return i >= 0 && i < c->n && !c->m[i].dead && !c->m[i].fresh;
}

bool
fungeon_rights_may_aim(const struct fungeon_channel *c, const char *name,
                       const struct fungeon_part *who, const struct fungeon_part *target,
                       struct reply *out)
{
	struct buf b;
	int n = 0, k = 0;

	if (who->kind == FGP_MEMBER || target->kind == FGP_MEMBER)
		return true;
	if (out == NULL)
		return false;
	for (int i = 0; i < c->n; i++)
		n += fungeon_rights_in_play(c, i);
	buf_init(&b, 256);
	if (n == 0)
		buf_adds(&b, "a Fungeoneer of the party");
	for (int i = 0; i < c->n; i++) {
		if (!fungeon_rights_in_play(c, i))
			continue;
		buf_addf(&b, "%s%s", reply_list_sep((size_t)k++, (size_t)n, " or "), c->m[i].name);
	}
	reply_error(out,
	            "%s is a monster, and its maker is required to have it attack the players: "
	            "aim it at %s, not at %s.",
	            name, buf_str(&b), target->s->name);
	buf_free(&b);
	return false;
}

const char *
fungeon_rights_out_until(const struct fungeon_channel *c)
{
	/* No hallway comes on the way back: there, town is where one comes
	 * back into the game (the Ruling on dying on the way back). */
	return c->d.phase == FUNGEON_RETREAT ? "the party reaches town" : "the next hallway";
}

bool
fungeon_rights_anyone_in_play(const struct fungeon_channel *c)
{
	for (int i = 0; i < c->n; i++)
		if (fungeon_rights_in_play(c, i))
			return true;
	return false;
}

int
fungeon_rights_fallen(const struct fungeon_channel *c, struct buf *b)
{
	int dead = 0, said = 0;

	for (int i = 0; i < c->n; i++)
		dead += c->m[i].dead;
	for (int i = 0; i < c->n; i++)
		if (c->m[i].dead)
			buf_addf(b, "%s%s's %s",
			         said++ == 0    ? ""
			         : said == dead ? " and "
			                        : ", ",
			         c->m[i].player, c->m[i].name);
	return dead;
}

int
fungeon_rights_town_fallen(const struct fungeon_channel *c, struct reply *out, unsigned style)
{
	struct buf b;
	int dead, first = 0;

	buf_init(&b, 1024);
	if ((dead = fungeon_rights_fallen(c, &b)) > 0) {
		while (!c->m[first].dead)
			first++;
		reply_add(out, style, "%s died: %s makes a new Fungeoneer here in town (",
		          buf_str(&b), dead == 1 ? c->m[first].player : "each player");
		reply_cmd(out, style, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		reply_line(out, style, ") before the hallway.");
	}
	buf_free(&b);
	return dead;
}

bool
fungeon_rights_need_in_play(const struct fungeon_channel *c, int i, struct reply *out)
{
	const struct fungeon_member *m = &c->m[i];
	bool nobody = !fungeon_rights_anyone_in_play(c);

	if (m->dead && c->d.phase == FUNGEON_TOWN) {
		reply_error(out, "%s is dead: %s makes a new Fungeoneer here in town (", m->name,
		            m->player);
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		reply_add(out, RS_BAD, ").");
	} else if (m->dead && nobody && c->d.phase == FUNGEON_RETREAT) {
		reply_error(out,
		            "%s is dead, as is every Fungeoneer of the party: any of its players "
		            "takes it on to town (",
		            m->name);
		reply_cmd(out, RS_BAD, "fungeon retreat", NULL);
		reply_add(out, RS_BAD, "), where %s makes a new one.", m->player);
	} else if (m->dead && nobody) {
		/* No hallway comes before the fallen make new Fungeoneers. */
		reply_error(out,
		            "%s is dead, as is every Fungeoneer of the party: %s makes a new one "
		            "first (",
		            m->name, m->player);
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		reply_add(out, RS_BAD,
		          ", level %d), then any of the party goes on to the hallway (",
		          fungeon_replacement_level(fungeon_channel_floor(c)));
		reply_cmd(out, RS_BAD, "fungeon hallway", NULL);
		reply_add(out, RS_BAD, ").");
	} else if (m->dead) {
		reply_error(out, "%s is dead: %s is out of the game until %s.", m->name, m->player,
		            fungeon_rights_out_until(c));
	} else if (m->fresh && nobody && c->d.phase != FUNGEON_RETREAT) {
		reply_error(out,
		            "%s is a replacement: %s is out until the next hallway, where %s joins "
		            "the party; nobody of the party is in play, so any of its players goes "
		            "on to it (",
		            m->name, m->player, m->name);
		reply_cmd(out, RS_BAD, "fungeon hallway", NULL);
		reply_add(out, RS_BAD, ").");
	} else if (m->fresh) {
		reply_error(out,
		            "%s is a replacement: %s is out until %s, where %s joins the party.",
		            m->name, m->player, fungeon_rights_out_until(c), m->name);
	} else {
		return true;
	}
	return false;
}

const struct fungeon_effect *
fungeon_rights_held_by(const struct fungeon_channel *c, int i)
{
	const struct fungeon_member *m = &c->m[i];

	for (int e = 0; e < m->neffects; e++)
		if (m->effects[e].kind == FUNGEON_EFFECT_HOLD &&
		    !fungeon_room_hold_over(&c->d.room, &m->effects[e]))
			return &m->effects[e];
	return NULL;
}

int
fungeon_rights_held_clause(const struct fungeon_channel *c, const int *idx, int n, struct buf *b)
{
	const struct fungeon_effect *h[FUNGEON_PARTY_MAX], *src[FUNGEON_PARTY_MAX];
	int size[FUNGEON_PARTY_MAX] = {0}, group[FUNGEON_PARTY_MAX], groups = 0, held = 0;

	/* one group of names for each source, in the order first met */
	for (int i = 0; i < n; i++) {
		int g = 0;

		if ((h[i] = fungeon_rights_held_by(c, idx[i])) == NULL)
			continue;
		while (g < groups && strcmp(src[g]->source, h[i]->source) != 0)
			g++;
		if (g == groups)
			src[groups++] = h[i];
		group[i] = g;
		size[g]++;
		held++;
	}
	for (int g = 0; g < groups; g++) {
		int k = 0;

		if (g > 0)
			buf_adds(b, g == groups - 1 ? " and " : ", ");
		for (int i = 0; i < n; i++) {
			if (h[i] == NULL || group[i] != g)
				continue;
			buf_addf(b, "%s%s", reply_list_sep((size_t)k++, (size_t)size[g], " and "),
			         c->m[idx[i]].name);
		}
		if (g == 0)
			buf_adds(b, size[g] == 1 ? " is held" : " are held");
		buf_addf(b, " by %s", src[g]->source);
	}
	return held;
}

bool
fungeon_rights_need_all_free(const struct fungeon_channel *c, const int *idx, int n,
                             struct reply *out)
{
	struct buf b;
	int held;

	buf_init(&b, 1024);
	held = fungeon_rights_held_clause(c, idx, n, &b);
	if (held > 0) {
		reply_error(out, "%s and may not act until %s (", buf_str(&b),
		            held == 1 ? "a roll in a combat turn breaks the hold"
		                      : "rolls in combat turns break the holds");
		reply_cmd(out, RS_BAD, "fungeon combat", NULL);
		reply_add(out, RS_BAD, ").");
	}
	buf_free(&b);
	return held == 0;
}

bool
fungeon_rights_need_free(const struct fungeon_channel *c, int i, struct reply *out)
{
	return fungeon_rights_need_all_free(c, &i, 1, out);
}

bool
fungeon_rights_need_invoker_in_play(const struct fungeon_channel *c, const struct invocation *inv,
                                    struct reply *out)
{
	int me = fungeon_channel_member_of(c, inv->from->user_key);

	if (inv->is_gm || me < 0 || fungeon_rights_in_play(c, me))
		return true;
	return fungeon_rights_need_in_play(c, me, out);
}

int
fungeon_rights_director(const struct fungeon_channel *c, const struct fungeon_piece *p)
{
	int i = p->maker[0] ? fungeon_channel_member_of(c, p->maker) : -1;

	return fungeon_rights_in_play(c, i) ? i : -1;
}

bool
fungeon_rights_may_direct(const struct fungeon_channel *c, const struct invocation *inv,
                          const struct fungeon_part *p, struct reply *out)
{
	int me = fungeon_channel_member_of(c, inv->from->user_key), d;

	if (inv->is_gm)
		return true;
	if (p->kind == FGP_MEMBER) {
		if (p->member == me)
			return true;
		if (out != NULL)
			reply_error(out,
			            "%s is %s's Fungeoneer, and each player decides for their own "
			            "(the GM may for anyone).",
			            c->m[p->member].name, c->m[p->member].player);
		return false;
	}
	d = fungeon_rights_director(c, p->s);
	if (d >= 0 && d == me)
		return true;
	if (out == NULL)
		return false;
	if (me >= 0 && !strcmp(p->s->maker, inv->from->user_key))
		fungeon_rights_need_in_play(c, me, out); /* its maker, out of the game */
	else if (d >= 0)
		reply_error(out,
		            "%s is %s's to direct: whoever made a monster directs it (the GM may "
		            "direct any).",
		            p->s->name, c->m[d].player);
	else
		reply_error(out,
		            "Nobody in play directs %s now (its maker has left or is out of the "
		            "game), so it "
		            "follows the defaults; only the GM may direct it.",
		            p->s->name);
	return false;
}

bool
fungeon_rights_may_move(const struct fungeon_channel *c, const struct invocation *inv,
                        enum fungeon_act a, struct reply *out)
{
	int me = fungeon_channel_member_of(c, inv->from->user_key), dead = 0;
	bool anyone = fungeon_rights_anyone_in_play(c);

	if (inv->is_gm)
		return true;
	if (me < 0) {
		reply_error(out, "Only the party's players (or the GM) move the party on; ");
		fungeon_channel_join_how(out, RS_BAD, " makes you one.");
		return false;
	}
	if (c->d.phase == FUNGEON_TOWN || fungeon_rights_in_play(c, me))
		return true;
	/* With the whole party fallen, its players go on to where they come
	 * back into the game: the hallway, or town on the way back. */
	if (!anyone && (a == FUNGEON_ACT_HALLWAY || a == FUNGEON_ACT_ENTER ||
	                (a == FUNGEON_ACT_RETREAT && c->d.phase == FUNGEON_RETREAT)))
		return true;
	if (!anyone && c->d.phase == FUNGEON_RETREAT) {
		reply_error(out,
		            "Nobody of the party is in play on the way back, so nobody fights or "
		            "rolls there: any of its players takes it on to town (");
		reply_cmd(out, RS_BAD, "fungeon retreat", NULL);
		reply_add(out, RS_BAD, ").");
		return false;
	}
	for (int i = 0; i < c->n; i++)
		dead += c->m[i].dead;
	if (!anyone && dead == 0) { /* every fallen player made a new one */
		reply_error(out,
		            "Nobody of the party is in play here until the hallway brings the new "
		            "Fungeoneers in: any of their players goes on to it (");
		reply_cmd(out, RS_BAD, "fungeon hallway", NULL);
		reply_add(out, RS_BAD, ").");
	} else if (!anyone) { /* nobody left to move the party on but the fallen */
		reply_error(out,
		            "Nobody of the party is in play here: each player whose Fungeoneer "
		            "died makes a new one (");
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", NULL);
		reply_add(out, RS_BAD, ", level %d), then any of them goes on to the hallway (",
		          fungeon_replacement_level(fungeon_channel_floor(c)));
		reply_cmd(out, RS_BAD, "fungeon hallway", NULL);
		reply_add(out, RS_BAD, ").");
	} else if (c->m[me].dead)
		reply_error(out,
		            "%s is dead: %s is out of the game until %s, and the players whose "
		            "Fungeoneers are in play move the party on.",
		            c->m[me].name, c->m[me].player, fungeon_rights_out_until(c));
	else
		reply_error(out,
		            "%s waits to join the party %s; until then the players whose "
		            "Fungeoneers are in play move the party on.",
		            c->m[me].name,
		            c->d.phase == FUNGEON_RETREAT ? "when it reaches town"
		                                          : "in the next hallway");
	return false;
}

int
fungeon_rights_wanderers_due(const struct fungeon_channel *c, struct reply *out)
{
	for (int i = 0; i < c->n; i++) {
		if (c->m[i].nwander == 0 || c->m[i].dead)
			continue;
		reply_error(out,
		            "%s has a wandering monster of %lld points to build in room %lld "
		            "first (",
		            c->m[i].player, (long long)c->m[i].wanderer[0],
		            (long long)c->d.room.number);
		reply_cmd(out, RS_BAD, "fungeon monster add", "name", "NAME", "design", "DESIGN",
		          NULL);
		reply_add(out, RS_BAD, ").");
		return -1;
	}
	return 0;
}

int
fungeon_rights_roller(const struct fungeon_channel *c, const char *maker)
{
	int i = maker[0] ? fungeon_channel_member_of(c, maker) : -1;

	return fungeon_rights_in_play(c, i) ? i : -1;
}
