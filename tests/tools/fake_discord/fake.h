/*
 * fake_discord: a Discord gateway and REST API on loopback, for tests.
 *
 * One libwebsockets server (its own poll loop) serves the websocket
 * gateway and the HTTP routes the bot uses, plus a control API under
 * /_control that test scripts drive with curl. Everything the bot sends is
 * checked against what Discord accepts; each breach is a "violation",
 * printed on stderr and counted, and the process exits 1 at the end when
 * there was any. The modules: main (fake_discord.c: options, the server,
 * the control API), gateway.c (sessions, events), faults.c (the gateway
 * faults tests ask for), zstream.c (compress=zlib-stream), rest.c (routes,
 * rate limits, faults) and check.c (body validation).
 */
#ifndef FAKE_DISCORD_H
#define FAKE_DISCORD_H

#include <libwebsockets.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>
#include <uthash.h>
#include <zlib.h>

#include "bot/discord/discord_proto.h"
#include "rules/base/buf.h"

#define FAKE_RECV_MAX       4096             /* a gateway payload from the client */
#define FAKE_SEND_BUDGET    120              /* client payloads per 60 s */
#define FAKE_ANSWER_MS      3000             /* an interaction must be answered within */
#define FAKE_TOKEN_MS       (15 * 60 * 1000) /* its token serves follow-ups this long */
#define FAKE_FOLLOWUPS      16               /* more follow-ups to one interaction: unbounded */
#define FAKE_USER_FOLLOWUPS 5                /* of an interaction of a user install alone */
#define FAKE_REPLAY_MAX     20000
#define STREAMS_MAX         8
#define FAKE_BUCKETS_MAX    1024 /* max_concurrency at most */

struct conn;

/* A gateway session: survives its connection, for RESUME. */
struct session {
	char id[40];
	int64_t seq; /* last sequence number sent */
	bool invalid;
	int shard_id, shard_count; /* from IDENTIFY ([0, 1] without a shard) */
	uint64_t inters;           /* interactions dispatched to it */
	struct conn *conn;
	int64_t left_at; /* when its last connection ended (0: never or open) */
	/* the dispatched events, for replay */
	struct {
		int64_t seq;
		char *text;
		bool no_replay;
	} * log;
	size_t nlog, caplog, logstart;
	UT_hash_handle hh;
};

struct frame {
	char *text; /* the message's bytes (NUL-terminated) */
	size_t len;
	bool binary; /* a binary message (compressed), else text */
	struct frame *next;
};

/* One websocket connection. */
struct conn {
	struct lws *wsi;
	int n; /* connection number */
	struct session *s;
	bool authed; /* IDENTIFY or RESUME accepted */
	struct frame *out, *out_tail;
	size_t frag_off; /* bytes of out's head already sent as fragments */
	int close_code;  /* to send */
	int peer_code;   /* the client's close code, -1 for none */
	bool drop;       /* kill the TCP connection without a close frame */
	struct buf rx;
	bool rx_toobig;
	bool rx_binary; /* the client sent a binary message (reported once) */
	bool zlib;      /* it asked for compress=zlib-stream: zs deflates what goes */
	z_stream zs;
	int64_t sends[FAKE_SEND_BUDGET];
	size_t sends_next;
	int64_t hello_at, last_hb;
	int64_t op7_at; /* when op 7 was sent: the client must close */
	bool noack;     /* this connection's heartbeats go unanswered */
	int heartbeats;
	/* The sequence its RESUME named, -1 for none: the client's last until
	 * a session is attached (a refused RESUME attaches none). */
	int64_t resume_seq;
};

/* One interaction sent to the bot. */
struct inter {
	uint64_t id;
	char token[160];
	int64_t created;   /* ms */
	int type;          /* 2, 3 or 4 */
	const cJSON *tmpl; /* its template (expectations) */
	int answers;
	int followups;
	bool replayed;       /* its event was replayed after a RESUME */
	int parts;           /* how many of the template's "parts" were seen, in order */
	int64_t answered_at; /* ms, or 0 */
	bool spoiled;        /* a fault answered its callback: it cannot be late */
	uint64_t chan;       /* its channel */
	int guild;           /* its guild's number (0: F.guild_id), -1 in a DM */
	int sessions;        /* how many sessions it was dispatched to */
	bool ok;             /* its first answer held the template's "expect" */
	char *kept;          /* its first answer's content, when the template has
	                        "keep":true (owned) */
	uint64_t msg;        /* a component's: the message it was pressed on */
	uint64_t original;   /* the message its answer made (the callback's, or the
	                        deferral's once completed), 0 before */
	int where;           /* WHERE_* */
	bool user_only;      /* authorized by a user install alone: 5 follow-ups */
	/* A deferral: the callback was type 5 (or 6, a component's) within
	 * 3 s; the answer then comes later: for type 5 the PATCH of
	 * @original (or the first follow-up, which Discord makes that edit),
	 * for type 6 the first follow-up (a new message). */
	int deferred;      /* 0, or the deferral's callback type */
	bool deferred_eph; /* the type-5 deferral asked for flags 64 */
	bool completed;    /* the deferred answer came */
	int edits;         /* PATCHes of its messages (@original or a follow-up) */
	uint64_t user;     /* who made it */
	/* A MODAL callback's data (the form the user then fills in and
	 * submits, a type-5 interaction), owned; NULL when it had none. */
	cJSON *modal;
	UT_hash_handle hh;
	UT_hash_handle hh_token; /* in F.by_token, keyed by token */
};

/* A scripted REST fault. */
struct fault {
	char kind[8];    /* "429", "5xx", "slow", "401", "403", "echo" */
	char match[128]; /* substring of "METHOD /path" */
	char method[8];  /* only requests of this method ("" any) */
	int count;       /* answers left to spoil */
	double retry;    /* 429: seconds */
	bool global;     /* 429 */
	bool shared;     /* 429: of a shared limit (X-RateLimit-Scope: shared) */
	int status;      /* 5xx */
	int ms;          /* slow */
	int pad;         /* echo: characters before the echoed header */
};

#define FAULTS_MAX 16

struct lock {
	char route[256];
	int64_t until;
	UT_hash_handle hh;
};

struct fake {
	struct lws_context *ctx;
	int port;
	char *token;
	char app_id[24], guild_id[24], bot_id[24], gm_role_id[24];
	/* Sharding: the bot is in `guilds` guilds, guild i's id being
	 * guild_id + (i << 22), so consecutive guilds fall on consecutive
	 * shards. GET /gateway/bot recommends `shards`; a session whose
	 * share of guild_count guilds is over 2500 is closed with 4011, and
	 * one whose count is not a multiple of shard_multiple (a large bot's
	 * sharding) with 4010. */
	int guilds, shards, shard_multiple;
	int64_t guild_count;
	int heartbeat_ms;
	/* Starting sessions (shard.c): the daily budget (remaining of total
	 * until reset_at, on fake_now()'s clock), the identify buckets
	 * (shard_id % max_concurrency, each allowing one IDENTIFY per
	 * identify_interval ms, when each last did), and whether an overrun
	 * budget reset the token. */
	int total, remaining;
	int64_t reset_at;
	int max_concurrency, identify_interval;
	int64_t bucket_last[FAKE_BUCKETS_MAX];
	bool token_reset;
	cJSON *identify_log;  /* every IDENTIFY (see shard_fake_identifies) */
	int64_t clock_offset; /* ms the fake's wall clock is ahead of the host's */
	int fragment;         /* send events in fragments of this size (0: whole) */
	int zsplit;           /* cut each compressed payload into messages of this size (0: one) */
	int expect_compress;  /* 1: every connection must ask for compression, -1: none
	                         may, 0: either */
	bool lenient; /* unanswered interactions are no violation (REST stopped on purpose) */
	bool user_install_allowed; /* the application may be installed to users ("appinstall") */
	bool hold;                 /* IDENTIFY and RESUME go unanswered (a slow gateway) */
	int64_t resume_window;     /* ms a session stays resumable without a connection */
	FILE *record;
	int64_t started;

	struct session *sessions;
	struct session *current; /* the session new events go to */
	struct conn *conns[64];
	int nconns, conn_seq;
	int64_t last_identify;

	struct inter *inters;
	struct inter *by_token; /* the same interactions, by token */
	uint64_t next_id;       /* the least id the next interaction may have */
	/* interactions to inject */
	/* interaction streams, each cycling through its templates */
	struct stream {
		const cJSON *tmpls;
		int left, rate, channels, users;
		int guilds;   /* channel c is in guild c % guilds */
		int age_ms;   /* how old each interaction is when dispatched */
		int64_t next; /* microseconds */
	} streams[STREAMS_MAX];
	cJSON *all_tmpls; /* every template list given (interactions point into them) */
	lws_sorted_usec_list_t tick;

	struct fault faults[FAULTS_MAX];
	struct lock *locks;
	int64_t global_lock;

	cJSON *scopes;            /* each scope's (PUT path's) command set, by path */
	char commands_scope[160]; /* the scope of the last registration */

	/* statistics */
	struct {
		uint64_t violations;
		uint64_t created, delivered, answered, duplicates, late, followups;
		uint64_t replay_duplicates; /* answered again after a replay: Discord's 400 */
		uint64_t replayed;          /* interactions sent again after a RESUME */
		uint64_t original_gets;     /* GET @original (a replay checked) */
		uint64_t shared_duplicates; /* answered again by another session of its shard */
		uint64_t undelivered;       /* interactions no session's shard took */
		uint64_t fanout;            /* interactions dispatched to several sessions */
		int64_t max_answer_ms;
		uint64_t connections, identifies, resumes, resumed, heartbeats;
		uint64_t identify_op9;    /* IDENTIFYs too soon in their bucket */
		uint64_t refused_4011;    /* IDENTIFYs closed with 4011 */
		uint64_t budget_overruns; /* IDENTIFYs past the daily budget */
		int64_t max_hb_gap, min_hb_gap;
		uint64_t requests, registrations, r429, r5xx, r401, r403, slow;
		uint64_t r429_shared;      /* of the 429s, those of a shared limit */
		uint64_t invalid;          /* answers 401, 403 or 429 */
		int64_t max_invalid_10min; /* the most of them in 10 minutes */
		uint64_t bans, banned_requests;
		uint64_t command_lists; /* GETs of a command set */
		uint64_t echoes;        /* error bodies that echoed the token */
		uint64_t token_auth;    /* interaction-token requests that sent the bot token */
		uint64_t early;         /* requests before a 429's retry_after */
		int last_close;         /* the client's close code, -1 none */
		uint64_t client_closes;
		uint64_t zlib_connections;      /* that asked for compress=zlib-stream */
		uint64_t raw_bytes, wire_bytes; /* gateway payloads, before and as sent */
		/* interactions created since the last "mark": made, answered in
		 * time, not answered in time (lenient or not) */
		uint64_t mark_created, mark_answered, mark_unanswered, mark_late;
		uint64_t dm_channels, dms, dms_refused; /* DM channels opened, messages */
		uint64_t dms_unknown;     /* messages to a DM channel "dmforget" deleted */
		uint64_t deferred;        /* deferrals (type 5 or 6) accepted in time */
		uint64_t updates;         /* messages updated by a type-7 callback */
		uint64_t not_offered;     /* interactions Discord would not send (see payload.c) */
		uint64_t press_missing;   /* presses with no such button in the channel */
		uint64_t modals;          /* MODAL callbacks accepted */
		uint64_t submits;         /* modal submits dispatched */
		uint64_t submit_missing;  /* submits with no modal open to that user there */
		uint64_t followup_cap;    /* follow-ups refused: past a user install's 5 */
		uint64_t install_refused; /* registrations for user installs the app refuses */
		uint64_t messages;        /* messages the bot made */
		uint64_t channel_posts, channel_edits, channel_deletes, channel_gets, posts_refused;
		uint64_t old_edits_refused; /* edits of hour-old messages refused (30046) */
		uint64_t missing_access;    /* channel routes refused 403 (50001) */
		uint64_t unknown_messages;  /* channel routes refused 404 (10008) */
		uint64_t edits;             /* PATCHes of an interaction's @original accepted */
		uint64_t followup_edits;    /* PATCHes of an interaction's follow-up accepted */
		uint64_t edits_unknown;     /* PATCHes of a message the token never made (404) */
		/* of the deferrals, those of type 6 (a component's) */
		uint64_t deferred_updates;
	} st;
	/* Direct-message channels the bot opened, and whose recipient has
	 * closed their DMs ("dmclosed USER" control): Discord then refuses
	 * messages to them with 403, code 50007. A channel deleted by the
	 * "dmforget USER" control is gone: a message to it is refused with
	 * 404, code 10003, and opening the DM channel again gives a new one. */
	struct dm {
		uint64_t user, chan;
		bool closed, gone;
	} dms[64];
	int ndms;
	char *dm_last; /* the content of the last direct message accepted */
	/* Interactions whose answer still lacks a part of its template's
	 * "parts", and those deferred whose answer has not come: kept as they
	 * change (rest_fake_counts), so /stats reads them without a walk. */
	int parts_missing, deferred_open;
	uint64_t mark_id;  /* the first id after the last "mark" */
	cJSON *violations; /* the first 100, as strings */
};

extern struct fake F;

int64_t fake_now(void);
/* The fake's wall clock in ms since 1970 (the host's plus clock_offset). */
int64_t fake_wall_ms(void);
void fake_violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fake_record(const char *dir, const char *what, const char *body);

/* gateway.c */
void gw_fake_established(struct conn *c);
void gw_fake_receive(struct conn *c, const char *in, size_t len, bool binary, bool final);
int gw_fake_writeable(struct conn *c);
void gw_fake_closed(struct conn *c, int peer_code);
/* One payload to c: compressed (and cut per zsplit) when c asked for it. */
void gw_fake_send(struct conn *c, const char *text);
/* n bytes as one message, as they are. */
void gw_fake_send_raw(struct conn *c, const void *p, size_t n, bool binary);
/* A payload compressed already (raw bytes before): cut per zsplit, sent. */
void gw_fake_send_packed(struct conn *c, const struct buf *packed, size_t raw);
void gw_fake_close(struct conn *c, int code, const char *why);
/* Dispatches event t with data d (JSON text) on session s. */
void gw_fake_emit(struct session *s, const char *t, const char *d, bool no_replay);
/* The next sequence number of s, the event kept for replay as text (NULL:
 * never replayed); the caller sends it. */
int64_t gw_fake_log(struct session *s, const char *text);
/* s's connection when events may go to it, or NULL. */
struct conn *gw_fake_live(struct session *s);
/* Guild number i's id (consecutive numbers on consecutive shards), and its
 * Game Master role's id. */
uint64_t gw_fake_guild_snowflake(int i);
/* A new snowflake on the fake's wall clock, dated age_ms ago when age_ms
 * > 0 (unique, and growing while age_ms stays 0). */
uint64_t gw_fake_snowflake(int age_ms);
uint64_t gw_fake_gm_role_of(int i);
/* Dispatches event t with data d to every session that takes guild
 * number `guild` (-1: a DM, shard 0 only) and may still receive events
 * (not invalid, not expired); returns how many sessions it went to. */
int gw_fake_route(int guild, const char *t, const char *d);
/* Every session as JSON: [{"id","shard":[i,n],"live","interactions"}],
 * oldest first (owned by the caller). */
char *gw_fake_sessions(void);
/* Per channel: {"CHAN":{"guild":G,"created":N,"answered":N,"late":N,
 * "ok":N,"deferred":N,"kept":TEXT}}: answered counts callbacks within 3 s, late the
 * later ones, ok the first answers (either) that held their template's
 * "expect", kept the content of the newest first answer to a template with
 * "keep":true (owned by the caller). */
char *gw_fake_channels(void);
/* The first answer to it (in time or late) had this content (NULL: none). */
void gw_fake_answered(struct inter *it, const char *content);
void gw_fake_inject(int64_t now_us);
int gw_fake_left(void);
void gw_fake_tick(int64_t now);
struct inter *gw_fake_interaction(uint64_t id);
void gw_fake_free(void);

/* shard.c: the rules of starting sessions (see there). */
enum shard_verdict {
	SHARD_READY,   /* the session starts */
	SHARD_INVALID, /* op 9 was sent: too soon in its bucket */
	SHARD_CLOSED,  /* the connection is being closed (4010, 4011, 4004) */
};
/* Admits an IDENTIFY of shard [shard_id, shard_count] on c (its token,
 * intents and shard array checked already). */
enum shard_verdict shard_fake_admit(struct conn *c, int shard_id, int shard_count);
/* GET /gateway/bot's body. */
void shard_fake_gateway_bot(char *body, size_t len);
/* An HTTP Date header's value for the fake's wall clock. */
void shard_fake_date(char *out, size_t len);
/* The budget: total, remaining, reset after ms; -1 when out of range. */
int shard_fake_budget(int total, int remaining, int64_t reset_after_ms);
/* Resets the budget when its time has come. */
void shard_fake_tick(int64_t now);
/* Every IDENTIFY: [{"t":ms since start,"shard":[i,n],"bucket":b,
 * "outcome":"ready"|"op9"|"4010"|"4011"|"overrun"}] (owned by the caller). */
char *shard_fake_identifies(void);

/* faults.c: "drop", "noack", "op1", "op7", "op9 true", "close 4004",
 * "zcorrupt", "zbomb BYTES", ... (see fake_discord.c) */
int gw_fake_control(const char *cmd, char *err, size_t errlen);

/* zstream.c: arg is the URL's compress value. Starts c's deflate context
 * when it asked for zlib-stream; 0, or -1 after closing c. */
int zs_start(struct conn *c, const char *arg);
void zs_end(struct conn *c);
/* Deflates n bytes onto out; end finishes the payload (Z_SYNC_FLUSH). */
void zs_deflate(struct conn *c, const void *p, size_t n, bool end, struct buf *out);

/* rest.c: answers one request; *delay_ms > 0 delays the answer. */
struct http_answer {
	int status;
	char headers[1024]; /* "name: value\n" lines */
	char *body;         /* owned, may be NULL */
	bool text;          /* the body is text/plain, not JSON */
	int delay_ms;
};
/* a's status and body (copied; NULL: none). */
void fake_answer(struct http_answer *a, int status, const char *body);
/* Adds "name: value" to a's headers (left out when they are full). */
void fake_header(struct http_answer *a, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rest_fake_handle(const char *method, const char *path, const char *auth, const char *ua,
                      const char *ctype, const char *body, size_t len, struct http_answer *a);
int rest_fake_fault(const char *args, char *err, size_t errlen);
/* dms.c: POST /users/@me/channels; whether chan is a DM channel the bot
 * opened; POST /channels/chan/messages to one. */
void dms_fake_open(const char *body, size_t len, struct http_answer *a);
bool dms_fake_channel(uint64_t chan);
void dms_fake_message(const char *path, const char *body, size_t len, struct http_answer *a);
/* "dmclosed USER [off]": USER (a user id, or N for the template's "user":N)
 * takes no direct messages from the bot (or does again). */
int rest_fake_dm_closed(const char *args, char *err, size_t errlen);
/* "dmforget USER": the DM channel with USER (as above) is deleted. */
int rest_fake_dm_forget(const char *args, char *err, size_t errlen);
/* The command set held for scope (a PUT path), or NULL. */
const cJSON *rest_fake_commands(const char *scope);
/* Holds arr (taken) as scope's command set, with the fields Discord adds. */
void rest_fake_set_commands(const char *scope, cJSON *arr);
/* Adds sign (1 or -1) times its share to F.parts_missing and
 * F.deferred_open: -1 before it changes, 1 after (and 1 when it is made). */
void rest_fake_counts(const struct inter *it, int sign);
/* At exit: each such interaction, and each deferral never followed by its
 * answer (unless lenient), is a violation. */
void rest_fake_final(void);

/* limits.c: Discord's rate limits (see there). */
/* The wall clock in ms since 1970 (X-RateLimit-Reset). */
int64_t fake_epoch_ms(void);
/* Takes one request of method on path (under /api/v10; route: its route
 * key, for messages) from its bucket and, unless an interaction route, the
 * global limit. Returns true when it answered a (a 429); else adds the
 * bucket's headers to a. */
bool limits_fake_take(const char *method, const char *path, const char *route,
                      struct http_answer *a);
/* A follow-up in channel chan against the channel's shared limit: true
 * when it answered a (a 429 of scope shared). */
bool limits_fake_channel_followup(uint64_t chan, struct http_answer *a);
/* Counts an answer of that status toward the invalid-request limit (401,
 * 403, 429); past it, the IP is banned. */
void limits_fake_answered(int status);
/* Invalid answers in the last 10 minutes. */
int64_t limits_fake_invalid_recent(void);
/* True (a answered: Cloudflare's 429) while the IP is banned. */
bool limits_fake_banned(struct http_answer *a);
/* Forgets the buckets whose window ended. */
void limits_fake_tick(int64_t now);
void limits_fake_free(void);
/* "ratelimit CLASS [limit=N] [per=MS]", "invalidlimit N". */
int limits_fake_control(const char *args, char *err, size_t errlen);

/* payload.c: where an interaction happens (see there). */
enum {
	WHERE_GUILD,
	WHERE_THREAD,
	WHERE_PRIVATE_THREAD,
	WHERE_FORUM_POST,
	WHERE_BOT_DM,
	WHERE_GROUP_DM,
	WHERE_USER_DM,
	WHERE_FOREIGN,
};
struct where {
	int kind;                         /* WHERE_* */
	uint64_t chan;                    /* its channel_id */
	uint64_t parent;                  /* a thread's parent channel, else 0 */
	int guild;                        /* its guild's number, -1 in a DM or group DM */
	int context;                      /* 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL */
	bool guild_install, user_install; /* authorizing_integration_owners' keys */
	char locale[16];
};
/* Template t's place for its k-th interaction in a stream of that many
 * channels and guilds. Returns 0, or -1 with err for a place Discord
 * never sends from (a server install in a group DM...). */
int payload_fake_where(const cJSON *t, int channels, int guilds, uint64_t k, struct where *w,
                       char *err, size_t errlen);
/* payload_fake_where's check of a template alone. */
int payload_fake_check(const cJSON *t, char *err, size_t errlen);
/* Whether Discord would offer t's command (of interaction type type) at w;
 * narrows w's installations to those the command supports. */
bool payload_fake_offered(const cJSON *t, int type, struct where *w);
/* Appends the fields that depend on w (context, locale, owners,
 * app_permissions, channel, guild fields, member or user) and the closing
 * brace. who: the user object as JSON. */
void payload_fake_write(struct buf *b, const struct where *w, const char *who, uint64_t user,
                        const char *perms, bool gm_role);

/* messages.c: the bot's messages and the channel message routes. */
enum {
	FAKE_CHAN_UNKNOWN,
	FAKE_CHAN_BOT,       /* the bot is there: the channel routes work */
	FAKE_CHAN_USER_ONLY, /* reached through a user install alone: 403 */
};
/* Notes what the bot may do in channel id (FAKE_CHAN_*). */
void msgs_fake_channel(uint64_t id, int kind);
/* Keeps a message the bot made in chan (answering interaction inter, or 0,
 * made by user, who alone sees it when it is ephemeral); returns its id. */
uint64_t msgs_fake_post(uint64_t chan, uint64_t inter, uint64_t user, const cJSON *body,
                        bool ephemeral);
/* Changes the fields body names; -1 when there is no such message. */
int msgs_fake_edit(uint64_t id, const cJSON *body);
/* The interaction that message answers; 0 for a channel message, or when
 * there is no such message (never made, forgotten, or deleted). */
uint64_t msgs_fake_inter(uint64_t id);
/* Whether that message is ephemeral (false when there is none). */
bool msgs_fake_ephemeral(uint64_t id);
/* A message's content, or NULL. */
const char *msgs_fake_content(uint64_t id);
/* The newest message of chan with a button labelled label that user sees
 * (an ephemeral message only its own user does: Discord shows it to nobody
 * else), its custom_id into *custom_id (valid until messages change); or
 * 0. */
uint64_t msgs_fake_find_button(uint64_t chan, uint64_t user, const char *label,
                               const char **custom_id);
/* Answers 200 with message id as Discord shows it. */
void msgs_fake_answer(struct http_answer *a, uint64_t id);
/* The message as Discord shows it (owned by the caller), or NULL. */
cJSON *msgs_fake_json(uint64_t id);
/* chan's messages as a JSON list (owned by the caller). */
char *msgs_fake_list(uint64_t chan);
/* "msgdelete ID": someone deleted the message. */
int msgs_fake_delete_control(const char *args, char *err, size_t errlen);
/* "noaccess CHAN": the bot may no longer view channel CHAN (a number n is
 * channel n of a stream). */
int msgs_fake_noaccess_control(const char *args, char *err, size_t errlen);
/* "nohistory CHAN": the bot lacks Read Message History in channel CHAN
 * (numbered as noaccess's): reading a message there is refused, 403
 * (50001). */
int msgs_fake_nohistory_control(const char *args, char *err, size_t errlen);
/* "nosend CHAN [off]": the bot lacks Send Messages in channel CHAN
 * (numbered as noaccess's): posting a message there is refused, 403
 * (50013), and the channel's interactions carry app_permissions without
 * it; "off" gives it back. "noview CHAN [off]" the same for View Channel:
 * every channel route there is refused, 403 (50001). */
int msgs_fake_nosend_control(const char *args, char *err, size_t errlen);
/* The bot's permissions in chan, perms as the place would give them less
 * what a control took away there. */
uint64_t msgs_fake_app_permissions(uint64_t chan, uint64_t perms);
/* "msgage MS": the messages the bot makes from now on are dated MS ago
 * (their ids say so), as a message posted long before; 0 ends it. */
int msgs_fake_msgage_control(const char *args, char *err, size_t errlen);
/* A channel message route (POST/PATCH/DELETE/GET /channels/C/messages...). */
void msgs_fake_route(const char *method, const char *path, const char *route, const char *body,
                     size_t len, struct http_answer *a);
void msgs_fake_free(void);

/* check.c: each returns 0, or -1 after recording a violation. */
int check_message(const cJSON *msg, const char *where);
int check_commands(const cJSON *arr, const char *where);
int check_autocomplete(const cJSON *data, const char *where);
/* A MODAL callback's data (type 9), as Discord's documentation bounds it. */
int check_modal(const cJSON *data, const char *where);
size_t utf16_len(const char *s);

#endif
