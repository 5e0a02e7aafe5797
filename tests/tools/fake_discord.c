/*
 * fake_discord: Discord's gateway and REST API on loopback, for tests and
 * benchmarks (see tests/tools/fake_discord/fake.h for what it checks).
 *
 * fake_discord --port-file FILE --token TOKEN [--heartbeat MS]
 *              [--record FILE] [--stats FILE] [--expect-compress yes|no]
 *              [--resume-window MS] [--shards N] [--guilds N]
 *              [--max-concurrency N] [--identify-interval MS]
 *              [--clock-offset MS]
 *
 * --record FILE writes one JSON line per event: {"t","dir","what","body"},
 * dir "rest" (a request of the bot's), "gw-in" (a gateway payload it
 * sent) or "made" (an interaction as the fake made it, whether or not a
 * session took it), the bot token replaced by "[token]".
 *
 * Shards as Discord routes them: the bot is in --guilds guilds (1 by
 * default; guild i's id is the first's plus i << 22), GET /gateway/bot
 * recommends --shards, and each guild's events (READY's guild list,
 * GUILD_CREATE, interactions) go to every session whose IDENTIFY shard
 * [id, count] has id == (guild_id >> 22) % count (DMs: shard 0). Several
 * sessions may hold one shard, or different counts, as Discord allows:
 * each gets the events (answering one interaction twice is then Discord's
 * 400, counted as shared_duplicates, no violation). An interaction no
 * session takes is counted as undelivered. IDENTIFY with a shard id
 * outside [0, count), or a count that is not a multiple of shardmultiple,
 * is closed with 4010; one whose share of guildcount guilds would be over
 * 2500, with 4011.
 *
 * Starting sessions as Discord allows it (tests/tools/fake_discord/shard.c):
 * IDENTIFYs go by bucket, shard_id % max_concurrency (--max-concurrency,
 * 1 by default), one per bucket per 5 s; a sooner one is answered with op
 * 9 (and is a violation, counted in identify_op9). The daily budget
 * (session_start_limit: 1000 a day by default; "budget" control) counts
 * every IDENTIFY admitted; one past it ends every session and resets the
 * token (4004, then 401 in REST), as Discord does. --identify-interval MS
 * is a test knob: the fake allows one IDENTIFY per bucket per MS instead of
 * 5000 and says so in GET /gateway/bot (session_start_limit
 * .identify_interval_ms, which Discord never sends), so tests of many
 * shards need not wait 5 s each. --clock-offset MS sets the fake's wall
 * clock MS ahead of the host's (negative: behind): its snowflakes and the
 * Date header of its REST answers (sent on every answer, as Discord does)
 * show that clock, while its own checks (the 3 s to answer) use its
 * monotonic clock.
 *
 * As Discord does, a session stays resumable for a while after its
 * connection ends (--resume-window, 120 s by default); the events
 * dispatched meanwhile are kept and replayed after RESUME, and each
 * interaction must be answered within 3 s of its creation here (later
 * callbacks get 404 "Unknown interaction").
 *
 * Deferred answers, as Discord takes them: a callback of type 5
 * (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE; its data may hold flags 64 and
 * nothing else), or of type 6 (DEFERRED_UPDATE_MESSAGE) for a component,
 * within the 3 s counts as the answer in time (counted in "answered" and
 * in "deferred"; type 6 also in "deferred_updates"). The answer itself
 * follows with the interaction's token within 15 minutes of its creation
 * (later: a violation and 401): after type 5, PATCH
 * /webhooks/APP/TOKEN/messages/@original (counted in "edits"; flags 64
 * there is a violation: the deferral decides), or a first follow-up, which
 * Discord turns into that edit; after type 6, the first follow-up (a new
 * message). That message is the one checked against the template's
 * "expect" and "private" (type 5: private as the deferral was), starts its
 * "parts", and is what "ok" and "kept" report; later follow-ups continue
 * the parts as after a type-4 callback. Edits, as Discord allows them
 * within the token's 15 minutes: PATCH .../messages/@original edits the
 * message the answer made (type 4 or 5; after type 6 or 7, the
 * component's message), and PATCH .../messages/ID one the token made (a
 * follow-up, "followup_edits"); an interaction with no such message
 * (answered with a modal or suggestions, refused, late, or another's
 * message) gets 404 Unknown Message (10008), a violation ("edits_unknown"
 * counts every 404, a deleted message's too). A second callback after a
 * deferral is a violation; so is, at exit, a deferral whose answer never
 * came (unless
 * lenient). "deferred_open" counts the deferrals still waiting for theirs.
 *
 * It listens on an ephemeral port of 127.0.0.1, writes "PORT\n" to the port
 * file, and serves until SIGTERM, SIGINT or a "quit" control. The bot's
 * REST base is http://127.0.0.1:PORT/api/v10; GET /gateway/bot names the
 * gateway. A connection whose URL has compress=zlib-stream gets every
 * payload compressed, as Discord does (one deflate context per connection,
 * a Z_SYNC_FLUSH after each payload, binary messages); with
 * --expect-compress, a connection that asks otherwise is a violation. The
 * control API (driven with curl):
 *   POST /_control            one command: drop | noack | op1 | op7 |
 *                             op9 true|false | close CODE | oversize BYTES |
 *                             malformed | fragment BYTES | heartbeat MS |
 *                             remaining N | mark (restarts the heartbeat gap
 *                             and the since-mark interaction counts) |
 *                             lenient on|off | quit |
 *                             hold on|off (IDENTIFY and RESUME go unanswered) |
 *                             age MS (interactions so far made MS older) |
 *                             zsplit BYTES (compressed payloads in messages
 *                             of this size) | zexpect yes|no|any (as
 *                             --expect-compress, for the next connections) | zcorrupt (a corrupt
 * block) | zbomb BYTES (an event that deflates a thousandfold) | ztext (op 1 as plain text on a
 * compressed connection) | rest429 ... | rest5xx ... | restslow ... | rest401 ... |
 * restecho ... | rest403 ... | restclear (see rest.c) | dmclosed USER [off] (USER's DMs closed: 403
 * code 50007) | ratelimit CLASS [limit=N] [per=MS] (a rate limit's numbers, see limits.c) |
 * invalidlimit N (invalid requests in 10 minutes that get the IP banned; 10,000) | msgdelete ID
 * (someone deleted that message of the bot's) | noaccess CHAN (the bot may no longer view channel
 * CHAN, n for channel n: 403 code 50001 there) | nohistory CHAN (the bot lacks Read Message
 * History there: reading a message is refused, 403 code 50001) | nosend CHAN [off] (the bot
 * lacks Send Messages there: posting is refused, 403 code 50013) | noview CHAN [off] (nor View
 * Channel: every channel route there is refused, 403 code 50001) | msgage MS (the bot's next
 * messages are dated MS ago, as one posted long before: see messages.c) | appinstall guild|both
 * (whether the application allows user installs, as set in the Developer Portal; both by default:
 * commands registered for user installs are refused with 400 under "guild") | shards N (GET
 * /gateway/bot's recommendation) | guilds N (1 to 1000) | guildcount N (the guilds the bot is said
 * to be in, for 4011; default: guilds) | shardmultiple N (a large bot's count: IDENTIFY counts must
 * be multiples of it) | maxconcurrency N (1 to 1024; the buckets start afresh) | identifyinterval
 * MS | budget TOTAL REMAINING RESET_AFTER_MS | clockoffset MS POST /_control/interact
 * {"count":N,"rate":R,"channels":C,"users":U, "guilds":G (channel c is in guild c % G), "age_ms":A
 * (optional: each is dispatched A ms after its creation, as Discord does when it is behind; its id
 * says so), "templates":[{"data":{...},"type":2, "expect":"text","private":false,
 *                              "parts":["text",...],...}]}
 *                             (parts: strings the callback and follow-ups
 *                             must hold, in this order; "where", "install",
 *                             "locale": the place, see payload.c; "press":
 *                             LABEL, for type 3: the newest button so
 *                             labelled in the channel that the user sees
 *                             (not on another's ephemeral message) is
 *                             pressed, see messages.c; "channel": N, channel N
 *                             whatever the stream's count; "forbid":
 *                             [strings] no message answering it may hold,
 *                             "forbid_public": true checking only those
 *                             everyone in the channel sees; "submit":
 *                             {CUSTOM_ID: TEXT}, for type 5: the newest
 *                             modal the bot opened for that user there is
 *                             filled in and submitted, see gateway.c)
 *   GET  /_control/stats      counters and the first violations, as JSON
 *   GET  /_control/sessions   every session: [{"id","shard":[i,n],"live",
 *                             "ended","interactions","seq"}], oldest first
 *                             (seq: the last sequence number it sent)
 *   GET  /_control/channels   per channel: {"CHAN":{"guild":G,"created":N,
 *                             "answered":N,"late":N,"ok":N,"deferred":N,
 *                             "kept":TEXT}} (late: answered after 3 s; ok:
 *                             first answers holding the template's "expect",
 *                             in time or late; deferred: answered by a
 *                             deferral; kept: the newest first answer to a
 *                             "keep":true template; for a deferral, the
 *                             message that completed it)
 *   GET  /_control/identifies every IDENTIFY: [{"t":MS since start,
 *                             "shard":[i,n],"bucket":B,"outcome":"ready"|"op9"|
 *                             "4010"|"4011"|"overrun"}]
 *   GET  /_control/messages/CHAN  the bot's messages in channel CHAN, as
 *                             Discord shows them, with "edits" and the
 *                             "interaction" each answers (see messages.c)
 *   GET  /_control/commands   the command list of the last registration
 *   GET  /_control/scopes     every scope's command list: {"PATH":[...],...}
 *   POST /_control/commands   {"scope":PATH,"commands":[...]}: what the scope
 *                             (a PUT path; default: the last registration's)
 *                             holds from now on, as a stale registration that
 *                             another deployment left (no registration counted)
 * Every REST route has Discord's rate limits, headers and 429s, and the
 * invalid-request limit (limits.c); an interaction of a user install alone
 * takes at most 5 follow-ups (400, code 40094, a violation); a callback of
 * type 7 (UPDATE_MESSAGE) changes the message its button is on ("updates"),
 * as does an edit of @original after a type 6.
 * At exit it prints the statistics and exits 1 when anything the bot sent
 * broke Discord's rules.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rules/base/json.h"
#include "rules/base/mem.h"
#include "tests/tools/fake_discord/fake.h"

#define BODY_MAX        (8u << 20)
#define TICK_US         5000
#define VIOLATIONS_KEPT 100

struct fake F;

static volatile sig_atomic_t stop_flag;

struct http {
	char method[8];
	char path[1024];
	char auth[512], ua[256], ctype[128];
	struct buf body;
	struct http_answer a;
	int phase; /* 0: reading, 1: headers due, 2: body due */
	lws_sorted_usec_list_t sul;
	struct lws *wsi;
};

struct pss {
	struct conn *c;
	struct http *h;
};

int64_t
fake_now(void)
{
	return (int64_t)(lws_now_usecs() / 1000);
}

void
fake_violation(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	F.st.violations++;
	fprintf(stderr, "fake: VIOLATION: %s\n", line);
	if (cJSON_GetArraySize(F.violations) < VIOLATIONS_KEPT)
		cJSON_AddItemToArray(F.violations, cJSON_CreateString(line));
}

void
fake_record(const char *dir, const char *what, const char *body)
{
	cJSON *line;
	char *s, *hit;
	struct buf b;

	if (F.record == NULL)
		return;
	buf_init(&b, 64u << 20);
	buf_adds(&b, body != NULL ? body : "");
	while ((hit = strstr(b.p != NULL ? b.p : "", F.token)) != NULL) {
		/* The token never lands in the record either. */
		size_t off = (size_t)(hit - b.p), tl = strlen(F.token);

		memmove(hit + 7, hit + tl, b.len - off - tl + 1);
		memcpy(hit, "[token]", 7);
		b.len = b.len - tl + 7;
	}
	line = cJSON_CreateObject();
	cJSON_AddNumberToObject(line, "t", (double)(fake_now() - F.started));
	cJSON_AddStringToObject(line, "dir", dir);
	cJSON_AddStringToObject(line, "what", what);
	cJSON_AddStringToObject(line, "body", buf_str(&b));
	s = json_print(line);
	fprintf(F.record, "%s\n", s);
	fflush(F.record);
	free(s);
	cJSON_Delete(line);
	buf_free(&b);
}

static char *
stats_json(void)
{
	cJSON *o = cJSON_CreateObject(), *i, *g, *r;
	char *s;

	cJSON_AddNumberToObject(o, "violations", (double)F.st.violations);
	cJSON_AddItemReferenceToObject(o, "violation_list", F.violations);
	i = cJSON_AddObjectToObject(o, "interactions");
	cJSON_AddNumberToObject(i, "created", (double)F.st.created);
	cJSON_AddNumberToObject(i, "delivered", (double)F.st.delivered);
	cJSON_AddNumberToObject(i, "answered", (double)F.st.answered);
	cJSON_AddNumberToObject(i, "duplicates", (double)F.st.duplicates);
	cJSON_AddNumberToObject(i, "replay_duplicates", (double)F.st.replay_duplicates);
	cJSON_AddNumberToObject(i, "replayed", (double)F.st.replayed);
	cJSON_AddNumberToObject(i, "original_gets", (double)F.st.original_gets);
	cJSON_AddNumberToObject(i, "shared_duplicates", (double)F.st.shared_duplicates);
	cJSON_AddNumberToObject(i, "undelivered", (double)F.st.undelivered);
	cJSON_AddNumberToObject(i, "fanout", (double)F.st.fanout);
	cJSON_AddNumberToObject(i, "late", (double)F.st.late);
	cJSON_AddNumberToObject(i, "followups", (double)F.st.followups);
	cJSON_AddNumberToObject(i, "deferred", (double)F.st.deferred);
	cJSON_AddNumberToObject(i, "deferred_updates", (double)F.st.deferred_updates);
	cJSON_AddNumberToObject(i, "updates", (double)F.st.updates);
	cJSON_AddNumberToObject(i, "not_offered", (double)F.st.not_offered);
	cJSON_AddNumberToObject(i, "press_missing", (double)F.st.press_missing);
	cJSON_AddNumberToObject(i, "modals", (double)F.st.modals);
	cJSON_AddNumberToObject(i, "submits", (double)F.st.submits);
	cJSON_AddNumberToObject(i, "submit_missing", (double)F.st.submit_missing);
	cJSON_AddNumberToObject(i, "followup_cap", (double)F.st.followup_cap);
	cJSON_AddNumberToObject(i, "messages", (double)F.st.messages);
	cJSON_AddNumberToObject(i, "deferred_open", F.deferred_open);
	cJSON_AddNumberToObject(i, "edits", (double)F.st.edits);
	cJSON_AddNumberToObject(i, "followup_edits", (double)F.st.followup_edits);
	cJSON_AddNumberToObject(i, "edits_unknown", (double)F.st.edits_unknown);
	cJSON_AddNumberToObject(i, "parts_missing", F.parts_missing);
	cJSON_AddNumberToObject(i, "max_answer_ms", (double)F.st.max_answer_ms);
	cJSON_AddNumberToObject(i, "left_to_inject", gw_fake_left());
	cJSON_AddNumberToObject(i, "mark_created", (double)F.st.mark_created);
	cJSON_AddNumberToObject(i, "mark_answered", (double)F.st.mark_answered);
	cJSON_AddNumberToObject(i, "mark_unanswered", (double)F.st.mark_unanswered);
	cJSON_AddNumberToObject(i, "mark_late", (double)F.st.mark_late);
	g = cJSON_AddObjectToObject(o, "gateway");
	cJSON_AddNumberToObject(g, "connections", (double)F.st.connections);
	cJSON_AddNumberToObject(g, "open", F.nconns);
	cJSON_AddNumberToObject(g, "identifies", (double)F.st.identifies);
	cJSON_AddNumberToObject(g, "resumes", (double)F.st.resumes);
	cJSON_AddNumberToObject(g, "resumed", (double)F.st.resumed);
	cJSON_AddNumberToObject(g, "heartbeats", (double)F.st.heartbeats);
	cJSON_AddNumberToObject(g, "max_hb_gap_ms", (double)F.st.max_hb_gap);
	cJSON_AddNumberToObject(g, "min_hb_gap_ms", (double)F.st.min_hb_gap);
	cJSON_AddNumberToObject(g, "client_closes", (double)F.st.client_closes);
	cJSON_AddNumberToObject(g, "last_close", F.st.last_close);
	cJSON_AddNumberToObject(g, "zlib_connections", (double)F.st.zlib_connections);
	cJSON_AddNumberToObject(g, "raw_bytes", (double)F.st.raw_bytes);
	cJSON_AddNumberToObject(g, "wire_bytes", (double)F.st.wire_bytes);
	cJSON_AddNumberToObject(g, "identify_op9", (double)F.st.identify_op9);
	cJSON_AddNumberToObject(g, "refused_4011", (double)F.st.refused_4011);
	cJSON_AddNumberToObject(g, "budget_overruns", (double)F.st.budget_overruns);
	cJSON_AddNumberToObject(g, "remaining", F.remaining);
	cJSON_AddNumberToObject(g, "ms_since_identify",
	                        F.last_identify != 0 ? (double)(fake_now() - F.last_identify) : -1);
	cJSON_AddBoolToObject(
	    g, "ready", F.current != NULL && F.current->conn != NULL && F.current->conn->authed);
	r = cJSON_AddObjectToObject(o, "rest");
	cJSON_AddNumberToObject(r, "requests", (double)F.st.requests);
	cJSON_AddNumberToObject(r, "registrations", (double)F.st.registrations);
	cJSON_AddNumberToObject(r, "install_refused", (double)F.st.install_refused);
	cJSON_AddNumberToObject(r, "r429", (double)F.st.r429);
	cJSON_AddNumberToObject(r, "r5xx", (double)F.st.r5xx);
	cJSON_AddNumberToObject(r, "r401", (double)F.st.r401);
	cJSON_AddNumberToObject(r, "r403", (double)F.st.r403);
	cJSON_AddNumberToObject(r, "r429_shared", (double)F.st.r429_shared);
	cJSON_AddNumberToObject(r, "invalid", (double)F.st.invalid);
	cJSON_AddNumberToObject(r, "invalid_10min", (double)limits_fake_invalid_recent());
	cJSON_AddNumberToObject(r, "max_invalid_10min", (double)F.st.max_invalid_10min);
	cJSON_AddNumberToObject(r, "bans", (double)F.st.bans);
	cJSON_AddNumberToObject(r, "banned_requests", (double)F.st.banned_requests);
	cJSON_AddNumberToObject(r, "slow", (double)F.st.slow);
	cJSON_AddNumberToObject(r, "early", (double)F.st.early);
	cJSON_AddNumberToObject(r, "commands",
	                        (double)cJSON_GetArraySize(rest_fake_commands(F.commands_scope)));
	cJSON_AddNumberToObject(r, "command_lists", (double)F.st.command_lists);
	cJSON_AddNumberToObject(r, "echoes", (double)F.st.echoes);
	cJSON_AddNumberToObject(r, "token_auth", (double)F.st.token_auth);
	cJSON_AddStringToObject(r, "commands_scope", F.commands_scope);
	cJSON_AddNumberToObject(r, "dm_channels", (double)F.st.dm_channels);
	cJSON_AddNumberToObject(r, "dms", (double)F.st.dms);
	cJSON_AddNumberToObject(r, "dms_refused", (double)F.st.dms_refused);
	cJSON_AddNumberToObject(r, "dms_unknown", (double)F.st.dms_unknown);
	cJSON_AddStringToObject(r, "dm_last", F.dm_last != NULL ? F.dm_last : "");
	cJSON_AddNumberToObject(r, "channel_posts", (double)F.st.channel_posts);
	cJSON_AddNumberToObject(r, "posts_refused", (double)F.st.posts_refused);
	cJSON_AddNumberToObject(r, "channel_edits", (double)F.st.channel_edits);
	cJSON_AddNumberToObject(r, "channel_deletes", (double)F.st.channel_deletes);
	cJSON_AddNumberToObject(r, "channel_gets", (double)F.st.channel_gets);
	cJSON_AddNumberToObject(r, "old_edits_refused", (double)F.st.old_edits_refused);
	cJSON_AddNumberToObject(r, "missing_access", (double)F.st.missing_access);
	cJSON_AddNumberToObject(r, "unknown_messages", (double)F.st.unknown_messages);
	s = cJSON_Print(o);
	cJSON_Delete(o);
	return s;
}

static void
interact(const char *body, size_t len, struct http_answer *a)
{
	cJSON *j = cJSON_ParseWithLength(body, len);
	cJSON *t = cJSON_DetachItemFromObjectCaseSensitive(j, "templates");
	const cJSON *count = cJSON_GetObjectItemCaseSensitive(j, "count");
	const cJSON *rate = cJSON_GetObjectItemCaseSensitive(j, "rate");
	const cJSON *channels = cJSON_GetObjectItemCaseSensitive(j, "channels");
	const cJSON *users = cJSON_GetObjectItemCaseSensitive(j, "users");
	const cJSON *guilds = cJSON_GetObjectItemCaseSensitive(j, "guilds");
	const cJSON *age = cJSON_GetObjectItemCaseSensitive(j, "age_ms");
	const cJSON *tk;
	struct stream *st;
	int k;

	if (!cJSON_IsArray(t) || cJSON_GetArraySize(t) == 0 || !cJSON_IsNumber(count)) {
		a->status = 400;
		a->body = xstrdup("interact needs count and a non-empty templates list\n");
		cJSON_Delete(t);
		cJSON_Delete(j);
		return;
	}
	cJSON_ArrayForEach(tk, t)
	{
		char err[200];

		if (payload_fake_check(tk, err, sizeof(err)) < 0) {
			a->status = 400;
			a->body = xstrdup(err);
			cJSON_Delete(t);
			cJSON_Delete(j);
			return;
		}
	}
	for (k = 0; k < STREAMS_MAX && F.streams[k].left > 0; k++)
		;
	if (k == STREAMS_MAX) {
		a->status = 400;
		a->body = xstrdup("too many interaction streams at once\n");
		cJSON_Delete(t);
		cJSON_Delete(j);
		return;
	}
	st = &F.streams[k];
	cJSON_AddItemToArray(F.all_tmpls, t);
	st->tmpls = t;
	st->left = count->valueint;
	st->rate = cJSON_IsNumber(rate) ? rate->valueint : 0;
	st->channels = cJSON_IsNumber(channels) ? channels->valueint : 1;
	st->users = cJSON_IsNumber(users) ? users->valueint : 1;
	st->guilds = cJSON_IsNumber(guilds) && guilds->valueint >= 1 && guilds->valueint <= F.guilds
	                 ? guilds->valueint
	                 : 1;
	st->age_ms =
	    cJSON_IsNumber(age) && age->valueint > 0 && age->valueint < 600000 ? age->valueint : 0;
	st->next = (int64_t)lws_now_usecs();
	gw_fake_inject(st->next);
	cJSON_Delete(j);
	a->status = 200;
	a->body = xstrdup("ok\n");
}

/* {"scope":PATH,"commands":[...]}: the scope holds that from now on. */
static void
stale_commands(const char *body, size_t len, struct http_answer *a)
{
	cJSON *j = cJSON_ParseWithLength(body, len);
	cJSON *arr = cJSON_DetachItemFromObjectCaseSensitive(j, "commands");
	const char *scope = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "scope"));

	if (!cJSON_IsArray(arr)) {
		a->status = 400;
		a->body = xstrdup("commands needs a \"commands\" list\n");
		cJSON_Delete(arr);
	} else {
		rest_fake_set_commands(scope != NULL ? scope : F.commands_scope, arr);
		a->status = 200;
		a->body = xstrdup("ok\n");
	}
	cJSON_Delete(j);
}

static void
control(struct http *h, struct http_answer *a)
{
	char err[256] = "";
	const char *body = buf_str(&h->body);

	if (strcmp(h->path, "/_control/stats") == 0) {
		a->status = 200;
		a->body = stats_json();
	} else if (strcmp(h->path, "/_control/commands") == 0 && h->body.len > 0) {
		stale_commands(body, h->body.len, a);
	} else if (strcmp(h->path, "/_control/commands") == 0) {
		const cJSON *arr = rest_fake_commands(F.commands_scope);

		a->status = 200;
		a->body = arr != NULL ? cJSON_Print(arr) : xstrdup("[]");
	} else if (strcmp(h->path, "/_control/sessions") == 0) {
		a->status = 200;
		a->body = gw_fake_sessions();
	} else if (strcmp(h->path, "/_control/identifies") == 0) {
		a->status = 200;
		a->body = shard_fake_identifies();
	} else if (strcmp(h->path, "/_control/channels") == 0) {
		a->status = 200;
		a->body = gw_fake_channels();
	} else if (strcmp(h->path, "/_control/scopes") == 0) {
		a->status = 200;
		a->body = F.scopes != NULL ? json_print(F.scopes) : xstrdup("{}");
	} else if (strncmp(h->path, "/_control/messages/", 19) == 0) {
		a->status = 200;
		a->body = msgs_fake_list(strtoull(h->path + 19, NULL, 10));
	} else if (strcmp(h->path, "/_control/interact") == 0) {
		interact(body, h->body.len, a);
	} else if (strcmp(h->path, "/_control") == 0) {
		int r;

		if (strncmp(body, "quit", 4) == 0) {
			stop_flag = 1;
			r = 0;
		} else if (strncmp(body, "dmclosed", 8) == 0) {
			r = rest_fake_dm_closed(body, err, sizeof(err));
		} else if (strncmp(body, "appinstall", 10) == 0) {
			F.user_install_allowed = strstr(body, "both") != NULL;
			r = 0;
		} else if (strncmp(body, "msgdelete", 9) == 0) {
			r = msgs_fake_delete_control(body, err, sizeof(err));
		} else if (strncmp(body, "noaccess", 8) == 0) {
			r = msgs_fake_noaccess_control(body, err, sizeof(err));
		} else if (strncmp(body, "msgage", 6) == 0) {
			r = msgs_fake_msgage_control(body, err, sizeof(err));
		} else if (strncmp(body, "nohistory", 9) == 0) {
			r = msgs_fake_nohistory_control(body, err, sizeof(err));
		} else if (strncmp(body, "nosend", 6) == 0 || strncmp(body, "noview", 6) == 0) {
			r = msgs_fake_nosend_control(body, err, sizeof(err));
		} else if (strncmp(body, "dmforget", 8) == 0) {
			r = rest_fake_dm_forget(body, err, sizeof(err));
		} else if (strncmp(body, "ratelimit", 9) == 0 ||
		           strncmp(body, "invalidlimit", 12) == 0) {
			r = limits_fake_control(body, err, sizeof(err));
		} else if (strncmp(body, "rest", 4) == 0) {
			r = rest_fake_fault(body, err, sizeof(err));
		} else {
			r = gw_fake_control(body, err, sizeof(err));
		}
		a->status = r == 0 ? 200 : 400;
		a->body = xstrdup(r == 0 ? "ok\n" : err);
	} else {
		a->status = 404;
		a->body = xstrdup("no such control\n");
	}
}

static void
on_delay(lws_sorted_usec_list_t *sul)
{
	struct http *h = lws_container_of(sul, struct http, sul);

	lws_callback_on_writable(h->wsi);
}

static void
process(struct http *h)
{
	memset(&h->a, 0, sizeof(h->a));
	if (strncmp(h->path, "/_control", 9) == 0)
		control(h, &h->a);
	else
		rest_fake_handle(h->method, h->path, h->auth, h->ua, h->ctype, buf_str(&h->body),
		                 h->body.len, &h->a);
	h->phase = 1;
	if (h->a.delay_ms > 0)
		lws_sul_schedule(F.ctx, 0, &h->sul, on_delay, (lws_usec_t)h->a.delay_ms * 1000);
	else
		lws_callback_on_writable(h->wsi);
}

static int
http_writeable(struct http *h)
{
	unsigned char buf[LWS_PRE + 2048], *p = buf + LWS_PRE, *end = buf + sizeof(buf);
	size_t blen = h->a.body != NULL ? strlen(h->a.body) : 0;

	if (h->phase == 1) {
		if (lws_add_http_header_status(h->wsi, (unsigned int)h->a.status, &p, end))
			return -1;
		if (strncmp(h->path, "/_control", 9) != 0) {
			char date[64];

			shard_fake_date(date, sizeof(date));
			if (lws_add_http_header_by_name(
			        h->wsi, (const unsigned char *)"date:", (const unsigned char *)date,
			        (int)strlen(date), &p, end))
				return -1;
		}
		if (blen > 0 &&
		    lws_add_http_header_by_token(
		        h->wsi, WSI_TOKEN_HTTP_CONTENT_TYPE,
		        (const unsigned char *)(h->a.text ? "text/plain" : "application/json"),
		        h->a.text ? 10 : 16, &p, end))
			return -1;
		for (char *line = h->a.headers; *line != '\0';) {
			char name[128];
			char *colon = strchr(line, ':'), *nl = strchr(line, '\n');

			if (colon == NULL || nl == NULL)
				break;
			snprintf(name, sizeof(name), "%.*s:", (int)(colon - line), line);
			if (lws_add_http_header_by_name(h->wsi, (const unsigned char *)name,
			                                (const unsigned char *)colon + 2,
			                                (int)(nl - colon - 2), &p, end))
				return -1;
			line = nl + 1;
		}
		if (lws_add_http_header_content_length(h->wsi, blen, &p, end) ||
		    lws_finalize_write_http_header(h->wsi, buf + LWS_PRE, &p, end))
			return -1;
		if (blen > 0) {
			h->phase = 2;
			lws_callback_on_writable(h->wsi);
			return 0;
		}
	} else if (h->phase == 2) {
		unsigned char *b = xmalloc(LWS_PRE + blen);

		memcpy(b + LWS_PRE, h->a.body, blen);
		if (lws_write(h->wsi, b + LWS_PRE, blen, LWS_WRITE_HTTP_FINAL) != (int)blen) {
			free(b);
			return -1;
		}
		free(b);
	} else {
		return 0;
	}
	h->phase = 0;
	free(h->a.body);
	h->a.body = NULL;
	buf_reset(&h->body);
	return lws_http_transaction_completed(h->wsi) ? -1 : 0;
}

static const char *
method_of(struct lws *wsi)
{
	static const struct {
		enum lws_token_indexes tok;
		const char *name;
	} m[] = {
	    {WSI_TOKEN_GET_URI, "GET"},       {WSI_TOKEN_POST_URI, "POST"},
	    {WSI_TOKEN_PUT_URI, "PUT"},       {WSI_TOKEN_PATCH_URI, "PATCH"},
	    {WSI_TOKEN_DELETE_URI, "DELETE"},
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (lws_hdr_total_length(wsi, m[i].tok) > 0)
			return m[i].name;
	return "?";
}

static int
http_start(struct lws *wsi, struct pss *pss, const char *path)
{
	struct http *h = pss->h;
	char cl[32] = "";

	if (h == NULL) {
		h = pss->h = xcalloc(1, sizeof(*h));
		buf_init(&h->body, BODY_MAX);
	}
	lws_sul_cancel(&h->sul);
	h->wsi = wsi;
	h->phase = 0;
	buf_reset(&h->body);
	snprintf(h->method, sizeof(h->method), "%s", method_of(wsi));
	snprintf(h->path, sizeof(h->path), "%s", path);
	h->auth[0] = h->ua[0] = h->ctype[0] = '\0';
	lws_hdr_copy(wsi, h->auth, sizeof(h->auth), WSI_TOKEN_HTTP_AUTHORIZATION);
	lws_hdr_copy(wsi, h->ua, sizeof(h->ua), WSI_TOKEN_HTTP_USER_AGENT);
	lws_hdr_copy(wsi, h->ctype, sizeof(h->ctype), WSI_TOKEN_HTTP_CONTENT_TYPE);
	lws_hdr_copy(wsi, cl, sizeof(cl), WSI_TOKEN_HTTP_CONTENT_LENGTH);
	if (strcmp(h->method, "GET") == 0 || atol(cl) <= 0)
		process(h);
	return 0;
}

static int
callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct pss *pss = user;

	switch (reason) {
	case LWS_CALLBACK_HTTP:
		return http_start(wsi, pss, in);
	case LWS_CALLBACK_HTTP_BODY:
		if (pss->h != NULL)
			buf_add(&pss->h->body, in, len);
		return 0;
	case LWS_CALLBACK_HTTP_BODY_COMPLETION:
		if (pss->h != NULL)
			process(pss->h);
		return 0;
	case LWS_CALLBACK_HTTP_WRITEABLE:
		return pss->h != NULL ? http_writeable(pss->h) : 0;
	case LWS_CALLBACK_CLOSED_HTTP:
	case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
		if (pss != NULL && pss->h != NULL) {
			lws_sul_cancel(&pss->h->sul);
			free(pss->h->a.body);
			buf_free(&pss->h->body);
			free(pss->h);
			pss->h = NULL;
		}
		return 0;
	case LWS_CALLBACK_ESTABLISHED:
		pss->c = xcalloc(1, sizeof(*pss->c));
		pss->c->wsi = wsi;
		pss->c->peer_code = -1;
		gw_fake_established(pss->c);
		return 0;
	case LWS_CALLBACK_RECEIVE:
		if (pss->c != NULL)
			gw_fake_receive(pss->c, in, len, lws_frame_is_binary(wsi),
			                lws_is_final_fragment(wsi) &&
			                    !lws_remaining_packet_payload(wsi));
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return pss->c != NULL ? gw_fake_writeable(pss->c) : 0;
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		if (pss->c != NULL && len >= 2)
			pss->c->peer_code =
			    ((unsigned char *)in)[0] << 8 | ((unsigned char *)in)[1];
		return 0;
	case LWS_CALLBACK_CLOSED:
		if (pss->c != NULL) {
			gw_fake_closed(pss->c, pss->c->peer_code);
			free(pss->c);
			pss->c = NULL;
		}
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static const struct lws_protocols protocols[] = {
    {"fake-discord", callback, sizeof(struct pss), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void
on_tick(lws_sorted_usec_list_t *sul)
{
	static int64_t swept;

	gw_fake_inject((int64_t)lws_now_usecs());
	gw_fake_tick(fake_now());
	shard_fake_tick(fake_now());
	if (fake_now() - swept >= 1000) {
		swept = fake_now();
		limits_fake_tick(swept);
	}
	if (stop_flag)
		lws_cancel_service(F.ctx);
	lws_sul_schedule(F.ctx, 0, &F.tick, on_tick, TICK_US);
}

static void
on_signal(int sig)
{
	stop_flag = 1;
}

#define USAGE                                                                                      \
	"usage: fake_discord --port-file FILE --token TOKEN [--heartbeat MS] [--record FILE] "     \
	"[--stats FILE] [--expect-compress yes|no] [--resume-window MS] [--shards N] "             \
	"[--guilds N] [--max-concurrency N] [--identify-interval MS] [--clock-offset MS]\n"

static void
usage(void)
{
	fputs(USAGE "(fake_discord --help says how to drive it)\n", stderr);
	exit(2);
}

/* --help: enough to drive the fake by hand, the bot against it. */
static void
help(void)
{
	fputs(
	    USAGE
	    "\n"
	    "Discord's gateway and REST API on 127.0.0.1, for tests: it listens on an\n"
	    "ephemeral port, writes it to FILE, and serves until SIGTERM, SIGINT or the\n"
	    "control command quit. Point delver at it with a configuration whose\n"
	    "[discord] section has\n"
	    "  rest_url = http://127.0.0.1:PORT/api/v10\n"
	    "  token_source = env:DELVER_TEST_TOKEN   (that variable holding TOKEN)\n"
	    "and a fresh state_dir (a saved session would resume at a fake now gone).\n"
	    "\n"
	    "Send the bot an interaction (here /roll 1d20 in the fake's first channel):\n"
	    "  body='{\"count\":1,\"rate\":10,\"channels\":1,\"users\":1,\"templates\":[{\"data\":"
	    "{\"type\":1,\"name\":\"roll\",\"options\":[{\"type\":3,\"name\":\"expression\","
	    "\"value\":\"1d20\"}]},\"expect\":\"1d20\",\"private\":false}]}'\n"
	    "  curl -s -X POST --data \"$body\" http://127.0.0.1:PORT/_control/interact\n"
	    "(count interactions at rate a second, spread over channels and users, each\n"
	    "from the templates in turn; expect: text the answer must hold.) Then:\n"
	    "  curl -s http://127.0.0.1:PORT/_control/messages/1300000000000000000\n"
	    "                           the bot's messages in that (the first) channel\n"
	    "  curl -s http://127.0.0.1:PORT/_control/channels\n"
	    "                           per channel: answered, late, ok (answers that\n"
	    "                           held expect)\n"
	    "  curl -s http://127.0.0.1:PORT/_control/stats\n"
	    "                           counters (interactions.created, .answered, .late)\n"
	    "                           and the first violations of Discord's rules\n"
	    "  curl -s -X POST http://127.0.0.1:PORT/_control --data quit\n"
	    "                           one command (drop, close CODE, quit, ...)\n"
	    "Every control route and template field: the comment at the top of\n"
	    "tests/tools/fake_discord.c. At exit it prints the statistics and exits 1\n"
	    "when anything the bot sent broke Discord's rules.\n",
	    stdout);
	exit(0);
}

int
main(int argc, char **argv)
{
	struct lws_context_creation_info info;
	const char *port_file = NULL, *stats_file = NULL;
	FILE *f;
	char *s;

	memset(&F, 0, sizeof(F));
	F.heartbeat_ms = 41250;
	F.resume_window = 120000;
	F.total = F.remaining = 1000;
	F.max_concurrency = 1;
	F.identify_interval = 5000;
	F.guilds = 1;
	F.shards = 1;
	F.shard_multiple = 1;
	F.user_install_allowed = true;
	F.st.last_close = -1;
	F.next_id = 1200000000000000000ull;
	snprintf(F.app_id, sizeof(F.app_id), "1100000000000000001");
	snprintf(F.guild_id, sizeof(F.guild_id), "1000000000000000001");
	snprintf(F.bot_id, sizeof(F.bot_id), "1100000000000000002");
	snprintf(F.gm_role_id, sizeof(F.gm_role_id), "1000000000000000500");
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			help();
		if (v == NULL)
			usage();
		if (!strcmp(argv[i], "--port-file"))
			port_file = v;
		else if (!strcmp(argv[i], "--token"))
			F.token = xstrdup(v);
		else if (!strcmp(argv[i], "--heartbeat"))
			F.heartbeat_ms = atoi(v);
		else if (!strcmp(argv[i], "--resume-window"))
			F.resume_window = atoll(v);
		else if (!strcmp(argv[i], "--shards") && atoi(v) >= 1)
			F.shards = atoi(v);
		else if (!strcmp(argv[i], "--guilds") && atoi(v) >= 1 && atoi(v) <= 1000)
			F.guilds = atoi(v);
		else if (!strcmp(argv[i], "--max-concurrency") && atoi(v) >= 1 &&
		         atoi(v) <= FAKE_BUCKETS_MAX)
			F.max_concurrency = atoi(v);
		else if (!strcmp(argv[i], "--identify-interval") && atoi(v) >= 1 &&
		         atoi(v) <= 60000)
			F.identify_interval = atoi(v);
		else if (!strcmp(argv[i], "--clock-offset"))
			F.clock_offset = atoll(v);
		else if (!strcmp(argv[i], "--record"))
			F.record = fopen(v, "w");
		else if (!strcmp(argv[i], "--stats"))
			stats_file = v;
		else if (!strcmp(argv[i], "--expect-compress"))
			F.expect_compress = !strcmp(v, "yes") ? 1 : !strcmp(v, "no") ? -1 : 0;
		else
			usage();
		i++;
	}
	if (port_file == NULL || F.token == NULL)
		usage();
	srandom((unsigned)time(NULL) ^ (unsigned)getpid());
	F.violations = cJSON_CreateArray();
	F.all_tmpls = cJSON_CreateArray();
	F.identify_log = cJSON_CreateArray();
	F.started = fake_now();
	F.reset_at = F.started + 14400000; /* as Discord's example: 4 h */
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGPIPE, SIG_IGN);
	lws_set_log_level(LLL_ERR, NULL);
	memset(&info, 0, sizeof(info));
	info.port = 0;
	info.iface = "127.0.0.1";
	info.protocols = protocols;
	info.keepalive_timeout = 60;
	info.timeout_secs = 30;
	F.ctx = lws_create_context(&info);
	if (F.ctx == NULL) {
		fprintf(stderr, "fake: cannot start libwebsockets\n");
		return 2;
	}
	F.port = lws_get_vhost_listen_port(lws_get_vhost_by_name(F.ctx, "default"));
	f = fopen(port_file, "w");
	if (f == NULL) {
		fprintf(stderr, "fake: cannot write %s\n", port_file);
		return 2;
	}
	fprintf(f, "%d\n", F.port);
	fclose(f);
	fprintf(stderr, "fake: listening on 127.0.0.1:%d\n", F.port);
	lws_sul_schedule(F.ctx, 0, &F.tick, on_tick, TICK_US);
	while (!stop_flag && lws_service(F.ctx, 0) >= 0)
		;
	rest_fake_final();
	s = stats_json();
	fprintf(stderr, "fake: %s\n", s);
	if (stats_file != NULL && (f = fopen(stats_file, "w")) != NULL) {
		fprintf(f, "%s\n", s);
		fclose(f);
	}
	free(s);
	lws_sul_cancel(&F.tick);
	lws_context_destroy(F.ctx);
	gw_fake_free();
	limits_fake_free();
	msgs_fake_free();
	cJSON_Delete(F.scopes);
	cJSON_Delete(F.all_tmpls);
	cJSON_Delete(F.violations);
	cJSON_Delete(F.identify_log);
	if (F.record != NULL)
		fclose(F.record);
	free(F.token);
	free(F.dm_last);
	return F.st.violations > 0 ? 1 : 0;
}
