/*
 * discord_burst: the end of a shard's replay burst after a RESUME, for
 * discord*.c.
 *
 * Between RESUME and RESUMED, Discord replays to the shard the events
 * after its saved sequence. Each replayed interaction holds the shard's
 * resume point until it is settled: one run as a request until its answer
 * is over, one too late to answer until Discord (and maybe the store) told
 * whether it was answered before and its count line is logged
 * (discord_answer_late.h, discord_unanswered.h). A shard's burst is over
 * once its RESUMED came and every replay it received before that is
 * settled; the other shards' bursts do not matter to it. Then the count
 * lines not logged yet go at once (not up to a second later) and the
 * shard's session file is written at once (not up to a second later), so
 * that a process that dies soon after a restart, as in a crash loop, still
 * moves the resume point past the replays it settled; the resume point
 * itself moves only past settled replays, as ever (discord_seqs.h). Once
 * the file is written, one info line says what became of the shard's
 * replays and where the file resumes (discord_shard_save_settled).
 *
 * Everything here runs on the transport's loop and works on the struct
 * discord of discord_int.h; each shard holds its own struct discord_burst
 * (discord_shard_burst). A NULL shard is no shard's: nothing is counted.
 */
#ifndef DELVER_DISCORD_BURST_H
#define DELVER_DISCORD_BURST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct discord;
struct discord_shard;

/* In struct discord_shard (zeroed with it). */
struct discord_burst {
	bool open;       /* RESUMED came, replays are still being settled */
	unsigned checks; /* late replays whose check (discord_answer_late.c) is under way */
	uint64_t *runs;  /* replays run as requests whose answer is not over */
	size_t nruns, capruns;
	/* What became of the replays of this burst: run as requests (new, or
	 * found carried out and answered from their saved answers), and too
	 * late to answer, answered by a process before or not. */
	uint64_t ran, late_answered, late_unanswered;
	char said[256]; /* the last burst's outcome, for the shard's line */
};

/* A replay, id, runs as a request on shard s; settled by
 * discord_burst_settled(id). */
void discord_burst_run(struct discord_shard *s, uint64_t id);
/* The answer of interaction id is over; s is the shard it was in flight
 * on. Returns at once when s has no replay run unsettled, so the answers
 * outside a burst cost nothing here. */
void discord_burst_settled(struct discord *dc, struct discord_shard *s, uint64_t id);
/* A late replay's check starts on shard s, and ends: found answered by a
 * process before, or counted as unanswered. */
void discord_burst_check_start(struct discord_shard *s);
void discord_burst_check_done(struct discord *dc, struct discord_shard *s, bool answered);
/* Shard s's RESUMED came: its burst ends once its replays above settle. */
void discord_burst_resumed(struct discord *dc, struct discord_shard *s);
void discord_burst_free(struct discord_burst *b);

#endif
