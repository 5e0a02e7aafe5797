/*
 * dice_check: the limits of NOTATION.md that are knowable before rolling,
 * and the entry points that parse without rolling (dice_check(),
 * dice_normalize()).
 */
#include "rules/dice/dice_impl.h"

#include <stdio.h>

/* Bytes of arena on the stack for parsing without a result. */
#define CHECK_INLINE 2048

int
dice__check_count(int64_t count, int col, struct dice_errbuf *e)
{
	if (count < 1 || count > DICE_TERM_DICE_MAX)
		return dice__fail(e, DICE_ELIMIT,
		                  "the term at column %d must roll between 1 and %d dice "
		                  "(got %lld)",
		                  col, DICE_TERM_DICE_MAX, (long long)count);
	return 0;
}

int
dice__count_huge(size_t ndigits, int col, struct dice_errbuf *e)
{
	return dice__fail(e, DICE_ELIMIT,
	                  "the term at column %d must roll between 1 and %d dice "
	                  "(got a number of %zu digits)",
	                  col, DICE_TERM_DICE_MAX, ndigits);
}

int
dice__check_sides(int64_t sides, int col, struct dice_errbuf *e)
{
	if (sides < 1 || sides > DICE_SIDES_MAX)
		return dice__fail(e, DICE_ELIMIT,
		                  "the dice of the term at column %d must have between 1 "
		                  "and %d sides (got %lld)",
		                  col, DICE_SIDES_MAX, (long long)sides);
	return 0;
}

int
dice__sides_huge(size_t ndigits, int col, struct dice_errbuf *e)
{
	return dice__fail(e, DICE_ELIMIT,
	                  "the dice of the term at column %d must have between 1 "
	                  "and %d sides (got a number of %zu digits)",
	                  col, DICE_SIDES_MAX, ndigits);
}

/* Whether c matches every value in lo..hi. */
static bool
matches_all(const struct dice_cmp *c, int64_t lo, int64_t hi)
{
	switch (c->op) {
	case CMP_EQ:
		return lo == c->n && hi == c->n;
	case CMP_NE:
		return c->n < lo || c->n > hi;
	case CMP_LT:
		return hi < c->n;
	case CMP_LE:
		return hi <= c->n;
	case CMP_GT:
		return lo > c->n;
	case CMP_GE:
		return lo >= c->n;
	default:
		return false;
	}
}

static int
endless(const struct dice_spec *sp, int64_t sides, const char *what, const char *name,
        const struct dice_cmp *c, int col, struct dice_errbuf *e)
{
	char mbuf[64], dbuf[96];
	struct dice_out m = {mbuf, sizeof(mbuf), 0, false};
	struct dice_out d = {dbuf, sizeof(dbuf), 0, false};

	mbuf[0] = dbuf[0] = '\0';
	dice__out_str(&m, name);
	dice__print_cmp(&m, c, true);
	dice__out_str(&d, "d");
	if (sp->fate)
		dice__out_str(&d, "F");
	else
		dice__out_i64(&d, sides);
	if (sp->have & MOD_MIN) {
		dice__out_str(&d, "min");
		dice__out_i64(&d, sp->min);
	}
	if (sp->have & MOD_MAX) {
		dice__out_str(&d, "max");
		dice__out_i64(&d, sp->max);
	}
	return dice__fail(e, DICE_ELIMIT,
	                  "'%s' of the term at column %d %s every face of %s, so "
	                  "it would never stop; use a compare point that some faces miss",
	                  mbuf, col, what, dbuf);
}

/*
 * Rejects an explode or reroll (not reroll-once) compare point that
 * matches every value the die can show once min and max clamp it.
 */
int
dice__check_faces(const struct dice_spec *sp, int64_t sides, int col, struct dice_errbuf *e)
{
	static const char *const expl[] = {"", "!", "!!", "!p", "!!p"};
	static const char *const verb[] = {"", "explodes on", "compounds on", "penetrates on",
	                                   "compounds on"};
	int64_t lo = sp->fate ? -1 : 1, hi = sp->fate ? 1 : sides;
	struct dice_cmp c;
	char die[32];

	/* A clamp beyond the faces, or max under min, makes every die one
	 * value whatever it rolled: a typo rather than a roll. */
	if (sp->fate)
		snprintf(die, sizeof(die), "dF");
	else
		snprintf(die, sizeof(die), "d%lld", (long long)sides);
	if ((sp->have & MOD_MIN) && sp->min > hi)
		return dice__fail(e, DICE_ESYNTAX,
		                  "'min%lld' of the term at column %d is above the highest face "
		                  "of its %s dice (%lld); min may be %lld to %lld",
		                  (long long)sp->min, col, die, (long long)hi,
		                  sp->fate ? 0LL : (long long)lo, (long long)hi);
	if ((sp->have & MOD_MAX) && sp->max < lo)
		return dice__fail(e, DICE_ESYNTAX,
		                  "'max%lld' of the term at column %d is below the lowest face "
		                  "of its %s dice (%lld); max may be %lld to %lld",
		                  (long long)sp->max, col, die, (long long)lo, (long long)lo,
		                  (long long)hi);
	if ((sp->have & MOD_MIN) && (sp->have & MOD_MAX) && sp->max < sp->min)
		return dice__fail(e, DICE_ESYNTAX,
		                  "'max%lld' of the term at column %d is below its 'min%lld', so "
		                  "every die would count %lld; max may not be below min",
		                  (long long)sp->max, col, (long long)sp->min, (long long)sp->max);
	if (sp->have & MOD_MIN) {
		lo = lo > sp->min ? lo : sp->min;
		hi = hi > sp->min ? hi : sp->min;
	}
	if (sp->have & MOD_MAX) {
		lo = lo < sp->max ? lo : sp->max;
		hi = hi < sp->max ? hi : sp->max;
	}
	if (sp->have & MOD_EXPLODE) {
		c = sp->explode_cp;
		if (c.op == CMP_NONE) {
			c.op = CMP_EQ;
			c.n = sp->fate ? 1 : sides;
		}
		if (matches_all(&c, lo, hi))
			return endless(sp, sides, verb[sp->explode], expl[sp->explode],
			               &sp->explode_cp, col, e);
	}
	if ((sp->have & MOD_REROLL) && sp->reroll == RR_ALL) {
		c = sp->reroll_cp;
		if (c.op == CMP_NONE) {
			c.op = CMP_EQ;
			c.n = sp->fate ? -1 : 1;
		}
		if (matches_all(&c, lo, hi))
			return endless(sp, sides, "rerolls", "r", &sp->reroll_cp, col, e);
	}
	return 0;
}

int
dice__check_term(const struct dice_spec *sp, int64_t count, int64_t sides, int col,
                 struct dice_errbuf *e)
{
	if (dice__check_count(count, col, e) != 0)
		return e->code;
	if (!sp->fate && dice__check_sides(sides, col, e) != 0)
		return e->code;
	return dice__check_faces(sp, sides, col, e);
}

int
dice_check(const char *text, size_t len, char *err, size_t errlen)
{
	_Alignas(max_align_t) unsigned char buf[CHECK_INLINE];
	struct dice_errbuf e = {err, errlen, 0};
	struct dice_arena a;
	struct dice_cmd cmd;
	int rc;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (text == NULL && len > 0)
		return dice__fail(&e, DICE_EINVAL, "dice_check needs text");
	dice__arena_init(&a, buf, sizeof(buf));
	rc = dice__parse(text != NULL ? text : "", len, &a, &cmd, &e);
	dice__arena_release(&a);
	return rc;
}

int
dice_normalize(const char *text, size_t len, char *out, size_t outlen, char *err, size_t errlen)
{
	_Alignas(max_align_t) unsigned char buf[CHECK_INLINE];
	struct dice_errbuf e = {err, errlen, 0};
	struct dice_out o = {out, outlen, 0, false};
	struct dice_arena a;
	struct dice_cmd cmd;
	int rc;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if ((text == NULL && len > 0) || out == NULL || outlen == 0)
		return dice__fail(&e, DICE_EINVAL,
		                  "dice_normalize needs text "
		                  "and an output buffer");
	out[0] = '\0';
	dice__arena_init(&a, buf, sizeof(buf));
	rc = dice__parse(text != NULL ? text : "", len, &a, &cmd, &e);
	if (rc == 0) {
		dice__print_cmd(&o, &cmd);
		if (o.overflow) {
			out[0] = '\0';
			rc = dice__fail(&e, DICE_EINVAL,
			                "the output buffer "
			                "holds %zu bytes; %d are always enough",
			                outlen, DICE_CANON_MAX);
		}
	}
	dice__arena_release(&a);
	return rc;
}
