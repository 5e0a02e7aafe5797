/* fungeon_channel: a channel's Fungeon state and the lookups over it; see
 * fungeon_channel.h. */
#include "commands/fungeon/fungeon_channel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/thwacko_style.h"
#include "rules/base/buf.h"

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

struct fungeon_member *
fungeon_channel_member_add(struct fungeon_channel *c)
{
	c->m = fungeon_array_grow(c->m, c->n, sizeof(*c->m));
	return &c->m[c->n++];
}

void
fungeon_channel_member_remove(struct fungeon_channel *c, int i)
{
	if (i < 0 || i >= c->n)
		return;
	fungeon_member_free(&c->m[i]);
	c->m = fungeon_array_drop(c->m, c->n, i, sizeof(*c->m));
	c->n--;
	for (int k = 0; k < c->norder;) { /* the choosing order follows */
		if (c->order[k] == i) {
			memmove(&c->order[k], &c->order[k + 1],
			        (size_t)(c->norder - k - 1) * sizeof(c->order[0]));
			c->norder--;
			continue;
		}
		if (c->order[k] > i)
			c->order[k]--;
		k++;
	}
}

struct fungeon_stored *
fungeon_channel_design_add(struct fungeon_channel *c, enum fungeon_kind k)
{
	c->d[k] = fungeon_array_grow(c->d[k], c->nd[k], sizeof(*c->d[k]));
	return &c->d[k][c->nd[k]++];
}

void
fungeon_channel_design_remove(struct fungeon_channel *c, enum fungeon_kind k, int i)
{
	if (i < 0 || i >= c->nd[k])
		return;
	c->d[k] = fungeon_array_drop(c->d[k], c->nd[k], i, sizeof(*c->d[k]));
	c->nd[k]--;
}

void
fungeon_channel_free(struct fungeon_channel *c)
{
	if (c == NULL)
		return;
	for (int i = 0; i < c->n; i++)
		fungeon_member_free(&c->m[i]);
	free(c->m);
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		free(c->d[k]);
	free(c->fallen);
	free(c);
}

size_t
fungeon_channel_bytes(const struct fungeon_channel *c)
{
	size_t n = sizeof(*c) + (size_t)c->n * sizeof(c->m[0]);

	for (int i = 0; i < c->n; i++)
		n += (size_t)c->m[i].nitems * sizeof(c->m[i].items[0]) +
		     (size_t)c->m[i].neffects * sizeof(c->m[i].effects[0]);
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		n += (size_t)c->nd[k] * sizeof(c->d[k][0]);
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
		if (strcasecmp(c->m[i].name, name) == 0)
			return i;
	for (int i = 0; i < c->n; i++)
		if (strcasecmp(c->m[i].player, name) == 0)
			return i;
	return -1;
}

struct fungeon_stored *
fungeon_channel_design(struct fungeon_channel *c, enum fungeon_kind k, const char *name)
{
	for (int i = 0; i < c->nd[k]; i++)
		if (strcasecmp(c->d[k][i].name, name) == 0)
			return &c->d[k][i];
	return NULL;
}

bool
fungeon_channel_name_used(const struct fungeon_channel *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (strcasecmp(c->m[i].name, name) == 0)
			return true;
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		for (int i = 0; i < c->nd[k]; i++)
			if (strcasecmp(c->d[k][i].name, name) == 0)
				return true;
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
fungeon_channel_list_designs(const struct fungeon_channel *c, enum fungeon_kind k, struct buf *b)
{
	if (c->nd[k] == 0)
		buf_adds(b, "none");
	for (int i = 0; i < c->nd[k]; i++)
		buf_addf(b, "%s%s", i ? ", " : "", c->d[k][i].name);
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

	fungeon_channel_party(c, &p);
	return fungeon_floor(c->floor, &p);
}

int64_t
fungeon_channel_budget(const struct fungeon_channel *c, enum fungeon_kind k)
{
	struct fungeon_party p;
	struct fungeon_budgets b = c->room;

	if (c->rooms == 0) { /* before the first hallway: the party as it is */
		fungeon_channel_party(c, &p);
		fungeon_budgets(&p, fungeon_floor(c->floor, &p), &b);
	}
	return k == FUNGEON_TRAP ? b.traps : k == FUNGEON_MONSTER ? b.monsters : b.treasure;
}

int
fungeon_channel_leave_behind(struct fungeon_channel *c, int i)
{
	struct fungeon_member *m = &c->m[i];
	int lost = 0;

	while (m->nitems > 0) {
		const struct fungeon_item *it = &m->items[0];
		struct fungeon_stored *s = fungeon_channel_design(c, FUNGEON_TREASURE, it->name);

		if (s == NULL && c->nd[FUNGEON_TREASURE] < FUNGEON_DESIGNS_MAX &&
		    !fungeon_channel_name_used(c, it->name)) {
			s = fungeon_channel_design_add(c, FUNGEON_TREASURE);
			snprintf(s->name, sizeof(s->name), "%s", it->name);
			s->d = it->d;
			s->cost = it->cost;
		}
		if (s == NULL) {
			lost++;
		} else {
			s->taken[0] = '\0';
			s->left = true;
		}
		fungeon_item_remove(m, 0);
	}
	return lost;
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
fungeon_channel_picks(const struct fungeon_channel *c, struct fungeon_picks *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < c->norder; i++)
		p->order[p->n++] = c->order[i];
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		p->holder[k] = fungeon_channel_holder(c, (enum fungeon_category)k);
	p->made = c->picks_made;
}

void
fungeon_channel_picks_store(struct fungeon_channel *c, const struct fungeon_picks *p)
{
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		if (p->holder[k] >= 0)
			memcpy(c->holder[k], c->m[p->holder[k]].user_key, sizeof(c->holder[k]));
		else
			c->holder[k][0] = '\0';
	}
	c->picks_made = p->made;
}

int64_t
fungeon_channel_spent(const struct fungeon_channel *c, enum fungeon_kind k)
{
	int64_t s = 0;

	for (int i = 0; i < c->nd[k]; i++)
		if (c->d[k][i].room)
			s += c->d[k][i].cost;
	return s;
}

int
fungeon_channel_holder(const struct fungeon_channel *c, enum fungeon_category cat)
{
	return c->holder[cat][0] ? fungeon_channel_member_of(c, c->holder[cat]) : -1;
}

int
fungeon_channel_roller(const struct fungeon_channel *c, enum fungeon_category cat,
                       const struct invocation *inv)
{
	int h = fungeon_channel_holder(c, cat);

	return h >= 0 || inv == NULL ? h : fungeon_channel_member_of(c, inv->from->user_key);
}

void
fungeon_channel_styles(const struct fungeon_channel *c, struct state *st, struct thwacko_style *out)
{
	const char *keys[FUNGEON_PARTY_MAX];
	const struct thwacko_style *chosen[FUNGEON_PARTY_MAX];

	for (int i = 0; i < c->n; i++) {
		const struct user *u = state_user_find(st, c->m[i].user_key);

		keys[i] = c->m[i].user_key;
		chosen[i] = u != NULL ? user_style(u) : NULL;
	}
	thwacko_style_party(keys, chosen, c->n, out);
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
				reply_error(out,
				            "'%.20s…' is too long for a name; names are at "
				            "most %d characters.",
				            s, FUNGEON_NAME_MAX);
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
			if (!c->m[i].dead &&
			    !c->m[i].fresh) /* a replacement waits for the hallway */
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
fungeon_channel_bonus_for(const struct fungeon_channel *c, const char *bonus, int i)
{
	char w[CF_GROUPS_MAX][FUNGEON_NAME_MAX * 2 + 2];
	int n;

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

	if (i >= 0)
		return i;
	buf_init(&b, 1000);
	fungeon_channel_list_members(c, &b);
	reply_error(out, "There is no Fungeoneer or player '%.40s' here; the party is %s.", name,
	            buf_str(&b));
	buf_free(&b);
	if (c->n == 0) {
		reply_add(out, RS_BAD, " ");
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", "level",
		          "LEVEL", NULL);
		reply_add(out, RS_BAD, " makes one.");
	}
	return -1;
}

int
fungeon_channel_need_self(const struct fungeon_channel *c, const struct invocation *inv,
                          struct reply *out)
{
	int i = fungeon_channel_member_of(c, inv->from->user_key);

	if (i < 0) {
		reply_error(out, "You have no Fungeoneer here; ");
		reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS", "level",
		          "LEVEL", NULL);
		reply_add(out, RS_BAD, " makes one.");
	}
	return i;
}

void
fungeon_channel_budget_line(struct reply *out, const struct fungeon_channel *c, enum fungeon_kind k,
                            int64_t extra)
{
	static const char *const what[] = {"Party Max", "Party Total", "Party Min"};
	static const char *const label[] = {"Traps", "Monsters", "Treasure"};
	struct fungeon_party p;
	int64_t budget = fungeon_channel_budget(c, k), spent = fungeon_channel_spent(c, k);
	int base;

	fungeon_channel_party(c, &p);
	base = k == FUNGEON_TRAP ? p.max : k == FUNGEON_MONSTER ? p.total : p.min;
	reply_add(out, 0, "%s budget this room: ", label[k]);
	reply_add(out, RS_BOLD, "%lld", (long long)budget);
	reply_add(out, 0, " (%s %d + floor %d); spent %lld", what[k], base,
	          fungeon_channel_floor(c), (long long)spent);
	if (extra > 0)
		reply_add(out, 0, ", this design %lld", (long long)extra);
	reply_add(out, 0, ", left ");
	reply_add(out, budget - spent - extra < 0 ? RS_BAD | RS_BOLD : RS_BOLD, "%lld",
	          (long long)(budget - spent - extra));
	reply_add(out, 0, ".");
	reply_nl(out);
}
