/* markset: the marks a store may hold, by key hash; see markset.h. */
#include "bot/store/markset.h"
#include "bot/store/keyset.h"

#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

#define RING_MIN 64

/* A member, in the ring of members oldest first. */
struct member {
	uint64_t h;
	int64_t at;
};

/* A hash that more than one member holds: how many more. */
struct dup {
	uint64_t h;
	size_t more;
	UT_hash_handle hh;
};

/* An answer kept, by key. */
struct answer {
	int64_t at;
	size_t len;
	size_t cost; /* bytes it takes, counted against MARKSET_ANSWER_BYTES */
	UT_hash_handle hh;
	char *bytes;
	char key[]; /* NUL-terminated */
};

struct markset {
	struct keyset *hashes; /* every member's hash */
	struct dup *dups;
	struct member *ring; /* cap slots (a power of two), n used from first */
	size_t cap, first, n;
	bool lost;       /* marks that may be stored left early */
	int64_t lost_at; /* the newest of them */
	int64_t expired; /* the newest expiry so far: marks before it are gone */
	struct answer *answers;
	size_t answer_bytes; /* the answers' costs */
};

struct markset *
markset_new(void)
{
	struct markset *s = xcalloc(1, sizeof(*s));

	s->hashes = keyset_new();
	s->expired = INT64_MIN;
	return s;
}

static void
answer_free(struct markset *s, struct answer *a)
{
	HASH_DEL(s->answers, a);
	s->answer_bytes -= a->cost;
	free(a->bytes);
	free(a);
}

void
markset_free(struct markset *s)
{
	struct dup *d, *dt;
	struct answer *a, *at;

	if (s == NULL)
		return;
	HASH_ITER(hh, s->dups, d, dt)
	{
		HASH_DEL(s->dups, d);
		free(d);
	}
	HASH_ITER(hh, s->answers, a, at)
	answer_free(s, a);
	keyset_free(s->hashes);
	free(s->ring);
	free(s);
}

static uint64_t
hash_of(const char *key)
{
	return keyset_hash('h', key);
}

/* The oldest member leaves. */
static struct member
pop_oldest(struct markset *s)
{
	struct member m = s->ring[s->first];
	struct dup *d = NULL;

	s->first = (s->first + 1) & (s->cap - 1);
	s->n--;
	HASH_FIND(hh, s->dups, &m.h, sizeof(m.h), d);
	if (d == NULL) {
		keyset_remove(s->hashes, m.h);
	} else if (--d->more == 0) {
		HASH_DEL(s->dups, d);
		free(d);
	}
	return m;
}

static void
grow(struct markset *s)
{
	size_t cap = s->cap != 0 ? s->cap * 2 : RING_MIN;
	struct member *ring = xcalloc(cap, sizeof(*ring));

	for (size_t i = 0; i < s->n; i++)
		ring[i] = s->ring[(s->first + i) & (s->cap - 1)];
	free(s->ring);
	s->ring = ring;
	s->cap = cap;
	s->first = 0;
}

void
markset_lost(struct markset *s, int64_t at)
{
	if (!s->lost || at > s->lost_at)
		s->lost_at = at;
	s->lost = true;
}

/* h joins the hashes (once more when there). */
static void
hash_add(struct markset *s, uint64_t h)
{
	if (keyset_has(s->hashes, h)) {
		struct dup *d = NULL;

		HASH_FIND(hh, s->dups, &h, sizeof(h), d);
		if (d == NULL) {
			d = xcalloc(1, sizeof(*d));
			d->h = h;
			HASH_ADD(hh, s->dups, h, sizeof(d->h), d);
		}
		d->more++;
	} else {
		keyset_add(s->hashes, h);
	}
}

void
markset_add(struct markset *s, const char *key, int64_t at)
{
	uint64_t h = hash_of(key);

	if (s->n == MARKSET_MAX)
		markset_lost(s, pop_oldest(s).at);
	if (s->n == s->cap)
		grow(s);
	hash_add(s, h);
	s->ring[(s->first + s->n) & (s->cap - 1)] = (struct member){h, at};
	s->n++;
}

void
markset_add_older(struct markset *s, const char *key, int64_t at)
{
	uint64_t h = hash_of(key);

	if (s->n == MARKSET_MAX) {
		markset_lost(s, at);
		return;
	}
	if (s->n == s->cap)
		grow(s);
	hash_add(s, h);
	s->first = (s->first - 1) & (s->cap - 1);
	s->ring[s->first] = (struct member){h, at};
	s->n++;
}

void
markset_expire(struct markset *s, int64_t before)
{
	struct answer *a, *tmp;

	if (before > s->expired)
		s->expired = before;
	/* Members are oldest first unless the clock went back between two
	 * processes: one made "later" then waits behind, kept a while more. */
	while (s->n > 0 && s->ring[s->first].at < before)
		pop_oldest(s);
	if (s->lost && s->lost_at < s->expired)
		s->lost = false;
	HASH_ITER(hh, s->answers, a, tmp)
	{
		if (a->at < before)
			answer_free(s, a);
	}
}

bool
markset_complete(const struct markset *s)
{
	return !s->lost;
}

bool
markset_may_hold(const struct markset *s, const char *key)
{
	return s->lost || keyset_has(s->hashes, hash_of(key));
}

size_t
markset_count(const struct markset *s)
{
	return s->n;
}

bool
markset_keep_answer(struct markset *s, const char *key, int64_t at, const char *answer, size_t len)
{
	size_t klen = strlen(key);
	struct answer *a = NULL;

	HASH_FIND(hh, s->answers, key, klen, a);
	if (a != NULL)
		answer_free(s, a);
	if (sizeof(*a) + klen + 1 + len + 1 > MARKSET_ANSWER_BYTES - s->answer_bytes)
		return false;
	a = xcalloc(1, sizeof(*a) + klen + 1);
	memcpy(a->key, key, klen + 1);
	a->at = at;
	a->len = len;
	a->bytes = xmalloc(len + 1);
	memcpy(a->bytes, answer, len);
	a->bytes[len] = '\0';
	a->cost = sizeof(*a) + klen + 1 + len + 1;
	HASH_ADD_KEYPTR(hh, s->answers, a->key, klen, a);
	s->answer_bytes += a->cost;
	return true;
}

const char *
markset_answer(const struct markset *s, const char *key, size_t *len)
{
	struct answer *a = NULL;

	HASH_FIND(hh, s->answers, key, strlen(key), a);
	if (a == NULL)
		return NULL;
	*len = a->len;
	return a->bytes;
}
