/* irc_flood: token bucket and per-target FIFOs; see irc_flood.h. */
#include "bot/irc/irc_flood.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

struct line {
	struct line *next;
	size_t len;
	char text[];
};

struct fifo {
	char *target; /* owned; "" for the unaddressed queue */
	struct line *head, *tail;
	size_t n;
};

struct irc_flood {
	int64_t interval; /* ms per send */
	int64_t capacity; /* burst * interval */
	int64_t credit;   /* ms of sending credit, at most capacity */
	int64_t refilled; /* when credit was last brought up to date */
	bool started;     /* refilled is meaningful */
	struct fifo urgent;
	struct fifo *q; /* q[0] is the "" queue; targets follow */
	size_t nq;
	size_t rr;    /* the target queue to serve next (index >= 1) */
	size_t total; /* lines in q (not urgent) */
};

struct irc_flood *
irc_flood_new(int burst, int interval_ms)
{
	struct irc_flood *f = xcalloc(1, sizeof(*f));

	if (burst < 1)
		burst = 1;
	if (interval_ms < 0)
		interval_ms = 0;
	f->interval = interval_ms;
	f->capacity = (int64_t)burst * interval_ms;
	f->credit = f->capacity;
	f->q = xcalloc(1, sizeof(*f->q));
	f->q[0].target = xstrdup("");
	f->nq = 1;
	f->rr = 1;
	return f;
}

void
irc_flood_set_rate(struct irc_flood *f, int burst, int interval_ms)
{
	int64_t sends = f->interval > 0 ? f->credit / f->interval : burst;

	if (burst < 1)
		burst = 1;
	if (interval_ms < 0)
		interval_ms = 0;
	if (sends > burst)
		sends = burst;
	f->interval = interval_ms;
	f->capacity = (int64_t)burst * interval_ms;
	f->credit = sends * interval_ms;
}

static void
fifo_drop(struct fifo *q)
{
	struct line *l = q->head;

	while (l != NULL) {
		struct line *next = l->next;

		free(l);
		l = next;
	}
	q->head = q->tail = NULL;
	q->n = 0;
}

void
irc_flood_clear(struct irc_flood *f)
{
	fifo_drop(&f->urgent);
	for (size_t i = 0; i < f->nq; i++) {
		fifo_drop(&f->q[i]);
		if (i > 0)
			free(f->q[i].target);
	}
	f->nq = 1;
	f->rr = 1;
	f->total = 0;
	f->credit = f->capacity;
	f->started = false;
}

void
irc_flood_free(struct irc_flood *f)
{
	if (f == NULL)
		return;
	irc_flood_clear(f);
	free(f->q[0].target);
	free(f->q);
	free(f);
}

static void
fifo_push(struct fifo *q, const char *text, size_t len)
{
	struct line *l = xmalloc(sizeof(*l) + len + 1);

	l->next = NULL;
	l->len = len;
	memcpy(l->text, text, len);
	l->text[len] = '\0';
	if (q->tail != NULL)
		q->tail->next = l;
	else
		q->head = l;
	q->tail = l;
	q->n++;
}

static struct line *
fifo_pop(struct fifo *q)
{
	struct line *l = q->head;

	if (l == NULL)
		return NULL;
	q->head = l->next;
	if (q->head == NULL)
		q->tail = NULL;
	q->n--;
	return l;
}

static struct fifo *
queue_for(struct irc_flood *f, const char *target)
{
	if (target == NULL || *target == '\0')
		return &f->q[0];
	for (size_t i = 1; i < f->nq; i++)
		if (strcmp(f->q[i].target, target) == 0)
			return &f->q[i];
	f->q = xrealloc(f->q, (f->nq + 1) * sizeof(*f->q));
	memset(&f->q[f->nq], 0, sizeof(f->q[f->nq]));
	f->q[f->nq].target = xstrdup(target);
	return &f->q[f->nq++];
}

int
irc_flood_push(struct irc_flood *f, const char *target, const char *line, size_t len)
{
	struct fifo *q;

	if (f->total >= IRC_FLOOD_TOTAL_MAX)
		return -1;
	q = queue_for(f, target);
	if (q->n >= IRC_FLOOD_TARGET_MAX)
		return -1;
	fifo_push(q, line, len);
	f->total++;
	return 0;
}

int
irc_flood_push_urgent(struct irc_flood *f, const char *line, size_t len)
{
	if (f->urgent.n >= IRC_FLOOD_TARGET_MAX)
		return -1;
	fifo_push(&f->urgent, line, len);
	return 0;
}

static void
refill(struct irc_flood *f, int64_t now)
{
	if (!f->started) {
		f->started = true;
		f->refilled = now;
		return;
	}
	if (now > f->refilled) {
		f->credit += now - f->refilled;
		if (f->credit > f->capacity)
			f->credit = f->capacity;
	}
	f->refilled = now;
}

/* Removes target queue i (emptied), keeping the others in order. */
static void
drop_queue(struct irc_flood *f, size_t i)
{
	free(f->q[i].target);
	memmove(&f->q[i], &f->q[i + 1], (f->nq - i - 1) * sizeof(*f->q));
	f->nq--;
	if (f->rr > i)
		f->rr--;
	if (f->rr >= f->nq)
		f->rr = 1;
}

/* The queue to serve next: "" first, then the targets in turn. */
static struct fifo *
next_queue(struct irc_flood *f, size_t *index)
{
	if (f->q[0].n > 0) {
		*index = 0;
		return &f->q[0];
	}
	if (f->nq <= 1)
		return NULL;
	if (f->rr >= f->nq)
		f->rr = 1;
	*index = f->rr;
	return &f->q[f->rr];
}

static size_t
take(struct line *l, char *out, size_t size)
{
	size_t n = l->len;

	if (n + 1 > size)
		n = 0;
	else
		memcpy(out, l->text, n + 1);
	free(l);
	return n;
}

size_t
irc_flood_pop(struct irc_flood *f, int64_t now, char *out, size_t size)
{
	struct fifo *q;
	struct line *l;
	size_t i;

	if (f->urgent.head != NULL)
		return take(fifo_pop(&f->urgent), out, size);
	refill(f, now);
	q = next_queue(f, &i);
	if (q == NULL || (f->interval > 0 && f->credit < f->interval))
		return 0;
	l = fifo_pop(q);
	f->total--;
	f->credit -= f->interval;
	if (i > 0) {
		if (q->n == 0)
			drop_queue(f, i);
		else
			f->rr = i + 1 < f->nq ? i + 1 : 1;
	}
	return take(l, out, size);
}

int64_t
irc_flood_next(struct irc_flood *f, int64_t now)
{
	if (f->urgent.head != NULL)
		return now;
	if (f->total == 0)
		return -1;
	refill(f, now);
	if (f->interval == 0 || f->credit >= f->interval)
		return now;
	return now + (f->interval - f->credit);
}

size_t
irc_flood_pending(const struct irc_flood *f)
{
	return f->total + f->urgent.n;
}
