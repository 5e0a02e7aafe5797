/*
 * discord_answer: the answers of one Discord transport on their way out,
 * for discord.c.
 *
 * An interaction's answer goes as its callback, then its follow-ups in
 * order, then (for a GM's secret roll) a direct message to the GM. An
 * answer the store holds is kept in the deferral table (discord_defer.h)
 * and deferred if it is late; once ready it is sent, or edits the deferral.
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

#include <stdint.h>

struct discord;
struct interact_out;

/* Sends out's answer now (callback, follow-ups, GM DM); out's strings are
 * taken (out is left empty). deadline: when it can no longer go out
 * (uv_hrtime()), 0 for none. */
void discord_answer_now(struct discord *dc, struct interact_out *out, uint64_t rx_ns,
                        uint64_t deadline);

/* out's answer is held for the store: what a deferral needs is kept (out is
 * not taken), and the interaction is deferred if its answer is not ready in
 * time. */
void discord_answer_hold(struct discord *dc, const struct interact_out *out, uint64_t rx_ns,
                         uint64_t deadline);

/* The interaction layer's "later" callback (ctx: the struct discord): a
 * held answer is ready; it is sent, edits its deferral, or is shed when
 * too late. */
void discord_answer_later(void *ctx, struct interact_out *out, uint64_t rx_ns, uint64_t deadline);

/* Counts an interaction shed (too late to answer). */
void discord_answer_count_shed(struct discord *dc);

/* Ends the summary period: logs what was shed or failed in it. */
void discord_answer_summary(struct discord *dc);

#endif
