/*
 * discord_live_post: a /panel's new panel, posted to its channel, and what
 * the /panel's answer says of it, for discord_answer.c.
 *
 * The panel goes with the bot token (POST /channels/C/messages), not as
 * the interaction's answer, so that it can be edited later with no
 * interaction token (discord_live.h). A post Discord would refuse is not
 * tried, as a refused request counts toward Discord's limit on invalid
 * ones: where the bot user is not (a user install's conversation), or
 * where the permissions the interaction gives for the bot lack View
 * Channel or Send Messages (Send Messages in Threads in a thread).
 * Whatever stops it, the invoker gets one sentence saying the panel was
 * not posted, why, and what would let it be. A panel posted is handed to
 * discord_live_placed, which records it.
 *
 * Everything here runs on the transport's loop and works on the struct
 * discord of discord_int.h; nothing outside bot/discord/discord*.c includes
 * this header.
 */
#ifndef DELVER_DISCORD_LIVE_POST_H
#define DELVER_DISCORD_LIVE_POST_H

#include <stddef.h>

struct discord;
struct request;

/* req, an interaction's request just answered: a /panel's reply, as the
 * panel to post to its channel (NULL for any other request; req stays the
 * caller's). discord_live_post_send posts it and returns 0: done then
 * runs once, after the call returned, when Discord answered, with NULL
 * when the panel was posted, else the sentence that tells the invoker
 * why not (valid during the call). It returns -1 when the panel cannot go
 * (the bot stopping, or its permissions in the server's channel, given
 * with the interaction, lack View Channel or Send Messages: a post
 * Discord would refuse is not tried), the sentence in why (len bytes),
 * and done never runs. discord_live_post_drop forgets it (a replay
 * answered before: the earlier process posted it). Both free p;
 * discord_live_post_drop takes NULL. */
struct discord_live_post;
struct discord_live_post *discord_live_post_new(struct discord *dc, struct request *req);
int discord_live_post_send(struct discord *dc, struct discord_live_post *p,
                           void (*done)(void *ctx, const char *refusal), void *ctx, char *why,
                           size_t len);
void discord_live_post_drop(struct discord_live_post *p);

#endif
