/*
 * discord_answer_gm: the message an interaction's answer sends to the GM
 * alone (a player's secret roll, or an aside to the GM), for
 * discord_answer.c once the answer and its follow-ups went.
 *
 * It goes as a direct message: to the DM channel kept from an earlier
 * one (discord_dm.h), else to the one Discord opens (POST
 * /users/@me/channels); a kept channel Discord no longer knows is opened
 * anew, once. When the GM takes no direct messages from the bot (403,
 * code 50007, or known so from a recent refusal) and set a channel for
 * secret rolls, the message goes there. Whenever nobody saw it, or it
 * went to that channel, the invoker is told by one ephemeral follow-up
 * (none without the interaction's webhook).
 *
 * Everything here runs on the transport's loop and works on the struct
 * discord of discord_int.h; nothing outside bot/discord/discord*.c includes
 * this header.
 */
#ifndef DELVER_DISCORD_ANSWER_GM_H
#define DELVER_DISCORD_ANSWER_GM_H

#include <stdbool.h>

struct discord;
struct interact_out;
struct origin;

struct discord_answer_gm;

/* Takes out's message for the GM: its gm_* fields, and its dm_body (out's
 * becomes NULL, taken even when there is no GM to send it to). NULL when
 * out has none (gm_user ""). Freed by discord_answer_gm_send or
 * discord_answer_gm_free. */
struct discord_answer_gm *discord_answer_gm_take(struct interact_out *out);

/* Sends g for interaction id (its decimal id); followup_path (the
 * interaction's webhook, "/webhooks/<application id>/<token>", or NULL)
 * is where the invoker is told. g and followup_path are taken. When the
 * message went, or it is known that nobody saw it and the invoker was
 * told, the interaction is over (discord_interaction_over) and g freed.
 * dc's REST must be running. */
void discord_answer_gm_send(struct discord *dc, struct discord_answer_gm *g, const char *id,
                            char *followup_path);

/* Whether user_key ("discord:<id>") is known to take no direct messages
 * from the bot (a refusal not long ago, discord_dm.h), so that none is
 * tried: struct origin's unreachable, o->name_ctx the struct discord. */
bool discord_answer_gm_unreachable(const struct origin *o, const char *user_key);

/* Frees g unsent (takes NULL). */
void discord_answer_gm_free(struct discord_answer_gm *g);

#endif
