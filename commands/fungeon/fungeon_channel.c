/* fungeon_channel: a channel's Fungeon state and the lookups over it; see
 * fungeon_channel.h. */
#include "commands/fungeon/fungeon_channel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/thwacko_style.h"
#include "rules/base/buf.h"
#include "rules/base/utf8.h"

struct fungeon_channel *
fungeon_channel(struct invocation *inv)
{
	return channel_mod(inv->chan, CHANMOD_FUNGEON);
}

const struct fungeon_channel *
fungeon_channel_peek(const struct channel *ch)
{
	return channel_mod_peek(ch, CHANMOD_FUNGEON);
}

const char *
fungeon_channel_act_command(enum fungeon_act a)
{
	switch (a) {
	case FUNGEON_ACT_ENTRANCE:
		return "fungeon entrance";
	case FUNGEON_ACT_HALLWAY:
		return "fungeon hallway";
	case FUNGEON_ACT_PICK:
		return "fungeon pick";
	case FUNGEON_ACT_ENTER:
		return "fungeon enter";
	case FUNGEON_ACT_COMBAT:
		return "fungeon combat";
	case FUNGEON_ACT_RETREAT:
		return "fungeon retreat";
	case FUNGEON_ACT_JOIN:
		return "fungeon join";
	default:
		return NULL;
	}
}

/* Appends to a refusal pointing at the command of act `instead` what
 * must come before that command can run, when this party cannot run it
 * yet: new Fungeoneers after the whole party fell in the dungeon, or the
 * wandering monsters of the way back. */
static void
what_first(const struct fungeon_channel *c, enum fungeon_act instead, struct reply *out)
{
	const struct fungeon_dungeon *d = &c->d;
	int dead = 0, due = 0;

	for (int i = 0; i < c->n; i++) {
		dead += c->m[i].dead;
		due += c->m[i].dead ? 0 : c->m[i].nwander;
	}
	if ((d->phase == FUNGEON_ROOM || d->phase == FUNGEON_HALLWAY) &&
	    !fungeon_rights_anyone_in_play(c)) {
		/* a hallway waiting to run again says so in its own refusal */
		if (dead > 0 &&
		    ((instead == FUNGEON_ACT_HALLWAY && !fungeon_dungeon_hallway_again(d)) ||
		     instead == FUNGEON_ACT_RETREAT)) {
			reply_add(out, RS_BAD,
			          ", once each player whose Fungeoneer died has made a new one (");
			reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS",
			          NULL);
			reply_add(out, RS_BAD, ")%s",
			          instead == FUNGEON_ACT_RETREAT ? " and the hallway has run" : "");
		} else if (instead == FUNGEON_ACT_RETREAT) {
			reply_add(out, RS_BAD,
			          ", once the hallway has brought the new Fungeoneers in (");
			reply_cmd(out, RS_BAD, "fungeon hallway", NULL);
			reply_add(out, RS_BAD, ")");
		}
	} else if (d->phase == FUNGEON_RETREAT && instead == FUNGEON_ACT_RETREAT && due > 0) {
		reply_add(out, RS_BAD, ", once the wandering monsters due in room %lld are built (",
		          (long long)d->room.number);
		reply_cmd(out, RS_BAD, "fungeon monster add", "name", "NAME", "design", "DESIGN",
		          NULL);
		reply_add(out, RS_BAD, ") and beaten");
	} else if (d->phase == FUNGEON_RETREAT && instead == FUNGEON_ACT_RETREAT &&
	           fungeon_room_standing(&d->room) > 0 && fungeon_rights_anyone_in_play(c)) {
		reply_add(out, RS_BAD,
		          ", once the wandering monsters standing in room %lld are beaten (",
		          (long long)d->room.number);
		reply_cmd(out, RS_BAD, "fungeon combat", NULL);
		reply_add(out, RS_BAD, ")");
	}
}

bool
fungeon_channel_may(const struct fungeon_channel *c, enum fungeon_act a, struct reply *out)
{
	struct fungeon_refusal r;
	const char *cmd;

	if (fungeon_dungeon_may(&c->d, a, &r) == 0)
		return true;
	if (c->n == 0 && c->d.phase == FUNGEON_TOWN) { /* no party to be anywhere */
		reply_error(out, "No party here yet: ");
		fungeon_channel_join_how(out, RS_BAD, " makes the first Fungeoneer.");
		return false;
	}
	cmd = fungeon_channel_act_command(r.instead);
	if (cmd == NULL) {
		reply_error(out, "%s", r.why);
		return false;
	}
	reply_error(out, "%s ", r.why);
	reply_cmd(out, RS_BAD, cmd, NULL);
	what_first(c, r.instead, out);
	reply_add(out, RS_BAD, ".");
	return false;
}

struct fungeon_member *
fungeon_channel_member_add(struct fungeon_channel *c, const struct thwacko_style *style)
{
	c->m = fungeon_array_grow(c->m, c->n, sizeof(*c->m));
	c->style = fungeon_array_grow(c->style, c->n, sizeof(*c->style));
	c->style[c->n] = *style;
	return &c->m[c->n++];
}

void
fungeon_channel_member_remove(struct fungeon_channel *c, int i)
{
	if (i < 0 || i >= c->n)
		return;
	fungeon_member_free(&c->m[i]);
	c->m = fungeon_array_drop(c->m, c->n, i, sizeof(*c->m));
	c->style = fungeon_array_drop(c->style, c->n, i, sizeof(*c->style));
	c->n--;
	fungeon_room_member_gone(&c->d.room, i);
}

void
fungeon_channel_free(struct fungeon_channel *c)
{
	if (c == NULL)
		return;
	for (int i = 0; i < c->n; i++)
		fungeon_member_free(&c->m[i]);
	free(c->m);
	free(c->style);
	fungeon_dungeon_clear(&c->d);
	free(c->fallen);
	free(c);
}

size_t
fungeon_channel_bytes(const struct fungeon_channel *c)
{
	size_t n = sizeof(*c) + (size_t)c->n * (sizeof(c->m[0]) + sizeof(c->style[0]));

	for (int i = 0; i < c->n; i++)
		n += (size_t)c->m[i].nitems * sizeof(c->m[i].items[0]) +
		     (size_t)c->m[i].neffects * sizeof(c->m[i].effects[0]);
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		n += (size_t)c->d.room.n[k] * sizeof(c->d.room.p[k][0]);
	return n + (size_t)c->nfallen * sizeof(c->fallen[0]);
}

int
fungeon_channel_member_of(const struct fungeon_channel *c, const char *user_key)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->m[i].user_key, user_key) == 0)
			return i;
	return -1;
}

int
fungeon_channel_member_named(const struct fungeon_channel *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->m[i].name, name) == 0)
			return i;
	for (int i = 0; i < c->n; i++)
		if (utf8_casecmp(c->m[i].name, name) == 0)
			return i;
	for (int i = 0; i < c->n; i++)
		if (utf8_casecmp(c->m[i].player, name) == 0)
			return i;
	return -1;
}

int
fungeon_channel_called(const struct fungeon_channel *c, const char *name, int but)
{
	for (int i = 0; i < c->n; i++)
		if (i != but && utf8_casecmp(c->m[i].name, name) == 0)
			return i;
	return -1;
}

int
fungeon_channel_strands(const struct fungeon_channel *c, int j, const char *player, int *k)
{
	int i = fungeon_channel_called(c, player, j);

	if (i < 0)
		return -1;
	/* i's other name, its player's */
	*k = fungeon_channel_called(c, c->m[i].player, i);
	if (*k >= 0)
		return i;
	if (j < 0)
		return -1;
	/* j's own Fungeoneer, whose player's name player is i's Fungeoneer's */
	for (int l = 0; l < c->n; l++) {
		if (l != j && utf8_casecmp(c->m[l].player, c->m[j].name) == 0) {
			*k = i;
			return j;
		}
	}
	return -1;
}

bool
fungeon_channel_name_clash(const struct fungeon_channel *c, int i, const char *name,
                           struct reply *out)
{
	if (i < 0 || utf8_casecmp(c->m[i].name, name) != 0)
		return false;
	for (int j = 0; j < c->n; j++) {
		if (j == i || utf8_casecmp(c->m[j].player, name) != 0)
			continue;
		reply_error(out,
		            "'%.40s' names two here, %s's Fungeoneer %s and the player %s, whose "
		            "Fungeoneer is %s; say %s for the first or %s for the second.",
		            name, c->m[i].player, c->m[i].name, c->m[j].player, c->m[j].name,
		            c->m[i].player, c->m[j].name);
		return true;
	}
	return false;
}

struct fungeon_piece *
fungeon_channel_piece(struct fungeon_channel *c, enum fungeon_kind k, const char *name)
{
	return fungeon_room_find(&c->d.room, k, name);
}

bool
fungeon_channel_name_used(const struct fungeon_channel *c, const char *name, const char *self,
                          struct reply *out)
{
	for (int i = 0; i < c->n; i++) {
		bool me = self != NULL && strcmp(c->m[i].user_key, self) == 0;

		if (!me && utf8_casecmp(c->m[i].name, name) == 0) {
			reply_error(out,
			            "The name %s is taken here by %s's Fungeoneer; pick another.",
			            name, c->m[i].player);
			return true;
		}
		if (!me && utf8_casecmp(c->m[i].player, name) == 0) {
			reply_error(
			    out,
			    "The name %s is a player's here (%s), and names are looked up as "
			    "Fungeoneers first; pick another.",
			    name, c->m[i].player);
			return true;
		}
	}
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		if (fungeon_room_find(&c->d.room, (enum fungeon_kind)k, name) != NULL) {
			reply_error(out,
			            "The name %s is taken here by a %s of the room; pick another.",
			            name, fungeon_cost_kind_name((enum fungeon_kind)k));
			return true;
		}
	}
	return false;
}

void
fungeon_channel_list_members(const struct fungeon_channel *c, struct buf *b)
{
	if (c->n == 0)
		buf_adds(b, "nobody yet");
	for (int i = 0; i < c->n; i++)
		buf_addf(b, "%s%s (%s)", i ? ", " : "", c->m[i].name, c->m[i].player);
}

void
fungeon_channel_list_pieces(const struct fungeon_channel *c, enum fungeon_kind k, struct buf *b)
{
	const struct fungeon_room *r = &c->d.room;

	if (r->n[k] == 0)
		buf_adds(b, "none");
	for (int i = 0; i < r->n[k]; i++)
		buf_addf(b, "%s%s", i ? ", " : "", r->p[k][i].name);
}

void
fungeon_channel_party(const struct fungeon_channel *c, struct fungeon_party *p)
{
	fungeon_party_math(c->m, c->n, p);
}

int
fungeon_channel_floor(const struct fungeon_channel *c)
{
	struct fungeon_party p;

	if (c->d.phase != FUNGEON_TOWN)
		return c->d.floor;
	fungeon_channel_party(c, &p);
	return fungeon_floor(0, &p);
}

/* The budgets of the room, or, with none yet, those the party would have
 * now; *p gets the party figures they count. */
static void
budgets_of(const struct fungeon_channel *c, struct fungeon_budgets *b, struct fungeon_party *p,
           int *floor)
{
	if (c->d.room.number > 0 && c->d.phase != FUNGEON_RETREAT) {
		*b = c->d.room.budgets;
		*p = c->d.room.party;
		*floor = c->d.room.floor;
		return;
	}
	fungeon_channel_party(c, p);
	*floor = fungeon_channel_floor(c);
	fungeon_budgets(p, *floor, b);
}

int64_t
fungeon_channel_budget(const struct fungeon_channel *c, enum fungeon_kind k)
{
	struct fungeon_budgets b;
	struct fungeon_party p;
	int floor;

	budgets_of(c, &b, &p, &floor);
	return k == FUNGEON_TRAP ? b.traps : k == FUNGEON_MONSTER ? b.monsters : b.treasure;
}

int64_t
fungeon_channel_spent(const struct fungeon_channel *c, enum fungeon_kind k)
{
	return fungeon_room_spent(&c->d.room, k);
}

void
fungeon_channel_fallen_add(struct fungeon_channel *c, const char *user_key)
{
	if (fungeon_channel_fallen(c, user_key))
		return;
	if (c->nfallen == FUNGEON_FALLEN_MAX)
		c->fallen = fungeon_array_drop(c->fallen, c->nfallen--, 0, sizeof(c->fallen[0]));
	c->fallen = fungeon_array_grow(c->fallen, c->nfallen, sizeof(c->fallen[0]));
	snprintf(c->fallen[c->nfallen++], sizeof(c->fallen[0]), "%s", user_key);
}

void
fungeon_channel_fallen_clear(struct fungeon_channel *c)
{
	free(c->fallen);
	c->fallen = NULL;
	c->nfallen = 0;
}

bool
fungeon_channel_fallen(const struct fungeon_channel *c, const char *user_key)
{
	for (int i = 0; i < c->nfallen; i++)
		if (strcmp(c->fallen[i], user_key) == 0)
			return true;
	return false;
}

void
fungeon_channel_dead_before(const struct fungeon_channel *c, bool *dead)
{
	for (int i = 0; i < c->n; i++)
		dead[i] = c->m[i].dead;
}

int
fungeon_channel_deaths(struct fungeon_channel *c, const bool *dead_before)
{
	int n = 0;

	for (int i = 0; i < c->n; i++) {
		if (!c->m[i].dead || dead_before[i])
			continue;
		fungeon_room_leave_items(&c->d.room, &c->m[i]);
		if (c->d.phase != FUNGEON_TOWN)
			fungeon_channel_fallen_add(c, c->m[i].user_key);
		fungeon_channel_orders_lapse(c, i);
		n++;
	}
	fungeon_channel_orders_lapse(c, -1);
	return n;
}

/* Forgets every standing aim at the participant called name (an aim holds
 * its target's own name, so another that folds alike keeps its own). */
static void
unaim(struct fungeon_channel *c, const char *name)
{
	struct fungeon_room *r = &c->d.room;

	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->m[i].aim, name))
			c->m[i].aim[0] = '\0';
	for (int i = 0; i < r->n[FUNGEON_MONSTER]; i++)
		if (!strcmp(r->p[FUNGEON_MONSTER][i].aim, name))
			r->p[FUNGEON_MONSTER][i].aim[0] = '\0';
}

void
fungeon_channel_orders_lapse(struct fungeon_channel *c, int gone)
{
	struct fungeon_room *r = &c->d.room;

	if (gone >= 0) {
		c->m[gone].aim[0] = '\0';
		unaim(c, c->m[gone].name);
	}
	for (int i = 0; i < r->n[FUNGEON_MONSTER]; i++) {
		struct fungeon_piece *p = &r->p[FUNGEON_MONSTER][i];

		if (p->hits <= 0)
			unaim(c, p->name);
		if (p->hits <= 0 || (gone >= 0 && !strcmp(p->maker, c->m[gone].user_key)))
			p->aim[0] = p->use[0] = '\0';
	}
}

int
fungeon_channel_lift_holds(struct fungeon_channel *c, struct reply *out)
{
	int n = 0;

	for (int i = 0; i < c->n; i++) {
		for (int e = 0; e < c->m[i].neffects;) {
			const struct fungeon_effect *ef = &c->m[i].effects[e];
			const char *slash = strchr(ef->source, '/');

			if (!fungeon_room_hold_over(&c->d.room, ef)) {
				e++;
				continue;
			}
			reply_add(out, RS_GOOD, "%s is free of %s's hold: %.*s is defeated.",
			          c->m[i].name, ef->source,
			          slash != NULL ? (int)(slash - ef->source)
			                        : (int)strlen(ef->source),
			          ef->source);
			/* Its continuous damage goes on, as a trap's does (line
			 * 177): only an Annoy roll or magic ends it. */
			for (int d = 0; d < c->m[i].neffects; d++)
				if (c->m[i].effects[d].kind == FUNGEON_EFFECT_DAMAGE &&
				    !strcmp(c->m[i].effects[d].source, ef->source))
					reply_add(
					    out, 0,
					    " Its continuous damage goes on until a successful "
					    "Annoy roll or magic ends it.");
			reply_nl(out);
			fungeon_effect_remove(&c->m[i], e);
			n++;
		}
	}
	return n;
}

int
fungeon_channel_holder(const struct fungeon_channel *c, enum fungeon_category cat)
{
	return fungeon_room_holder(&c->d.room, cat);
}

void
fungeon_channel_new_room(struct fungeon_channel *c)
{
	for (int i = 0; i < c->n; i++)
		c->m[i].aim[0] = '\0';
}

static bool
mark_taken(const struct thwacko_style *taken, int n, const char *mark)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(taken[i].mark, mark))
			return true;
	return false;
}

void
fungeon_channel_styles(const struct fungeon_channel *c, struct state *st, struct thwacko_style *out)
{
	struct thwacko_style taken[FUNGEON_PARTY_MAX];
	bool chosen[FUNGEON_PARTY_MAX];
	int nt = 0;

	for (int i = 0; i < c->n; i++) {
		const struct user *u = state_user_find(st, c->m[i].user_key);
		const struct thwacko_style *mine = u != NULL ? user_style(u) : NULL;

		chosen[i] = mine != NULL;
		out[i] = mine != NULL ? *mine : c->style[i];
	}
	/* Defaults first, then chosen styles, each in joining order: a die
	 * whose mark one placed before it has takes its party default, or
	 * failing that the first free one. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < c->n; i++) {
			if (chosen[i] != (pass == 1))
				continue;
			if (mark_taken(taken, nt, out[i].mark)) {
				if (chosen[i] && !mark_taken(taken, nt, c->style[i].mark))
					out[i] = c->style[i];
				else
					thwacko_style_distinct(c->m[i].user_key, taken, nt,
					                       &out[i]);
			}
			taken[nt++] = out[i];
		}
	}
}

void
fungeon_channel_new_style(const struct fungeon_channel *c, struct state *st, const char *user_key,
                          struct thwacko_style *out)
{
	struct thwacko_style taken[FUNGEON_PARTY_MAX];

	fungeon_channel_styles(c, st, taken);
	thwacko_style_distinct(user_key, taken, c->n, out);
}

/* The error reply for a word of len bytes at s too long for a name. */
static void
too_long_name(const char *s, size_t len, struct reply *out)
{
	char word[4 * FUNGEON_NAME_CHARS + 8], quoted[4 * FUNGEON_NAME_CHARS + 4];
	size_t n = utf8_cut(s, len, sizeof(word) - 1);

	memcpy(word, s, n);
	word[n] = '\0';
	n = utf8_cut_text(word, n, utf8_prefix(word, n, FUNGEON_NAME_CHARS));
	snprintf(quoted, sizeof(quoted), "%.*s%s", (int)n, word, word[n] != '\0' ? "…" : "");
	reply_error(out, "'%s' is too long: a name is at most %d characters.", quoted,
	            FUNGEON_NAME_CHARS);
}

int
fungeon_channel_split_names(const char *s, char words[][FUNGEON_NAME_MAX * 2 + 2], int max,
                            struct reply *out)
{
	int n = 0;

	while (s != NULL && *s) {
		size_t len;

		while (*s == ' ' || *s == ',' || *s == '\t')
			s++;
		len = strcspn(s, " ,\t");
		if (len == 0)
			break;
		if (n == max || len > FUNGEON_NAME_MAX * 2 + 1) {
			if (out != NULL && n == max)
				reply_error(out,
				            "That names more than %d participants; name at "
				            "most %d.",
				            max, max);
			else if (out != NULL)
				too_long_name(s, len, out);
			return -1;
		}
		memcpy(words[n], s, len);
		words[n][len] = '\0';
		n++;
		s += len;
	}
	return n;
}

int
fungeon_channel_members_named(const struct fungeon_channel *c, const char *who, int *idx,
                              struct reply *out)
{
	char w[FUNGEON_PARTY_MAX][FUNGEON_NAME_MAX * 2 + 2];
	int n = 0, k;

	if (who == NULL) {
		for (int i = 0; i < c->n; i++)
			if (fungeon_rights_in_play(c, i))
				idx[n++] = i;
		return n;
	}
	k = fungeon_channel_split_names(who, w, FUNGEON_PARTY_MAX, out);
	for (int i = 0; i < k; i++) {
		idx[n] = fungeon_channel_need_member(c, w[i], out);
		if (idx[n] < 0)
			return -1;
		n++;
	}
	return k;
}

bool
fungeon_channel_bonus_for(const struct fungeon_channel *c, const char *bonus, int i,
                          const char *type)
{
	char w[CF_GROUPS_MAX][FUNGEON_NAME_MAX * 2 + 2];
	int n;

	if (fungeon_class_fits(&c->m[i], type))
		return true;
	if (bonus == NULL)
		return false;
	n = fungeon_channel_split_names(bonus, w, CF_GROUPS_MAX,
	                                NULL); /* checked by fungeon_channel_bonus_check */
	for (int k = 0; k < n; k++)
		if (!strcasecmp(w[k], "all") || fungeon_channel_member_named(c, w[k]) == i)
			return true;
	return false;
}

int
fungeon_channel_bonus_check(const struct fungeon_channel *c, const char *bonus, struct reply *out)
{
	char w[CF_GROUPS_MAX][FUNGEON_NAME_MAX * 2 + 2];
	int n;

	if (bonus == NULL)
		return 0;
	n = fungeon_channel_split_names(bonus, w, CF_GROUPS_MAX, out);
	if (n < 0)
		return -1;
	if (n == 0) {
		reply_error(out, "bonus: needs the names of those whose class fits, or all.");
		return -1;
	}
	for (int k = 0; k < n; k++)
		if (strcasecmp(w[k], "all") != 0 && fungeon_channel_need_member(c, w[k], out) < 0)
			return -1;
	return 0;
}

int
fungeon_channel_need_member(const struct fungeon_channel *c, const char *name, struct reply *out)
{
	int i = fungeon_channel_member_named(c, name);
	struct buf b;

	for (int j = i + 1; i >= 0 && j < c->n; j++) {
		/* two names saved before names were folded in full (ﬁre, FIRE),
		 * neither spelled as typed: which one is meant is not known */
		if (strcmp(c->m[i].name, name) == 0 || utf8_casecmp(c->m[j].name, name) != 0)
			continue;
		reply_error(
		    out,
		    "Both %s's %s and %s's %s read as '%.40s' here (names saved before they "
		    "were compared folded); name one by its player, %s or %s.",
		    c->m[i].player, c->m[i].name, c->m[j].player, c->m[j].name, name,
		    c->m[i].player, c->m[j].player);
		return -1;
	}
	if (fungeon_channel_name_clash(c, i, name, out))
		return -1;
	if (i >= 0)
		return i;
	if (fungeon_channel_option_word(name, out))
		return -1;
	buf_init(&b, 1000);
	fungeon_channel_list_members(c, &b);
	reply_error(out, "There is no Fungeoneer or player '%.40s' here; the party is %s.", name,
	            buf_str(&b));
	buf_free(&b);
	if (c->n == 0) {
		reply_add(out, RS_BAD, " ");
		fungeon_channel_join_how(out, RS_BAD, " makes one.");
	}
	return -1;
}

bool
fungeon_channel_option_word(const char *word, struct reply *out)
{
	if (strchr(word, ':') == NULL)
		return false;
	reply_error(out,
	            "'%.40s' reads as an option this command does not have, as no name holds a "
	            "colon; /help fungeon lists each command's options.",
	            word);
	return true;
}

void
fungeon_channel_join_how(struct reply *out, unsigned style, const char *tail)
{
	reply_cmd(out, style, "fungeon join", "name", "NAME", "class", "CLASS", "level", "LEVEL",
	          NULL);
	reply_add(out, style, "%s", tail);
}

int
fungeon_channel_need_self(const struct fungeon_channel *c, const struct invocation *inv,
                          struct reply *out)
{
	int i = fungeon_channel_member_of(c, inv->from->user_key);

	if (i < 0) {
		reply_error(out, "You have no Fungeoneer here; ");
		fungeon_channel_join_how(out, RS_BAD, " makes one.");
	}
	return i;
}

void
fungeon_channel_budget_line(struct reply *out, const struct fungeon_channel *c, enum fungeon_kind k,
                            int64_t extra)
{
	static const char *const what[] = {"Party Max", "Party Total", "Party Min"};
	static const char *const label[] = {"Traps", "Monsters", "Treasure"};
	struct fungeon_budgets b;
	struct fungeon_party p, now;
	int floor;
	int64_t budget, spent = fungeon_channel_spent(c, k);
	int base, base_now;

	if (fungeon_dungeon_hallway_again(&c->d)) {
		reply_add(out, 0, "Room %lld's %s budget is counted when its hallway runs again (",
		          (long long)c->d.room.number, label[k]);
		reply_cmd(out, 0, "fungeon hallway", NULL);
		reply_line(out, 0, ").");
		return;
	}
	budgets_of(c, &b, &p, &floor);
	fungeon_party_in_play(c->m, c->n, &now);
	budget = k == FUNGEON_TRAP ? b.traps : k == FUNGEON_MONSTER ? b.monsters : b.treasure;
	base = k == FUNGEON_TRAP ? p.max : k == FUNGEON_MONSTER ? p.total : p.min;
	base_now = k == FUNGEON_TRAP ? now.max : k == FUNGEON_MONSTER ? now.total : now.min;
	reply_add(out, 0, "%s budget %s: ", label[k],
	          c->d.phase == FUNGEON_HALLWAY || c->d.phase == FUNGEON_ROOM ? "this room"
	                                                                      : "of a room now");
	reply_add(out, RS_BOLD, "%lld", (long long)budget);
	reply_add(out, 0, " (%s %d%s + floor %d); spent %lld", what[k], base,
	          base != base_now ? " as the hallway counted it" : "", floor, (long long)spent);
	if (extra > 0)
		reply_add(out, 0, ", this design %lld", (long long)extra);
	if (budget - spent - extra < 0) {
		reply_add(out, 0, ", over budget by ");
		reply_add(out, RS_BAD | RS_BOLD, "%lld", (long long)(spent + extra - budget));
	} else {
		reply_add(out, 0, ", left ");
		reply_add(out, RS_BOLD, "%lld", (long long)(budget - spent - extra));
	}
	reply_add(out, 0, ".");
	reply_nl(out);
}

const char *
fungeon_channel_dice_word(int64_t n)
{
	return n == 1 ? "die" : "dice";
}
