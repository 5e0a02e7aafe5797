/* fake_discord/gateway: sessions, HELLO/READY/RESUME, events, replay and
 * the scripted gateway faults. */
#include "tests/tools/fake_discord/fake.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/base/json.h"
#include "rules/base/mem.h"

#define WRITE_CLOSE ((enum lws_write_protocol)4) /* the close opcode */
#define PRIVILEGED  ((1ull << 1) | (1ull << 8) | (1ull << 15))

/* Interactions in creation order, to find the unanswered quickly. */
static uint64_t *order;
static size_t norder, caporder, ohead;

static void
random_hex(char *out, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i + 1 < n; i++)
		out[i] = hex[random() % 16];
	out[n - 1] = '\0';
}

void
gw_fake_send_raw(struct conn *c, const void *p, size_t n, bool binary)
{
	struct frame *f = xcalloc(1, sizeof(*f));

	f->text = xmalloc(n + 1);
	memcpy(f->text, p, n);
	f->text[n] = '\0';
	f->len = n;
	f->binary = binary;
	if (c->out_tail != NULL)
		c->out_tail->next = f;
	else
		c->out = f;
	c->out_tail = f;
	lws_callback_on_writable(c->wsi);
}

void
gw_fake_send_packed(struct conn *c, const struct buf *packed, size_t raw)
{
	size_t step = F.zsplit > 0 ? (size_t)F.zsplit : packed->len;

	F.st.raw_bytes += raw;
	F.st.wire_bytes += packed->len;
	for (size_t off = 0; off < packed->len; off += step)
		gw_fake_send_raw(c, packed->p + off,
		                 packed->len - off < step ? packed->len - off : step, true);
}

void
gw_fake_send(struct conn *c, const char *text)
{
	size_t n = strlen(text);
	struct buf packed;

	if (!c->zlib) {
		F.st.raw_bytes += n;
		F.st.wire_bytes += n;
		gw_fake_send_raw(c, text, n, false);
		return;
	}
	buf_init(&packed, 64u << 20);
	zs_deflate(c, text, n, true, &packed);
	gw_fake_send_packed(c, &packed, n);
	buf_free(&packed);
}

void
gw_fake_close(struct conn *c, int code, const char *why)
{
	if (c->close_code != 0 || c->drop)
		return;
	fprintf(stderr, "fake: closing connection %d with %d (%s)\n", c->n, code, why);
	c->close_code = code;
	lws_callback_on_writable(c->wsi);
}

static struct session *
session_new(void)
{
	struct session *s = xcalloc(1, sizeof(*s));

	random_hex(s->id, 33);
	HASH_ADD_STR(F.sessions, id, s);
	F.current = s;
	return s;
}

/* The next sequence number of s, its event logged for replay as text
 * (NULL: never replayed). */
int64_t
gw_fake_log(struct session *s, const char *text)
{
	size_t i;

	s->seq++;
	if (s->nlog == FAKE_REPLAY_MAX) {
		free(s->log[s->logstart].text);
		s->logstart = (s->logstart + 1) % FAKE_REPLAY_MAX;
		s->nlog--;
	}
	if (s->caplog == 0) {
		s->caplog = FAKE_REPLAY_MAX;
		s->log = xcalloc(s->caplog, sizeof(*s->log));
	}
	i = (s->logstart + s->nlog++) % FAKE_REPLAY_MAX;
	s->log[i].seq = s->seq;
	s->log[i].no_replay = text == NULL;
	s->log[i].text = text != NULL ? xstrdup(text) : NULL;
	return s->seq;
}

struct conn *
gw_fake_live(struct session *s)
{
	return s != NULL && s->conn != NULL && s->conn->authed && !s->invalid ? s->conn : NULL;
}

void
gw_fake_emit(struct session *s, const char *t, const char *d, bool no_replay)
{
	struct buf b;

	buf_init(&b, 64u << 20);
	buf_addf(&b, "{\"t\":\"%s\",\"s\":%" PRId64 ",\"op\":0,\"d\":%s}", t, s->seq + 1, d);
	gw_fake_log(s, no_replay ? NULL : buf_str(&b));
	if (gw_fake_live(s) != NULL)
		gw_fake_send(s->conn, buf_str(&b));
	buf_free(&b);
}

void
gw_fake_established(struct conn *c)
{
	char v[32] = "", enc[32] = "", z[64] = "", hello[160];

	c->n = ++F.conn_seq;
	c->close_code = 0;
	buf_init(&c->rx, FAKE_RECV_MAX);
	if (F.nconns < 64)
		F.conns[F.nconns++] = c;
	F.st.connections++;
	c->hello_at = fake_now();
	c->resume_seq = -1;
	lws_get_urlarg_by_name(c->wsi, "v=", v, sizeof(v));
	lws_get_urlarg_by_name(c->wsi, "encoding=", enc, sizeof(enc));
	if (lws_get_urlarg_by_name(c->wsi, "compress=", z, sizeof(z)) == NULL)
		z[0] = '\0'; /* lws leaves the last argument it looked at there */
	fprintf(stderr, "fake: connection %d (v=%s encoding=%s compress=%s)\n", c->n, v, enc, z);
	if (strcmp(v, "10") != 0 && strcmp(v, "v=10") != 0) {
		fake_violation("the gateway URL does not ask for v=10");
		gw_fake_close(c, 4012, "invalid API version");
		return;
	}
	if (strcmp(enc, "json") != 0 && strcmp(enc, "encoding=json") != 0) {
		fake_violation("the gateway URL does not ask for encoding=json");
		gw_fake_close(c, 4002, "decode error");
		return;
	}
	if (zs_start(c, z) < 0)
		return;
	snprintf(hello, sizeof(hello),
	         "{\"t\":null,\"s\":null,\"op\":10,\"d\":{\"heartbeat_interval\":%d,"
	         "\"_trace\":[\"[\\\"fake-gateway\\\",{\\\"micros\\\":0}]\"]}}",
	         F.heartbeat_ms);
	gw_fake_send(c, hello);
}

/* Guild number i's id: consecutive numbers fall on consecutive shards. */
static uint64_t
guild_snowflake(int i)
{
	return strtoull(F.guild_id, NULL, 10) + ((uint64_t)i << 22);
}

/* Guild number i's Game Master role (guild 0's is F.gm_role_id). */
static uint64_t
gm_role_of(int i)
{
	return strtoull(F.gm_role_id, NULL, 10) + (uint64_t)i;
}

uint64_t
gw_fake_guild_snowflake(int i)
{
	return guild_snowflake(i);
}

uint64_t
gw_fake_gm_role_of(int i)
{
	return gm_role_of(i);
}

/* Whether session s takes the events of guild number i (-1: DMs, which
 * go to shard 0 only), by Discord's formula (guild_id >> 22) % count. */
static bool
takes(const struct session *s, int i)
{
	if (i < 0)
		return s->shard_id == 0;
	return (int)((guild_snowflake(i) >> 22) % (uint64_t)s->shard_count) == s->shard_id;
}

/* Whether s still gets events: not ended, and not left without a
 * connection past the resume window (then it is ended here). */
static bool
receiving(struct session *s, int64_t now)
{
	if (!s->invalid && s->conn == NULL && s->left_at != 0 &&
	    now - s->left_at > F.resume_window) {
		fprintf(stderr, "fake: session %s expired %" PRId64 " ms after its connection\n",
		        s->id, now - s->left_at);
		s->invalid = true;
	}
	return !s->invalid;
}

int
gw_fake_route(int guild, const char *t, const char *d)
{
	struct session *s, *tmp;
	int64_t now = fake_now();
	int n = 0;

	HASH_ITER(hh, F.sessions, s, tmp)
	{
		if (!receiving(s, now) || !takes(s, guild))
			continue;
		gw_fake_emit(s, t, d, false);
		if (strcmp(t, "INTERACTION_CREATE") == 0)
			s->inters++;
		n++;
	}
	return n;
}

static void
ready(struct conn *c, int shard_id, int shard_count, bool sharded)
{
	struct session *s = session_new();
	struct buf b;
	const char *sep = "";

	s->shard_id = shard_id;
	s->shard_count = shard_count;
	s->conn = c;
	c->s = s;
	c->authed = true;
	buf_init(&b, 1 << 20);
	buf_addf(&b,
	         "{\"v\":10,\"user_settings\":{},\"user\":{\"verified\":true,\"username\":"
	         "\"delver\",\"mfa_enabled\":false,\"id\":\"%s\",\"global_name\":null,\"flags\":0,"
	         "\"email\":null,\"discriminator\":\"0\",\"bot\":true,\"avatar\":null},"
	         "\"session_type\":\"normal\",\"session_id\":\"%s\",\"resume_gateway_url\":"
	         "\"ws://127.0.0.1:%d\",\"relationships\":[],\"private_channels\":[],"
	         "\"presences\":[],\"guilds\":[",
	         F.bot_id, s->id, F.port);
	for (int i = 0; i < F.guilds; i++) {
		if (!takes(s, i))
			continue;
		buf_addf(&b, "%s{\"unavailable\":true,\"id\":\"%" PRIu64 "\"}", sep,
		         guild_snowflake(i));
		sep = ",";
	}
	buf_addf(&b,
	         "],\"guild_join_requests\":[],\"geo_ordered_rtc_regions\":[],"
	         "\"application\":{\"id\":\"%s\",\"flags\":565248},",
	         F.app_id);
	if (sharded)
		buf_addf(&b, "\"shard\":[%d,%d],", shard_id, shard_count);
	buf_adds(&b, "\"_trace\":[\"[\\\"fake-gateway\\\",{\\\"micros\\\":0}]\"]}");
	gw_fake_emit(s, "READY", buf_str(&b), true); /* this connection's, as Resumed */
	for (int i = 0; i < F.guilds; i++) {
		if (!takes(s, i))
			continue;
		buf_reset(&b);
		buf_addf(
		    &b,
		    "{\"id\":\"%" PRIu64 "\",\"name\":\"Test Table%s\",\"unavailable\":false,"
		    "\"member_count\":3,\"large\":false,"
		    "\"joined_at\":\"2024-01-01T00:00:00.000000+00:00\","
		    "\"roles\":[{\"id\":\"%" PRIu64
		    "\",\"name\":\"@everyone\",\"permissions\":\"1024\","
		    "\"position\":0,\"color\":0,\"hoist\":false,\"managed\":false,"
		    "\"mentionable\":false},{\"id\":\"%" PRIu64 "\",\"name\":\"Game Master\","
		    "\"permissions\":\"1024\",\"position\":1,\"color\":0,\"hoist\":false,"
		    "\"managed\":false,\"mentionable\":false}],\"channels\":[],\"threads\":[],"
		    "\"emojis\":[],\"stickers\":[],\"features\":[],\"preferred_locale\":\"en-US\"}",
		    guild_snowflake(i), i > 0 ? " (more)" : "", guild_snowflake(i), gm_role_of(i));
		gw_fake_emit(s, "GUILD_CREATE", buf_str(&b), false);
	}
	buf_free(&b);
}

static void
identify(struct conn *c, const cJSON *d)
{
	const char *token = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "token"));
	const cJSON *intents = cJSON_GetObjectItemCaseSensitive(d, "intents");
	const cJSON *props = cJSON_GetObjectItemCaseSensitive(d, "properties");
	const cJSON *shard = cJSON_GetObjectItemCaseSensitive(d, "shard");
	int64_t now = fake_now();
	int shard_id = 0, shard_count = 1;

	F.st.identifies++;
	if (F.hold) {
		/* Held unanswered, but Discord has seen it: its bucket's
		 * spacing counts from it. */
		const cJSON *id = cJSON_GetArrayItem(shard, 0);

		F.last_identify = now;
		F.bucket_last[(cJSON_IsNumber(id) && id->valueint >= 0 ? id->valueint : 0) %
		              F.max_concurrency] = now;
		return;
	}
	if (c->authed) {
		fake_violation("IDENTIFY on an authenticated connection");
		gw_fake_close(c, 4005, "already authenticated");
		return;
	}
	if (token == NULL || strcmp(token, F.token) != 0 || F.token_reset) {
		gw_fake_close(c, 4004, "authentication failed");
		return;
	}
	if (!cJSON_IsNumber(intents) ||
	    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(props, "os")) ||
	    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(props, "browser")) ||
	    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(props, "device"))) {
		fake_violation("IDENTIFY lacks intents or properties{os, browser, device}");
		gw_fake_close(c, 4002, "decode error");
		return;
	}
	if ((uint64_t)intents->valuedouble & PRIVILEGED) {
		gw_fake_close(c, 4014, "disallowed intents");
		return;
	}
	if (shard != NULL) {
		const cJSON *id = cJSON_GetArrayItem(shard, 0), *n = cJSON_GetArrayItem(shard, 1);

		if (!cJSON_IsArray(shard) || cJSON_GetArraySize(shard) != 2 ||
		    !cJSON_IsNumber(id) || !cJSON_IsNumber(n) || n->valuedouble < 1 ||
		    n->valuedouble > 65535 || id->valuedouble < 0 ||
		    id->valuedouble >= n->valuedouble) {
			gw_fake_close(c, 4010, "invalid shard");
			return;
		}
		shard_id = id->valueint;
		shard_count = n->valueint;
	}
	if (shard_fake_admit(c, shard_id, shard_count) != SHARD_READY)
		return;
	ready(c, shard_id, shard_count, shard != NULL);
}

/* An interaction whose event is replayed may reach the bot twice (a bot
 * killed after answering, before saving its sequence): a second answer is
 * then Discord's 400 "already acknowledged", not a breach. */
static void
mark_replayed(const char *text)
{
	cJSON *j;
	const char *id;
	struct inter *it;

	if (strstr(text, "\"INTERACTION_CREATE\"") == NULL)
		return;
	j = cJSON_Parse(text);
	id = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "d"), "id"));
	if (id != NULL && (it = gw_fake_interaction(strtoull(id, NULL, 10))) != NULL) {
		it->replayed = true;
		F.st.replayed++;
	}
	cJSON_Delete(j);
}

static void
resume(struct conn *c, const cJSON *d)
{
	const char *token = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "token"));
	const char *sid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "session_id"));
	const cJSON *seq = cJSON_GetObjectItemCaseSensitive(d, "seq");
	struct session *s = NULL;

	F.st.resumes++;
	if (cJSON_IsNumber(seq))
		c->resume_seq = (int64_t)seq->valuedouble;
	if (F.hold)
		return;
	if (token == NULL || strcmp(token, F.token) != 0 || F.token_reset) {
		gw_fake_close(c, 4004, "authentication failed");
		return;
	}
	if (sid != NULL)
		HASH_FIND_STR(F.sessions, sid, s);
	if (s != NULL && s->conn == NULL && s->left_at != 0 &&
	    fake_now() - s->left_at > F.resume_window) {
		/* Discord keeps a session for a while after its connection
		 * ends; past that it cannot be resumed. */
		fprintf(stderr, "fake: session %s expired %" PRId64 " ms after its connection\n",
		        s->id, fake_now() - s->left_at);
		s->invalid = true;
	}
	if (s == NULL || s->invalid || !cJSON_IsNumber(seq)) {
		gw_fake_send(c, "{\"t\":null,\"s\":null,\"op\":9,\"d\":false}");
		return;
	}
	if ((int64_t)seq->valuedouble > s->seq)
		fake_violation("RESUME with sequence %" PRId64 ", past the last sent (%" PRId64 ")",
		               (int64_t)seq->valuedouble, s->seq);
	if (s->conn != NULL && s->conn != c) {
		s->conn->s = NULL;
		gw_fake_close(s->conn, 4000, "session resumed elsewhere");
	}
	s->conn = c;
	c->s = s;
	c->authed = true;
	F.current = s;
	if (s->nlog > 0 && s->log[s->logstart].seq > (int64_t)seq->valuedouble + 1)
		fake_violation("RESUME at sequence %" PRId64 ": events from %" PRId64
		               " on are lost (the replay log starts at %" PRId64 ")",
		               (int64_t)seq->valuedouble, (int64_t)seq->valuedouble + 1,
		               s->log[s->logstart].seq);
	for (size_t k = 0; k < s->nlog; k++) {
		size_t i = (s->logstart + k) % FAKE_REPLAY_MAX;

		if (s->log[i].seq > (int64_t)seq->valuedouble && s->log[i].text != NULL) {
			mark_replayed(s->log[i].text);
			gw_fake_send(c, s->log[i].text);
		}
	}
	F.st.resumed++;
	/* Resumed answers this Resume: Discord replays the missed events,
	 * then sends it (gateway#resuming). It belongs to this connection, as
	 * Ready does, so a later Resume from an earlier sequence never gets it
	 * replayed among the events (that would end the replay early, and
	 * what follows would pass for new events). */
	gw_fake_emit(s, "RESUMED", "{\"_trace\":[\"[\\\"fake-gateway\\\",{\\\"micros\\\":0}]\"]}",
	             true);
}

static void
heartbeat(struct conn *c, const cJSON *d)
{
	int64_t now = fake_now();

	F.st.heartbeats++;
	if (c->last_hb != 0) {
		int64_t gap = now - c->last_hb;

		if (gap > F.st.max_hb_gap)
			F.st.max_hb_gap = gap;
		if (F.st.min_hb_gap == 0 || gap < F.st.min_hb_gap)
			F.st.min_hb_gap = gap;
		if (gap > F.heartbeat_ms * 3 / 2)
			fake_violation("heartbeats %" PRId64 " ms apart (interval %d ms)", gap,
			               F.heartbeat_ms);
	}
	c->last_hb = now;
	c->heartbeats++;
	/* d is the last sequence the client received (gateway#sending-heartbeats):
	 * with a session attached, one it was sent; before that (a RESUME not
	 * yet answered, or refused by op 9 that has not reached the client),
	 * at most the one its RESUME named. */
	if (!cJSON_IsNull(d) &&
	    !(cJSON_IsNumber(d) &&
	      (c->s != NULL ? d->valuedouble <= c->s->seq
	                    : c->resume_seq >= 0 && d->valuedouble <= c->resume_seq)))
		fake_violation("a heartbeat carries %s instead of the last sequence",
		               cJSON_IsNumber(d) ? "a sequence never sent" : "a non-number");
	if (!c->noack)
		gw_fake_send(c, "{\"t\":null,\"s\":null,\"op\":11,\"d\":null}");
}

static void
payload(struct conn *c, const char *text, size_t len)
{
	cJSON *j = cJSON_ParseWithLength(text, len);
	const cJSON *op = cJSON_GetObjectItemCaseSensitive(j, "op");
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "d");
	int64_t now = fake_now();
	size_t recent = 0;

	fake_record("gw-in", "payload", text);
	c->sends[c->sends_next] = now;
	c->sends_next = (c->sends_next + 1) % FAKE_SEND_BUDGET;
	for (size_t i = 0; i < FAKE_SEND_BUDGET; i++)
		recent += c->sends[i] != 0 && c->sends[i] > now - 60000;
	if (recent >= FAKE_SEND_BUDGET && c->sends[c->sends_next] > now - 60000) {
		fake_violation("more than 120 payloads in 60 s");
		gw_fake_close(c, 4008, "rate limited");
	} else if (!cJSON_IsObject(j) || !cJSON_IsNumber(op)) {
		fake_violation("the client sent a payload that is not a gateway message");
		gw_fake_close(c, 4002, "decode error");
	} else if (op->valueint == DISCORD_OP_HEARTBEAT) {
		heartbeat(c, d);
	} else if (op->valueint == DISCORD_OP_IDENTIFY) {
		identify(c, d);
	} else if (op->valueint == DISCORD_OP_RESUME) {
		resume(c, d);
	} else if (op->valueint != DISCORD_OP_PRESENCE_UPDATE &&
	           op->valueint != DISCORD_OP_VOICE_STATE_UPDATE &&
	           op->valueint != DISCORD_OP_REQUEST_GUILD_MEMBERS) {
		gw_fake_close(c, 4001, "unknown opcode");
	} else if (!c->authed) {
		gw_fake_close(c, 4003, "not authenticated");
	}
	cJSON_Delete(j);
}

void
gw_fake_receive(struct conn *c, const char *in, size_t len, bool binary, bool final)
{
	if (binary && !c->rx_binary) {
		c->rx_binary = true;
		fake_violation("the client sent a binary message; the gateway takes JSON text, "
		               "compressed or not");
	}
	if (!c->rx_toobig && buf_add(&c->rx, in, len) < 0)
		c->rx_toobig = true;
	if (!final)
		return;
	if (c->rx_toobig) {
		fake_violation("the client sent a payload over 4096 bytes");
		gw_fake_close(c, 4002, "payload too large");
	} else {
		payload(c, buf_str(&c->rx), c->rx.len);
	}
	c->rx_toobig = false;
	buf_reset(&c->rx);
}

int
gw_fake_writeable(struct conn *c)
{
	struct frame *f = c->out;

	if (c->drop)
		return -1; /* no close frame: the TCP connection just ends */
	if (c->close_code != 0) {
		unsigned char cf[LWS_PRE + 2];

		cf[LWS_PRE] = (unsigned char)(c->close_code >> 8);
		cf[LWS_PRE + 1] = (unsigned char)(c->close_code & 0xff);
		lws_write(c->wsi, cf + LWS_PRE, 2, WRITE_CLOSE);
		return -1;
	}
	if (f == NULL)
		return 0;
	if (F.fragment > 0 && f->len > (size_t)F.fragment) {
		size_t n = f->len - c->frag_off;
		int flags;
		unsigned char *b;

		if (n > (size_t)F.fragment)
			n = (size_t)F.fragment;
		flags = c->frag_off > 0 ? LWS_WRITE_CONTINUATION
		        : f->binary     ? LWS_WRITE_BINARY
		                        : LWS_WRITE_TEXT;
		if (c->frag_off + n < f->len)
			flags |= LWS_WRITE_NO_FIN;
		b = xmalloc(LWS_PRE + n);
		memcpy(b + LWS_PRE, f->text + c->frag_off, n);
		lws_write(c->wsi, b + LWS_PRE, n, (enum lws_write_protocol)flags);
		free(b);
		c->frag_off += n;
		if (c->frag_off < f->len) {
			lws_callback_on_writable(c->wsi);
			return 0;
		}
		c->frag_off = 0;
	} else {
		unsigned char *b = xmalloc(LWS_PRE + f->len);

		memcpy(b + LWS_PRE, f->text, f->len);
		if (lws_write(c->wsi, b + LWS_PRE, f->len,
		              f->binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT) < (int)f->len) {
			free(b);
			return -1;
		}
		free(b);
	}
	c->out = f->next;
	if (c->out == NULL)
		c->out_tail = NULL;
	free(f->text);
	free(f);
	if (c->out != NULL)
		lws_callback_on_writable(c->wsi);
	return 0;
}

void
gw_fake_closed(struct conn *c, int peer_code)
{
	struct frame *f;

	F.st.client_closes += peer_code >= 0;
	F.st.last_close = peer_code;
	fprintf(stderr, "fake: connection %d closed (client code %d)\n", c->n, peer_code);
	if (c->s != NULL) {
		if (peer_code == 1000 || peer_code == 1001)
			c->s->invalid = true; /* the client ended its session */
		if (c->s->conn == c) {
			c->s->conn = NULL;
			c->s->left_at = fake_now();
		}
	}
	for (int i = 0; i < F.nconns; i++) {
		if (F.conns[i] == c) {
			F.conns[i] = F.conns[--F.nconns];
			break;
		}
	}
	while ((f = c->out) != NULL) {
		c->out = f->next;
		free(f->text);
		free(f);
	}
	c->out_tail = NULL;
	buf_free(&c->rx);
	zs_end(c);
}

static void
random_token(char *out, size_t n)
{
	static const char set[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

	memcpy(out, "aW50ZXJhY3Rpb246", 16);
	for (size_t i = 16; i + 1 < n; i++)
		out[i] = set[random() % 64];
	out[n - 1] = '\0';
}

/* A snowflake as Discord makes them: Discord's wall clock (the fake's,
 * fake_wall_ms) in ms since 2015-01-01 in the top 42 bits, so its age can
 * be read from it; ids still grow by at least one. */
static uint64_t
snowflake_now(void)
{
	uint64_t ms = (uint64_t)fake_wall_ms() - 1420070400000ull, id;

	id = ms << 22;
	if (id < F.next_id)
		id = F.next_id;
	F.next_id = id + 1;
	return id;
}

/* A snowflake made age_ms ago, as an event Discord delivers late carries:
 * its low 22 bits count, so it is unique among the aged ones, and it is
 * older than every fresh id. */
static uint64_t
snowflake_aged(int age_ms)
{
	static uint64_t n;
	uint64_t fresh = snowflake_now();

	return (((fresh >> 22) - (uint64_t)age_ms) << 22) | (n++ & 0x3fffffu);
}

uint64_t
gw_fake_snowflake(int age_ms)
{
	return age_ms > 0 ? snowflake_aged(age_ms) : snowflake_now();
}

/* A component's press (the template's "press": a button label) by user:
 * the newest message of the channel with that button that user sees, as
 * Discord carries it (data.custom_id, message). Returns the message's id,
 * 0 when none has it. */
static uint64_t
press(const cJSON *t, const struct where *w, uint64_t user, char **data, char **msg)
{
	const char *label = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "press"));
	const char *cid = NULL;
	uint64_t id = label != NULL ? msgs_fake_find_button(w->chan, user, label, &cid) : 0;
	cJSON *d, *m;

	if (id == 0)
		return 0;
	d = cJSON_CreateObject();
	cJSON_AddStringToObject(d, "custom_id", cid);
	cJSON_AddNumberToObject(d, "component_type", DISCORD_COMPONENT_BUTTON);
	*data = json_print(d);
	cJSON_Delete(d);
	m = msgs_fake_json(id);
	*msg = json_print(m);
	cJSON_Delete(m);
	return id;
}

/*
 * The fields of a modal filled in (the MODAL callback's data), as Discord
 * carries a MODAL_SUBMIT (type 5): data.custom_id is the modal's; each of
 * its components comes back with its type and the text input's custom_id
 * and value (a Label's as {"type":18,"component":{...}}, an action row's as
 * {"type":1,"components":[{...}]}). values maps a text input's custom_id to
 * what the user typed; an input left out is submitted empty. A value past
 * the input's max_length cannot be typed in Discord's client: it is the
 * test's mistake, a violation.
 */
static char *
submitted(const cJSON *modal, const cJSON *values)
{
	const cJSON *c;
	cJSON *d = cJSON_CreateObject(), *comps;
	char *out;

	cJSON_AddStringToObject(
	    d, "custom_id",
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(modal, "custom_id")));
	comps = cJSON_AddArrayToObject(d, "components");
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(modal, "components"))
	{
		int t = cJSON_GetObjectItemCaseSensitive(c, "type")->valueint;
		const cJSON *in = t == DISCORD_COMPONENT_LABEL
		                      ? cJSON_GetObjectItemCaseSensitive(c, "component")
		                      : cJSON_GetObjectItemCaseSensitive(c, "components")->child;
		const char *id =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(in, "custom_id"));
		const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(values, id));
		const cJSON *max = cJSON_GetObjectItemCaseSensitive(in, "max_length");
		cJSON *field = cJSON_CreateObject(), *o = cJSON_CreateObject();

		if (v == NULL)
			v = "";
		if ((cJSON_IsNumber(max) && utf16_len(v) > (size_t)max->valueint) ||
		    utf16_len(v) > DISCORD_TEXT_INPUT_MAX)
			fake_violation("fake: a submitted value for '%s' is longer than the modal "
			               "lets anyone type",
			               id);
		cJSON_AddNumberToObject(field, "type", DISCORD_COMPONENT_TEXT_INPUT);
		cJSON_AddStringToObject(field, "custom_id", id);
		cJSON_AddStringToObject(field, "value", v);
		cJSON_AddNumberToObject(o, "type", t);
		if (t == DISCORD_COMPONENT_LABEL) {
			cJSON_AddItemToObject(o, "component", field);
		} else {
			cJSON *inner = cJSON_AddArrayToObject(o, "components");

			cJSON_AddItemToArray(inner, field);
		}
		cJSON_AddItemToArray(comps, o);
	}
	out = json_print(d);
	cJSON_Delete(d);
	return out;
}

/* A modal submit (the template's "submit": {custom_id: value}): the newest
 * modal the bot opened for that user in that channel and that was not
 * submitted yet. Returns its data, or NULL when none is open. */
static char *
submit(const cJSON *t, uint64_t chan, uint64_t user)
{
	struct inter *open = NULL;

	for (size_t i = norder; i > 0; i--) {
		struct inter *it;
		uint64_t id = order[i - 1];

		HASH_FIND(hh, F.inters, &id, sizeof(id), it);
		if (it != NULL && it->modal != NULL && it->chan == chan && it->user == user) {
			open = it;
			break;
		}
	}
	if (open == NULL)
		return NULL;
	{
		char *out = submitted(open->modal, cJSON_GetObjectItemCaseSensitive(t, "submit"));

		cJSON_Delete(open->modal); /* a modal is submitted once */
		open->modal = NULL;
		return out;
	}
}

/* Builds and dispatches one interaction from template t of stream st. */
static void
inject_one(const struct stream *st, const cJSON *t, uint64_t k)
{
	struct inter *it;
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(t, "data");
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(t, "type");
	const char *perms =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "permissions"));
	bool gm_role = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "gm_role"));
	int itype = cJSON_IsNumber(type) ? type->valueint : DISCORD_INTERACTION_COMMAND;
	uint64_t user = 1400000000000000000ull + k % (uint64_t)(st->users > 0 ? st->users : 1);
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(t, "user");
	char *dtext = NULL, *mtext = NULL, err[160];
	uint64_t on = 0;
	struct where w;
	struct buf b, who;

	if (payload_fake_where(t, st->channels, st->guilds, k, &w, err, sizeof(err)) < 0) {
		fake_violation("fake: %s", err); /* interact() checked it: cannot happen */
		return;
	}
	if (!payload_fake_offered(t, itype, &w)) {
		F.st.not_offered++;
		return;
	}
	if (cJSON_IsNumber(u))
		user = 1400000000000000000ull + (uint64_t)u->valuedouble;
	if (cJSON_GetObjectItemCaseSensitive(t, "press") != NULL &&
	    (on = press(t, &w, user, &dtext, &mtext)) == 0) {
		F.st.press_missing++;
		return;
	}
	if (itype == DISCORD_INTERACTION_MODAL_SUBMIT) {
		if ((dtext = submit(t, w.chan, user)) == NULL) {
			F.st.submit_missing++;
			return;
		}
		F.st.submits++;
	}
	if (dtext == NULL)
		dtext = json_print(data);
	it = xcalloc(1, sizeof(*it));
	it->id = st->age_ms > 0 ? snowflake_aged(st->age_ms) : snowflake_now();
	if (F.mark_id != 0 && it->id >= F.mark_id)
		F.st.mark_created++;
	random_token(it->token, 121);
	it->created = fake_now() - st->age_ms; /* its 3 s run from its creation */
	it->type = itype;
	it->tmpl = t;
	it->chan = w.chan;
	it->guild = w.guild;
	it->where = w.kind;
	it->msg = on;
	it->user = user;
	it->user_only = !w.guild_install;
	msgs_fake_channel(w.chan, w.kind == WHERE_GROUP_DM || w.kind == WHERE_USER_DM ||
	                                  w.kind == WHERE_FOREIGN
	                              ? FAKE_CHAN_USER_ONLY
	                              : FAKE_CHAN_BOT);
	if (w.parent != 0)
		msgs_fake_channel(w.parent, FAKE_CHAN_BOT);
	HASH_ADD(hh, F.inters, id, sizeof(it->id), it);
	HASH_ADD_KEYPTR(hh_token, F.by_token, it->token, strlen(it->token), it);
	rest_fake_counts(it, 1);
	if (norder == caporder) {
		caporder = caporder ? caporder * 2 : 4096;
		order = xrealloc(order, caporder * sizeof(*order));
	}
	order[norder++] = it->id;
	F.st.created++;
	buf_init(&who, 4096);
	buf_addf(&who,
	         "{\"id\":\"%" PRIu64 "\",\"username\":\"player%" PRIu64 "\",\"global_name\":"
	         "\"Player %" PRIu64 "\",\"discriminator\":\"0\",\"avatar\":null,"
	         "\"public_flags\":0}",
	         user, user % 1000, user % 1000);
	buf_init(&b, 1 << 20);
	buf_addf(&b,
	         "{\"version\":1,\"type\":%d,\"token\":\"%s\",\"id\":\"%" PRIu64
	         "\",\"entitlements\":[],\"attachment_size_limit\":10485760,\"data\":%s,"
	         "\"channel_id\":\"%" PRIu64 "\",\"application_id\":\"%s\",",
	         it->type, it->token, it->id, dtext, w.chan, F.app_id);
	if (mtext != NULL)
		buf_addf(&b, "\"message\":%s,", mtext);
	payload_fake_write(&b, &w, buf_str(&who), user, perms, gm_role);
	/* recorded as made, whether or not a session takes it: a test that
	 * plays the bot with curl reads its id and token there */
	fake_record("made", "INTERACTION_CREATE", buf_str(&b));
	it->sessions = gw_fake_route(w.guild, "INTERACTION_CREATE", buf_str(&b));
	if (it->sessions > 0)
		F.st.delivered++;
	else
		F.st.undelivered++;
	if (it->sessions > 1)
		F.st.fanout++;
	buf_free(&b);
	buf_free(&who);
	free(dtext);
	free(mtext);
}

char *
gw_fake_sessions(void)
{
	cJSON *arr = cJSON_CreateArray(), *o, *sh;
	struct session *s, *tmp;
	char *out;

	HASH_ITER(hh, F.sessions, s, tmp)
	{
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", s->id);
		sh = cJSON_AddArrayToObject(o, "shard");
		cJSON_AddItemToArray(sh, cJSON_CreateNumber(s->shard_id));
		cJSON_AddItemToArray(sh, cJSON_CreateNumber(s->shard_count));
		cJSON_AddBoolToObject(o, "live", gw_fake_live(s) != NULL);
		cJSON_AddBoolToObject(o, "ended", s->invalid);
		cJSON_AddNumberToObject(o, "interactions", (double)s->inters);
		cJSON_AddNumberToObject(o, "seq", (double)s->seq);
		cJSON_AddItemToArray(arr, o);
	}
	out = json_print(arr);
	cJSON_Delete(arr);
	return out;
}

void
gw_fake_answered(struct inter *it, const char *content)
{
	const char *expect =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it->tmpl, "expect"));

	it->ok = expect != NULL && content != NULL && strstr(content, expect) != NULL;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it->tmpl, "keep")) && it->kept == NULL)
		it->kept = xstrdup(content != NULL ? content : "");
}

char *
gw_fake_channels(void)
{
	cJSON *all = cJSON_CreateObject(), *o, *newest = cJSON_CreateObject();
	struct inter *it, *tmp;
	char key[24];
	char *out;

	HASH_ITER(hh, F.inters, it, tmp)
	{
		snprintf(key, sizeof(key), "%" PRIu64, it->chan);
		o = cJSON_GetObjectItemCaseSensitive(all, key);
		if (o == NULL) {
			o = cJSON_AddObjectToObject(all, key);
			cJSON_AddNumberToObject(o, "guild", it->guild);
			cJSON_AddNumberToObject(o, "created", 0);
			cJSON_AddNumberToObject(o, "answered", 0);
			cJSON_AddNumberToObject(o, "late", 0);
			cJSON_AddNumberToObject(o, "ok", 0);
			cJSON_AddNumberToObject(o, "deferred", 0);
		}
		if (it->deferred != 0)
			cJSON_SetNumberValue(
			    cJSON_GetObjectItemCaseSensitive(o, "deferred"),
			    cJSON_GetObjectItemCaseSensitive(o, "deferred")->valuedouble + 1);
		if (it->ok)
			cJSON_SetNumberValue(
			    cJSON_GetObjectItemCaseSensitive(o, "ok"),
			    cJSON_GetObjectItemCaseSensitive(o, "ok")->valuedouble + 1);
		if (it->kept != NULL) {
			const char *n =
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(newest, key));
			char idtext[24];

			if (n == NULL || strtoull(n, NULL, 10) < it->id) {
				snprintf(idtext, sizeof(idtext), "%" PRIu64, it->id);
				cJSON_DeleteItemFromObjectCaseSensitive(newest, key);
				cJSON_AddStringToObject(newest, key, idtext);
				cJSON_DeleteItemFromObjectCaseSensitive(o, "kept");
				cJSON_AddStringToObject(o, "kept", it->kept);
			}
		}
		cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "created"),
		                     cJSON_GetObjectItemCaseSensitive(o, "created")->valuedouble +
		                         1);
		if (it->answers > 0) {
			const char *k =
			    it->answered_at - it->created <= FAKE_ANSWER_MS ? "answered" : "late";

			cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k),
			                     cJSON_GetObjectItemCaseSensitive(o, k)->valuedouble +
			                         1);
		}
	}
	out = json_print(all);
	cJSON_Delete(all);
	cJSON_Delete(newest);
	return out;
}

void
gw_fake_inject(int64_t now_us)
{
	for (int i = 0; i < STREAMS_MAX; i++) {
		struct stream *st = &F.streams[i];
		int n = cJSON_GetArraySize(st->tmpls);

		while (st->left > 0 && n > 0 && now_us >= st->next) {
			uint64_t k = F.st.created;

			inject_one(st, cJSON_GetArrayItem(st->tmpls, (int)(k % (uint64_t)n)), k);
			st->left--;
			if (st->rate > 0)
				st->next += 1000000 / st->rate;
		}
	}
}

int
gw_fake_left(void)
{
	int left = 0;

	for (int i = 0; i < STREAMS_MAX; i++)
		left += F.streams[i].left;
	return left;
}

struct inter *
gw_fake_interaction(uint64_t id)
{
	struct inter *it;

	HASH_FIND(hh, F.inters, &id, sizeof(id), it);
	return it;
}

void
gw_fake_tick(int64_t now)
{
	while (ohead < norder) {
		struct inter *it = gw_fake_interaction(order[ohead]);

		if (it != NULL && it->answers == 0 && now - it->created <= FAKE_ANSWER_MS)
			break;
		if (it != NULL && it->answers == 0 && F.mark_id != 0 && it->id >= F.mark_id)
			F.st.mark_unanswered++;
		if (it != NULL && it->answers == 0 && !F.lenient && !it->spoiled) {
			F.st.late++;
			fake_violation("interaction %" PRIu64 " was not answered within 3 s",
			               it->id);
		}
		ohead++;
	}
	for (int i = 0; i < F.nconns; i++) {
		struct conn *c = F.conns[i];

		if (c->op7_at != 0 && now - c->op7_at > 5000) {
			fake_violation("the client did not reconnect within 5 s of op 7");
			c->op7_at = 0;
		}
	}
}

void
gw_fake_free(void)
{
	struct session *s, *st;
	struct inter *it, *tmp;

	HASH_ITER(hh, F.sessions, s, st)
	{
		HASH_DEL(F.sessions, s);
		for (size_t k = 0; k < s->nlog; k++)
			free(s->log[(s->logstart + k) % FAKE_REPLAY_MAX].text);
		free(s->log);
		free(s);
	}
	HASH_ITER(hh, F.inters, it, tmp)
	{
		HASH_DEL(F.inters, it);
		HASH_DELETE(hh_token, F.by_token, it);
		free(it->kept);
		cJSON_Delete(it->modal);
		free(it);
	}
	free(order);
}
