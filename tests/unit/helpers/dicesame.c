/*
 * dicesame: compares the dice parser's fast path with its grammar (see
 * dicesame.h). It reads the engine's internal AST, as only tests may.
 */
#include "tests/unit/helpers/dicesame.h"

#include <stdio.h>
#include <string.h>

#include "rules/dice/dice_impl.h"

#define ARENA_BYTES 4096

static bool
same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool
same_cmp(const struct dice_cmp *a, const struct dice_cmp *b)
{
	return a->op == b->op && a->bare == b->bare && a->n == b->n;
}

static bool same_node(const struct dice_node *a, const struct dice_node *b);

static bool
same_spec(const struct dice_spec *a, const struct dice_spec *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return same_node(a->count_expr, b->count_expr) && same_node(a->sides_expr, b->sides_expr) &&
	       a->count == b->count && a->sides == b->sides && a->fate == b->fate &&
	       a->have == b->have && a->min == b->min && a->max == b->max &&
	       a->explode == b->explode && a->reroll == b->reroll && a->sort == b->sort &&
	       a->keep_n == b->keep_n && a->keepl_n == b->keepl_n && a->drop_n == b->drop_n &&
	       a->droph_n == b->droph_n && same_cmp(&a->explode_cp, &b->explode_cp) &&
	       same_cmp(&a->reroll_cp, &b->reroll_cp) && same_cmp(&a->success, &b->success) &&
	       same_cmp(&a->failure, &b->failure) && same_cmp(&a->crit, &b->crit) &&
	       same_cmp(&a->fumble, &b->fumble);
}

/* Compares two subtrees, the siblings that follow them included. */
static bool
same_node(const struct dice_node *a, const struct dice_node *b)
{
	for (; a != NULL && b != NULL; a = a->next, b = b->next)
		if (a->kind != b->kind || a->op != b->op || a->pos != b->pos ||
		    a->oppos != b->oppos || a->nneg != b->nneg || a->nitems != b->nitems ||
		    a->ngroups != b->ngroups || a->sdice != b->sdice || a->v != b->v ||
		    !same_str(a->text, b->text) || !same_str(a->label, b->label) ||
		    !same_spec(a->spec, b->spec) || !same_node(a->kid, b->kid))
			return false;
	return a == NULL && b == NULL;
}

static bool
differ(char *why, size_t whylen, const char *what)
{
	int r = snprintf(why, whylen, "the fast path and the grammar differ in %s", what);

	if (r < 0 || (size_t)r >= whylen)
		why[0] = '\0';
	return false;
}

bool
dicesame(const char *text, size_t len, bool *fast, char *why, size_t whylen)
{
	_Alignas(max_align_t) unsigned char mem1[ARENA_BYTES], mem2[ARENA_BYTES];
	char err[DICE_ERR_MAX] = "";
	struct dice_errbuf e = {err, sizeof(err), 0};
	struct dice_arena a1, a2;
	struct dice_cmd c1, c2;
	bool ok = true, plain;

	if (whylen > 0)
		why[0] = '\0';
	dice__arena_init(&a1, mem1, sizeof(mem1));
	dice__arena_init(&a2, mem2, sizeof(mem2));
	c1.label = NULL;
	plain = dice__parse_plain(text, len, &a1, &c1);
	if (fast != NULL)
		*fast = plain;
	if (plain && dice__parse_grammar(text, len, &a2, &c2, &e) != 0) {
		ok = differ(why, whylen, "whether the text is good");
	} else if (plain) {
		if (c1.nstmt != c2.nstmt || c1.sdice != c2.sdice || !same_str(c1.label, c2.label))
			ok = differ(why, whylen, "the command");
		for (size_t i = 0; ok && i < c1.nstmt; i++)
			if (c1.stmt[i].repeat != c2.stmt[i].repeat ||
			    c1.stmt[i].has_repeat != c2.stmt[i].has_repeat ||
			    !same_str(c1.stmt[i].source, c2.stmt[i].source) ||
			    !same_node(c1.stmt[i].root, c2.stmt[i].root))
				ok = differ(why, whylen, "an expression");
	}
	dice__arena_release(&a1);
	dice__arena_release(&a2);
	return ok;
}
