/* odds: X-in-N odds; see odds.h. */
#include "rules/procedure/odds.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/base/buf.h"
#include "rules/base/num.h"
#include "rules/base/rng.h"
#include "rules/base/textsafe.h"

int
odds_check(int x, int n, char *err, size_t errlen)
{
	if (n < ODDS_SIDES_MIN || n > ODDS_SIDES_MAX) {
		snprintf(err, errlen,
		         "A %d-sided die cannot be used for X-in-N odds; N must be from %d to %d.",
		         n, ODDS_SIDES_MIN, ODDS_SIDES_MAX);
		return -1;
	}
	if (x < 1 || x > n) {
		snprintf(err, errlen, "%d-in-%d is not a chance; X must be from 1 to %d on a d%d.",
		         x, n, n, n);
		return -1;
	}
	return 0;
}

/* Skips blanks at *p; returns how many. */
static size_t
skip_blanks(const char **p)
{
	const char *from = *p;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	return (size_t)(*p - from);
}

bool
odds_one_word(const char *w)
{
	size_t d = strspn(w, "0123456789");

	if (d == 0)
		return false;
	w += d;
	if (*w == '/')
		w++;
	else if (strncasecmp(w, "-in-", 4) == 0)
		w += 4;
	else if (strncasecmp(w, "in", 2) == 0)
		w += 2;
	else
		return false;
	d = strspn(w, "0123456789");
	return d > 0 && w[d] == '\0';
}

int
odds_parse(const char *s, struct odds *out, char *err, size_t errlen)
{
	const char *p = s;
	int x, n = 6;
	size_t gap;
	struct buf quoted;

	skip_blanks(&p);
	if (num_read(&p, &x) < 0)
		goto bad;
	gap = skip_blanks(&p);
	if (*p == '\0')
		goto check;
	if (gap == 0 && *p == '/') {
		p++;
	} else if (gap == 0 && strncasecmp(p, "-in-", 4) == 0) {
		p += 4;
	} else if (strncasecmp(p, "in", 2) == 0 && (p[2] == ' ' || p[2] == '\t' || gap == 0)) {
		p += 2;
		if (gap > 0 && skip_blanks(&p) == 0)
			goto bad;
	} else if (gap == 0) {
		goto bad;
	}
	if (num_read(&p, &n) < 0)
		goto bad;
	skip_blanks(&p);
	if (*p != '\0')
		goto more;
check:
	if (odds_check(x, n, err, errlen) < 0)
		return -1;
	out->x = x;
	out->n = n;
	return 0;
more:
	/* odds, and words after them: the refusal names the odds read as
	 * such, not their form as the one to write ("2-in-6 3" was "not a
	 * chance; write X-in-N like 2-in-6", F14) */
	if (odds_check(x, n, err, errlen) < 0)
		goto bad;
	buf_init(&quoted, errlen);
	textsafe_quote(&quoted, s, strlen(s), 20);
	buf_addf(&quoted, " is the odds %d-in-%d followed by ", x, n);
	textsafe_quote(&quoted, p, strlen(p), 20);
	snprintf(err, errlen, "%s, which is no part of them; give the odds alone.",
	         buf_str(&quoted));
	buf_free(&quoted);
	return -1;
bad:
	/* the odds quoted as textsafe quotes them: an invisible character
	 * that keeps "2<U+200B>" from being odds is named, not shown as
	 * nothing */
	buf_init(&quoted, errlen);
	textsafe_quote(&quoted, s, strlen(s), 20);
	snprintf(err, errlen,
	         "%s is not a chance; write X-in-N like 2-in-6 (or 2 in 6, or 2 6), or X "
	         "alone for X-in-6 (2 is 2-in-6).",
	         buf_str(&quoted));
	buf_free(&quoted);
	return -1;
}

int
odds_roll(struct rng *r, struct odds c, bool *hit)
{
	int roll = (int)rng_die(r, c.n);

	*hit = roll <= c.x;
	return roll;
}
