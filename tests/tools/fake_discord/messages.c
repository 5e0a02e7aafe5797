/*
 * fake_discord/messages: the messages the bot made, and the channel
 * message routes.
 *
 * Every message the bot posts is kept: an interaction's answer (its
 * callback of type 4, or the message a deferral became), its follow-ups,
 * and messages posted with the bot token to a channel. A component
 * interaction is pressed on one of them (a template's "press": the newest
 * message of its channel with a button of that label that the presser
 * sees: an ephemeral message is seen by the user of the interaction it
 * answers alone, and Discord delivers no other user's press on it), and
 * carries it, as
 * Discord does, in its "message" field; a callback of type 7
 * (UPDATE_MESSAGE), or an edit of @original after a type 6, changes that
 * message in place.
 *
 * The channel message routes, as Discord answers them
 * (docs/resources/message): POST /channels/C/messages makes a message
 * (200, the message); PATCH /channels/C/messages/M edits one of the bot's
 * (200); DELETE /channels/C/messages/M removes it (204); GET
 * /channels/C/messages/M reads it, which in a guild channel needs the Read
 * Message History permission as well as View Channel (Get Channel Message:
 * "If operating on a guild channel, this endpoint requires the
 * VIEW_CHANNEL and READ_MESSAGE_HISTORY permissions"; without it Discord
 * answers 403, code 50001: the "nohistory" control), while editing or
 * deleting the bot's own message needs neither. A channel the bot is in (a guild channel,
 * thread or forum post an interaction came from where the bot is
 * installed, or a DM channel it opened) takes them; a channel it only
 * reaches through a user install (a group DM, a DM between users, a
 * server without the bot) answers 403 with code 50001 (Missing Access);
 * any other channel is a violation and 404 code 10003; a message that is
 * not there (never made, or deleted: see the "msgdelete" control) 404
 * code 10008. Posting a message in a guild channel needs Send Messages
 * (Send Messages in Threads in a thread): "If operating on a guild
 * channel, this endpoint requires the SEND_MESSAGES permission to be
 * present on the current user" (Create Message); without it Discord
 * answers 403, code 50013 (Missing Permissions): the "nosend" control,
 * which also takes those bits out of the app_permissions that the
 * channel's interactions carry ("Bitwise set of permissions the app has
 * within the channel the interaction was sent from", Interaction Object).
 * Without View Channel (the "noview" control; a slash command still reaches
 * the bot there, as interactions do not need it) every channel route
 * answers 403, code 50001 (Missing Access), and app_permissions lacks it. Messages older than an
 * hour take fewer edits: "Messages older than 1 hour may only be edited 3 times per 6-second window
 * per channel" (Edit Message, as discord-userdoccers documents it); a 4th is refused with 429, code
 * 30046 ("Maximum number of edits to messages older than 1 hour reached", in Discord's list of JSON
 * error codes), which no rate-limit header announces. A message's age is read from its id, a
 * snowflake of the fake's wall clock; the "msgage" control dates the next
 * ones back, so a test need not wait an hour. Their rate limits are per channel (limits.c). A body
 * is checked as every message of the bot's is (check.c: Discord's limits, and an empty
 * allowed_mentions, so that nothing the bot writes pings), an edit's too; a channel message cannot
 * be ephemeral.
 *
 * At most MSGS_KEPT messages are kept; older ones are forgotten.
 */
#include "tests/tools/fake_discord/fake.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/json.h"
#include "rules/base/mem.h"

#define MSGS_KEPT  20000
#define CHANS_KEPT 4096
#define OLD_MS     (60 * 60 * 1000) /* a message older than this is "old" */
#define OLD_EDITS  3                /* edits of old messages a channel takes */
#define OLD_PER_MS 6000             /* in any window of this long */
#define EPOCH_MS   1420070400000ll  /* Discord's, in snowflakes */

struct fmsg {
	uint64_t id, chan;
	uint64_t inter; /* the interaction it answers (0: a channel message) */
	uint64_t user;  /* who made that interaction: an ephemeral message's one reader */
	bool ephemeral;
	char *content;     /* owned */
	cJSON *components; /* owned copy, or NULL */
	int edits;
	bool deleted;
	UT_hash_handle hh;
};

struct fchan {
	uint64_t id;
	int kind;       /* FAKE_CHAN_* */
	bool nohistory; /* the bot lacks Read Message History there */
	bool nosend;    /* the bot lacks Send Messages there */
	bool noview;    /* the bot lacks View Channel there */
	/* when the last OLD_EDITS edits of old messages went (fake_now), a
	 * ring */
	int64_t old_edits[OLD_EDITS];
	int old_next;
	UT_hash_handle hh;
};

static struct fmsg *msgs;
static uint64_t ring[MSGS_KEPT]; /* ids in creation order, for eviction */
static size_t ring_next, nmsgs;
static int msg_age_ms; /* "msgage": new messages are dated this long ago */
static struct fchan *chans;
static size_t nchans;

void
msgs_fake_channel(uint64_t id, int kind)
{
	struct fchan *c;

	HASH_FIND(hh, chans, &id, sizeof(id), c);
	if (c != NULL) {
		c->kind = kind;
		return;
	}
	if (nchans >= CHANS_KEPT)
		return;
	c = xcalloc(1, sizeof(*c));
	c->id = id;
	c->kind = kind;
	HASH_ADD(hh, chans, id, sizeof(c->id), c);
	nchans++;
}

static int
channel_kind(uint64_t id)
{
	struct fchan *c;

	HASH_FIND(hh, chans, &id, sizeof(id), c);
	return c != NULL ? c->kind : FAKE_CHAN_UNKNOWN;
}

static struct fchan *
chan_find(uint64_t id)
{
	struct fchan *c;

	HASH_FIND(hh, chans, &id, sizeof(id), c);
	return c;
}

static struct fmsg *
find(uint64_t id)
{
	struct fmsg *m;

	HASH_FIND(hh, msgs, &id, sizeof(id), m);
	return m;
}

static void
msg_free(struct fmsg *m)
{
	HASH_DEL(msgs, m);
	free(m->content);
	cJSON_Delete(m->components);
	free(m);
}

static void
set_body(struct fmsg *m, const cJSON *body)
{
	const char *content =
	    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(body, "content"));
	const cJSON *comps = cJSON_GetObjectItemCaseSensitive(body, "components");

	/* An edit changes the fields it names and keeps the others. */
	if (content != NULL || m->content == NULL) {
		free(m->content);
		m->content = xstrdup(content != NULL ? content : "");
	}
	if (comps != NULL) {
		cJSON_Delete(m->components);
		m->components = cJSON_IsArray(comps) ? cJSON_Duplicate(comps, 1) : NULL;
	}
}

uint64_t
msgs_fake_post(uint64_t chan, uint64_t inter, uint64_t user, const cJSON *body, bool ephemeral)
{
	struct fmsg *m = xcalloc(1, sizeof(*m)), *old;

	m->id = gw_fake_snowflake(msg_age_ms);
	m->chan = chan;
	m->inter = inter;
	m->user = user;
	m->ephemeral = ephemeral;
	set_body(m, body);
	if (nmsgs == MSGS_KEPT && (old = find(ring[ring_next])) != NULL)
		msg_free(old);
	else if (nmsgs < MSGS_KEPT)
		nmsgs++;
	ring[ring_next] = m->id;
	ring_next = (ring_next + 1) % MSGS_KEPT;
	HASH_ADD(hh, msgs, id, sizeof(m->id), m);
	F.st.messages++;
	return m->id;
}

int
msgs_fake_edit(uint64_t id, const cJSON *body)
{
	struct fmsg *m = find(id);

	if (m == NULL || m->deleted)
		return -1;
	set_body(m, body);
	m->edits++;
	return 0;
}

uint64_t
msgs_fake_inter(uint64_t id)
{
	struct fmsg *m = find(id);

	return m != NULL && !m->deleted ? m->inter : 0;
}

bool
msgs_fake_ephemeral(uint64_t id)
{
	struct fmsg *m = find(id);

	return m != NULL && m->ephemeral;
}

const char *
msgs_fake_content(uint64_t id)
{
	struct fmsg *m = find(id);

	return m != NULL && !m->deleted ? m->content : NULL;
}

/* The custom_id of the button labelled label on m, or NULL. */
static const char *
button_of(const struct fmsg *m, const char *label)
{
	const cJSON *row, *c;

	cJSON_ArrayForEach(row, m->components)
	{
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(row, "components"))
		{
			const char *l =
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "label"));

			if (l != NULL && strcmp(l, label) == 0)
				return cJSON_GetStringValue(
				    cJSON_GetObjectItemCaseSensitive(c, "custom_id"));
		}
	}
	return NULL;
}

uint64_t
msgs_fake_find_button(uint64_t chan, uint64_t user, const char *label, const char **custom_id)
{
	struct fmsg *best = NULL, *m, *tmp;

	HASH_ITER(hh, msgs, m, tmp)
	{
		if (m->chan != chan || m->deleted || button_of(m, label) == NULL ||
		    (m->ephemeral && m->user != user))
			continue;
		if (best == NULL || m->id > best->id)
			best = m;
	}
	if (best == NULL)
		return 0;
	*custom_id = button_of(best, label);
	return best->id;
}

cJSON *
msgs_fake_json(uint64_t id)
{
	struct fmsg *m = find(id);
	cJSON *o, *author;
	char idtext[24];

	if (m == NULL)
		return NULL;
	o = cJSON_CreateObject();
	snprintf(idtext, sizeof(idtext), "%" PRIu64, m->id);
	cJSON_AddStringToObject(o, "id", idtext);
	cJSON_AddNumberToObject(o, "type", m->inter != 0 ? 20 : 0);
	snprintf(idtext, sizeof(idtext), "%" PRIu64, m->chan);
	cJSON_AddStringToObject(o, "channel_id", idtext);
	cJSON_AddStringToObject(o, "content", m->content != NULL ? m->content : "");
	author = cJSON_AddObjectToObject(o, "author");
	cJSON_AddStringToObject(author, "id", F.bot_id);
	cJSON_AddStringToObject(author, "username", "delver");
	cJSON_AddTrueToObject(author, "bot");
	cJSON_AddNumberToObject(o, "flags", m->ephemeral ? 64 : 0);
	cJSON_AddItemToObject(o, "components",
	                      m->components != NULL ? cJSON_Duplicate(m->components, 1)
	                                            : cJSON_CreateArray());
	if (m->edits > 0)
		cJSON_AddStringToObject(o, "edited_timestamp", "2024-01-01T00:00:00.000000+00:00");
	else
		cJSON_AddNullToObject(o, "edited_timestamp");
	return o;
}

char *
msgs_fake_list(uint64_t chan)
{
	cJSON *arr = cJSON_CreateArray();
	struct fmsg *m, *tmp;
	char *out;

	HASH_ITER(hh, msgs, m, tmp)
	{
		cJSON *o;

		if (m->chan != chan || m->deleted)
			continue;
		o = msgs_fake_json(m->id);
		cJSON_AddNumberToObject(o, "edits", m->edits);
		if (m->inter != 0) {
			char idtext[24];

			snprintf(idtext, sizeof(idtext), "%" PRIu64, m->inter);
			cJSON_AddStringToObject(o, "interaction", idtext);
		}
		cJSON_AddItemToArray(arr, o);
	}
	out = json_print(arr);
	cJSON_Delete(arr);
	return out;
}

int
msgs_fake_delete_control(const char *args, char *err, size_t errlen)
{
	const char *p = args + strlen("msgdelete");
	char *end;
	uint64_t id = strtoull(p, &end, 10);
	struct fmsg *m = find(id);

	if (end == p || m == NULL || m->deleted) {
		snprintf(err, errlen, "msgdelete: no message %.24s", p + strspn(p, " "));
		return -1;
	}
	m->deleted = true;
	return 0;
}

int
msgs_fake_noaccess_control(const char *args, char *err, size_t errlen)
{
	const char *p = args + strlen("noaccess");
	char *end;
	uint64_t id = strtoull(p, &end, 10);

	if (end == p) {
		snprintf(err, errlen, "noaccess needs a channel id or number");
		return -1;
	}
	if (id < 1300000000000000000ull)
		id += 1300000000000000000ull;
	/* As a channel the bot may no longer view (its View Channel taken
	 * away, a private thread it is not in): Discord answers 403, code
	 * 50001, Missing Access, to what the bot sends there. */
	msgs_fake_channel(id, FAKE_CHAN_USER_ONLY);
	return 0;
}

int
msgs_fake_msgage_control(const char *args, char *err, size_t errlen)
{
	const char *p = args + strlen("msgage");
	char *end;
	long ms = strtol(p, &end, 10);

	if (end == p || ms < 0 || ms > 30L * 24 * 3600 * 1000) {
		snprintf(err, errlen, "msgage needs 0 to 30 days in ms");
		return -1;
	}
	msg_age_ms = (int)ms;
	return 0;
}

/* Whether an edit of message m is refused as one too many of a channel's
 * old messages (a is then answered); else it is counted. */
static bool
old_edit_refused(const struct fmsg *m, struct http_answer *a)
{
	struct fchan *c = chan_find(m->chan);
	int64_t oldest, now = fake_now();
	char body[256];

	if (c == NULL || fake_wall_ms() - ((int64_t)(m->id >> 22) + EPOCH_MS) <= OLD_MS)
		return false;
	oldest = c->old_edits[c->old_next];
	if (oldest != 0 && now - oldest < OLD_PER_MS) {
		int64_t wait = OLD_PER_MS - (now - oldest);

		F.st.r429++;
		F.st.old_edits_refused++;
		snprintf(body, sizeof(body),
		         "{\"message\":\"Maximum number of edits to messages older than 1 hour "
		         "reached. Try again later.\",\"code\":30046,\"retry_after\":%.3f,"
		         "\"global\":false}",
		         (double)wait / 1000.0);
		fake_answer(a, 429, body);
		fake_header(a, "Retry-After", "%d", (int)((wait + 999) / 1000));
		return true;
	}
	c->old_edits[c->old_next] = now;
	c->old_next = (c->old_next + 1) % OLD_EDITS;
	return false;
}

int
msgs_fake_nohistory_control(const char *args, char *err, size_t errlen)
{
	const char *p = args + strlen("nohistory");
	char *end;
	uint64_t id = strtoull(p, &end, 10);
	struct fchan *c;

	if (end == p) {
		snprintf(err, errlen, "nohistory needs a channel id or number");
		return -1;
	}
	if (id < 1300000000000000000ull)
		id += 1300000000000000000ull;
	if ((c = chan_find(id)) == NULL) {
		snprintf(err, errlen, "nohistory: channel %" PRIu64 " is none the bot knows", id);
		return -1;
	}
	c->nohistory = true;
	return 0;
}

int
msgs_fake_nosend_control(const char *args, char *err, size_t errlen)
{
	bool view = strncmp(args, "noview", 6) == 0;
	const char *p = args + strlen("nosend");
	char *end;
	uint64_t id = strtoull(p, &end, 10);
	struct fchan *c;

	if (end == p) {
		snprintf(err, errlen, "nosend needs a channel id or number");
		return -1;
	}
	if (id < 1300000000000000000ull)
		id += 1300000000000000000ull;
	if (chan_find(id) == NULL)
		msgs_fake_channel(id, FAKE_CHAN_UNKNOWN);
	if ((c = chan_find(id)) == NULL) {
		snprintf(err, errlen, "nosend: too many channels");
		return -1;
	}
	if (view)
		c->noview = strstr(end, "off") == NULL;
	else
		c->nosend = strstr(end, "off") == NULL;
	return 0;
}

uint64_t
msgs_fake_app_permissions(uint64_t chan, uint64_t perms)
{
	struct fchan *c = chan_find(chan);

	if (c != NULL && c->nosend)
		perms &= ~((1ull << 11) | (1ull << 38)); /* SEND_MESSAGES(_IN_THREADS) */
	if (c != NULL && c->noview)
		perms &= ~(1ull << 10); /* VIEW_CHANNEL */
	return perms;
}

void
msgs_fake_free(void)
{
	struct fmsg *m, *tmp;
	struct fchan *c, *ct;

	HASH_ITER(hh, msgs, m, tmp)
	msg_free(m);
	HASH_ITER(hh, chans, c, ct)
	{
		HASH_DEL(chans, c);
		free(c);
	}
}

void
msgs_fake_answer(struct http_answer *a, uint64_t id)
{
	cJSON *o = msgs_fake_json(id);
	char *s = json_print(o);

	fake_answer(a, 200, s);
	free(s);
	cJSON_Delete(o);
}

/* Whether the bot may use channel chan; else a is answered. */
static bool
reachable(uint64_t chan, const char *route, struct http_answer *a)
{
	int kind = channel_kind(chan);

	if (kind == FAKE_CHAN_UNKNOWN) {
		fake_violation("%s: channel %" PRIu64 " is none the bot knows", route, chan);
		fake_answer(a, 404, "{\"message\":\"Unknown Channel\",\"code\":10003}");
		return false;
	}
	if (kind == FAKE_CHAN_USER_ONLY || (chan_find(chan) != NULL && chan_find(chan)->noview)) {
		/* Reached through a user install alone (the bot user is not
		 * there), or the bot may not view it. Not a violation: the bot
		 * cannot always tell before it asks. */
		F.st.missing_access++;
		fake_answer(a, 403, "{\"message\":\"Missing Access\",\"code\":50001}");
		return false;
	}
	return true;
}

void
msgs_fake_route(const char *method, const char *path, const char *route, const char *body,
                size_t len, struct http_answer *a)
{
	char *end;
	uint64_t chan = strtoull(path + strlen("/channels/"), &end, 10);
	const char *rest = end;
	uint64_t id = 0;
	struct fmsg *m = NULL;
	cJSON *j;

	if (!reachable(chan, route, a))
		return;
	if (strcmp(method, "GET") == 0)
		F.st.channel_gets++;
	if (strncmp(rest, "/messages/", 10) == 0) {
		id = strtoull(rest + 10, NULL, 10);
		m = find(id);
		if (m == NULL || m->deleted || m->chan != chan) {
			F.st.unknown_messages++;
			fake_answer(a, 404, "{\"message\":\"Unknown Message\",\"code\":10008}");
			return;
		}
	}
	if (strcmp(method, "GET") == 0 && m != NULL) {
		struct fchan *c = chan_find(chan);

		if (c != NULL && c->nohistory) {
			F.st.missing_access++;
			fake_answer(a, 403, "{\"message\":\"Missing Access\",\"code\":50001}");
			return;
		}
		msgs_fake_answer(a, id);
		return;
	}
	if (strcmp(method, "DELETE") == 0 && m != NULL) {
		m->deleted = true;
		F.st.channel_deletes++;
		fake_answer(a, 204, NULL);
		return;
	}
	j = cJSON_ParseWithLength(body, len);
	if (check_message(j, route) < 0) {
		fake_answer(a, 400, "{\"message\":\"Invalid Form Body\",\"code\":50035}");
		cJSON_Delete(j);
		return;
	}
	if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "flags")) &&
	    ((int)cJSON_GetObjectItemCaseSensitive(j, "flags")->valuedouble & 64))
		fake_violation("%s: a channel message cannot be ephemeral (flags 64)", route);
	if (strcmp(method, "PATCH") == 0 && m != NULL) {
		if (old_edit_refused(m, a)) {
			cJSON_Delete(j);
			return;
		}
		msgs_fake_edit(id, j);
		F.st.channel_edits++;
		msgs_fake_answer(a, id);
	} else if (strcmp(method, "POST") == 0 && m == NULL && strcmp(rest, "/messages") == 0 &&
	           chan_find(chan) != NULL && chan_find(chan)->nosend) {
		F.st.posts_refused++;
		fake_answer(a, 403, "{\"message\":\"Missing Permissions\",\"code\":50013}");
	} else if (strcmp(method, "POST") == 0 && m == NULL && strcmp(rest, "/messages") == 0) {
		F.st.channel_posts++;
		msgs_fake_answer(a, msgs_fake_post(chan, 0, 0, j, false));
	} else {
		fake_violation("%s is not a route the bot should use", route);
		fake_answer(a, 404, "{\"message\":\"404: Not Found\",\"code\":0}");
	}
	cJSON_Delete(j);
}
