/*
 * discord_proto: the numbers of Discord's protocol, named once.
 *
 * Gateway opcodes and close codes, interaction and interaction-callback
 * types, application command and option types, message component types and
 * button styles, the limits of a message, message flags and the
 * permission bits delver reads. The
 * names follow Discord's documentation (API v10), with DISCORD_ in front.
 * Every file of bot/discord and the fake Discord of the tests uses these
 * instead of bare numbers, so that one number cannot mean two things in two
 * places. Header only: nothing here is code.
 */
#ifndef DELVER_DISCORD_PROTO_H
#define DELVER_DISCORD_PROTO_H

/* Gateway opcodes: a frame's "op". */
enum discord_opcode {
	DISCORD_OP_DISPATCH = 0,
	DISCORD_OP_HEARTBEAT = 1,
	DISCORD_OP_IDENTIFY = 2,
	DISCORD_OP_PRESENCE_UPDATE = 3,
	DISCORD_OP_VOICE_STATE_UPDATE = 4,
	DISCORD_OP_RESUME = 6,
	DISCORD_OP_RECONNECT = 7,
	DISCORD_OP_REQUEST_GUILD_MEMBERS = 8,
	DISCORD_OP_INVALID_SESSION = 9,
	DISCORD_OP_HELLO = 10,
	DISCORD_OP_HEARTBEAT_ACK = 11,
};

/* Gateway close codes that change what the client does next. */
enum discord_close_code {
	DISCORD_CLOSE_AUTHENTICATION_FAILED = 4004,
	DISCORD_CLOSE_INVALID_SEQ = 4007,
	DISCORD_CLOSE_SESSION_TIMED_OUT = 4009,
	DISCORD_CLOSE_INVALID_SHARD = 4010,
	DISCORD_CLOSE_SHARDING_REQUIRED = 4011,
	DISCORD_CLOSE_INVALID_API_VERSION = 4012,
	DISCORD_CLOSE_INVALID_INTENTS = 4013,
	DISCORD_CLOSE_DISALLOWED_INTENTS = 4014,
};

/* An interaction's "type". */
enum discord_interaction_type {
	DISCORD_INTERACTION_PING = 1,
	DISCORD_INTERACTION_COMMAND = 2,      /* APPLICATION_COMMAND */
	DISCORD_INTERACTION_COMPONENT = 3,    /* MESSAGE_COMPONENT */
	DISCORD_INTERACTION_AUTOCOMPLETE = 4, /* APPLICATION_COMMAND_AUTOCOMPLETE */
	DISCORD_INTERACTION_MODAL_SUBMIT = 5,
};

/* The "type" of an interaction's answer (the callback). */
enum discord_callback_type {
	DISCORD_CALLBACK_PONG = 1,
	DISCORD_CALLBACK_MESSAGE = 4,          /* CHANNEL_MESSAGE_WITH_SOURCE */
	DISCORD_CALLBACK_DEFERRED_MESSAGE = 5, /* DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE */
	DISCORD_CALLBACK_DEFERRED_UPDATE = 6,  /* DEFERRED_UPDATE_MESSAGE */
	DISCORD_CALLBACK_UPDATE_MESSAGE = 7,
	DISCORD_CALLBACK_AUTOCOMPLETE = 8, /* APPLICATION_COMMAND_AUTOCOMPLETE_RESULT */
	DISCORD_CALLBACK_MODAL = 9,
};

/* Where an app is installed: a command's "integration_types", the keys of
 * an interaction's "authorizing_integration_owners". */
enum discord_install_type {
	DISCORD_INSTALL_GUILD = 0, /* GUILD_INSTALL: to a server */
	DISCORD_INSTALL_USER = 1,  /* USER_INSTALL: to a user's account */
};

/* Where an interaction happens: a command's "contexts", an interaction's
 * "context". */
enum discord_context_type {
	DISCORD_CONTEXT_GUILD = 0,
	DISCORD_CONTEXT_BOT_DM = 1,          /* the DM with the app's bot user */
	DISCORD_CONTEXT_PRIVATE_CHANNEL = 2, /* a group DM, or a DM between users */
};

/* A channel's "type", those an interaction may come from. */
enum discord_channel_type {
	DISCORD_CHANNEL_GUILD_TEXT = 0,
	DISCORD_CHANNEL_DM = 1,
	DISCORD_CHANNEL_GUILD_VOICE = 2,
	DISCORD_CHANNEL_GROUP_DM = 3,
	DISCORD_CHANNEL_GUILD_ANNOUNCEMENT = 5,
	DISCORD_CHANNEL_ANNOUNCEMENT_THREAD = 10,
	DISCORD_CHANNEL_PUBLIC_THREAD = 11,
	DISCORD_CHANNEL_PRIVATE_THREAD = 12,
	DISCORD_CHANNEL_GUILD_STAGE_VOICE = 13,
	DISCORD_CHANNEL_GUILD_FORUM = 15,
	DISCORD_CHANNEL_GUILD_MEDIA = 16,
};

/* An application command's "type". */
enum discord_command_type {
	DISCORD_COMMAND_CHAT_INPUT = 1, /* a slash command */
	DISCORD_COMMAND_USER = 2,
	DISCORD_COMMAND_MESSAGE = 3,
};

/* An application command option's "type". */
enum discord_option_type {
	DISCORD_OPTION_SUB_COMMAND = 1,
	DISCORD_OPTION_SUB_COMMAND_GROUP = 2,
	DISCORD_OPTION_STRING = 3,
	DISCORD_OPTION_INTEGER = 4,
	DISCORD_OPTION_BOOLEAN = 5,
	DISCORD_OPTION_USER = 6,
	DISCORD_OPTION_CHANNEL = 7,
	DISCORD_OPTION_ROLE = 8,
	DISCORD_OPTION_MENTIONABLE = 9,
	DISCORD_OPTION_NUMBER = 10,
	DISCORD_OPTION_ATTACHMENT = 11,
};

/* A message component's "type". */
enum discord_component_type {
	DISCORD_COMPONENT_ACTION_ROW = 1,
	DISCORD_COMPONENT_BUTTON = 2,
	DISCORD_COMPONENT_TEXT_INPUT = 4, /* in a modal only */
	DISCORD_COMPONENT_LABEL = 18,     /* a modal's field: a label and one component */
};

/* A text input's "style". */
enum discord_text_style {
	DISCORD_TEXT_SHORT = 1,
	DISCORD_TEXT_PARAGRAPH = 2,
};

/* A modal's limits (the MODAL callback and its components, Discord's
 * "Component Reference"): a title and a label of 45 characters, 1 to 5
 * components, a text input's value of 4000. */
#define DISCORD_MODAL_TITLE_MAX 45
#define DISCORD_MODAL_LABEL_MAX 45
#define DISCORD_MODAL_ROWS_MAX  5
#define DISCORD_TEXT_INPUT_MAX  4000
#define DISCORD_PLACEHOLDER_MAX 100

/* A button's "style". */
enum discord_button_style {
	DISCORD_BUTTON_PRIMARY = 1,
	DISCORD_BUTTON_SECONDARY = 2,
	DISCORD_BUTTON_SUCCESS = 3,
	DISCORD_BUTTON_DANGER = 4,
	DISCORD_BUTTON_LINK = 5,
};

/* The limits of one message: content in characters (render_discord_len),
 * buttons in all and in one action row, a button's label and custom_id. */
#define DISCORD_CONTENT_MAX   2000
#define DISCORD_BUTTONS_MAX   25
#define DISCORD_ROW_BUTTONS   5
#define DISCORD_LABEL_MAX     80
#define DISCORD_CUSTOM_ID_MAX 100
/* Follow-ups Discord takes for an interaction a user install alone
 * authorised (code 40094 past them). */
#define DISCORD_USER_FOLLOWUPS_MAX 5

/* Bits of a message's "flags" that a bot may set. */
#define DISCORD_FLAG_SUPPRESS_EMBEDS        (1 << 2)
#define DISCORD_FLAG_EPHEMERAL              (1 << 6)
#define DISCORD_FLAG_SUPPRESS_NOTIFICATIONS (1 << 12)
/* A message's flag that a bot does not set: an interaction's deferred
 * response whose answer has not come yet (the "thinking" message). */
#define DISCORD_FLAG_LOADING (1 << 7)

/* JSON error codes of REST answers ({"code": N, "message": ...}) that
 * delver acts on. */
#define DISCORD_ERROR_UNKNOWN_CHANNEL      10003 /* a DM channel Discord forgot */
#define DISCORD_ERROR_UNKNOWN_MESSAGE      10008 /* a message someone deleted */
#define DISCORD_ERROR_MISSING_ACCESS       50001 /* the bot cannot view the channel */
#define DISCORD_ERROR_MISSING_PERMISSIONS  50013 /* the bot lacks a permission there */
#define DISCORD_ERROR_ALREADY_ACKNOWLEDGED 40060 /* an interaction answered before */
#define DISCORD_ERROR_CANNOT_DM            50007 /* the user's DMs are closed */
#define DISCORD_ERROR_MAX_FOLLOWUPS        40094 /* an interaction's follow-ups are spent */

/* Bits of a member's "permissions" that make a GM. */
#define DISCORD_PERM_ADMINISTRATOR   (1ULL << 3)
#define DISCORD_PERM_MANAGE_CHANNELS (1ULL << 4)
#define DISCORD_PERM_MANAGE_GUILD    (1ULL << 5)
/* Bits of the bot's app_permissions that posting a message of its own in
 * a channel needs (Create Message: Send Messages in a guild channel, Send
 * Messages in Threads in a thread; View Channel to reach it at all). */
#define DISCORD_PERM_VIEW_CHANNEL             (1ULL << 10)
#define DISCORD_PERM_SEND_MESSAGES            (1ULL << 11)
#define DISCORD_PERM_SEND_MESSAGES_IN_THREADS (1ULL << 38)

#endif
