/* odds: X-in-N odds; see odds.h. */
#include "rules/procedure/odds.h"

#include <stdio.h>
#include <strings.h>

#include "rules/base/num.h"
#include "rules/base/rng.h"

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

int
odds_parse(const char *s, struct odds *out, char *err, size_t errlen)
{
	const char *p = s;
	int x, n = 6;

	if (num_read(&p, &x) < 0)
		goto bad;
	if (*p == '/') {
		p++;
	} else if (*p == '-' && strncasecmp(p, "-in-", 4) == 0) {
		p += 4;
	} else if (strncasecmp(p, "in", 2) == 0) {
		p += 2;
	} else if (*p == '\0') {
		goto check;
	} else {
		goto bad;
	}
	if (num_read(&p, &n) < 0 || *p != '\0')
		goto bad;
check:
	if (odds_check(x, n, err, errlen) < 0)
		return -1;
	out->x = x;
	out->n = n;
	return 0;
bad:
	snprintf(err, errlen,
	         "'%.20s' is not a chance; write X-in-N like 2-in-6 (or just 2 for 2-in-6).", s);
	return -1;
}

int
odds_roll(struct rng *r, struct odds c, bool *hit)
{
	int roll = (int)rng_die(r, c.n);

	*hit = roll <= c.x;
	return roll;
}
