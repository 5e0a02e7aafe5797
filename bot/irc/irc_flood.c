/* irc_flood: token bucket and per-target FIFOs; see irc_flood.h. */
#include "bot/irc/irc_flood.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

struct line {
	struct line *next;
	size_t len;
	bool cont; /* the lane's next line belongs to the same group */
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
	size_t hold;  /* a group is being sent from q[hold] (0: none) */
	size_t fresh; /* q[rr .. rr+fresh) are new lanes not served yet */
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
	f->hold = 0;
	f->fresh = 0;
	f->total = 0;
	f->credit = f->capacity;
	f->started = false;
}

static struct line *fifo_pop(struct fifo *q);

void
irc_flood_finish(struct irc_flood *f)
{
	if (f->hold > 0 && f->hold < f->nq) {
		struct fifo *q = &f->q[f->hold];
		struct line *l;
		bool more = true;

		while (more && (l = fifo_pop(q)) != NULL) {
			more = l->cont;
			l->cont = false;
			l->next = NULL;
			if (f->urgent.tail != NULL)
				f->urgent.tail->next = l;
			else
				f->urgent.head = l;
			f->urgent.tail = l;
			f->urgent.n++;
			f->total--;
		}
	}
	for (size_t i = 0; i < f->nq; i++) {
		f->total -= f->q[i].n;
		fifo_drop(&f->q[i]);
	}
	f->hold = 0;
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
fifo_push(struct fifo *q, const char *text, size_t len, bool cont)
{
	struct line *l = xmalloc(sizeof(*l) + len + 1);

	l->next = NULL;
	l->len = len;
	l->cont = cont;
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

static void drop_queue(struct irc_flood *f, size_t i);

/* lane's queue; a new one is served next, after the other new ones: a
 * user who was not waiting goes ahead of those who were. */
static struct fifo *
queue_for(struct irc_flood *f, const char *lane)
{
	size_t pos;

	if (lane == NULL || *lane == '\0')
		return &f->q[0];
	for (size_t i = 1; i < f->nq; i++)
		if (strcmp(f->q[i].target, lane) == 0)
			return &f->q[i];
	if (f->rr >= f->nq) {
		f->rr = 1;
		f->fresh = 0;
	}
	pos = f->rr + f->fresh;
	if (pos > f->nq)
		pos = f->nq;
	f->q = xrealloc(f->q, (f->nq + 1) * sizeof(*f->q));
	memmove(&f->q[pos + 1], &f->q[pos], (f->nq - pos) * sizeof(*f->q));
	memset(&f->q[pos], 0, sizeof(f->q[pos]));
	f->q[pos].target = xstrdup(lane);
	f->nq++;
	f->fresh++;
	if (f->hold >= pos)
		f->hold++;
	return &f->q[pos];
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
	fifo_push(q, line, len, false);
	f->total++;
	return 0;
}

int
irc_flood_push_group(struct irc_flood *f, const char *lane, const char *const *lines, size_t n,
                     size_t reserve)
{
	return irc_flood_push_parts(f, lane, lines, n, NULL, 0, reserve);
}

int
irc_flood_push_parts(struct irc_flood *f, const char *lane, const char *const *lines, size_t n,
                     const size_t *starts, size_t nstarts, size_t reserve)
{
	struct fifo *q;
	size_t k = 0;

	if (n == 0)
		return 0;
	if (f->total + n + reserve > IRC_FLOOD_TOTAL_MAX)
		return -1;
	q = queue_for(f, lane);
	if (q->n + n + reserve > IRC_FLOOD_TARGET_MAX) {
		if (q->n == 0 && q != &f->q[0])
			drop_queue(f, (size_t)(q - f->q));
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		while (k < nstarts && starts[k] <= i)
			k++;
		/* a line holds the next to it unless that one starts a part */
		fifo_push(q, lines[i], strlen(lines[i]),
		          i + 1 < n && !(k < nstarts && starts[k] == i + 1));
	}
	f->total += n;
	return 0;
}

int
irc_flood_push_urgent(struct irc_flood *f, const char *line, size_t len)
{
	if (f->urgent.n >= IRC_FLOOD_TARGET_MAX)
		return -1;
	fifo_push(&f->urgent, line, len, false);
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
	if (i >= f->rr && i < f->rr + f->fresh)
		f->fresh--;
	if (f->hold > i)
		f->hold--;
	if (f->rr > i)
		f->rr--;
	if (f->rr >= f->nq)
		f->rr = 1;
}

/* The queue to serve next: "" first, then the targets in turn. */
static struct fifo *
next_queue(struct irc_flood *f, size_t *index)
{
	if (f->hold > 0 && f->hold < f->nq && f->q[f->hold].n > 0) {
		*index = f->hold;
		return &f->q[f->hold];
	}
	f->hold = 0;
	if (f->q[0].n > 0) {
		*index = 0;
		return &f->q[0];
	}
	for (;;) {
		if (f->nq <= 1)
			return NULL;
		if (f->rr >= f->nq) {
			f->rr = 1;
			f->fresh = 0;
		}
		if (f->q[f->rr].n > 0)
			break;
		/* Empty for a whole turn: the lane leaves the rotation. */
		drop_queue(f, f->rr);
	}
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
	/* Nothing to send now: the lanes keep their places (next_queue drops
	 * the ones it passes empty). */
	if (f->total == 0 || (f->interval > 0 && f->credit < f->interval))
		return 0;
	q = next_queue(f, &i);
	if (q == NULL)
		return 0;
	l = fifo_pop(q);
	f->total--;
	f->credit -= f->interval;
	f->hold = l->cont && q->n > 0 ? i : 0;
	if (i > 0 && f->hold == 0) {
		/* An emptied lane keeps its place for one turn, so a user whose
		 * next command is on its way does not come back as new. */
		if (i >= f->rr && i < f->rr + f->fresh)
			f->fresh--;
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
