/* discord_unanswered: interactions that went unanswered, counted and
 * logged; see discord_unanswered.h. */
#include "bot/discord/discord_unanswered.h"
#include "bot/discord/discord_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "bot/discord/discord_opstats.h"
#include "bot/log.h"
#include "rules/base/mem.h"

#define TELL_MS 1000 /* what comes after a line is summed up at most this often */

/* What follows "N interaction(s)" in each kind's line, and what follows
 * the period summed up. */
static const struct {
	const char *head, *tail;
} said[DISCORD_UNANSWERED_KINDS] = {
    [DISCORD_UNANSWERED_SHED] = {"could no longer be answered within Discord's 3 s and went "
                                 "unanswered",
                                 " (overload)"},
    [DISCORD_UNANSWERED_RAN] = {"went unanswered after running",
                                " (answers ready past Discord's 3 s)"},
    [DISCORD_UNANSWERED_LATE_DOWN] = {"replayed after the restart had waited out Discord's 3 s "
                                      "while delver was down and went unanswered",
                                      ""},
    [DISCORD_UNANSWERED_LATE_START] = {"replayed after the restart waited out Discord's 3 s in "
                                       "this process's start and queue (made after it "
                                       "started) and went unanswered",
                                       ""},
    [DISCORD_UNANSWERED_HANDLED] = {"replayed too late to answer had been run by the process "
                                    "before but not answered",
                                    " (changes kept)"},
};

static void
on_late_timer(uv_timer_t *t)
{
	struct discord *dc = t->data;

	dc->unanswered.quiet = false;
	if (discord_unanswered_pending(dc))
		discord_unanswered_tell(dc, true);
}

bool
discord_unanswered_pending(const struct discord *dc)
{
	for (int k = 0; k < DISCORD_UNANSWERED_KINDS; k++)
		if (dc->unanswered.unsaid[k] > 0)
			return true;
	return false;
}

/*
 * Logs every count not logged yet, then keeps quiet for TELL_MS
 * (late_timer), after which what came meanwhile is summed up. The held
 * replays are over once their line went.
 */
void
discord_unanswered_tell(struct discord *dc, bool summed)
{
	struct discord_unanswered *u = &dc->unanswered;
	char period[32] = "";

	if (summed)
		snprintf(period, sizeof(period), " in the last %d s", TELL_MS / 1000);
	for (int k = 0; k < DISCORD_UNANSWERED_KINDS; k++) {
		uint64_t n = u->unsaid[k];

		if (n == 0)
			continue;
		log_warnx("discord: %llu interaction%s %s%s%s; %llu since the start",
		          (unsigned long long)n, n == 1 ? "" : "s", said[k].head, period,
		          said[k].tail, (unsigned long long)u->since[k]);
		u->unsaid[k] = 0;
	}
	for (size_t i = 0; i < u->nheld; i++)
		discord_interaction_over(dc, u->held[i]);
	u->nheld = 0;
	if (dc->stopped)
		return;
	u->quiet = true;
	uv_timer_start(&dc->late_timer, on_late_timer, TELL_MS, 0);
}

void
discord_unanswered_tell_held(struct discord *dc)
{
	if (dc->unanswered.nheld > 0)
		discord_unanswered_tell(dc, true);
}

/* Holds id (0: none) in flight until it is told. */
static void
hold(struct discord_unanswered *u, uint64_t id)
{
	if (id == 0)
		return;
	if (u->nheld == u->capheld) {
		u->capheld = u->capheld > 0 ? 2 * u->capheld : 16;
		u->held = xrealloc(u->held, u->capheld * sizeof(*u->held));
	}
	u->held[u->nheld++] = id;
}

void
discord_unanswered_count(struct discord *dc, enum discord_unanswered_kind kind, uint64_t id)
{
	struct discord_unanswered *u = &dc->unanswered;

	hold(u, id);
	u->since[kind]++;
	u->unsaid[kind]++;
	dc->stats.shed++;
	discord_opstats_add(OPSTATS_SHED);
	/* told at once unless a line went in the last TELL_MS */
	if (!u->quiet || dc->stopped)
		discord_unanswered_tell(dc, false);
}

void
discord_unanswered_free(struct discord_unanswered *u)
{
	free(u->held);
	u->held = NULL;
	u->nheld = u->capheld = 0;
}
