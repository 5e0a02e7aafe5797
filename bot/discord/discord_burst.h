/*
 * discord_burst: the end of the replay burst after a RESUME, for discord*.c.
 *
 * Between RESUME and RESUMED, Discord replays the events after the saved
 * sequence. Each replayed interaction holds the shard's resume point until
 * it is settled: one run as a request until its answer is over, one too
 * late to answer until Discord (and maybe the store) told whether it was
 * answered before and its count line is logged (discord_answer_late.h,
 * discord_unanswered.h). The burst is over once RESUMED came and every
 * replay queued before it is settled. Then the count lines not logged yet
 * go at once (not up to a second later) and every shard's session file is
 * written at once (not up to a second later), so that a process that dies
 * soon after a restart, as in a crash loop, still moves the resume point
 * past the replays it settled; the resume point itself moves only past
 * settled replays, as ever (discord_seqs.h). Once a shard's file is
 * written, one info line says what became of the replays and where the
 * file resumes (discord_shard_save_settled).
 *
 * Everything here runs on the transport's loop and works on the struct
 * discord of discord_int.h.
 */
#ifndef DELVER_DISCORD_BURST_H
#define DELVER_DISCORD_BURST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct discord;

/* In struct discord (zeroed with it). */
struct discord_burst {
	bool open;       /* RESUMED came, replays are still being settled */
	unsigned checks; /* late replays whose check (discord_answer_late.c) is under way */
	uint64_t *runs;  /* replays run as requests whose answer is not over */
	size_t nruns, capruns;
	/* What became of the replays of this burst: run as requests (new, or
	 * found carried out and answered from their saved answers), and too
	 * late to answer, answered by a process before or not. */
	uint64_t ran, late_answered, late_unanswered;
	char said[256]; /* the last burst's outcome, for the shards' lines */
};

/* A replay, id, runs as a request; settled by discord_burst_settled(id). */
void discord_burst_run(struct discord *dc, uint64_t id);
/* The answer of interaction id is over (any interaction: others are
 * ignored). */
void discord_burst_settled(struct discord *dc, uint64_t id);
/* A late replay's check starts, and ends: found answered by a process
 * before, or counted as unanswered. */
void discord_burst_check_start(struct discord *dc);
void discord_burst_check_done(struct discord *dc, bool answered);
/* A shard's RESUMED came: the burst ends once the replays above settle. */
void discord_burst_resumed(struct discord *dc);
void discord_burst_free(struct discord_burst *b);

#endif
