/*
 * discord_interact: gateway events in, the HTTP calls that answer them out.
 *
 * INTERACTION_CREATE is turned into an origin (channel key
 * "discord:<channel id>", user key "discord:<user id>", the member's display
 * name, direct for DMs) and then:
 *  - type 2 (slash command): a request (commands/core/request.h) whose
 *    command path and typed options are bound through the registry;
 *  - type 3 (button): a request whose line is the button's command line, as
 *    if the presser had typed it;
 *  - type 4 (autocomplete): the focused option's suggestions, from
 *    complete_invocation() (this module never touches channel state),
 *    answered at once.
 * The transport submits the request (dispatch_submit); its answer function
 * renders the reply into the bodies that answer the interaction
 * (discord_interact_render.h).
 *
 * GM rights: the channel's claimed GM (the dispatcher checks that), or a
 * member whose permissions include Administrator, Manage Channels or Manage
 * Server, or a member of the configured GM role. The role is named in the
 * config; its id is learnt from GUILD_CREATE and GUILD_ROLE_* events (a
 * configured value made only of digits is taken as the role id itself).
 *
 * Each interaction id is answered once: the ids of the last 4096 handled
 * interactions are remembered, so an event replayed after a resume is
 * ignored. Nothing here does I/O; malformed events are counted and dropped,
 * never fatal.
 */
#ifndef DELVER_DISCORD_INTERACT_H
#define DELVER_DISCORD_INTERACT_H

#include <stdbool.h>
#include <stdint.h>

#include "bot/discord/render_discord.h"
#include "commands/core/dispatch.h"

struct cJSON;
struct interact;

struct interact_opts {
	struct dispatch *d;                    /* its state serves autocomplete */
	const char *gm_role;                   /* a role name or id, or NULL */
	const struct command *const *commands; /* NULL: the dispatcher's */
	/* The answer function of the requests made (request_new). */
	request_answer_fn answer;
	void *answer_ctx;
	/* The origins' unreachable, with unreachable_ctx as their name_ctx
	 * (struct origin); NULL: none. */
	bool (*unreachable)(const struct origin *o, const char *user_key);
	void *unreachable_ctx;
};

/* What answers one interaction. Every string is owned by the struct. */
struct interact_out {
	char id[24];         /* the interaction's id */
	uint64_t idn;        /* the same id as its number; 0: not known, read id */
	int type;            /* the interaction's type */
	char *callback_path; /* "/interactions/<id>/<token>/callback" */
	char *callback_body;
	/* When callback_body opens a form (a MODAL, type 9: the command asked
	 * for a long text, reply_ask), the message to send instead should the
	 * interaction have been deferred meanwhile, when a form can no longer
	 * open (owned); else NULL. */
	char *modal_late;
	char *followup_path; /* "/webhooks/<application id>/<token>", or NULL */
	/* The follow-up messages' bodies, to send in this order after the
	 * callback succeeded, each once the one before it did. */
	char *followups[2 * DISCORD_PARTS_MAX];
	size_t nfollowups;
	/* A message for the GM alone (a player's secret roll), sent as a
	 * direct message once the answer went: open the DM channel with
	 * POST /users/@me/channels {"recipient_id": gm_user} (once per GM:
	 * the transport keeps the id, bot/discord/discord_dm.h), then POST
	 * dm_body to /channels/<its id>/messages. When Discord refuses it
	 * (403, code 50007: the GM takes no direct messages from the bot),
	 * the message goes to gm_chan instead when the GM set one for secret
	 * rolls (reply_gm_fallback), and the invoker is told by an ephemeral
	 * follow-up where it went, or that nobody saw it (needs
	 * followup_path). */
	char gm_user[24]; /* the GM's user id, "" for none */
	char gm_chan[24]; /* the channel's id, "" for none */
	char gm_name[64]; /* the GM's display name, for that follow-up */
	char gm_what[96]; /* what the message is, for that follow-up (reply_gm_what) */
	bool gm_aside;    /* it is an aside to the answer, not a secret roll */
	char *dm_body;
	bool error; /* the reply is an error (its message is ephemeral) */
	/* For a request (INTERACT_REQUEST): whether its message is known to
	 * be private already (refused before it runs), so that a deferral of
	 * it is ephemeral too. */
	bool defer_private;
	uint64_t rx_ns, deadline; /* as given to discord_interact_event */
};

/* What discord_interact_event made of an event. */
enum interact_result {
	INTERACT_NONE = 0, /* nothing to answer (role events, malformed, a duplicate) */
	INTERACT_ANSWER,   /* out is the whole answer (autocomplete): send it */
	INTERACT_REQUEST,  /* *req is a request to submit; out holds what a
	                      deferral of it needs, nothing to send */
	INTERACT_SHED,     /* too late to answer: nothing was worked out */
};

struct discord_interact_stats {
	uint64_t commands, components, autocompletes, submits;
	uint64_t duplicates, malformed;
};

struct interact *discord_interact_new(const struct interact_opts *o);
void discord_interact_free(struct interact *it);

/*
 * Handles one dispatched gateway event (t, d); now is unix seconds, rx_ns
 * when its frame came and deadline (0: none) when its answer can no longer
 * go out, both on the clock of now_ns. Role events update the GM-role
 * cache, other events are ignored, and a malformed or duplicate
 * interaction is counted and dropped. For a command or a button, *req is
 * the request to submit (the caller's until submitted), carrying what its
 * answer needs; out then holds what a deferral needs: id, type,
 * callback_path, defer_private and, when the interaction named its
 * application, followup_path ("/webhooks/<application id>/<token>"). An
 * interaction whose deadline is not ahead of now_ns can no longer be
 * answered in time: it is shed before it is worked out (no request, no
 * channel or user record made or touched, out stays empty).
 */
int discord_interact_event(struct interact *it, const char *t, const struct cJSON *d, int64_t now,
                           struct interact_out *out, struct request **req, uint64_t rx_ns,
                           uint64_t deadline, uint64_t now_ns);

/* "/webhooks/<application id>/<token>" of a request's interaction, or NULL
 * when the interaction did not name its application. */
const char *discord_interact_webhook(const struct request *req);
/* The same for an INTERACTION_CREATE's d (owned by the caller), or NULL
 * when its token or application id is not valid. */
char *discord_interact_webhook_of(const struct cJSON *d);
/* The origin (channel and user) of an INTERACTION_CREATE's d, into o;
 * false when d names no channel or user. */
bool discord_interact_origin_of(struct interact *it, const struct cJSON *d, struct origin *o);
/* The id of the guild a request's interaction came from, "" outside any
 * (a DM, a group DM) or for a request of no interaction. */
const char *discord_interact_guild(const struct request *req);

/* A press of a live panel's button (custom_id "p:"/"q:", discord_live.h)
 * names the message pressed: its id; NULL for any other request. How its
 * answer is rendered: discord_interact_render_press. */
const char *discord_interact_pressed(const struct request *req);

/* Whether the INTERACTION_CREATE d is an autocomplete (suggestions for an
 * option being typed: it changes nothing and has no response to ask about). */
bool discord_interact_is_autocomplete(const struct cJSON *d);
/* Whether the answer to req, as its reply stands, would be private (an
 * error, a reply to the invoker alone, a /panel's): ephemeral on Discord. */
bool discord_interact_private(struct request *req);

/* Whether req's interaction came from a conversation the bot user is not
 * in (a group DM, a DM between users, a server reached by a user install
 * alone), where the bot may not post with its own token. */
bool discord_interact_bot_absent(const struct request *req);

/* The bot's permissions in the channel of req's interaction, as Discord
 * gave them (app_permissions, a bitset of discord_proto.h's
 * DISCORD_PERM_*), into *perms, and whether that channel is a thread;
 * false (*perms not to be read) when the interaction gave none. */
bool discord_interact_app_permissions(const struct request *req, uint64_t *perms, bool *thread);

void discord_interact_out_clear(struct interact_out *out);

/* Matches another GM role from now on. A role named (not given by id) is
 * known in a guild once Discord next sends that guild's roles. */
void discord_interact_set_gm_role(struct interact *it, const char *gm_role);
/* The GM role ids learnt so far (discord_roles), kept across restarts. */
struct roles *discord_interact_roles(struct interact *it);

const struct discord_interact_stats *discord_interact_stats(const struct interact *it);

/* Discord's channel_named (struct origin): a channel is named by its
 * mention "<#id>", "#id" or its id (a snowflake), its key "discord:ID". */
bool discord_interact_channel_named(const struct origin *o, const char *text, char *key);

#endif
