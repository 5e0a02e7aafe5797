/* irc_limit: per-key token buckets for commands; see irc_limit.h. */
#include "bot/irc/irc_limit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

struct entry {
	char key[IRC_LIMIT_KEY_MAX];
	int64_t credit;   /* ms of credit, at most capacity */
	int64_t refilled; /* when credit was last brought up to date */
	int64_t spent;    /* when a command was last spent (or the key was made) */
	bool used;        /* a command was spent since the key was made */
	int64_t refused;  /* when a command was last refused (told is true) */
	bool told;        /* told to slow down in this throttled spell */
};

struct irc_limit {
	int64_t interval; /* ms per command */
	int64_t capacity; /* burst * interval */
	struct entry *v;
	size_t n;
};

struct irc_limit *
irc_limit_new(int burst, int interval_ms)
{
	struct irc_limit *l = xcalloc(1, sizeof(*l));

	l->v = xcalloc(IRC_LIMIT_KEYS, sizeof(*l->v));
	irc_limit_set_rate(l, burst, interval_ms);
	return l;
}

void
irc_limit_free(struct irc_limit *l)
{
	if (l == NULL)
		return;
	free(l->v);
	free(l);
}

void
irc_limit_set_rate(struct irc_limit *l, int burst, int interval_ms)
{
	if (burst < 1)
		burst = 1;
	if (interval_ms < 0)
		interval_ms = 0;
	l->interval = interval_ms;
	l->capacity = (int64_t)burst * interval_ms;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].credit > l->capacity)
			l->v[i].credit = l->capacity;
}

static void
refill(struct irc_limit *l, struct entry *e, int64_t now)
{
	if (now > e->refilled) {
		e->credit += now - e->refilled;
		if (e->credit > l->capacity)
			e->credit = l->capacity;
	}
	e->refilled = now;
}

/* key's entry, brought up to date at now; a new one starts full. */
static struct entry *
find(struct irc_limit *l, const char *key, int64_t now)
{
	struct entry *e = NULL;

	for (size_t i = 0; i < l->n; i++) {
		if (strncmp(l->v[i].key, key, sizeof(l->v[i].key) - 1) == 0) {
			refill(l, &l->v[i], now);
			return &l->v[i];
		}
	}
	if (l->n < IRC_LIMIT_KEYS) {
		e = &l->v[l->n++];
	} else {
		/* A full bucket out of its spell is as good as none: the one
		 * that spent least recently of those goes, else of all. */
		bool e_free = false;

		for (size_t i = 0; i < l->n; i++) {
			bool free_;

			refill(l, &l->v[i], now);
			free_ = l->v[i].credit >= l->capacity &&
			        (!l->v[i].told || now - l->v[i].refused >= IRC_LIMIT_QUIET_MS);
			if (e == NULL || (free_ && !e_free) ||
			    (free_ == e_free && l->v[i].spent < e->spent)) {
				e = &l->v[i];
				e_free = free_;
			}
		}
	}
	memset(e, 0, sizeof(*e));
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->credit = l->capacity;
	e->refilled = e->spent = now;
	return e;
}

int
irc_limit_count(struct irc_limit *l, const char *key, int64_t now, int64_t *last)
{
	const struct entry *e;

	if (l->interval == 0 && last == NULL)
		return IRC_LIMIT_NONE;
	e = find(l, key, now);
	if (last != NULL)
		*last = e->used ? e->spent : IRC_LIMIT_NEVER;
	return l->interval == 0 ? IRC_LIMIT_NONE : (int)(e->credit / l->interval);
}

bool
irc_limit_ready(struct irc_limit *l, const char *key, int64_t now)
{
	return irc_limit_count(l, key, now, NULL) >= 1;
}

bool
irc_limit_ready_keeping(struct irc_limit *l, const char *key, int keep, int64_t now)
{
	return irc_limit_count(l, key, now, NULL) > (keep < 0 ? 0 : keep);
}

bool
irc_limit_full(struct irc_limit *l, const char *key, int64_t now)
{
	return l->interval == 0 || find(l, key, now)->credit >= l->capacity;
}

bool
irc_limit_take(struct irc_limit *l, const char *key, int64_t now)
{
	struct entry *e;

	e = find(l, key, now);
	if (l->interval > 0 && e->credit < l->interval)
		return false;
	e->credit -= l->interval;
	e->spent = now;
	e->used = true;
	return true;
}

bool
irc_limit_tell(struct irc_limit *l, const char *key, int64_t now)
{
	struct entry *e = find(l, key, now);
	bool tell = !e->told || now - e->refused >= IRC_LIMIT_QUIET_MS;

	e->told = true;
	e->refused = now;
	return tell;
}
