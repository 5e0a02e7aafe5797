/* discord_seqs: the gateway's resume point; see discord_seqs.h. */
#include "bot/discord/discord_seqs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

/* The interactions in flight, in the order they came (a ring): sequence
 * numbers grow along it, so the oldest not done is the resume point. */
struct entry {
	uint64_t id;
	int64_t seq;
	int64_t since;
	bool done;
};

struct seqs {
	struct entry *v;
	size_t cap, head, n; /* n entries from head, oldest first */
};

struct seqs *
discord_seqs_new(void)
{
	return xcalloc(1, sizeof(struct seqs));
}

void
discord_seqs_free(struct seqs *s)
{
	if (s == NULL)
		return;
	free(s->v);
	free(s);
}

static struct entry *
at(struct seqs *s, size_t i)
{
	return &s->v[(s->head + i) % s->cap];
}

/* Drops the entries done (and the stale ones) at the front. */
static void
trim(struct seqs *s, int64_t now_ms)
{
	while (s->n > 0 && (at(s, 0)->done || now_ms - at(s, 0)->since > SEQS_STALE_MS)) {
		s->head = (s->head + 1) % s->cap;
		s->n--;
	}
}

void
discord_seqs_add(struct seqs *s, uint64_t id, int64_t seq, int64_t now_ms)
{
	trim(s, now_ms);
	if (s->n == s->cap) {
		size_t cap = s->cap != 0 ? 2 * s->cap : 64;
		struct entry *v = xcalloc(cap, sizeof(*v));

		for (size_t i = 0; i < s->n; i++)
			v[i] = *at(s, i);
		free(s->v);
		s->v = v;
		s->cap = cap;
		s->head = 0;
	}
	*at(s, s->n) = (struct entry){.id = id, .seq = seq, .since = now_ms};
	s->n++;
}

bool
discord_seqs_done(struct seqs *s, uint64_t id)
{
	for (size_t i = 0; i < s->n; i++) {
		struct entry *e = at(s, i);

		if (e->id == id && !e->done) {
			e->done = true;
			/* Answers mostly come in order: the front stays short. */
			while (s->n > 0 && at(s, 0)->done) {
				s->head = (s->head + 1) % s->cap;
				s->n--;
			}
			return true;
		}
	}
	return false;
}

int64_t
discord_seqs_resume_at(struct seqs *s, int64_t last, int64_t now_ms)
{
	trim(s, now_ms);
	if (s->n == 0)
		return last;
	return at(s, 0)->seq - 1 < last ? at(s, 0)->seq - 1 : last;
}

size_t
discord_seqs_count(const struct seqs *s)
{
	return s->n;
}
