/* discord_shed: interaction deadlines; see discord_shed.h. */
#include "bot/discord/discord_shed.h"

#include <stdbool.h>
#include <stdlib.h>

#include "rules/base/mem.h"

/* The skew interval the Date headers of one period allow. */
struct span {
	bool have;
	int64_t lo, hi;
};

struct shed {
	/* The smallest offset of the current period and of the one before. */
	int64_t min_cur, min_prev;
	bool have_cur, have_prev;
	uint64_t period_start; /* ns */
	bool started;
	/* The Date headers' intervals, in periods of their own. */
	struct span date_cur, date_prev;
	uint64_t date_start;
	bool date_started;
	bool receipt; /* deadlines count from receipt */
	/* The last Date read: our wall clock and rx_ns's clock then. */
	bool date_seen;
	int64_t date_wall_ms;
	uint64_t date_ns;
	/* The last clock check asked for, and whether one waits to go. */
	bool probed, want_probe;
	uint64_t probe_ns;
};

struct shed *
discord_shed_new(void)
{
	return xcalloc(1, sizeof(struct shed));
}

void
discord_shed_free(struct shed *s)
{
	free(s);
}

int64_t
discord_shed_skew_ms(const struct shed *s)
{
	int64_t skew;

	if (!s->have_cur && !s->have_prev)
		return 0;
	if (!s->have_prev)
		skew = s->min_cur;
	else if (!s->have_cur)
		skew = s->min_prev;
	else
		skew = s->min_cur < s->min_prev ? s->min_cur : s->min_prev;
	return skew > SHED_SKEW_MAX_MS ? SHED_SKEW_MAX_MS : skew;
}

/*
 * Whether a Date read lately vouches for our clock at rx_ns (wall_ms on
 * it): read within SHED_DATE_FRESH_MS, our wall clock not set since (it
 * moved as the monotonic one did, within SHED_STEP_MS).
 */
static bool
date_vouches(const struct shed *s, int64_t wall_ms, uint64_t rx_ns)
{
	int64_t mono_ms, step;

	if (!s->date_seen)
		return false;
	mono_ms = (int64_t)(rx_ns - s->date_ns) / 1000000; /* negative when read before */
	if (mono_ms > SHED_DATE_FRESH_MS || mono_ms < -SHED_DATE_FRESH_MS)
		return false;
	step = (wall_ms - s->date_wall_ms) - mono_ms;
	return step <= SHED_STEP_MS && step >= -SHED_STEP_MS;
}

uint64_t
discord_shed_deadline(struct shed *s, uint64_t id, int64_t wall_ms, uint64_t rx_ns,
                      enum shed_from from)
{
	int64_t created = (int64_t)(id >> 22) + SHED_DISCORD_EPOCH_MS;
	int64_t offset = wall_ms - created, age, left;
	bool replayed = from != SHED_LIVE;

	if (!s->started) {
		s->started = true;
		s->period_start = rx_ns;
	} else if (rx_ns - s->period_start >= SHED_SKEW_SPAN) {
		/* A new period; a gap of two periods forgets both. */
		bool gap = rx_ns - s->period_start >= 2 * SHED_SKEW_SPAN;

		s->min_prev = s->min_cur;
		s->have_prev = s->have_cur && !gap;
		s->have_cur = false;
		s->period_start = rx_ns;
	}
	if (!replayed && (!s->have_cur || offset < s->min_cur)) {
		s->min_cur = offset;
		s->have_cur = true;
	}
	age = s->receipt ? 0 : offset - discord_shed_skew_ms(s);
	if (age < 0)
		age = 0;
	left = SHED_WINDOW_MS - SHED_MARGIN_MS - age;
	/* A replay is admitted only with its extra work's time to spare; once
	 * admitted its answer has the whole of what is left. */
	if (from == SHED_REPLAY && left < SHED_REPLAY_MS)
		left = 0;
	if (left <= 0 && !replayed && !date_vouches(s, wall_ms, rx_ns)) {
		/* Late by its id, and no recent Date says our clock is right:
		 * ask for one, and until it comes count from receipt. */
		if (!s->probed || rx_ns - s->probe_ns >= SHED_PROBE_EVERY_MS * 1000000ull) {
			s->probed = s->want_probe = true;
			s->probe_ns = rx_ns;
		}
		if (rx_ns - s->probe_ns < SHED_PROBE_WAIT_MS * 1000000ull)
			left = SHED_WINDOW_MS - SHED_MARGIN_MS;
	}
	if (left <= 0)
		return rx_ns; /* already due: too late */
	return rx_ns + (uint64_t)left * 1000000u;
}

bool
discord_shed_probe(struct shed *s)
{
	bool want = s->want_probe;

	s->want_probe = false;
	return want;
}

/* The Date headers' interval now: this period's, else the last one's. */
static const struct span *
date_span(const struct shed *s)
{
	if (s->date_cur.have)
		return &s->date_cur;
	return s->date_prev.have ? &s->date_prev : NULL;
}

enum shed_clock
discord_shed_date(struct shed *s, int64_t date_s, int64_t sent_ms, int64_t recv_ms, uint64_t now_ns)
{
	/* Discord's clock read D.xxx, some time between sent and recv on
	 * ours: the skew (ours - Discord's) lies in (sent - D - 1000, recv - D]. */
	int64_t d = date_s * 1000, lo = sent_ms - d - 1000, hi = recv_ms - d;
	const struct span *sp;
	bool was = s->receipt;

	if (recv_ms < sent_ms)
		return SHED_CLOCK_SAME; /* our clock was set meanwhile: no bound */
	s->date_seen = true;
	s->date_wall_ms = recv_ms;
	s->date_ns = now_ns;
	if (!s->date_started) {
		s->date_started = true;
		s->date_start = now_ns;
	} else if (now_ns - s->date_start >= SHED_SKEW_SPAN) {
		bool gap = now_ns - s->date_start >= 2 * SHED_SKEW_SPAN;

		s->date_prev = gap ? (struct span){0} : s->date_cur;
		s->date_cur.have = false;
		s->date_start = now_ns;
	}
	if (s->date_cur.have && lo <= s->date_cur.hi && hi >= s->date_cur.lo) {
		if (lo > s->date_cur.lo)
			s->date_cur.lo = lo;
		if (hi < s->date_cur.hi)
			s->date_cur.hi = hi;
	} else {
		/* The first of the period, or one the rest does not meet: a
		 * clock set since starts the intersection again. */
		if (s->date_cur.have)
			s->date_prev.have = false;
		s->date_cur = (struct span){true, lo, hi};
	}
	sp = date_span(s);
	if (sp->lo > SHED_SKEW_MAX_MS || sp->hi < -SHED_SKEW_MAX_MS)
		s->receipt = true;
	else if (sp->lo >= -SHED_SKEW_MAX_MS && sp->hi <= SHED_SKEW_MAX_MS)
		s->receipt = false;
	if (s->receipt == was)
		return SHED_CLOCK_SAME;
	return s->receipt ? SHED_CLOCK_OFF : SHED_CLOCK_OK;
}

void
discord_shed_skew(const struct shed *s, struct shed_skew *out)
{
	const struct span *sp = date_span(s);

	out->ids = s->have_cur || s->have_prev;
	out->ids_ms = !s->have_prev              ? s->min_cur
	              : !s->have_cur             ? s->min_prev
	              : s->min_cur < s->min_prev ? s->min_cur
	                                         : s->min_prev;
	out->date = sp != NULL;
	out->lo = sp != NULL ? sp->lo : 0;
	out->hi = sp != NULL ? sp->hi : 0;
	out->receipt = s->receipt;
}
