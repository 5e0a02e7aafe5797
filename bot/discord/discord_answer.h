/*
 * discord_answer: the answers of one Discord transport on their way out,
 * for discord.c.
 *
 * An interaction's answer goes as its callback, then its follow-ups in
 * order, then (for a GM's secret roll) the message to the GM
 * (discord_answer_gm.h); the interaction is over when all went. This
 * module and that last step alone write to an interaction's webhook, and
 * only once Discord took its initial response (the callback, or the deferral the answer
 * edits): a follow-up before it would be refused. A
 * command's interaction is kept in the deferral table (discord_defer.h)
 * while its request is on its way, and deferred if it is late; once
 * answered it is sent, or edits the deferral.
 * Answers shed or failed are counted and summed up in the log once per
 * period, not once each; the bot's own handling time of each answer is
 * recorded when asked (discord_latencies).
 *
 * Everything here runs on the transport's loop and works on the struct
 * discord of discord_int.h; nothing outside bot/discord/discord*.c includes
 * this header.
 */
#ifndef DELVER_DISCORD_ANSWER_H
#define DELVER_DISCORD_ANSWER_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct discord;
struct interact_out;
struct request;

/* Sends out's answer now (callback, follow-ups, GM DM), by out->deadline
 * (uv_hrtime(); 0 for none); the follow-ups and the GM message are taken
 * from out. */
void discord_answer_now(struct discord *dc, struct interact_out *out);

/* req, just submitted, was made for out's interaction: what a deferral
 * needs is kept (out is not taken), and the interaction is deferred if its
 * answer is not ready in time. Until req is answered, the deferral may
 * read its reply (a command that ran tells whether it is private). */
void discord_answer_hold(struct discord *dc, const struct interact_out *out, struct request *req);

/* The answer function of the requests of interactions (ctx: the struct
 * discord): the answer is sent, edits its deferral, or is shed when too
 * late. A /panel's is sent once its panel's post is answered, saying
 * "posted" or why not (discord_live.h); the deferral covers a slow post. */
void discord_answer_request(struct request *req, void *ctx);

/* Sends the answer to req's interaction, out as rendered for it
 * (discord_interact_render; known: false when a replay's kept answer could
 * not be read, and nothing is sent): now, or as the edit of its deferral,
 * or once Discord said a replay was not answered yet; shed when too late.
 * post (a replayed /panel's panel, or NULL) is posted first, only if
 * Discord said nobody answered it, and the answer says what became of it.
 * req is freed; out is emptied; post is taken. */
struct discord_live_post;
void discord_answer_deliver(struct discord *dc, struct request *req, struct interact_out *out,
                            bool known, struct discord_live_post *post);

/* Completes the deferral a process before this one sent for interaction
 * ans->id (created at created_ms, unix ms; ephemeral when private) and
 * never edited (discord_pending.h): ans, rendered for a normal callback
 * with its followup_path set, edits it and its follow-ups follow, as
 * discord_defer_edit says; ans is emptied. Nothing is done when this
 * process holds that interaction already. */
void discord_answer_complete(struct discord *dc, struct interact_out *ans, bool private,
                             int64_t created_ms);

/* Reads an interaction's original response (the body, len bytes, of a
 * 2xx answer to GET .../messages/@original): whether it is still a
 * deferral nobody completed (the LOADING flag) and, when it is, whether
 * that deferral is ephemeral. Returns false, with both false, when the
 * body is no JSON. */
bool discord_answer_original(const char *body, size_t len, bool *loading, bool *ephemeral);

/* Ends the summary period: logs what failed in it (and, at stop, what
 * went unanswered and is not told yet: discord_unanswered.h). */
void discord_answer_summary(struct discord *dc);

#endif
