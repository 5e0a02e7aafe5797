/* discord_burst: the end of a shard's replay burst after a RESUME; see
 * discord_burst.h. */
#include "bot/discord/discord_burst.h"
#include "bot/discord/discord_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "bot/discord/discord_shard.h"
#include "bot/discord/discord_unanswered.h"
#include "rules/base/mem.h"

/* Ends s's burst when its RESUMED came and nothing it replayed is
 * unsettled. */
static void
maybe_over(struct discord *dc, struct discord_shard *s)
{
	struct discord_burst *b = discord_shard_burst(s);

	if (!b->open || b->checks > 0 || b->nruns > 0 || dc->stopped)
		return;
	b->open = false;
	/* The count lines first: a replay counted holds the resume point
	 * until its line is logged. */
	if (discord_unanswered_pending(dc))
		discord_unanswered_tell(dc, true);
	snprintf(b->said, sizeof(b->said),
	         "the replays of the resume are settled: %llu run (as new, or answered from "
	         "their saved answers), %llu too late and answered before the restart, %llu too "
	         "late and unanswered",
	         (unsigned long long)b->ran, (unsigned long long)b->late_answered,
	         (unsigned long long)b->late_unanswered);
	b->ran = b->late_answered = b->late_unanswered = 0;
	discord_shard_save_settled(s);
}

void
discord_burst_run(struct discord_shard *s, uint64_t id)
{
	struct discord_burst *b;

	if (s == NULL || id == 0)
		return;
	b = discord_shard_burst(s);
	if (b->nruns == b->capruns) {
		b->capruns = b->capruns > 0 ? 2 * b->capruns : 16;
		b->runs = xrealloc(b->runs, b->capruns * sizeof(*b->runs));
	}
	b->runs[b->nruns++] = id;
	b->ran++;
}

void
discord_burst_settled(struct discord *dc, struct discord_shard *s, uint64_t id)
{
	struct discord_burst *b;

	if (s == NULL)
		return;
	b = discord_shard_burst(s);
	for (size_t i = 0; i < b->nruns; i++) {
		if (b->runs[i] != id)
			continue;
		b->runs[i] = b->runs[--b->nruns];
		maybe_over(dc, s);
		return;
	}
}

void
discord_burst_check_start(struct discord_shard *s)
{
	if (s != NULL)
		discord_shard_burst(s)->checks++;
}

void
discord_burst_check_done(struct discord *dc, struct discord_shard *s, bool answered)
{
	struct discord_burst *b;

	if (s == NULL)
		return;
	b = discord_shard_burst(s);
	if (answered)
		b->late_answered++;
	else
		b->late_unanswered++;
	if (b->checks > 0)
		b->checks--;
	maybe_over(dc, s);
}

void
discord_burst_resumed(struct discord *dc, struct discord_shard *s)
{
	discord_shard_burst(s)->open = true;
	maybe_over(dc, s);
}

void
discord_burst_free(struct discord_burst *b)
{
	free(b->runs);
	b->runs = NULL;
	b->nruns = b->capruns = 0;
}
