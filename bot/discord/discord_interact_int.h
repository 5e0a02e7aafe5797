/*
 * discord_interact_int: the inside of struct interact and of a request's
 * tag, shared by discord_interact.c (gateway events into requests) and
 * discord_interact_render.c (replies into the bodies that answer them).
 * Nothing else includes it.
 */
#ifndef DELVER_DISCORD_INTERACT_INT_H
#define DELVER_DISCORD_INTERACT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "bot/discord/discord_interact.h"
#include "rules/base/buf.h"

struct seen;
struct roles;
struct discord_buttons;

struct interact {
	struct dispatch *d;
	const struct command *const *commands;
	struct roles *roles;
	struct discord_buttons *buttons;
	/* the ids seen: a ring (eviction order) whose used slots are hashed */
	struct seen *seen; /* SEEN_MAX slots */
	size_t seen_next;
	struct seen *seen_set; /* uthash head */
	struct buf body;       /* where bodies are written; it keeps its memory */
	struct discord_interact_stats stats;
	request_answer_fn answer;
	void *answer_ctx;
	bool (*unreachable)(const struct origin *o, const char *user_key);
	void *unreachable_ctx;
};

/* A request's tag: what its answer needs of its interaction, as the event
 * gave it (an interact_out with nothing to send: id, type, paths, times),
 * the follow-ups Discord allows it (followups_allowed), whether its
 * answer replaces the pressed message (a button's, type 7), and the answer
 * rendered when its mark was kept (reused when the reply did not change
 * since). */
struct tag {
	struct interact_out ev;
	int followups_max;
	bool update;
	char pressed[24];   /* a panel's button: the message pressed (its id), else "" */
	char guild[24];     /* the guild's id, "" outside any */
	uint64_t app_perms; /* the bot's permissions in the channel (app_permissions) */
	bool have_perms;    /* app_permissions was given */
	bool thread;        /* the channel is a thread */
	bool bot_absent;    /* the bot user is not in the conversation (bot_absent()) */
	struct interact *it;
	struct interact_out kept;
	size_t kept_channel; /* render_reply's count for kept */
	bool have_kept;
};

/*
 * The body of a message or of a callback of that type (type 0: the message
 * alone), freed with free(); data is freed. Written by json_write into
 * the buffer it->body, kept between answers: no tree around the message,
 * no reallocation once the buffer has grown.
 */
char *discord_interact__body(struct interact *it, int type, struct cJSON *data);
/* The same for a message's JSON text (render_discord_parts), which it
 * takes: type 0 returns data itself. */
char *discord_interact__body_text(int type, char *data);

/* A request's keep function (request_set_key): its answer as rendered now,
 * as a JSON object: "c" the callback body, "f" the follow-ups, "d" the GM's
 * message with "g" and "n" (the GM's id and name), "e" an error, "w"
 * whether it uses the webhook. */
int discord_interact__keep(struct request *req, struct buf *out);

#endif
