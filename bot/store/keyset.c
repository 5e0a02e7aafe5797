/* keyset: a set of record ids by hash; see keyset.h. */
#include "bot/store/keyset.h"

#include <stdlib.h>

#include "rules/base/mem.h"

#define MIN_SLOTS 64

/* Linear probing over a power of two of slots, 0 marking an empty one (a
 * hash of 0 is stored as 1); at most half the slots are used. */
struct keyset {
	uint64_t *slot;
	size_t mask; /* slots - 1 */
	size_t n;
};

struct keyset *
keyset_new(void)
{
	struct keyset *s = xcalloc(1, sizeof(*s));

	s->slot = xcalloc(MIN_SLOTS, sizeof(*s->slot));
	s->mask = MIN_SLOTS - 1;
	return s;
}

void
keyset_free(struct keyset *s)
{
	if (s == NULL)
		return;
	free(s->slot);
	free(s);
}

/* 64-bit FNV-1a, then a finalizer (splitmix64's) so that the low bits the
 * table uses depend on every byte. */
uint64_t
keyset_hash(char kind, const char *key)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = (h ^ (unsigned char)kind) * 0x100000001b3ull;
	for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	h ^= h >> 31;
	return h != 0 ? h : 1;
}

/* The slot holding h, or the empty slot where it would go. */
static size_t
find(const struct keyset *s, uint64_t h)
{
	size_t i = (size_t)h & s->mask;

	while (s->slot[i] != 0 && s->slot[i] != h)
		i = (i + 1) & s->mask;
	return i;
}

static void
grow(struct keyset *s)
{
	uint64_t *old = s->slot;
	size_t n = s->mask + 1;

	s->slot = xcalloc(n * 2, sizeof(*s->slot));
	s->mask = n * 2 - 1;
	for (size_t i = 0; i < n; i++)
		if (old[i] != 0)
			s->slot[find(s, old[i])] = old[i];
	free(old);
}

void
keyset_add(struct keyset *s, uint64_t h)
{
	size_t i;

	h = h != 0 ? h : 1;
	if ((s->n + 1) * 2 > s->mask + 1)
		grow(s);
	i = find(s, h);
	if (s->slot[i] == 0) {
		s->slot[i] = h;
		s->n++;
	}
}

/* Removes h, then moves back each later member of its run that may sit
 * closer to its home slot (no tombstones). */
void
keyset_remove(struct keyset *s, uint64_t h)
{
	size_t i, j;

	h = h != 0 ? h : 1;
	i = find(s, h);
	if (s->slot[i] == 0)
		return;
	s->slot[i] = 0;
	s->n--;
	for (j = (i + 1) & s->mask; s->slot[j] != 0; j = (j + 1) & s->mask) {
		size_t home = (size_t)s->slot[j] & s->mask;

		/* Stays when its home lies cyclically in (i, j]. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		s->slot[i] = s->slot[j];
		s->slot[j] = 0;
		i = j;
	}
}

bool
keyset_has(const struct keyset *s, uint64_t h)
{
	return s->slot[find(s, h != 0 ? h : 1)] != 0;
}

size_t
keyset_count(const struct keyset *s)
{
	return s->n;
}
