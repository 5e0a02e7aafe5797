/*
 * discord_shard: one gateway connection of the transport, for one shard.
 *
 * A process runs one or more shards of the bot (shard_id in [first, last]
 * of shard_count), each with its gateway session (discord_gw) on a socket
 * of the transport's libwebsockets context (discord_ws), on the one loop.
 * Everything else (REST, the interactions, the registration) is the
 * transport's, shared.
 *
 * With a state directory, the shard's resume point is kept in
 * discord-session-N.json (discord_session), written off the loop at most
 * once a second and at the stop; a start that finds it resumes that
 * session (unless it was made with other intents or another shard count),
 * so the events sent while delver was down are replayed to it. The resume
 * point is the sequence before the oldest of the shard's interactions
 * whose answer is not over (discord_seqs.h), so that none is lost.
 *
 * A new session asks the transport's identify queue (discord_idq) for a
 * slot and tells it when the IDENTIFY went or the slot was not used.
 *
 * Lifetime: discord_shard_new, discord_shard_start once the count is
 * known; discord_shard_stop closes the session (kept resumable when there
 * is a session file) and writes the resume point; discord_shard_shutdown
 * closes its loop handles (done once per handle closed: see
 * DISCORD_SHARD_HANDLES); discord_shard_free after the loop has ended.
 */
#ifndef DELVER_DISCORD_SHARD_H
#define DELVER_DISCORD_SHARD_H

#include <stdbool.h>
#include <stdint.h>

#include <cJSON.h>

struct discord;
struct discord_shard;
struct discord_wsctx;
struct discord_gw;
struct discord_idq;

#define DISCORD_SHARD_HANDLES 2 /* done calls of discord_shard_shutdown */

struct discord_shard_opts {
	int id, count;
	const char *token, *gateway_url;
	uint64_t intents;
	bool compress;
	const char *state_dir; /* the session file's directory, or NULL */
	/* The state root of every process of the bot (state_dir itself, or
	 * its parent): without a session file of its own, the shard takes the
	 * newest one saved there or in a sibling shard-N or shards-A-B by a
	 * process that ran it before (the processes were split or joined).
	 * NULL: none. */
	const char *state_root;
	struct discord_wsctx *wsctx;
	struct discord_idq *idq;
};

/* The transport's side: what each shard reports (discord.c). */
void discord_on_shard_event(struct discord *dc, struct discord_shard *s, const char *t,
                            const cJSON *d);
void discord_on_shard_fatal(struct discord *dc, struct discord_shard *s, int code, const char *msg);

struct discord_shard *discord_shard_new(struct discord *dc, const struct discord_shard_opts *o);
/* Reads the session file and connects. */
void discord_shard_start(struct discord_shard *s);
void discord_shard_stop(struct discord_shard *s);
/* Whether its socket is open (or being opened) or its session file is
 * being written. */
bool discord_shard_busy(const struct discord_shard *s);
void discord_shard_shutdown(struct discord_shard *s, void (*done)(void *ctx), void *ctx);
void discord_shard_free(struct discord_shard *s);

int discord_shard_id(const struct discord_shard *s);
/* Its replay burst after a RESUME (discord_burst.h). */
struct discord_burst *discord_shard_burst(struct discord_shard *s);
struct discord_gw *discord_shard_gw(struct discord_shard *s);
/* uv_hrtime() when the frame being handled was complete. */
uint64_t discord_shard_rx_ns(const struct discord_shard *s);
/* The resume point changed: written within a second. */
void discord_shard_touch(struct discord_shard *s);
/* Interaction id, the event being handled, is in flight (its command
 * submitted): it holds the resume point until it is answered. */
void discord_shard_interaction(struct discord_shard *s, uint64_t id);
/* The answer to interaction id is over (sent, refused or given up): the
 * resume point may move on. Returns whether id was the shard's. */
bool discord_shard_answered(struct discord_shard *s, uint64_t id);
/* Writes the resume point now, if it moved (after the stop: the answers
 * that went since moved it). */
void discord_shard_save(struct discord_shard *s);
/* The same at the end of its replay burst (discord_burst.h): once the
 * file is written (or held the point already), one info line gives its
 * burst's said and the sequence the file resumes at. */
void discord_shard_save_settled(struct discord_shard *s);

#endif
