/*
 * dice_arith: the arithmetic of an expression's values while it is rolled:
 * whole numbers, and exact fractions inside a function. See dice_impl.h.
 */
#include "rules/dice/dice_impl.h"

/* The greatest common divisor of |a| and |b| (|INT64_MIN| included). */
static uint64_t
gcd(int64_t a, int64_t b)
{
	uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
	uint64_t y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;

	while (y != 0) {
		uint64_t t = x % y;

		x = y;
		y = t;
	}
	return x;
}

/* n/d (d > 0) in lowest terms. The divisor is at most d, so it fits in
 * 64 bits and the quotients are exact. */
static int
reduce(int64_t n, int64_t d, struct dice_q *v)
{
	int64_t g = (int64_t)gcd(n, d);

	v->n = n / g;
	v->d = d / g;
	return DICE_Q_OK;
}

int64_t
dice__q_floor(struct dice_q a)
{
	int64_t q = a.n / a.d;

	if (a.n % a.d != 0 && a.n < 0)
		q--;
	return q;
}

int
dice__q_apply(char op, struct dice_q a, struct dice_q b, bool exact, struct dice_q *v)
{
	int64_t x, y, n, d, g, h;

	switch (op) {
	case '+':
	case '-':
		g = (int64_t)gcd(a.d, b.d);
		if (__builtin_mul_overflow(a.n, b.d / g, &x) ||
		    __builtin_mul_overflow(b.n, a.d / g, &y) ||
		    (op == '+' ? __builtin_add_overflow(x, y, &n)
		               : __builtin_sub_overflow(x, y, &n)) ||
		    __builtin_mul_overflow(a.d, b.d / g, &d))
			return DICE_Q_OVERFLOW;
		return reduce(n, d, v);
	case '*':
		/* Cross-cancelled first, so that only a product that cannot
		 * be written in 64 bits overflows. */
		g = (int64_t)gcd(a.n, b.d);
		h = (int64_t)gcd(b.n, a.d);
		if (__builtin_mul_overflow(a.n / g, b.n / h, &n) ||
		    __builtin_mul_overflow(a.d / h, b.d / g, &d))
			return DICE_Q_OVERFLOW;
		return reduce(n, d, v);
	default:
		if (b.n == 0)
			return DICE_Q_DIVZERO;
		if (!exact) {
			/* Whole numbers outside a function: rounded down. */
			if (a.n == INT64_MIN && b.n == -1)
				return DICE_Q_OVERFLOW;
			v->n = a.n / b.n;
			if (a.n % b.n != 0 && (a.n < 0) != (b.n < 0))
				v->n--;
			v->d = 1;
			return DICE_Q_OK;
		}
		/* a times b's reciprocal, whose sign goes on top. */
		if (b.n == INT64_MIN)
			return DICE_Q_OVERFLOW;
		return dice__q_apply(
		    '*', a, (struct dice_q){b.n < 0 ? -b.d : b.d, b.n < 0 ? -b.n : b.n}, true, v);
	}
}

int
dice__q_fn(uint8_t fn, struct dice_q a, struct dice_q *v)
{
	int64_t f = dice__q_floor(a), r;

	v->d = 1;
	switch (fn) {
	case FN_FLOOR:
		v->n = f;
		return DICE_Q_OK;
	case FN_CEIL:
		/* f < INT64_MAX whenever a is not whole. */
		v->n = f + (a.d != 1);
		return DICE_Q_OK;
	case FN_ROUND:
		/* Half up: one more when the remainder is half of d or more. */
		r = a.n % a.d;
		if (r < 0)
			r += a.d;
		v->n = f + (a.d != 1 && r >= a.d - r);
		return DICE_Q_OK;
	default:
		if (a.n == INT64_MIN)
			return DICE_Q_OVERFLOW;
		v->n = a.n < 0 ? -a.n : a.n;
		v->d = a.d;
		return DICE_Q_OK;
	}
}
