/* wander: wandering-monster checks and surprise; see wander.h. */
#include "rules/procedure/wander.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/base/num.h"
#include "rules/base/rng.h"

static const char *const names[WANDER_COUNT] = {
    [WANDER_CORRIDOR] = "corridor", [WANDER_REST] = "rest",       [WANDER_CLASSIC] = "classic",
    [WANDER_TENSION] = "tension",   [WANDER_RETREAT] = "retreat",
};

const char *
wander_name(enum wander_proc w)
{
	return (unsigned)w < WANDER_COUNT ? names[w] : "?";
}

int
wander_parse(const char *name)
{
	for (int i = 0; i < WANDER_COUNT; i++)
		if (strcasecmp(name, names[i]) == 0)
			return i;
	return -1;
}

static void
one_in_six(struct rng *r, enum wander_proc w, struct wander_check *out)
{
	memset(out, 0, sizeof(*out));
	out->proc = w;
	out->sides = 6;
	out->roll = (int)rng_die(r, 6);
	out->encounter = out->roll == 1;
}

void
wander_corridor(struct rng *r, struct wander_check *out)
{
	one_in_six(r, WANDER_CORRIDOR, out);
}

void
wander_rest(struct rng *r, int exits, struct wander_check *out)
{
	one_in_six(r, WANDER_REST, out);
	out->exits = exits;
	if (out->encounter)
		out->entry = (int)rng_die(r, exits);
}

void
wander_classic(struct rng *r, struct odds chance, struct wander_check *out)
{
	memset(out, 0, sizeof(*out));
	out->proc = WANDER_CLASSIC;
	out->sides = chance.n;
	out->roll = odds_roll(r, chance, &out->encounter);
}

void
wander_tension(struct rng *r, int exits, int tension, const struct roll_table *encounters,
               const struct roll_table_lookup *lk, struct wander_check *out)
{
	memset(out, 0, sizeof(*out));
	out->proc = WANDER_TENSION;
	out->sides = 12;
	out->exits = exits;
	encounter_check(r, exits, tension, &out->d12);
	out->roll = out->d12.roll;
	out->encounter = out->d12.encounter;
	if (out->d12.encounter && encounters != NULL) {
		tension_pick(r, encounters, tension, lk, &out->pick);
		out->encounter = !out->pick.struck;
	}
}

/* Parses one "name:level[+bonus]" of len bytes. */
static int
player(const char *s, size_t len, struct retreat_player *p, char *err, size_t errlen)
{
	const char *colon = memchr(s, ':', len), *q;
	char word[RETREAT_NAME_MAX + 24];

	snprintf(word, sizeof(word), "%.*s", (int)(len < 40 ? len : 40), s);
	if (colon == NULL || colon == s || (size_t)(colon - s) >= RETREAT_NAME_MAX)
		goto bad;
	q = colon + 1;
	p->bonus = 0;
	if (num_read(&q, &p->level) < 0)
		goto bad;
	if (*q == '+') {
		q++;
		if (num_read(&q, &p->bonus) < 0)
			goto bad;
	}
	if (q != s + len)
		goto bad;
	if (p->level < 1 || p->level > RETREAT_LEVEL_MAX || p->bonus > RETREAT_BONUS_MAX) {
		snprintf(err, errlen,
		         "'%s': the level must be from 1 to %d and the extra dice from 0 to %d.",
		         word, RETREAT_LEVEL_MAX, RETREAT_BONUS_MAX);
		return -1;
	}
	snprintf(p->name, sizeof(p->name), "%.*s", (int)(colon - s), s);
	return 0;
bad:
	snprintf(err, errlen,
	         "'%s' is not a player; write name:level, with +N for extra dice (e.g. alice:2 "
	         "bob:3+1).",
	         word);
	return -1;
}

int
wander_retreat_parse(const char *text, struct retreat_player *p, char *err, size_t errlen)
{
	const char *s = text;
	int n = 0;

	for (;;) {
		size_t len;

		while (*s == ' ' || *s == ',' || *s == '\t')
			s++;
		if (*s == '\0')
			break;
		len = strcspn(s, " ,\t");
		if (n == RETREAT_PLAYERS_MAX) {
			snprintf(err, errlen, "A back-to-town check takes at most %d players.",
			         RETREAT_PLAYERS_MAX);
			return -1;
		}
		if (player(s, len, &p[n], err, errlen) < 0)
			return -1;
		n++;
		s += len;
	}
	if (n == 0) {
		snprintf(err, errlen, "Name the players as name:level, e.g. alice:2 bob:3.");
		return -1;
	}
	return n;
}

/* Rolls n d6 into d; returns the highest. */
static int
annoy(struct rng *r, int n, int *d)
{
	int high = 0;

	for (int i = 0; i < n; i++) {
		d[i] = (int)rng_die(r, 6);
		if (d[i] > high)
			high = d[i];
	}
	return high;
}

void
wander_retreat_obstacle_roll(struct rng *r, int floor, struct retreat_obstacle *out)
{
	memset(out, 0, sizeof(*out));
	out->floor = floor;
	out->high = annoy(r, floor, out->dice);
}

void
wander_retreat_roll(struct rng *r, const struct retreat_obstacle *o, const struct retreat_player *p,
                    struct wander_retreat_roll *out)
{
	memset(out, 0, sizeof(*out));
	out->ndice = p->level + p->bonus;
	out->high = annoy(r, out->ndice, out->dice);
	out->failed = out->high < o->high;
	out->points = out->failed ? p->level + o->floor : 0;
}

void
wander_surprise_roll(struct rng *r, int n, int mod, struct surprise_check *out)
{
	for (int i = 0; i < n; i++) {
		out[i].d20 = (int)rng_die(r, 20);
		out[i].total = out[i].d20 + mod;
		out[i].surprised = out[i].total < SURPRISE_DC;
	}
}
