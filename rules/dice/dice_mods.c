/*
 * dice_mods: the lexical parts of dice notation that the grammar of
 * dice_parse.c reads through: numbers, compare points, labels and the
 * modifiers after a dice term's sides. See dice_impl.h.
 */
#include "rules/dice/dice_impl.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

#include <stdio.h>
#include <string.h>

/* Fills buf with ", not 'c'" naming the byte at p->i, or "" at the end. */
void
dice__found(const struct dice_parser *p, char *buf, size_t len)
{
	char q[DICE_QUOTE_MAX];
	int r;

	buf[0] = '\0';
	if (p->i >= p->len)
		return;
	dice__quote(p->s, p->len, p->i, true, q, sizeof(q));
	r = snprintf(buf, len, ", not %s", q);
	if (r < 0 || (size_t)r >= len)
		buf[0] = '\0';
}

bool
dice__scan_uint(struct dice_parser *p, int64_t *v)
{
	bool big = false;
	int64_t n = 0;

	for (; dice__isdig(dice__at(p, p->i)); p->i++)
		if (!big && (__builtin_mul_overflow(n, 10, &n) ||
		             __builtin_add_overflow(n, dice__at(p, p->i) - '0', &n)))
			big = true;
	*v = big ? INT64_MAX : n;
	return big;
}

/* Parses the digits at p->i into *v. */
int
dice__parse_uint(struct dice_parser *p, int64_t *v)
{
	size_t start = p->i;

	if (dice__scan_uint(p, v))
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "the number at column %d is too large (at most "
		                  "9223372036854775807)",
		                  dice__col(p, start));
	return 0;
}

/* Parses an optional '-' and the digits that must follow it; what names
 * the token before, for the error. */
static int
parse_int(struct dice_parser *p, int64_t *v, const char *what)
{
	bool neg = false;
	char f[DICE_QUOTE_MAX + 8];

	if (dice__at(p, p->i) == '-' && dice__isdig(dice__at(p, p->i + 1))) {
		neg = true;
		p->i++;
	}
	if (!dice__isdig(dice__at(p, p->i))) {
		dice__found(p, f, sizeof(f));
		return dice__fail(p->e, DICE_ESYNTAX, "expected a number after '%s' at column %d%s",
		                  what, dice__col(p, p->i), f);
	}
	if (dice__parse_uint(p, v) != 0)
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
parse_cp(struct dice_parser *p, struct dice_cmp *c, bool bare, bool required, const char *after)
{
	int c1 = dice__at(p, p->i + 1);
	const char *name = NULL;
	char f[DICE_QUOTE_MAX + 8];

	c->op = CMP_NONE;
	c->bare = false;
	c->n = 0;
	switch (dice__at(p, p->i)) {
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
	if (bare && dice__isdig(dice__at(p, p->i))) {
		c->op = CMP_EQ;
		c->bare = true;
		return dice__parse_uint(p, &c->n);
	}
	if (required) {
		dice__found(p, f, sizeof(f));
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "expected a compare point or number after '%s' at column "
		                  "%d%s",
		                  after, dice__col(p, p->i), f);
	}
	return 0;
}

/* Checks a label's bytes; start is the offset of its first byte, where
 * that of its '#' or '['. One that would show as nothing for its invisible
 * characters is refused naming the first. */
int
dice__check_label(struct dice_parser *p, size_t start, size_t n, size_t where)
{
	char name[TEXTSAFE_NAME_MAX];
	size_t k, u;
	uint32_t cp;

	if (n > DICE_LABEL_MAX)
		return dice__fail(p->e, DICE_ELIMIT,
		                  "the label at column %d is longer than %d bytes (got %zu)",
		                  dice__col(p, where), DICE_LABEL_MAX, n);
	for (k = start; k < start + n; k += u) {
		unsigned char c = (unsigned char)p->s[k];

		if (c < 0x20 || c == 0x7f)
			return dice__fail(p->e, DICE_ESYNTAX,
			                  "the label at column %d holds a control character",
			                  dice__col(p, where));
		if (c < 0x80)
			u = 1;
		else if ((u = utf8_seq_len(p->s + k, start + n - k)) == 0)
			return dice__fail(p->e, DICE_ESYNTAX,
			                  "the label at column %d is not valid UTF-8 text",
			                  dice__col(p, where));
	}
	/* shown, it would be a blank label: "rolls  in secret", "1d20[]" */
	if (textsafe_invisible_in(p->s + start, n, &cp, &k) && textsafe_blank(p->s + start, n)) {
		textsafe_invisible_name(name, sizeof(name), cp, true);
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "the label at column %d holds nothing but %s at column %d; "
		                  "write a label that shows, or none",
		                  dice__col(p, where), name, dice__col(p, start + k));
	}
	return 0;
}

/* Parses "[label]" at p->i into *out (NULL when empty or blank: spaces
 * alone are no label, as after '#'). */
int
dice__parse_bracket_label(struct dice_parser *p, const char **out)
{
	size_t open = p->i, start = p->i + 1, end;
	const char *rb;

	rb = memchr(p->s + start, ']', p->len - start);
	if (rb == NULL)
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "expected ']' to close the label at column %d",
		                  dice__col(p, open));
	end = (size_t)(rb - p->s);
	if (dice__check_label(p, start, end - start, open) != 0)
		return p->e->code;
	*out = textsafe_blank(p->s + start, end - start)
	           ? NULL
	           : dice__arena_strdup(p->a, p->s + start, end - start);
	p->i = end + 1;
	return 0;
}

/*
 * Marks modifier mod present on sp, having read it as typed at p->s[pos ..
 * p->i); a second one of a kind is an error that quotes it as typed.
 */
static int
dup_mod(struct dice_parser *p, struct dice_spec *sp, unsigned int mod, size_t pos)
{
	static const char *const names[] = {
	    "min",     "max",      "explode", "reroll", "keep-highest", "drop-lowest", "success",
	    "failure", "critical", "fumble",  "sort",   "keep-lowest",  "drop-highest"};
	int k = __builtin_ctz(mod);
	size_t n = p->i - pos;

	if ((sp->have & mod) == 0) {
		sp->have |= mod;
		return 0;
	}
	return dice__fail(p->e, DICE_ESYNTAX,
	                  "a dice term may have only one %s modifier; '%.*s%s' at column %d is a "
	                  "second one",
	                  names[k], (int)(n > 24 ? 24 : n), p->s + pos, n > 24 ? "…" : "",
	                  dice__col(p, pos));
}

/* Parses "khN"/"klN"/"dlN"/"dhN" (and "kN", "dN") at p->i: one of each
 * per term. */
static int
parse_keepdrop(struct dice_parser *p, struct dice_spec *sp, bool keep)
{
	size_t pos = p->i;
	bool high = keep;
	char name[3] = {keep ? 'k' : 'd', 0, 0}, f[DICE_QUOTE_MAX + 8];
	unsigned int mod;
	int64_t n;

	p->i++;
	if (dice__lc(dice__at(p, p->i)) == 'h' || dice__lc(dice__at(p, p->i)) == 'l') {
		high = dice__lc(dice__at(p, p->i)) == 'h';
		name[1] = (char)dice__lc(dice__at(p, p->i));
		p->i++;
	}
	mod = keep ? (high ? MOD_KEEP : MOD_KEEPL) : (high ? MOD_DROPH : MOD_DROP);
	if (!dice__isdig(dice__at(p, p->i))) {
		dice__found(p, f, sizeof(f));
		return dice__fail(p->e, DICE_ESYNTAX,
		                  "expected a number after "
		                  "'%s' at column %d%s",
		                  name, dice__col(p, p->i), f);
	}
	if (dice__parse_uint(p, &n) != 0 || dup_mod(p, sp, mod, pos) != 0)
		return p->e->code;
	if (mod == MOD_KEEP)
		sp->keep_n = n;
	else if (mod == MOD_KEEPL)
		sp->keepl_n = n;
	else if (mod == MOD_DROP)
		sp->drop_n = n;
	else
		sp->droph_n = n;
	return 0;
}

/* Parses the modifiers (and a trailing "[label]") after a term's sides. */
int
dice__parse_mods(struct dice_parser *p, struct dice_spec *sp, const char **label)
{
	char f[DICE_QUOTE_MAX + 8];

	for (;;) {
		size_t pos = p->i;
		int c = dice__lc(dice__at(p, p->i));

		switch (c) {
		case 'm':
			if (p->len - p->i >= 3 && dice__lc(dice__at(p, p->i + 1)) == 'i' &&
			    dice__lc(dice__at(p, p->i + 2)) == 'n') {
				p->i += 3;
				if (parse_int(p, &sp->min, "min") != 0 ||
				    dup_mod(p, sp, MOD_MIN, pos) != 0)
					return p->e->code;
			} else if (p->len - p->i >= 3 && dice__lc(dice__at(p, p->i + 1)) == 'a' &&
			           dice__lc(dice__at(p, p->i + 2)) == 'x') {
				p->i += 3;
				if (parse_int(p, &sp->max, "max") != 0 ||
				    dup_mod(p, sp, MOD_MAX, pos) != 0)
					return p->e->code;
			} else {
				return dice__fail(p->e, DICE_ESYNTAX,
				                  "expected 'min' or 'max' at column %d",
				                  dice__col(p, pos));
			}
			break;
		case '!':
			p->i++;
			sp->explode = EXP_EXPLODE;
			if (dice__at(p, p->i) == '!') {
				p->i++;
				sp->explode = EXP_COMPOUND;
			}
			if (dice__lc(dice__at(p, p->i)) == 'p') {
				p->i++;
				sp->explode =
				    sp->explode == EXP_COMPOUND ? EXP_COMPOUND_PEN : EXP_PENETRATE;
			}
			if (parse_cp(p, &sp->explode_cp, true, false, "!") != 0 ||
			    dup_mod(p, sp, MOD_EXPLODE, pos) != 0)
				return p->e->code;
			break;
		case 'r':
			p->i++;
			sp->reroll = RR_ALL;
			if (dice__lc(dice__at(p, p->i)) == 'o') {
				p->i++;
				sp->reroll = RR_ONCE;
			}
			if (parse_cp(p, &sp->reroll_cp, true, false, "r") != 0 ||
			    dup_mod(p, sp, MOD_REROLL, pos) != 0)
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
			if (parse_cp(p, &sp->success, false, true, "") != 0 ||
			    dup_mod(p, sp, MOD_SUCCESS, pos) != 0)
				return p->e->code;
			break;
		case 'f':
			p->i++;
			if (parse_cp(p, &sp->failure, true, true, "f") != 0 ||
			    dup_mod(p, sp, MOD_FAILURE, pos) != 0)
				return p->e->code;
			break;
		case 'c':
			c = dice__lc(dice__at(p, p->i + 1));
			if (c != 's' && c != 'f') {
				p->i++;
				dice__found(p, f, sizeof(f));
				return dice__fail(p->e, DICE_ESYNTAX,
				                  "expected 's' or 'f' after 'c' at column "
				                  "%d%s (cs marks criticals, cf fumbles)",
				                  dice__col(p, p->i), f);
			}
			p->i += 2;
			if (parse_cp(p, c == 's' ? &sp->crit : &sp->fumble, true, false,
			             c == 's' ? "cs" : "cf") != 0 ||
			    dup_mod(p, sp, c == 's' ? MOD_CRIT : MOD_FUMBLE, pos) != 0)
				return p->e->code;
			break;
		case 's':
			p->i++;
			sp->sort = SORT_ASC;
			if (dice__lc(dice__at(p, p->i)) == 'a') {
				p->i++;
			} else if (dice__lc(dice__at(p, p->i)) == 'd') {
				p->i++;
				sp->sort = SORT_DESC;
			}
			if (dup_mod(p, sp, MOD_SORT, pos) != 0)
				return p->e->code;
			break;
		case '[':
			return dice__parse_bracket_label(p, label);
		default:
			return 0;
		}
	}
}
