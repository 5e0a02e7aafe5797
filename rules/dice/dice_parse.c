/*
 * dice_parse: the grammar of dice notation, text to AST, with every limit
 * that is knowable before rolling. A recursive-descent parser over a byte
 * string that need not be NUL-terminated; recursion is bounded by
 * DICE_NEST_MAX. Numbers, labels and a term's modifiers are read by
 * dice_mods.c.
 */
#include "rules/dice/dice_impl.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

#include <stdio.h>
#include <string.h>

static struct dice_node *parse_expr(struct dice_parser *, const char *);

static void
skip_ws(struct dice_parser *p)
{
	while (dice__isws(dice__at(p, p->i)))
		p->i++;
}

static int
want_operand(struct dice_parser *p, const char *after)
{
	char f[DICE_QUOTE_MAX + 8];

	dice__found(p, f, sizeof(f));
	if (after == NULL)
		return dice__fail(p->e, DICE_ESYNTAX, "expected a number or dice at column %d%s",
		                  dice__col(p, p->i), f);
	return dice__fail(p->e, DICE_ESYNTAX, "expected a number or dice after '%s' at column %d%s",
	                  after, dice__col(p, p->i), f);
}

static struct dice_node *
new_node(struct dice_parser *p, uint8_t kind, size_t pos)
{
	struct dice_node *n = dice__arena_alloc(p->a, sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->pos = (uint32_t)pos;
	return n;
}

/* Copies what o printed into the arena; NULL (an error) when it did not
 * fit. */
static const char *
keep_text(struct dice_parser *p, struct dice_out *o)
{
	if (o->overflow) {
		dice__fail(p->e, DICE_ELIMIT, "the roll is too long to print");
		return NULL;
	}
	return dice__arena_strdup(p->a, o->buf, o->used);
}

/* Parses a parenthesised expression at p->i (which holds '('). */
static struct dice_node *
parse_paren(struct dice_parser *p)
{
	size_t open = p->i;
	struct dice_node *n, *kid;
	char f[DICE_QUOTE_MAX + 8];

	if (++p->depth > DICE_NEST_MAX) {
		dice__fail(p->e, DICE_ELIMIT,
		           "parentheses may nest at most %d "
		           "deep (the '(' at column %d would be level %d)",
		           DICE_NEST_MAX, dice__col(p, open), p->depth);
		return NULL;
	}
	p->i++;
	if ((kid = parse_expr(p, "(")) == NULL)
		return NULL;
	skip_ws(p);
	if (dice__at(p, p->i) != ')') {
		dice__found(p, f, sizeof(f));
		dice__fail(p->e, DICE_ESYNTAX,
		           "expected ')' at column %d to "
		           "close the '(' at column %d%s",
		           dice__col(p, p->i), dice__col(p, open), f);
		return NULL;
	}
	p->i++;
	p->depth--;
	n = new_node(p, NODE_PAREN, open);
	n->kid = kid;
	n->nitems = kid->nitems + 2;
	n->ngroups = kid->ngroups;
	n->sdice = kid->sdice;
	p->last_dice = false;
	return n;
}

/*
 * Parses a dice term whose 'd' is at p->i. The count is count_expr when
 * that is not NULL, else the literal count.
 */
static struct dice_node *
parse_dice(struct dice_parser *p, size_t pos, struct dice_node *count_expr, int64_t count)
{
	char buf[DICE_CANON_MAX], f[DICE_QUOTE_MAX + 8];
	struct dice_out o = {buf, sizeof(buf), 0, false};
	struct dice_spec *sp;
	struct dice_node *n;
	int c;

	/* The range is tested here so that the column, which costs a walk
	 * over the text, is only counted for the message. */
	if (count_expr == NULL && (count < 1 || count > DICE_TERM_DICE_MAX)) {
		dice__check_count(count, dice__col(p, pos), p->e);
		return NULL;
	}
	n = new_node(p, NODE_DICE, pos);
	sp = dice__arena_alloc(p->a, sizeof(*sp));
	memset(sp, 0, sizeof(*sp));
	n->spec = sp;
	sp->count_expr = count_expr;
	sp->count = count;
	p->i++;
	c = dice__at(p, p->i);
	if (dice__isdig(c)) {
		size_t start = p->i;

		if (dice__scan_uint(p, &sp->sides)) {
			dice__sides_huge(p->i - start, dice__col(p, pos), p->e);
			return NULL;
		}
		if (sp->sides < 1 || sp->sides > DICE_SIDES_MAX) {
			dice__check_sides(sp->sides, dice__col(p, pos), p->e);
			return NULL;
		}
	} else if (c == '%') {
		p->i++;
		sp->sides = 100;
	} else if (dice__lc(c) == 'f') {
		p->i++;
		sp->fate = true;
		sp->sides = 3;
	} else if (c == '(') {
		if ((sp->sides_expr = parse_paren(p)) == NULL)
			return NULL;
	} else {
		dice__found(p, f, sizeof(f));
		dice__fail(p->e, DICE_ESYNTAX,
		           "expected the number of sides, "
		           "'%%' or 'F' after 'd' at column %d%s",
		           dice__col(p, p->i), f);
		return NULL;
	}
	if (dice__parse_mods(p, sp, &n->label) != 0)
		return NULL;
	if ((sp->have & MOD_FAILURE) && !(sp->have & MOD_SUCCESS)) {
		/*
		 * Ruling: "10d10!>8f1" counts successes at the explode point
		 * (dice above 8 explode and succeed, 1s fail); the explicit
		 * explode point keeps its meaning. With no point to borrow,
		 * 'f' needs a success point of its own.
		 */
		if (!(sp->have & MOD_EXPLODE) || sp->explode_cp.op == CMP_NONE) {
			dice__fail(p->e, DICE_ESYNTAX,
			           "the failure modifier "
			           "'f' of the term at column %d needs a success compare "
			           "point too, as in 4d6>4f<3",
			           dice__col(p, pos));
			return NULL;
		}
		sp->success = sp->explode_cp;
		sp->have |= MOD_SUCCESS;
	}
	if (sp->sides_expr == NULL && (sp->have & (MOD_EXPLODE | MOD_REROLL | MOD_MIN | MOD_MAX)) &&
	    dice__check_faces(sp, sp->sides, dice__col(p, pos), p->e) != 0)
		return NULL;
	dice__print_term(&o, n);
	if ((n->text = keep_text(p, &o)) == NULL)
		return NULL;
	n->ngroups = 1;
	n->sdice = count_expr == NULL ? (uint32_t)count : 1;
	if (count_expr != NULL) {
		n->ngroups += count_expr->ngroups;
		n->sdice += count_expr->sdice;
	}
	if (sp->sides_expr != NULL) {
		n->ngroups += sp->sides_expr->ngroups;
		n->sdice += sp->sides_expr->sdice;
	}
	n->nitems = n->ngroups;
	p->last_dice = true;
	return n;
}

/* Reads a "[label]" that follows term n after whitespace ("2d10 [fire]",
 * as rpg-dice-roller allows), when n has no label yet. Returns n, or NULL
 * on an error in the label. */
static struct dice_node *
spaced_label(struct dice_parser *p, struct dice_node *n)
{
	size_t j = p->i;

	if (n == NULL || n->label != NULL || !dice__isws(dice__at(p, j)))
		return n;
	while (dice__isws(dice__at(p, j)))
		j++;
	if (dice__at(p, j) != '[')
		return n;
	p->i = j;
	return dice__parse_bracket_label(p, &n->label) == 0 ? n : NULL;
}

static struct dice_node *parse_term_atom(struct dice_parser *, const char *);

/* The names of enum dice_fn, canonical (lower case). */
static const char *const fn_names[] = {"floor", "ceil", "round", "abs"};

/*
 * Parses a function call whose name starts at p->i (a letter): one of
 * fn_names in any case, then optional whitespace and a parenthesised
 * expression. A word that names no function is an error naming it.
 */
static struct dice_node *
parse_func(struct dice_parser *p, const char *after)
{
	size_t pos = p->i, n = 0, j;
	struct dice_node *node, *kid;

	while (n < 16 &&
	       ((dice__lc(dice__at(p, p->i + n)) >= 'a' && dice__lc(dice__at(p, p->i + n)) <= 'z')))
		n++;
	for (size_t k = 0; k < sizeof(fn_names) / sizeof(fn_names[0]); k++) {
		if (strlen(fn_names[k]) != n)
			continue;
		for (j = 0; j < n && dice__lc(dice__at(p, pos + j)) == fn_names[k][j]; j++)
			;
		if (j < n)
			continue;
		p->i += n;
		skip_ws(p);
		if (dice__at(p, p->i) != '(') {
			char f[DICE_QUOTE_MAX + 8];

			dice__found(p, f, sizeof(f));
			dice__fail(p->e, DICE_ESYNTAX, "expected '(' after '%s' at column %d%s",
			           fn_names[k], dice__col(p, p->i), f);
			return NULL;
		}
		if ((kid = parse_paren(p)) == NULL)
			return NULL;
		node = new_node(p, NODE_FUNC, pos);
		node->fn = (uint8_t)k;
		node->text = fn_names[k];
		node->kid = kid;
		node->nitems = kid->nitems + 1;
		node->ngroups = kid->ngroups;
		node->sdice = kid->sdice;
		p->last_dice = false;
		return node;
	}
	if (n >= 2 && n < 16) {
		dice__fail(p->e, DICE_ESYNTAX,
		           "'%.*s' at column %d is no dice function; floor(), ceil(), round() and "
		           "abs() are",
		           (int)n, p->s + pos, dice__col(p, pos));
		return NULL;
	}
	want_operand(p, after);
	return NULL;
}

/* Parses a number, a dice term or a parenthesised expression, and the
 * label of a number or dice term. */
static struct dice_node *
parse_atom(struct dice_parser *p, const char *after)
{
	struct dice_node *n = parse_term_atom(p, after);

	if (n != NULL && (n->kind == NODE_DICE || n->kind == NODE_NUM))
		return spaced_label(p, n);
	return n;
}

static struct dice_node *
parse_term_atom(struct dice_parser *p, const char *after)
{
	size_t pos = p->i;
	int c = dice__at(p, p->i);
	struct dice_node *n;
	int64_t v;

	if (dice__isdig(c)) {
		bool big = dice__scan_uint(p, &v);

		if (big && dice__lc(dice__at(p, p->i)) == 'd') {
			dice__count_huge(p->i - pos, dice__col(p, pos), p->e);
			return NULL;
		}
		if (big) {
			p->i = pos;
			dice__parse_uint(p, &v);
			return NULL;
		}
		if (dice__lc(dice__at(p, p->i)) == 'd')
			return parse_dice(p, pos, NULL, v);
		n = new_node(p, NODE_NUM, pos);
		n->v = v;
		n->nitems = 1;
		p->last_dice = false;
		{
			char buf[24];
			struct dice_out o = {buf, sizeof(buf), 0, false};

			dice__out_i64(&o, v);
			if ((n->text = keep_text(p, &o)) == NULL)
				return NULL;
		}
		if (dice__at(p, p->i) == '[' && dice__parse_bracket_label(p, &n->label) != 0)
			return NULL;
		return n;
	}
	if (c == '(') {
		if ((n = parse_paren(p)) == NULL)
			return NULL;
		if (dice__lc(dice__at(p, p->i)) == 'd')
			return parse_dice(p, pos, n, 0);
		return n;
	}
	if (dice__lc(c) == 'd')
		return parse_dice(p, pos, NULL, 1);
	if (dice__lc(c) >= 'a' && dice__lc(c) <= 'z')
		return parse_func(p, after);
	want_operand(p, after);
	return NULL;
}

/* Parses a run of unary minus signs and the atom they negate. */
static struct dice_node *
parse_unary(struct dice_parser *p, const char *after)
{
	size_t pos;
	uint32_t nneg = 0;
	struct dice_node *n, *kid;
	char *dash;

	skip_ws(p);
	pos = p->i;
	while (dice__at(p, p->i) == '-') {
		nneg++;
		p->i++;
		skip_ws(p);
		after = "-";
	}
	if ((kid = parse_atom(p, after)) == NULL || nneg == 0)
		return kid;
	n = new_node(p, NODE_NEG, pos);
	dash = dice__arena_alloc(p->a, nneg + 1);
	memset(dash, '-', nneg);
	dash[nneg] = '\0';
	n->text = dash;
	n->kid = kid;
	n->nneg = nneg;
	n->nitems = kid->nitems + 1;
	n->ngroups = kid->ngroups;
	n->sdice = kid->sdice;
	return n;
}

/*
 * Parses a left-associative chain of operands joined by the operators in
 * ops ("+-" for sums, "*" "/" for products) into one SUM or PROD node.
 */
static struct dice_node *
parse_chain(struct dice_parser *p, const char *after, bool sum)
{
	struct dice_node *first, *last, *k, *n = NULL;
	char opname[2] = {0, 0};

	first = sum ? parse_chain(p, after, false) : parse_unary(p, after);
	if (first == NULL)
		return NULL;
	last = first;
	for (;;) {
		size_t save = p->i, oppos;
		int c;

		skip_ws(p);
		c = dice__at(p, p->i);
		if (sum ? (c != '+' && c != '-') : (c != '*' && c != '/')) {
			p->i = save;
			break;
		}
		oppos = p->i++;
		opname[0] = (char)c;
		k = sum ? parse_chain(p, opname, false) : parse_unary(p, opname);
		if (k == NULL)
			return NULL;
		if (n == NULL) {
			n = new_node(p, sum ? NODE_SUM : NODE_PROD, first->pos);
			n->kid = first;
			n->nitems = first->nitems;
			n->ngroups = first->ngroups;
			n->sdice = first->sdice;
		}
		k->op = (char)c;
		k->oppos = (uint32_t)oppos;
		last->next = k;
		last = k;
		n->nitems += k->nitems + 1;
		n->ngroups += k->ngroups;
		n->sdice += k->sdice;
	}
	return n != NULL ? n : first;
}

static struct dice_node *
parse_expr(struct dice_parser *p, const char *after)
{
	return parse_chain(p, after, true);
}

/* Parses "Nx" at p->i when it is there; *after names it for errors. */
static int
parse_repeat(struct dice_parser *p, struct dice_stmt *st, char *after, size_t afterlen)
{
	size_t j = p->i;
	bool big = false;
	int64_t n = 0;
	int r;

	for (; dice__isdig(dice__at(p, j)); j++)
		if (!big && (__builtin_mul_overflow(n, 10, &n) ||
		             __builtin_add_overflow(n, dice__at(p, j) - '0', &n)))
			big = true;
	if (j == p->i || dice__lc(dice__at(p, j)) != 'x')
		return 0;
	if (big)
		return dice__fail(p->e, DICE_ELIMIT,
		                  "a repeat must be between "
		                  "1x and %dx (the one at column %d is far larger)",
		                  DICE_REPEAT_MAX, dice__col(p, p->i));
	if (n < 1 || n > DICE_REPEAT_MAX)
		return dice__fail(p->e, DICE_ELIMIT,
		                  "a repeat must be between "
		                  "1x and %dx (got %lldx at column %d)",
		                  DICE_REPEAT_MAX, (long long)n, dice__col(p, p->i));
	p->i = j + 1;
	st->repeat = n;
	st->has_repeat = true;
	r = snprintf(after, afterlen, "%lldx", (long long)n);
	if (r < 0 || (size_t)r >= afterlen)
		after[0] = '\0';
	return 0;
}

/* Parses the "# label" whose '#' is at p->i, up to the end of the text. */
static int
parse_command_label(struct dice_parser *p, struct dice_cmd *cmd)
{
	size_t hash = p->i, start = p->i + 1, end = p->len;

	dice__label_trim(p->s, &start, &end);
	if (dice__check_label(p, start, end - start, hash) != 0)
		return p->e->code;
	if (end > start)
		cmd->label = dice__arena_strdup(p->a, p->s + start, end - start);
	p->i = p->len;
	return 0;
}

/*
 * A syntax error at p->i said in the user's terms when its cause is
 * plain: a decimal number ("2.5"), a Roll20 group ("{"), or a modifier
 * cut from its dice by a blank ("4d6 kh3"). Else e's error stands.
 */
static int
explain(struct dice_parser *p)
{
	size_t i = p->i, a, b;
	int c = dice__at(p, i);

	if (p->e->code != DICE_ESYNTAX)
		return p->e->code;
	if (c == '.' && i > 0 && dice__isdig(dice__at(p, i - 1))) {
		for (a = i; a > 0 && dice__isdig(dice__at(p, a - 1)) && i - a < 12; a--)
			;
		for (b = i + 1; dice__isdig(dice__at(p, b)) && b - i < 12; b++)
			;
		p->e->code = 0;
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "'%.*s' at column %d is not a whole number, and a roll's numbers "
		                  "are whole: / divides rounding down, round(7/2) rounds",
		                  (int)(b - a), p->s + a, dice__col(p, a));
	}
	if (c == '{' || c == '}') {
		p->e->code = 0;
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "'%c' at column %d belongs to a Roll20 group, which delver does "
		                  "not read: keep or drop within one term (2d20kh1), or roll "
		                  "several with ';'",
		                  c, dice__col(p, i));
	}
	return p->e->code;
}

/* Whether a modifier can be read at p->i (into scratch, nothing kept). */
static size_t
modifier_at(const struct dice_parser *p)
{
	struct dice_errbuf e = {NULL, 0, 0};
	struct dice_parser q = *p;
	struct dice_spec sp;
	const char *label = NULL;

	memset(&sp, 0, sizeof(sp));
	q.e = &e;
	if (dice__parse_mods(&q, &sp, &label) != 0 || q.i == p->i || label != NULL)
		return 0;
	return q.i - p->i;
}

/* The offset of the first invisible character (textsafe.h) in the word
 * at p->i (up to a blank, an operator, ';', '#', a bracket or the end),
 * else p->i: "1d20 a<U+200B>dv" is refused for the character that keeps
 * adv from being read, not for its 'a'. */
static size_t
invisible_in_word(const struct dice_parser *p)
{
	uint32_t cp;

	for (size_t j = p->i; j < p->len && !strchr(" \t+-*/;#[]()", p->s[j]);) {
		size_t k = utf8_seq_len(p->s + j, p->len - j);

		if (k > 1 && textsafe_invisible_at(p->s + j, p->len - j, &cp))
			return j;
		j += k > 0 ? k : 1;
	}
	return p->i;
}

static int
unexpected(struct dice_parser *p)
{
	char q[DICE_QUOTE_MAX];
	size_t mod, at;

	if (p->last_dice && p->i > 0 && dice__isws(dice__at(p, p->i - 1)) &&
	    (mod = modifier_at(p)) > 0 && mod <= 24)
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "'%.*s' at column %d is a dice modifier, which follows its dice "
		                  "with no blank between (4d6%.*s, not 4d6 %.*s)",
		                  (int)mod, p->s + p->i, dice__col(p, p->i), (int)mod, p->s + p->i,
		                  (int)mod, p->s + p->i);
	at = invisible_in_word(p);
	dice__quote(p->s, p->len, at, false, q, sizeof(q));
	return dice__fail(p->e, DICE_ESYNTAX,
	                  "unexpected %s at column %d; "
	                  "%san operator (+ - * /), ';', '# label' or the end may follow "
	                  "a term",
	                  q, dice__col(p, at),
	                  p->last_dice && p->i > 0 && !dice__isws(dice__at(p, p->i - 1))
	                      ? "a dice modifier, "
	                      : "");
}

/*
 * Reads at *i the decimal digits of a number written canonically: 1 to
 * max digits (max <= 18, so it cannot overflow) and no leading zero.
 * Returns it and moves *i past it, or returns -1 when the digits are not
 * there or not so written.
 */
static int64_t
plain_number(const struct dice_parser *p, size_t *i, size_t max)
{
	size_t j = *i;
	int64_t v = 0;

	while (j < p->len && j - *i < max && dice__isdig((unsigned char)p->s[j]))
		v = v * 10 + (p->s[j++] - '0');
	if (j == *i || dice__isdig(dice__at(p, j)) || (p->s[*i] == '0' && j - *i > 1))
		return -1;
	*i = j;
	return v;
}

/* Copies the n bytes at s into the arena after prefix (NUL for none, or
 * one character), NUL-terminated. */
static char *
plain_copy(struct dice_parser *p, char prefix, const char *s, size_t n)
{
	size_t k = prefix != '\0';
	char *t = dice__arena_alloc(p->a, k + n + 1);

	t[0] = prefix;
	memcpy(t + k, s, n);
	t[k + n] = '\0';
	return t;
}

/*
 * The fast path for the commonest commands, a single plain term such as
 * "4d6kh3" or "d20", alone or plus or minus a number ("1d20+5",
 * "2d6 - 1"): [count] 'd' sides, then at most one of kh, kl, dh or dl
 * with its number, all in lower case with no leading zero and within the
 * limits; spaces only around the '+' or '-' and at the end. The term's
 * canonical text is its own text ("1" put before a missing count), so
 * nothing is printed. Returns true having filled cmd exactly as the
 * grammar would (but for cmd->label, which the caller sets), or false
 * having touched nothing: the grammar then reads the text (and reports its
 * errors).
 */
bool
dice__parse_plain(const char *text, size_t len, struct dice_arena *a, struct dice_cmd *cmd)
{
	struct dice_parser pp = {text, len, 0, 0, false, a, NULL}, *p = &pp;
	size_t i = 0, end, oppos = 0, numpos = 0, tlen;
	int64_t count = 1, sides, n = 0, add = 0;
	unsigned int mod = 0;
	int op = 0;
	struct dice_spec *sp;
	struct dice_node *nd, *num, *sum;
	char *src;

	if (len > DICE_TEXT_MAX) /* spaces can make it long */
		return false;
	if (dice__isdig(dice__at(p, 0))) {
		count = plain_number(p, &i, 4);
		if (count < 1 || count > DICE_TERM_DICE_MAX)
			return false;
	}
	if (dice__at(p, i) != 'd')
		return false;
	i++;
	sides = plain_number(p, &i, 7);
	if (sides < 1 || sides > DICE_SIDES_MAX)
		return false;
	if ((dice__at(p, i) == 'k' || dice__at(p, i) == 'd') &&
	    (dice__at(p, i + 1) == 'h' || dice__at(p, i + 1) == 'l')) {
		if (dice__at(p, i) == 'k')
			mod = dice__at(p, i + 1) == 'h' ? MOD_KEEP : MOD_KEEPL;
		else
			mod = dice__at(p, i + 1) == 'h' ? MOD_DROPH : MOD_DROP;
		i += 2;
		if ((n = plain_number(p, &i, 18)) < 0)
			return false;
	}
	end = i;
	while (dice__at(p, i) == ' ')
		i++;
	if (i < p->len) {
		op = dice__at(p, i);
		if (op != '+' && op != '-')
			return false;
		oppos = i++;
		while (dice__at(p, i) == ' ')
			i++;
		numpos = i;
		if ((add = plain_number(p, &i, 18)) < 0 || i != p->len)
			return false;
	}

	nd = new_node(p, NODE_DICE, 0);
	sp = dice__arena_alloc(p->a, sizeof(*sp));
	memset(sp, 0, sizeof(*sp));
	sp->count = count;
	sp->sides = sides;
	sp->have = mod;
	if (mod == MOD_KEEP)
		sp->keep_n = n;
	else if (mod == MOD_KEEPL)
		sp->keepl_n = n;
	else if (mod == MOD_DROPH)
		sp->droph_n = n;
	else if (mod == MOD_DROP)
		sp->drop_n = n;
	nd->spec = sp;
	nd->text = plain_copy(p, dice__at(p, 0) == 'd' ? '1' : '\0', p->s, end);
	nd->nitems = 1;
	nd->ngroups = 1;
	nd->sdice = (uint32_t)count;
	cmd->stmt[0].root = nd;
	cmd->stmt[0].source = nd->text;
	if (op != 0) {
		num = new_node(p, NODE_NUM, numpos);
		num->op = (char)op;
		num->oppos = (uint32_t)oppos;
		num->v = add;
		num->text = plain_copy(p, '\0', p->s + numpos, p->len - numpos);
		num->nitems = 1;
		sum = new_node(p, NODE_SUM, 0);
		sum->kid = nd;
		nd->next = num;
		sum->nitems = 3;
		sum->ngroups = 1;
		sum->sdice = nd->sdice;
		cmd->stmt[0].root = sum;
		/* The canonical source: "1d20 + 5". */
		tlen = strlen(nd->text);
		src = dice__arena_alloc(p->a, tlen + 3 + (p->len - numpos) + 1);
		memcpy(src, nd->text, tlen);
		memcpy(src + tlen, op == '+' ? " + " : " - ", 3);
		memcpy(src + tlen + 3, num->text, p->len - numpos + 1);
		cmd->stmt[0].source = src;
	}
	cmd->stmt[0].repeat = 1;
	cmd->stmt[0].has_repeat = false;
	cmd->nstmt = 1;
	cmd->sdice = (uint64_t)count;
	return true;
}

int
dice__parse(const char *text, size_t len, struct dice_arena *a, struct dice_cmd *cmd,
            struct dice_errbuf *e)
{
	cmd->label = NULL;
	if (dice__parse_plain(text, len, a, cmd))
		return 0;
	return dice__parse_grammar(text, len, a, cmd, e);
}

int
dice__parse_grammar(const char *text, size_t len, struct dice_arena *a, struct dice_cmd *cmd,
                    struct dice_errbuf *e)
{
	struct dice_parser p = {text, len, 0, 0, false, a, e};
	char after[32], buf[DICE_CANON_MAX];
	const char *prev = NULL;

	cmd->nstmt = 0;
	cmd->label = NULL;
	cmd->sdice = 0;
	if (len > DICE_TEXT_MAX)
		return dice__fail(e, DICE_ELIMIT,
		                  "a roll may be at most %d "
		                  "bytes long (got %zu)",
		                  DICE_TEXT_MAX, len);
	for (;;) {
		struct dice_stmt *st = &cmd->stmt[cmd->nstmt];
		struct dice_out o = {buf, sizeof(buf), 0, false};
		int c;

		st->repeat = 1;
		st->has_repeat = false;
		skip_ws(&p);
		if (parse_repeat(&p, st, after, sizeof(after)) != 0)
			return e->code;
		if (st->has_repeat)
			prev = after;
		if ((st->root = parse_expr(&p, prev)) == NULL)
			return explain(&p);
		cmd->nstmt++;
		cmd->sdice += (uint64_t)st->repeat * st->root->sdice;
		if ((st->root->kind == NODE_DICE || st->root->kind == NODE_NUM) &&
		    st->root->label == NULL) {
			st->source = st->root->text; /* already canonical */
		} else {
			dice__print_node(&o, st->root);
			if ((st->source = keep_text(&p, &o)) == NULL)
				return e->code;
		}
		skip_ws(&p);
		c = dice__at(&p, p.i);
		if (c == -1)
			break;
		if (c == '#') {
			if (parse_command_label(&p, cmd) != 0)
				return e->code;
			break;
		}
		if (c != ';') {
			unexpected(&p);
			return explain(&p);
		}
		if (cmd->nstmt == DICE_EXPRS_MAX)
			return dice__fail(e, DICE_ELIMIT,
			                  "a roll may have at "
			                  "most %d expressions separated by ';' (the "
			                  "';' at column %d starts one more)",
			                  DICE_EXPRS_MAX, dice__col(&p, p.i));
		p.i++;
		prev = ";";
	}
	if (cmd->sdice > DICE_ROLLED_MAX)
		return dice__fail(e, DICE_ELIMIT,
		                  "a roll may roll at most %d "
		                  "dice in all, counting explosions and rerolls (this one "
		                  "asks for %llu)",
		                  DICE_ROLLED_MAX, (unsigned long long)cmd->sdice);
	return 0;
}
