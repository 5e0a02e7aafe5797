/*
 * discord_shed: which interactions can still be answered in time.
 *
 * Discord accepts the first answer to an interaction (the callback) for
 * 3 s after it created the interaction; a later one fails with 404
 * "Unknown interaction" and costs a request for nothing. Under overload,
 * answering what is already too late only makes everything later: so an
 * interaction that cannot be answered in time is not answered at all (it
 * is shed, counted, and logged in a summary, never one line each).
 *
 * The deadline of one interaction, on the monotonic clock of the frame's
 * receipt (uv_hrtime()):
 *
 *     deadline = received + 3000 ms - SHED_MARGIN_MS - age
 *     age      = max(0, wall clock at receipt - the id's timestamp - skew)
 *
 * The id is a snowflake: its top 42 bits are Discord's clock in ms since
 * 2015-01-01 when it created the interaction. Our clock and Discord's
 * differ by an unknown skew: it is estimated as the smallest difference
 * (wall clock at receipt - id timestamp) seen over the last 5 to 10
 * minutes, which is the skew plus the fastest delivery; a skew estimate
 * above SHED_SKEW_MAX_MS is taken as that much (a clock so far ahead of
 * Discord's sheds early rather than a long backlog passing as skew). The
 * age so misses the fastest delivery time (milliseconds): the margin
 * covers it, with the time the callback takes to reach Discord. An event
 * Discord replays after a RESUME was delivered late by nature (it waited
 * for the process that resumes): it never feeds the estimate, or the
 * first replays after a restart of a few seconds would pass for skew and
 * make the others look younger than they are (run, then answered after
 * Discord's 3 s).
 *
 * The Date header of REST answers measures the skew alone, without any
 * delivery in it: Discord's clock in whole seconds, read between the
 * request going out and the answer coming in, bounds the skew to an
 * interval, and the intervals of the answers of the last 5 to 10 minutes
 * are intersected (one that does not meet the rest means the clock was
 * set: the intersection starts again from it). When that interval lies
 * wholly beyond SHED_SKEW_MAX_MS, either way, the ids' times cannot be
 * trusted for ages: deadlines count from the receipt alone (age 0) until
 * the Date shows the clocks within SHED_SKEW_MAX_MS again.
 *
 * A Date is read only when a REST answer comes, and shedding sends none:
 * so an interaction late by its id is believed late only when a Date read
 * in the last SHED_DATE_FRESH_MS, our wall clock not set since, vouches
 * for our clock. Otherwise (the clock may have been set since: an NTP
 * step, a resumed VM) a clock check is asked for (discord_shed_probe: a
 * cheap REST call whose Date comes back to discord_shed_date), at most one
 * every SHED_PROBE_EVERY_MS, and for SHED_PROBE_WAIT_MS after asking such
 * an interaction counts from its receipt. So a clock set ahead while
 * delver runs costs at most the interactions of SHED_DATE_FRESH_MS, not
 * every one from then on; and a real backlog is still shed, but for the
 * few answered while a check is out. A replay late by its id is late
 * whatever: its lateness is the downtime, not a sign of a clock set, and
 * one run whose answer cannot go out would be a change the invoker was
 * told nothing of (a check is still asked for the live ones). For the
 * same reason a replay runs only with SHED_REPLAY_MS of its window to
 * spare: before its answer goes, its change is committed and Discord is
 * asked whether an earlier process answered it (a REST round trip), and
 * an answer ready past the deadline is dropped. Once admitted, its
 * deadline is the whole of what is left. A replayed autocomplete changes
 * nothing and asks nothing: it needs no such spare, only the window.
 *
 * A callback is sent only before its deadline (discord_rest_call_until); one that
 * is not yet sent by then is dropped too. Under overload an interaction is
 * shed before it is worked out when the answers' backlog
 * (discord_rest_backlog_ns) would make its answer go out after the deadline. Pure: every clock is
 * an argument.
 */
#ifndef DELVER_DISCORD_SHED_H
#define DELVER_DISCORD_SHED_H

#include <stdbool.h>
#include <stdint.h>

#define SHED_WINDOW_MS        3000 /* Discord's window for the callback */
#define SHED_MARGIN_MS        500  /* kept for the callback's trip and the clocks' error */
#define SHED_SKEW_MAX_MS      1000 /* the largest skew believed (our clock ahead) */
#define SHED_SKEW_SPAN        (300ull * 1000000000ull) /* ns per skew-estimate period */
#define SHED_DISCORD_EPOCH_MS 1420070400000LL          /* 2015-01-01T00:00:00Z */
#define SHED_DATE_FRESH_MS    3000  /* a Date this recent vouches for our clock */
#define SHED_STEP_MS          500   /* a wall clock moved this much off the monotonic was set */
#define SHED_REPLAY_MS        500   /* a replay's extra work: its commit, and Discord asked first */
#define SHED_PROBE_WAIT_MS    2000  /* after a check is asked, late ones count from receipt */
#define SHED_PROBE_EVERY_MS   30000 /* at most one check so often */

struct shed;

struct shed *discord_shed_new(void);
void discord_shed_free(struct shed *s);

/* How an interaction came, for its deadline. */
enum shed_from {
	SHED_LIVE,   /* dispatched as Discord made it */
	SHED_REPLAY, /* replayed after a RESUME; its answer waits for a commit and for Discord's
	                word on whether an earlier process answered it (SHED_REPLAY_MS) */
	SHED_REPLAY_AT_ONCE, /* replayed, and answered at once: nothing to commit or ask first
	                        (an autocomplete) */
};

/*
 * The deadline (on rx_ns's clock) for the callback of interaction id,
 * whose frame was received at rx_ns, when the wall clock read wall_ms (ms
 * since 1970) at rx_ns, come as from says. Updates the skew estimate (not
 * from a replay). The interaction can be answered when the deadline is
 * still ahead.
 */
uint64_t discord_shed_deadline(struct shed *s, uint64_t id, int64_t wall_ms, uint64_t rx_ns,
                               enum shed_from from);

/*
 * Whether a clock check is wanted (discord_shed.h's top): true once per
 * request; the caller then makes a REST call whose answer's Date it
 * passes to discord_shed_date.
 */
bool discord_shed_probe(struct shed *s);

/* The skew estimate in ms (0 before any interaction). */
int64_t discord_shed_skew_ms(const struct shed *s);

enum shed_clock {
	SHED_CLOCK_SAME, /* nothing changed */
	SHED_CLOCK_OFF,  /* now known beyond SHED_SKEW_MAX_MS: deadlines count from receipt */
	SHED_CLOCK_OK,   /* back within it: deadlines count from the ids again */
};

/*
 * A REST answer's Date header (date_s, seconds since 1970), the request
 * having begun to go out at sent_ms and the answer read at recv_ms (our
 * wall clock, ms since 1970), at now_ns (rx_ns's clock). Returns whether
 * the deadlines' basis changed.
 */
enum shed_clock discord_shed_date(struct shed *s, int64_t date_s, int64_t sent_ms, int64_t recv_ms,
                                  uint64_t now_ns);

struct shed_skew {
	bool ids;       /* the ids' estimate is known: */
	int64_t ids_ms; /* skew + fastest delivery, uncapped */
	bool date;      /* the Date estimate is known: */
	int64_t lo, hi; /* the skew lies in [lo, hi] ms (our clock ahead: positive) */
	bool receipt;   /* deadlines count from receipt */
};
void discord_shed_skew(const struct shed *s, struct shed_skew *out);

#endif
