/* tables_use: the tables a channel's rolls use; see tables_use.h. */
#include "commands/tables/tables_use.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/procedure/procedure_state.h"
#include "commands/tables/tables_state.h"
#include "commands/tension/tension_state.h"
#include "rules/base/mem.h"
#include "rules/tables/roll_table_name.h"

static const struct roll_table *
find_fn(void *ctx, const char *name)
{
	return tables_lookup_find(ctx, name);
}

void
tables_lookup_init(struct tables_lookup *tl, const struct channel *ch)
{
	memset(tl, 0, sizeof(*tl));
	tl->lk.find = find_fn;
	tl->lk.ctx = tl;
	tl->ch = ch;
}

const struct roll_table *
tables_lookup_find(struct tables_lookup *tl, const char *name)
{
	const struct tables_state *s = tables_state_peek(tl->ch);
	struct roll_table *t = NULL;
	int i, k;

	for (size_t j = 0; j < tl->n; j++)
		if (strcmp(tl->seen[j].name, name) == 0)
			return tl->seen[j].t;
	if (tables_lookup_withheld(tl, name))
		return NULL;
	if ((i = tables_state_find(s, name)) >= 0) {
		t = xmalloc(sizeof(*t));
		tables_state_get(s, (size_t)i, t);
	} else if ((k = tension_table_find(name)) >= 0) {
		t = xmalloc(sizeof(*t));
		tension_state_table(tl->ch, (enum tension_table)k, t);
	}
	/* A roll asks for at most ROLL_TABLE_ROLLS_MAX tables; past the room
	 * kept, a table is not found (the reference stays as written). */
	if (tl->n == sizeof(tl->seen) / sizeof(tl->seen[0])) {
		free(t);
		return NULL;
	}
	snprintf(tl->seen[tl->n].name, sizeof(tl->seen[tl->n].name), "%s", name);
	tl->seen[tl->n++].t = t;
	return t;
}

void
tables_lookup_clear(struct tables_lookup *tl)
{
	for (size_t j = 0; j < tl->n; j++)
		free(tl->seen[j].t);
	tl->n = 0;
}

bool
tables_lookup_withheld(const struct tables_lookup *tl, const char *name)
{
	return tl->screen && tension_state_hidden(tl->ch) && tables_use_screened_in(tl->ch, name);
}

const char *
tables_use_look_alike(const struct channel *ch, const char *name, bool screen)
{
	const struct tables_state *s = tables_state_peek(ch);
	char mine[ROLL_TABLE_NAME_MAX], theirs[ROLL_TABLE_NAME_MAX];

	screen = screen && tension_state_hidden(ch);
	roll_table_name_look(name, mine, sizeof(mine));
	for (size_t i = 0; s != NULL && i < s->n; i++) {
		if (strcmp(s->v[i].name, name) == 0 ||
		    (screen && tables_use_screened_in(ch, s->v[i].name)))
			continue;
		roll_table_name_look(s->v[i].name, theirs, sizeof(theirs));
		if (strcmp(mine, theirs) == 0)
			return s->v[i].name;
	}
	return NULL;
}

bool
tables_use_own(const struct channel *ch, const char *name)
{
	return tables_state_find(tables_state_peek(ch), name) >= 0;
}

bool
tables_use_kind(const struct channel *ch, const char *kind, struct roll_table *t, char *name)
{
	const struct tables_state *s = tables_state_peek(ch);
	int level = procedure_state_level(ch), i = -1;

	name[0] = '\0';
	if (s == NULL)
		return false;
	if (level >= 0) {
		snprintf(name, ROLL_TABLE_NAME_MAX, "%s-%d", kind, level);
		i = tables_state_find(s, name);
	}
	if (i < 0) {
		snprintf(name, ROLL_TABLE_NAME_MAX, "%s", kind);
		i = tables_state_find(s, name);
	}
	if (i < 0) {
		name[0] = '\0';
		return false;
	}
	tables_state_get(s, (size_t)i, t);
	return true;
}

int
tables_use_room(const struct channel *ch, const char *name, size_t len, bool screen, char *err,
                size_t errlen)
{
	const struct tables_state *s = tables_state_peek(ch);
	size_t counted = 0, old = 0;

	screen = screen && tension_state_hidden(ch);
	for (size_t i = 0; s != NULL && i < s->n; i++) {
		if (screen && tables_use_screened_in(ch, s->v[i].name))
			continue;
		counted += s->v[i].len;
		if (strcmp(s->v[i].name, name) == 0)
			old = s->v[i].len;
	}
	if (len <= old || counted - old + len <= TABLES_BYTES_MAX)
		return 0;
	if (screen)
		snprintf(err, errlen,
		         "the tables you may read here would hold %zu bytes of text; they may hold "
		         "at most %d (delete or shorten one; while Tension is hidden, the tables "
		         "behind the GM's screen count apart).",
		         counted - old + len, TABLES_BYTES_MAX);
	else
		snprintf(
		    err, errlen,
		    "this channel's tables would hold %zu bytes of text; they may hold at most "
		    "%d (delete or shorten one).",
		    counted - old + len, TABLES_BYTES_MAX);
	return -1;
}

void
tables_use_pick_text(const struct tension_pick *p, const char *table, const char *kind, char *buf,
                     size_t len)
{
	if (p->sides == 0)
		snprintf(buf, len, "%s%s%s, d10 + Tension = %d + %d = %d", table[0] ? "table " : "",
		         table[0] ? table : kind, table[0] ? "" : " table", p->d10,
		         p->total - p->d10, p->total);
	else
		snprintf(buf, len, "%s%s%s, d%d: %d", table[0] ? "table " : "",
		         table[0] ? table : kind, table[0] ? "" : " table", p->sides, p->total);
}

int
tables_use_level_ok(const char *name, char *err, size_t errlen)
{
	const char *digits;
	size_t n;

	if (!tables_state_named_screen(name) || (digits = strchr(name, '-')) == NULL)
		return 0;
	digits++;
	n = strlen(digits);
	/* LEVEL_MAX has two digits: a longer number is past it */
	if (n <= 2 && (n == 1 || digits[0] != '0') && strtol(digits, NULL, 10) <= LEVEL_MAX)
		return 0;
	snprintf(err, errlen,
	         "no dungeon level rolls %s: /turn level counts 0 to %d, and the table of "
	         "level N is %.*s-N, written without leading zeros (%.*s-2).",
	         name, LEVEL_MAX, (int)(digits - 1 - name), name, (int)(digits - 1 - name), name);
	return -1;
}

bool
tables_use_screened_in(const struct channel *ch, const char *name)
{
	const struct tables_state *s = tables_state_peek(ch);
	int at;

	if (tables_state_named_screen(name))
		return true;
	return (at = tables_state_find(s, name)) >= 0 && s->v[at].screened;
}

/* The channel's tables as a graph of references (at most 64 of them). */
#define NODES (TABLES_MAX + TENSION_TABLE_COUNT + 1)
_Static_assert(LEVEL_MAX >= 10 && LEVEL_MAX <= 99, "a level has one or two digits");
_Static_assert(NODES <= 64, "a node's edges are one 64-bit set");

struct graph {
	size_t n;
	char name[NODES][ROLL_TABLE_NAME_MAX];
	const char *text[NODES];
	uint64_t edge[NODES]; /* bit j: node i names node j */
	/* a name node i refers to that no table has ("" for none): it counts
	 * as one more table at the end of a chain */
	char missing[NODES][ROLL_TABLE_NAME_MAX];
	int from[NODES]; /* memo: the longest chain from i, 0: unknown, -1: on the way */
	int next[NODES]; /* the next node of that chain, -1: none */
};

static int
node(const struct graph *g, const char *name)
{
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->name[i], name) == 0)
			return (int)i;
	return -1;
}

struct edge_ctx {
	struct graph *g;
	size_t i;
};

static int
add_edge(const char *name, void *ctx)
{
	struct edge_ctx *e = ctx;
	int j = node(e->g, name);

	if (j >= 0)
		e->g->edge[e->i] |= (uint64_t)1 << j;
	else if (e->g->missing[e->i][0] == '\0')
		snprintf(e->g->missing[e->i], sizeof(e->g->missing[0]), "%s", name);
	return 0;
}

/* The longest chain of tables from i (i included), memoised; a node met
 * again on the way counts nothing (no cycle reaches here through name). */
static int
longest_from(struct graph *g, size_t i)
{
	if (g->from[i] != 0)
		return g->from[i] < 0 ? 0 : g->from[i];
	g->from[i] = -1;
	g->next[i] = -1;
	{
		int best = g->missing[i][0] != '\0' ? 1 : 0;

		for (size_t j = 0; j < g->n; j++) {
			int l;

			if (!((g->edge[i] >> j) & 1))
				continue;
			l = longest_from(g, j);
			if (l > best) {
				best = l;
				g->next[i] = (int)j;
			}
		}
		g->from[i] = best + 1;
	}
	return g->from[i];
}

/* The longest chain of tables from i to me (both included), memoised in
 * to[] (0: unknown, -1: on the way, -2: me is out of reach); the next step
 * goes to nto[]. */
static int
longest_to(const struct graph *g, size_t i, size_t me, int *to, int *nto)
{
	int best = 0;

	if (i == me)
		return 1;
	if (to[i] != 0)
		return to[i] < 0 ? 0 : to[i];
	to[i] = -1;
	nto[i] = -1;
	for (size_t j = 0; j < g->n; j++) {
		int l;

		if (!((g->edge[i] >> j) & 1))
			continue;
		l = longest_to(g, j, me, to, nto);
		if (l > 0 && l + 1 > best) {
			best = l + 1;
			nto[i] = (int)j;
		}
	}
	to[i] = best > 0 ? best : -2;
	return best;
}

/* Whether me reaches me again; the way is written into path. */
static bool
cycle(const struct graph *g, size_t me, struct buf *path)
{
	int prev[NODES], queue[NODES], head = 0, tail = 0;
	uint64_t seen = 0;

	for (size_t i = 0; i < NODES; i++)
		prev[i] = -1;
	queue[tail++] = (int)me;
	while (head < tail) {
		int v = queue[head++];

		for (size_t j = 0; j < g->n; j++) {
			if (!((g->edge[v] >> j) & 1))
				continue;
			if (j == me) {
				int way[NODES], n = 0;

				for (int x = v; x != -1 && x != (int)me; x = prev[x])
					way[n++] = x;
				buf_addf(path, "%s", g->name[me]);
				while (n > 0)
					buf_addf(path, " → %s", g->name[way[--n]]);
				buf_addf(path, " → %s", g->name[me]);
				return true;
			}
			if ((seen >> j) & 1)
				continue;
			seen |= (uint64_t)1 << j;
			prev[j] = v;
			queue[tail++] = (int)j;
		}
	}
	return false;
}

int
tables_use_check(const struct channel *ch, const char *name, const char *text, bool screen,
                 char *err, size_t errlen)
{
	const struct tables_state *s = tables_state_peek(ch);
	struct graph *g = xcalloc(1, sizeof(*g));
	struct roll_table *t = xmalloc(sizeof(*t));
	struct buf kinds[TENSION_TABLE_COUNT], path;
	int me, first, rc = -1;

	buf_init(&path, 1024);
	screen = screen && tension_state_hidden(ch);
	for (size_t i = 0; s != NULL && i < s->n; i++) {
		if (strcmp(s->v[i].name, name) == 0 ||
		    (screen && tables_use_screened_in(ch, s->v[i].name)))
			continue;
		snprintf(g->name[g->n], sizeof(g->name[0]), "%s", s->v[i].name);
		g->text[g->n++] = s->v[i].text;
	}
	for (int k = 0; k < TENSION_TABLE_COUNT; k++) {
		const char *kind = tension_table_name((enum tension_table)k);

		buf_init(&kinds[k], 2 * TABLES_TEXT_MAX);
		if (screen || node(g, kind) >= 0 || strcmp(kind, name) == 0)
			continue;
		tension_state_table(ch, (enum tension_table)k, t);
		roll_table_write(t, &kinds[k]);
		snprintf(g->name[g->n], sizeof(g->name[0]), "%s", kind);
		g->text[g->n++] = buf_str(&kinds[k]);
	}
	me = (int)g->n;
	snprintf(g->name[g->n], sizeof(g->name[0]), "%s", name);
	g->text[g->n++] = text;
	for (size_t i = 0; i < g->n; i++) {
		struct edge_ctx e = {g, i};

		roll_table_each_ref(g->text[i], add_edge, &e);
	}
	if (cycle(g, (size_t)me, &path)) {
		snprintf(err, errlen,
		         "the tables would roll each other in a circle (%s); a table may not roll "
		         "itself, even through other tables.",
		         buf_str(&path));
		goto done;
	}
	{
		int to[NODES] = {0}, nto[NODES], longest = 1, from;

		first = me;
		for (size_t i = 0; i < g->n; i++) {
			int l = longest_to(g, i, (size_t)me, to, nto);

			if (l > longest) {
				longest = l;
				first = (int)i;
			}
		}
		from = longest_from(g, (size_t)me);
		if (longest + from - 1 > ROLL_TABLE_DEPTH_MAX) {
			for (int v = first; v != me; v = nto[v])
				buf_addf(&path, "%s → ", g->name[v]);
			for (int v = me; v != -1; v = g->next[v]) {
				buf_addf(&path, "%s", g->name[v]);
				if (g->next[v] != -1)
					buf_adds(&path, " → ");
				else if (g->missing[v][0] != '\0')
					buf_addf(&path, " → %s", g->missing[v]);
			}
			snprintf(
			    err, errlen,
			    "the tables would make a chain of %d (%s); a roll follows at most %d "
			    "tables deep.",
			    longest + from - 1, buf_str(&path), ROLL_TABLE_DEPTH_MAX);
			goto done;
		}
	}
	rc = 0;
done:
	for (int k = 0; k < TENSION_TABLE_COUNT; k++)
		buf_free(&kinds[k]);
	buf_free(&path);
	free(g);
	free(t);
	return rc;
}
