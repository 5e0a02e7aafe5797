/*
 * dice_parse: dice notation to AST, with every limit that is knowable
 * before rolling. A recursive-descent parser over a byte string that need
 * not be NUL-terminated; recursion is bounded by DICE_NEST_MAX.
 */
#include "dice_impl.h"
#include "utf8.h"

#include <stdio.h>
#include <string.h>

struct parser {
	const char *s;
	size_t len;
	size_t i;
	int depth;      /* open parentheses */
	bool last_dice; /* the last atom was a dice term */
	struct dice_arena *a;
	struct dice_errbuf *e;
};

static struct dice_node *parse_expr(struct parser *, const char *);

/* The byte at off, or -1 past the end. */
static int
at(const struct parser *p, size_t off)
{
	return off < p->len ? (unsigned char)p->s[off] : -1;
}

static int
lc(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool
isdig(int c)
{
	return c >= '0' && c <= '9';
}

static bool
isws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void
skip_ws(struct parser *p)
{
	while (isws(at(p, p->i)))
		p->i++;
}

static int
col(const struct parser *p, size_t off)
{
	return dice__column(p->s, off);
}

/* Fills buf with ", not 'c'" naming the byte at p->i, or "" at the end. */
static void
found(const struct parser *p, char *buf, size_t len)
{
	char q[16];
	int r;

	buf[0] = '\0';
	if (p->i >= p->len)
		return;
	dice__quote(p->s, p->len, p->i, q, sizeof(q));
	r = snprintf(buf, len, ", not %s", q);
	if (r < 0 || (size_t)r >= len)
		buf[0] = '\0';
}

static int
want_operand(struct parser *p, const char *after)
{
	char f[32];

	found(p, f, sizeof(f));
	if (after == NULL)
		return dice__fail(p->e, DICE_ESYNTAX, "expected a number or dice at column %d%s",
		                  col(p, p->i), f);
	return dice__fail(p->e, DICE_ESYNTAX, "expected a number or dice after '%s' at column %d%s",
	                  after, col(p, p->i), f);
}

/* Parses the digits at p->i into *v. */
static int
parse_uint(struct parser *p, int64_t *v)
{
	size_t start = p->i;
	int64_t n = 0;

	while (isdig(at(p, p->i))) {
		if (__builtin_mul_overflow(n, 10, &n) ||
		    __builtin_add_overflow(n, at(p, p->i) - '0', &n))
			return dice__fail(p->e, DICE_ESYNTAX,
			                  "the number at column %d is too large (at most "
			                  "9223372036854775807)",
			                  col(p, start));
		p->i++;
	}
	*v = n;
	return 0;
}

/* Parses an optional '-' and the digits that must follow it; what names
 * the token before, for the error. */
static int
parse_int(struct parser *p, int64_t *v, const char *what)
{
	bool neg = false;
	char f[32];

	if (at(p, p->i) == '-' && isdig(at(p, p->i + 1))) {
		neg = true;
		p->i++;
	}
	if (!isdig(at(p, p->i))) {
		found(p, f, sizeof(f));
		return dice__fail(p->e, DICE_ESYNTAX, "expected a number after '%s' at column %d%s",
		                  what, col(p, p->i), f);
	}
	if (parse_uint(p, v) != 0)
		return p->e->code;
	if (neg)
		*v = -*v;
	return 0;
}

/*
 * Parses a compare point at p->i into c. With bare set, plain digits mean
 * "=N"; with required set, a missing point is an error naming after.
 */
static int
parse_cp(struct parser *p, struct dice_cmp *c, bool bare, bool required, const char *after)
{
	int c1 = at(p, p->i + 1);
	const char *name = NULL;
	char f[32];

	c->op = CMP_NONE;
	c->bare = false;
	c->n = 0;
	switch (at(p, p->i)) {
	case '=':
		c->op = CMP_EQ;
		name = "=";
		break;
	case '!':
		if (c1 == '=') {
			c->op = CMP_NE;
			name = "!=";
		}
		break;
	case '<':
		c->op = c1 == '>' ? CMP_NE : c1 == '=' ? CMP_LE : CMP_LT;
		name = c1 == '>' ? "<>" : c1 == '=' ? "<=" : "<";
		break;
	case '>':
		c->op = c1 == '=' ? CMP_GE : CMP_GT;
		name = c1 == '=' ? ">=" : ">";
		break;
	}
	if (name != NULL) {
		p->i += name[1] != '\0' ? 2 : 1;
		return parse_int(p, &c->n, name);
	}
	if (bare && isdig(at(p, p->i))) {
		c->op = CMP_EQ;
		c->bare = true;
		return parse_uint(p, &c->n);
	}
	if (required) {
		found(p, f, sizeof(f));
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "expected a compare point or number after '%s' at column "
		                  "%d%s",
		                  after, col(p, p->i), f);
	}
	return 0;
}

/* Checks a label's bytes; start is the offset of its first byte. */
static int
check_label(struct parser *p, size_t start, size_t n, size_t where)
{
	size_t k, u;

	if (n > DICE_LABEL_MAX)
		return dice__fail(p->e, DICE_ELIMIT,
		                  "the label at column %d is longer than %d bytes", col(p, where),
		                  DICE_LABEL_MAX);
	for (k = start; k < start + n; k += u) {
		unsigned char c = (unsigned char)p->s[k];

		if (c < 0x20 || c == 0x7f)
			return dice__fail(p->e, DICE_ESYNTAX,
			                  "the label at column %d holds a control character",
			                  col(p, where));
		if (c < 0x80)
			u = 1;
		else if ((u = utf8_seq_len(p->s + k, start + n - k)) == 0)
			return dice__fail(p->e, DICE_ESYNTAX,
			                  "the label at column %d is not valid UTF-8 text",
			                  col(p, where));
	}
	return 0;
}

/* Parses "[label]" at p->i into *out (NULL when empty). */
static int
parse_bracket_label(struct parser *p, const char **out)
{
	size_t open = p->i, start = p->i + 1, end;
	const char *rb;

	rb = memchr(p->s + start, ']', p->len - start);
	if (rb == NULL)
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "expected ']' to close the label at column %d", col(p, open));
	end = (size_t)(rb - p->s);
	if (check_label(p, start, end - start, open) != 0)
		return p->e->code;
	*out = end > start ? dice__arena_strdup(p->a, p->s + start, end - start) : NULL;
	p->i = end + 1;
	return 0;
}

static struct dice_node *
new_node(struct parser *p, uint8_t kind, size_t pos)
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
keep_text(struct parser *p, struct dice_out *o)
{
	if (o->overflow) {
		dice__fail(p->e, DICE_ELIMIT, "the roll is too long to print");
		return NULL;
	}
	return dice__arena_strdup(p->a, o->buf, o->used);
}

static int
dup_mod(struct parser *p, struct dice_spec *sp, unsigned int mod, size_t pos)
{
	static const char *const names[] = {"min",      "max",    "explode", "reroll",
	                                    "keep",     "drop",   "success", "failure",
	                                    "critical", "fumble", "sort"};
	int k = __builtin_ctz(mod);

	if ((sp->have & mod) == 0) {
		sp->have |= mod;
		return 0;
	}
	return dice__fail(p->e, DICE_ESYNTAX,
	                  "a dice term may have only one "
	                  "%s modifier (another at column %d)",
	                  names[k], col(p, pos));
}

/* Parses "khN"/"klN"/"dlN"/"dhN" (and "kN", "dN") at p->i. */
static int
parse_keepdrop(struct parser *p, struct dice_spec *sp, bool keep)
{
	size_t pos = p->i;
	uint8_t which = keep ? KD_HIGH : KD_LOW;
	char name[3] = {keep ? 'k' : 'd', 0, 0}, f[32];
	int64_t n;

	if (dup_mod(p, sp, keep ? MOD_KEEP : MOD_DROP, pos) != 0)
		return p->e->code;
	p->i++;
	if (lc(at(p, p->i)) == 'h' || lc(at(p, p->i)) == 'l') {
		which = lc(at(p, p->i)) == 'h' ? KD_HIGH : KD_LOW;
		name[1] = (char)lc(at(p, p->i));
		p->i++;
	}
	if (!isdig(at(p, p->i))) {
		found(p, f, sizeof(f));
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "expected a number after "
		                  "'%s' at column %d%s",
		                  name, col(p, p->i), f);
	}
	if (parse_uint(p, &n) != 0)
		return p->e->code;
	if (keep) {
		sp->keep = which;
		sp->keep_n = n;
	} else {
		sp->drop = which;
		sp->drop_n = n;
	}
	return 0;
}

/* Parses the modifiers (and a trailing "[label]") after a term's sides. */
static int
parse_mods(struct parser *p, struct dice_spec *sp, const char **label)
{
	char f[32];

	for (;;) {
		size_t pos = p->i;
		int c = lc(at(p, p->i));

		switch (c) {
		case 'm':
			if (p->len - p->i >= 3 && lc(at(p, p->i + 1)) == 'i' &&
			    lc(at(p, p->i + 2)) == 'n') {
				if (dup_mod(p, sp, MOD_MIN, pos) != 0)
					return p->e->code;
				p->i += 3;
				if (parse_int(p, &sp->min, "min") != 0)
					return p->e->code;
			} else if (p->len - p->i >= 3 && lc(at(p, p->i + 1)) == 'a' &&
			           lc(at(p, p->i + 2)) == 'x') {
				if (dup_mod(p, sp, MOD_MAX, pos) != 0)
					return p->e->code;
				p->i += 3;
				if (parse_int(p, &sp->max, "max") != 0)
					return p->e->code;
			} else {
				return dice__fail(p->e, DICE_ESYNTAX,
				                  "expected 'min' or 'max' at column %d",
				                  col(p, pos));
			}
			break;
		case '!':
			if (dup_mod(p, sp, MOD_EXPLODE, pos) != 0)
				return p->e->code;
			p->i++;
			sp->explode = EXP_EXPLODE;
			if (at(p, p->i) == '!') {
				p->i++;
				sp->explode = EXP_COMPOUND;
			}
			if (lc(at(p, p->i)) == 'p') {
				p->i++;
				sp->explode =
				    sp->explode == EXP_COMPOUND ? EXP_COMPOUND_PEN : EXP_PENETRATE;
			}
			if (parse_cp(p, &sp->explode_cp, true, false, "!") != 0)
				return p->e->code;
			break;
		case 'r':
			if (dup_mod(p, sp, MOD_REROLL, pos) != 0)
				return p->e->code;
			p->i++;
			sp->reroll = RR_ALL;
			if (lc(at(p, p->i)) == 'o') {
				p->i++;
				sp->reroll = RR_ONCE;
			}
			if (parse_cp(p, &sp->reroll_cp, true, false, "r") != 0)
				return p->e->code;
			break;
		case 'k':
		case 'd':
			if (parse_keepdrop(p, sp, c == 'k') != 0)
				return p->e->code;
			break;
		case '=':
		case '<':
		case '>':
			if (dup_mod(p, sp, MOD_SUCCESS, pos) != 0 ||
			    parse_cp(p, &sp->success, false, true, "") != 0)
				return p->e->code;
			break;
		case 'f':
			if (dup_mod(p, sp, MOD_FAILURE, pos) != 0)
				return p->e->code;
			p->i++;
			if (parse_cp(p, &sp->failure, true, true, "f") != 0)
				return p->e->code;
			break;
		case 'c':
			c = lc(at(p, p->i + 1));
			if (c != 's' && c != 'f') {
				p->i++;
				found(p, f, sizeof(f));
				return dice__fail(p->e, DICE_ESYNTAX,
				                  "expected 's' or 'f' after 'c' at column "
				                  "%d%s (cs marks criticals, cf fumbles)",
				                  col(p, p->i), f);
			}
			if (dup_mod(p, sp, c == 's' ? MOD_CRIT : MOD_FUMBLE, pos) != 0)
				return p->e->code;
			p->i += 2;
			if (parse_cp(p, c == 's' ? &sp->crit : &sp->fumble, true, false,
			             c == 's' ? "cs" : "cf") != 0)
				return p->e->code;
			break;
		case 's':
			if (dup_mod(p, sp, MOD_SORT, pos) != 0)
				return p->e->code;
			p->i++;
			sp->sort = SORT_ASC;
			if (lc(at(p, p->i)) == 'a') {
				p->i++;
			} else if (lc(at(p, p->i)) == 'd') {
				p->i++;
				sp->sort = SORT_DESC;
			}
			break;
		case '[':
			return parse_bracket_label(p, label);
		default:
			return 0;
		}
	}
}

/* Parses a parenthesised expression at p->i (which holds '('). */
static struct dice_node *
parse_paren(struct parser *p)
{
	size_t open = p->i;
	struct dice_node *n, *kid;
	char f[32];

	if (++p->depth > DICE_NEST_MAX) {
		dice__fail(p->e, DICE_ELIMIT,
		           "parentheses may nest at most %d "
		           "deep (the '(' at column %d would be level %d)",
		           DICE_NEST_MAX, col(p, open), p->depth);
		return NULL;
	}
	p->i++;
	if ((kid = parse_expr(p, "(")) == NULL)
		return NULL;
	skip_ws(p);
	if (at(p, p->i) != ')') {
		found(p, f, sizeof(f));
		dice__fail(p->e, DICE_ESYNTAX,
		           "expected ')' at column %d to "
		           "close the '(' at column %d%s",
		           col(p, p->i), col(p, open), f);
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
parse_dice(struct parser *p, size_t pos, struct dice_node *count_expr, int64_t count)
{
	char buf[DICE_CANON_MAX], f[32];
	struct dice_out o = {buf, sizeof(buf), 0, false};
	struct dice_spec *sp;
	struct dice_node *n;
	int c;

	if (count_expr == NULL && dice__check_count(count, p->e) != 0)
		return NULL;
	n = new_node(p, NODE_DICE, pos);
	sp = dice__arena_alloc(p->a, sizeof(*sp));
	memset(sp, 0, sizeof(*sp));
	n->spec = sp;
	sp->count_expr = count_expr;
	sp->count = count;
	p->i++;
	c = at(p, p->i);
	if (isdig(c)) {
		if (parse_uint(p, &sp->sides) != 0 || dice__check_sides(sp->sides, p->e) != 0)
			return NULL;
	} else if (c == '%') {
		p->i++;
		sp->sides = 100;
	} else if (lc(c) == 'f') {
		p->i++;
		sp->fate = true;
		sp->sides = 3;
	} else if (c == '(') {
		if ((sp->sides_expr = parse_paren(p)) == NULL)
			return NULL;
	} else {
		found(p, f, sizeof(f));
		dice__fail(p->e, DICE_ESYNTAX,
		           "expected the number of sides, "
		           "'%%' or 'F' after 'd' at column %d%s",
		           col(p, p->i), f);
		return NULL;
	}
	if (parse_mods(p, sp, &n->label) != 0)
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
			           col(p, pos));
			return NULL;
		}
		sp->success = sp->explode_cp;
		sp->have |= MOD_SUCCESS;
	}
	if (sp->sides_expr == NULL && dice__check_faces(sp, sp->sides, p->e) != 0)
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

/* Parses a number, a dice term or a parenthesised expression. */
static struct dice_node *
parse_atom(struct parser *p, const char *after)
{
	size_t pos = p->i;
	int c = at(p, p->i);
	struct dice_node *n;
	int64_t v;

	if (isdig(c)) {
		if (parse_uint(p, &v) != 0)
			return NULL;
		if (lc(at(p, p->i)) == 'd')
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
		if (at(p, p->i) == '[' && parse_bracket_label(p, &n->label) != 0)
			return NULL;
		return n;
	}
	if (c == '(') {
		if ((n = parse_paren(p)) == NULL)
			return NULL;
		if (lc(at(p, p->i)) == 'd')
			return parse_dice(p, pos, n, 0);
		return n;
	}
	if (lc(c) == 'd')
		return parse_dice(p, pos, NULL, 1);
	want_operand(p, after);
	return NULL;
}

/* Parses a run of unary minus signs and the atom they negate. */
static struct dice_node *
parse_unary(struct parser *p, const char *after)
{
	size_t pos;
	uint32_t nneg = 0;
	struct dice_node *n, *kid;
	char *dash;

	skip_ws(p);
	pos = p->i;
	while (at(p, p->i) == '-') {
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
parse_chain(struct parser *p, const char *after, bool sum)
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
		c = at(p, p->i);
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
parse_expr(struct parser *p, const char *after)
{
	return parse_chain(p, after, true);
}

/* Parses "Nx" at p->i when it is there; *after names it for errors. */
static int
parse_repeat(struct parser *p, struct dice_stmt *st, char *after, size_t afterlen)
{
	size_t j = p->i;
	bool big = false;
	int64_t n = 0;
	int r;

	for (; isdig(at(p, j)); j++)
		if (!big && (__builtin_mul_overflow(n, 10, &n) ||
		             __builtin_add_overflow(n, at(p, j) - '0', &n)))
			big = true;
	if (j == p->i || lc(at(p, j)) != 'x')
		return 0;
	if (big)
		return dice__fail(p->e, DICE_ELIMIT,
		                  "a repeat must be between "
		                  "1x and %dx (the one at column %d is far larger)",
		                  DICE_REPEAT_MAX, col(p, p->i));
	if (n < 1 || n > DICE_REPEAT_MAX)
		return dice__fail(p->e, DICE_ELIMIT,
		                  "a repeat must be between "
		                  "1x and %dx (got %lldx)",
		                  DICE_REPEAT_MAX, (long long)n);
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
parse_command_label(struct parser *p, struct dice_cmd *cmd)
{
	size_t hash = p->i, start = p->i + 1, end = p->len;

	while (start < end && isws(at(p, start)))
		start++;
	while (end > start && isws(at(p, end - 1)))
		end--;
	if (check_label(p, start, end - start, hash) != 0)
		return p->e->code;
	if (end > start)
		cmd->label = dice__arena_strdup(p->a, p->s + start, end - start);
	p->i = p->len;
	return 0;
}

static int
unexpected(struct parser *p)
{
	char q[16];

	dice__quote(p->s, p->len, p->i, q, sizeof(q));
	return dice__fail(p->e, DICE_ESYNTAX,
	                  "unexpected %s at column %d; "
	                  "%san operator (+ - * /), ';', '# label' or the end may follow "
	                  "a term",
	                  q, col(p, p->i),
	                  p->last_dice && p->i > 0 && !isws(at(p, p->i - 1)) ? "a dice modifier, "
	                                                                     : "");
}

int
dice__parse(const char *text, size_t len, struct dice_arena *a, struct dice_cmd *cmd,
            struct dice_errbuf *e)
{
	struct parser p = {text, len, 0, 0, false, a, e};
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
			return e->code;
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
		c = at(&p, p.i);
		if (c == -1)
			break;
		if (c == '#') {
			if (parse_command_label(&p, cmd) != 0)
				return e->code;
			break;
		}
		if (c != ';')
			return unexpected(&p);
		if (cmd->nstmt == DICE_EXPRS_MAX)
			return dice__fail(e, DICE_ELIMIT,
			                  "a roll may have at "
			                  "most %d expressions separated by ';'",
			                  DICE_EXPRS_MAX);
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
