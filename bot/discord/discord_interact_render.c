/* discord_interact_render: replies to the bodies that answer interactions;
 * see discord_interact_render.h. */
#include "bot/discord/discord_interact_render.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_interact_int.h"
#include "bot/discord/discord_modal.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/render_discord.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

/* Room for the kept answer's head beyond the bodies it measures. */
#define KEPT_HEAD_ROOM 1024

char *
discord_interact__body(struct interact *it, int type, cJSON *data)
{
	char *s;

	buf_reset(&it->body);
	if (type != 0) { /* not through printf: this is every answer's path */
		buf_adds(&it->body, "{\"type\":");
		json_write_int(type, &it->body);
		buf_adds(&it->body, ",\"data\":");
	}
	if (json_write(data, &it->body) < 0 || (type != 0 && buf_addc(&it->body, '}') < 0)) {
		/* Past BODY_MAX, which no message reaches: written uncapped. */
		cJSON *root = data;

		if (type != 0) {
			root = cJSON_CreateObject();
			cJSON_AddNumberToObject(root, "type", type);
			cJSON_AddItemToObject(root, "data", data);
		}
		s = json_print(root);
		cJSON_Delete(root);
		return s;
	}
	cJSON_Delete(data);
	return xstrndup(buf_str(&it->body), it->body.len);
}

char *
discord_interact__body_text(int type, char *data)
{
	struct buf b;

	if (type == 0)
		return data;
	buf_init(&b, SIZE_MAX);
	buf_reserve(&b, strlen(data) + 24);
	json_write_lit(&b, "{\"type\":");
	json_write_int(type, &b);
	json_write_lit(&b, ",\"data\":");
	buf_adds(&b, data);
	buf_addc(&b, '}');
	free(data);
	return buf_take(&b);
}

/*
 * The GM part of r as a direct message to the GM (a user key
 * "discord:<id>"): one message, headed by a link to the channel it came
 * from ("<#id>" names a channel and pings nobody), so a GM of several
 * channels knows where. Leaves out->gm_user "" when there is none.
 */
static void
gm_message(struct interact *it, const struct reply *r, const char *chan_key,
           struct interact_out *out)
{
	const struct reply_msg *gm = reply_msg(r, REPLY_GM);
	const char *key = reply_gm_key(r), *id, *h = NULL;
	char *part, head[KEY_MAX + 16]; /* chan_key is a key */

	if (gm == NULL || key == NULL || strncmp(key, "discord:", 8) != 0)
		return;
	id = key + 8;
	if (id[0] == '\0' || strlen(id) >= sizeof(out->gm_user) ||
	    strspn(id, "0123456789") != strlen(id))
		return;
	/* Headed "From <#id>:" when that fits. */
	if (strncmp(chan_key, "discord:", 8) == 0) {
		snprintf(head, sizeof(head), "From <#%s>:\n", chan_key + 8);
		h = head;
	}
	render_discord_parts(gm, false, it->buttons, h, &part, 1);
	out->dm_body = part;
	snprintf(out->gm_user, sizeof(out->gm_user), "%s", id);
	snprintf(out->gm_name, sizeof(out->gm_name), "%s", reply_gm_name(r));
	snprintf(out->gm_what, sizeof(out->gm_what), "%s", reply_gm_what(r));
	out->gm_aside = reply_gm_is_aside(r);
	key = reply_gm_fallback_key(r);
	if (key != NULL && strncmp(key, "discord:", 8) == 0 &&
	    strlen(key + 8) < sizeof(out->gm_chan) && key[8] != '\0' &&
	    strspn(key + 8, "0123456789") == strlen(key + 8))
		snprintf(out->gm_chan, sizeof(out->gm_chan), "%s", key + 8);
}

/*
 * A reply that asks for a long text (reply_ask) to a command or a button
 * opens a form (a MODAL callback) instead of its message, which is for the
 * platforms without forms; a submit cannot open one ("not available for
 * MODAL_SUBMIT and PING interactions"). Returns whether it did.
 */
static bool
ask_form(struct interact *it, const struct reply *r, struct interact_out *out)
{
	const struct reply_ask *ask = reply_asked(r);
	cJSON *modal, *late;
	struct buf b;

	if (ask == NULL ||
	    (out->type != DISCORD_INTERACTION_COMMAND &&
	     out->type != DISCORD_INTERACTION_COMPONENT) ||
	    (modal = discord_modal_data(ask)) == NULL)
		return false;
	out->callback_body = discord_interact__body(it, DISCORD_CALLBACK_MODAL, modal);
	/* A deferred interaction can no longer open a form: the invoker is
	 * told to run the command again. */
	buf_init(&b, 512);
	buf_addf(&b, "The form for /%s could not open in time; run the command again.", ask->line);
	late = cJSON_CreateObject();
	cJSON_AddStringToObject(late, "content", buf_str(&b));
	cJSON_AddNumberToObject(late, "flags", DISCORD_FLAG_EPHEMERAL);
	cJSON_AddArrayToObject(cJSON_AddObjectToObject(late, "allowed_mentions"), "parse");
	out->modal_late = discord_interact__body(it, DISCORD_CALLBACK_MESSAGE, late);
	buf_free(&b);
	return true;
}

/* Renders a reply into the callback body and, when it is longer than a
 * message or has a channel part and a private part, the follow-ups: at
 * most followups_max of them when it is not -1, one of which is kept for
 * the note a refused GM message may need; each part then holds what its
 * share of messages can (render_discord_parts summarises the rest). With
 * no webhook (no application id) to address follow-ups, one message is all
 * there is. With update, the callback replaces the pressed message (type 7).
 * Returns how many of the messages (the callback's first) hold the channel
 * part, when it had more than that many to itself (nothing of it was cut
 * to its share); 0 else, and when it is not laid out as channel part then
 * private part. */
static size_t
render_reply(struct interact *it, const struct reply *r, const char *webhook, const char *chan_key,
             int followups_max, bool update, struct interact_out *out)
{
	const struct reply_msg *pub = reply_msg(r, REPLY_CHANNEL);
	const struct reply_msg *priv = reply_msg(r, REPLY_INVOKER);
	static const struct reply_msg empty = {0};
	char *parts[2 * DISCORD_PARTS_MAX];
	size_t n, max = webhook != NULL ? DISCORD_PARTS_MAX : 1, whole = 0;
	/* Messages in all: the callback and the follow-ups allowed. */
	size_t total = 2 * DISCORD_PARTS_MAX;

	if (webhook != NULL && followups_max >= 0) {
		total = (size_t)followups_max + 1;
		if (reply_msg(r, REPLY_GM) != NULL && total > 1)
			total--; /* the note, should the GM refuse the message */
		/* A button's answer, if deferred, is all follow-ups (type 6
		 * updates nothing): its first message becomes one. */
		if (out->type == DISCORD_INTERACTION_COMPONENT && total > 1)
			total--;
	}
	if (ask_form(it, r, out))
		return 0;
	if (reply_panel_message(r) != NULL && !reply_is_error(r) && pub != NULL &&
	    out->type == DISCORD_INTERACTION_COMMAND) {
		/* /panel: the panel goes to the channel as a message of the bot's
		 * (discord_live.h); the command's answer is the invoker's alone:
		 * where the panel is, then the GM's copy behind the screen if
		 * any (at most four lines: the note always fits before it). */
		struct reply *note = reply_new();
		const struct reply_msg *m = priv;

		if (m == NULL) {
			reply_line(note, 0, PANEL_NOTE);
			m = reply_msg(note, REPLY_CHANNEL);
		}
		update = false;
		n = render_discord_parts(m, true, it->buttons,
		                         priv != NULL ? PANEL_NOTE " " PANEL_COPY_NOTE "\n" : NULL,
		                         parts, 1);
		reply_free(note);
	} else if (reply_is_error(r) || pub == NULL) {
		const struct reply_msg *m = reply_is_error(r) ? pub : priv;

		update = false; /* the pressed message stays; the presser alone is told */
		n = render_discord_parts(m != NULL ? m : &empty, true, it->buttons, NULL, parts,
		                         max < total ? max : total);
	} else if (update) {
		/* The channel's message replaces the pressed one whole: one
		 * message, what it cannot hold summarised. */
		n = render_discord_parts(pub, false, it->buttons, NULL, parts, 1);
		if (priv != NULL && webhook != NULL && total > n)
			n += render_discord_parts(priv, true, it->buttons, NULL, parts + n,
			                          max < total - n ? max : total - n);
	} else {
		size_t room = priv != NULL && webhook != NULL && total > 1 ? total - 1 : total;

		n = render_discord_parts(pub, false, it->buttons, NULL, parts,
		                         max < room ? max : room);
		/* Fewer than its share: every part ended where the text let it. */
		whole = n < (max < room ? max : room) ? n : 0;
		if (priv != NULL && webhook != NULL && total > n)
			n += render_discord_parts(priv, true, it->buttons, NULL, parts + n,
			                          max < total - n ? max : total - n);
	}
	out->callback_body = discord_interact__body_text(
	    update ? DISCORD_CALLBACK_UPDATE_MESSAGE : DISCORD_CALLBACK_MESSAGE, parts[0]);
	out->error = reply_is_error(r);
	for (size_t i = 1; i < n; i++)
		out->followups[out->nfollowups++] = parts[i];
	if (!reply_is_error(r))
		gm_message(it, r, chan_key, out);
	if (n > 1 || (out->gm_user[0] != '\0' && webhook != NULL))
		out->followup_path = xstrdup(webhook);
	return whole;
}

int
discord_interact__keep(struct request *req, struct buf *out)
{
	struct tag *t = request_tag(req);
	struct interact_out *k = &t->kept;
	size_t lens[2 * DISCORD_PARTS_MAX + 2], total;

	discord_interact_out_clear(k);
	k->type = t->ev.type; /* render_reply counts a button's messages apart */
	t->kept_channel =
	    render_reply(t->it, request_reply(req), t->ev.followup_path,
	                 request_origin(req)->chan_key, t->followups_max, t->update, k);
	t->have_kept = true;
	/* A head {"v":2,"c":LEN,"f":[LEN,...],["d":LEN,"g":..,"n":..,]"e":..,"w":..}
	 * then the bodies it measures, as they are: they are JSON texts
	 * already, written again as strings they would be escaped twice
	 * (discord_interact_render_kept reads both forms). */
	lens[0] = strlen(k->callback_body);
	total = lens[0];
	for (size_t i = 0; i < k->nfollowups; i++)
		total += lens[1 + i] = strlen(k->followups[i]);
	if (k->dm_body != NULL)
		total += lens[1 + k->nfollowups] = strlen(k->dm_body);
	buf_reserve(out, total + KEPT_HEAD_ROOM);
	buf_adds(out, "{\"v\":2,\"c\":");
	json_write_int((int64_t)lens[0], out);
	buf_adds(out, ",\"f\":[");
	for (size_t i = 0; i < k->nfollowups; i++) {
		if (i > 0)
			buf_addc(out, ',');
		json_write_int((int64_t)lens[1 + i], out);
	}
	buf_addc(out, ']');
	if (k->dm_body != NULL) {
		buf_adds(out, ",\"d\":");
		json_write_int((int64_t)lens[1 + k->nfollowups], out);
		buf_adds(out, ",\"g\":");
		json_write_string(k->gm_user, out);
		buf_adds(out, ",\"n\":");
		json_write_string(k->gm_name, out);
	}
	buf_adds(out, k->error ? ",\"e\":true" : ",\"e\":false");
	buf_adds(out, k->followup_path != NULL ? ",\"w\":true}" : ",\"w\":false}");
	buf_add(out, k->callback_body, lens[0]);
	for (size_t i = 0; i < k->nfollowups; i++)
		buf_add(out, k->followups[i], lens[1 + i]);
	if (k->dm_body != NULL)
		buf_add(out, k->dm_body, lens[1 + k->nfollowups]);
	return out->toobig ? -1 : 0;
}

/* The next body of a kept answer's second form: the length v says, from
 * *at (before end), which may hold no NUL. Returns it (owned), or NULL. */
static char *
kept_body(const cJSON *v, const char **at, const char *end)
{
	double n = cJSON_IsNumber(v) ? v->valuedouble : -1;
	size_t len;
	char *s;

	if (n < 0 || n > (double)(end - *at) || n != (double)(size_t)n)
		return NULL;
	len = (size_t)n;
	if (memchr(*at, '\0', len) != NULL)
		return NULL;
	s = xstrndup(*at, len);
	*at += len;
	return s;
}

/* The bodies of the second form of a kept answer (head o, the bodies from
 * at to end) into out; false when they are not what the head says. */
static bool
kept_bodies(const cJSON *o, const char *at, const char *end, struct interact_out *out)
{
	const cJSON *v, *d = cJSON_GetObjectItemCaseSensitive(o, "d");

	out->callback_body = kept_body(cJSON_GetObjectItemCaseSensitive(o, "c"), &at, end);
	if (out->callback_body == NULL || *out->callback_body == '\0')
		return false;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(o, "f"))
	{
		char *f = kept_body(v, &at, end);

		if (f == NULL)
			return false;
		if (out->nfollowups < 2 * DISCORD_PARTS_MAX)
			out->followups[out->nfollowups++] = f;
		else
			free(f);
	}
	if (d != NULL && (out->dm_body = kept_body(d, &at, end)) == NULL)
		return false;
	return at == end;
}

int
discord_interact_render_kept(const char *bytes, size_t len, const char *webhook,
                             struct interact_out *out)
{
	const char *head_end = NULL;
	cJSON *o = bytes != NULL ? cJSON_ParseWithLengthOpts(bytes, len, &head_end, false) : NULL,
	      *v;
	int rc = -1;

	if (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "v")) == 2) {
		/* The second form: the bodies follow the head as they are. */
		if (!kept_bodies(o, head_end, bytes + len, out)) {
			free(out->callback_body);
			for (size_t i = 0; i < out->nfollowups; i++)
				free(out->followups[i]);
			free(out->dm_body);
			out->callback_body = out->dm_body = NULL;
			out->nfollowups = 0;
			goto done;
		}
	} else {
		/* The first form: one JSON object, the bodies in it as strings. */
		const char *c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "c"));

		if (c == NULL || *c == '\0')
			goto done;
		out->callback_body = xstrdup(c);
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(o, "f"))
		{
			if (cJSON_IsString(v) && out->nfollowups < 2 * DISCORD_PARTS_MAX)
				out->followups[out->nfollowups++] = xstrdup(v->valuestring);
		}
		if ((v = cJSON_GetObjectItemCaseSensitive(o, "d")) != NULL && cJSON_IsString(v))
			out->dm_body = xstrdup(v->valuestring);
	}
	if (out->dm_body != NULL) {
		snprintf(out->gm_user, sizeof(out->gm_user), "%s",
		         cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "g")) != NULL
		             ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "g"))
		             : "");
		snprintf(out->gm_name, sizeof(out->gm_name), "%s",
		         cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "n")) != NULL
		             ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "n"))
		             : "");
	}
	out->error = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "e"));
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "w")) && webhook != NULL)
		out->followup_path = xstrdup(webhook);
	rc = 0;
done:
	cJSON_Delete(o);
	return rc;
}

/* The answer kept with a replayed request's mark (keep's JSON) into out.
 * Returns 0, or -1 when it is not such an answer. */
static int
restore_kept(const struct request *req, const struct tag *t, struct interact_out *out)
{
	size_t len;
	const char *bytes = request_kept(req, &len);

	return discord_interact_render_kept(bytes, len, t->ev.followup_path, out);
}

char *
discord_interact_render_note(struct interact *it, const char *text)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "content", text);
	cJSON_AddNumberToObject(o, "flags", DISCORD_FLAG_EPHEMERAL);
	cJSON_AddArrayToObject(cJSON_AddObjectToObject(o, "allowed_mentions"), "parse");
	return discord_interact__body(it, DISCORD_CALLBACK_MESSAGE, o);
}

/* The id, type, times and callback path of t's interaction into out. */
static void
out_of(const struct tag *t, struct interact_out *out)
{
	memcpy(out->id, t->ev.id, sizeof(out->id));
	out->idn = t->ev.idn;
	out->type = t->ev.type;
	out->rx_ns = t->ev.rx_ns;
	out->deadline = t->ev.deadline;
	free(out->callback_path);
	out->callback_path = xstrdup(t->ev.callback_path);
}

int
discord_interact_render(struct interact *it, struct request *req, struct interact_out *out)
{
	struct tag *t = request_tag(req);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->type = t->ev.type; /* render_reply counts a button's messages apart */
	if (request_outcome(req) == REQUEST_REPLAYED) {
		rc = restore_kept(req, t, out);
	} else if (t->have_kept && request_outcome(req) == REQUEST_DONE) {
		/* Rendered when its mark was kept, and unchanged since. */
		*out = t->kept;
		memset(&t->kept, 0, sizeof(t->kept));
		t->have_kept = false;
	} else {
		render_reply(it, request_reply(req), t->ev.followup_path,
		             request_origin(req)->chan_key, t->followups_max, t->update, out);
	}
	out_of(t, out);
	return rc;
}

char *
discord_interact_render_panel(struct interact *it, const struct reply *r)
{
	const struct reply_msg *pub = reply_msg(r, REPLY_CHANNEL);
	char *part;

	(void)it;
	if (pub == NULL || render_discord_parts(pub, false, NULL, NULL, &part, 1) != 1)
		return NULL;
	return part;
}

/* The messages of a press's reply rendered when its mark was kept, moved
 * into parts from *n on, and its GM message into out: the press's answer
 * holds them as they are, since render_reply gave its channel part fewer
 * messages than its share there (t->kept_channel), which the answer's
 * share is not below, and its private part the same share. Returns false,
 * moving nothing, when there is no such rendering. */
static bool
take_kept(struct tag *t, const struct request *press, char **parts, size_t *n,
          struct interact_out *out)
{
	static const char head[] = "{\"type\":4,\"data\":"; /* DISCORD_CALLBACK_MESSAGE's */
	struct interact_out *k = &t->kept;
	size_t len;

	if (!t->have_kept || request_outcome(press) != REQUEST_DONE || t->kept_channel == 0 ||
	    k->callback_body == NULL || strncmp(k->callback_body, head, sizeof(head) - 1) != 0)
		return false;
	/* The callback's message, out of its callback: {"type":4,"data":M} */
	len = strlen(k->callback_body) - (sizeof(head) - 1) - 1;
	memmove(k->callback_body, k->callback_body + sizeof(head) - 1, len);
	k->callback_body[len] = '\0';
	parts[(*n)++] = k->callback_body;
	k->callback_body = NULL;
	for (size_t i = 0; i < k->nfollowups; i++)
		parts[(*n)++] = k->followups[i];
	k->nfollowups = 0;
	out->dm_body = k->dm_body;
	k->dm_body = NULL;
	memcpy(out->gm_user, k->gm_user, sizeof(out->gm_user));
	memcpy(out->gm_chan, k->gm_chan, sizeof(out->gm_chan));
	memcpy(out->gm_name, k->gm_name, sizeof(out->gm_name));
	memcpy(out->gm_what, k->gm_what, sizeof(out->gm_what));
	out->gm_aside = k->gm_aside;
	discord_interact_out_clear(k);
	t->have_kept = false;
	return true;
}

bool
discord_interact_render_press(struct interact *it, struct request *press, char *panel, bool update,
                              struct interact_out *out)
{
	struct tag *t = request_tag(press);
	const struct reply *r = request_reply(press);
	const struct reply_msg *pub = reply_msg(r, REPLY_CHANNEL);
	const struct reply_msg *priv = reply_msg(r, REPLY_INVOKER);
	char *parts[2 * DISCORD_PARTS_MAX];
	size_t n, max = DISCORD_PARTS_MAX, total = 2 * DISCORD_PARTS_MAX;
	const char *webhook = t->ev.followup_path;

	memset(out, 0, sizeof(*out));
	out_of(t, out);
	if (webhook == NULL || panel == NULL || pub == NULL || reply_is_error(r)) {
		/* Nothing to follow with, or no panel: an answer as any press. */
		free(panel);
		render_reply(it, r, webhook, request_origin(press)->chan_key, t->followups_max,
		             false, out);
		return false;
	}
	if (t->followups_max >= 0) {
		total = (size_t)t->followups_max + 1;
		if (reply_msg(r, REPLY_GM) != NULL && total > 1)
			total--; /* the note, should the GM refuse the message */
	}
	/* The panel updates the pressed message; what the press did follows
	 * as messages of its own (then its private part, ephemeral). */
	parts[0] = panel;
	n = 1;
	if (!take_kept(t, press, parts, &n, out)) {
		if (total > n)
			n += render_discord_parts(pub, false, it->buttons, NULL, parts + n,
			                          max < total - n ? max : total - n);
		if (priv != NULL && total > n)
			n += render_discord_parts(priv, true, it->buttons, NULL, parts + n,
			                          max < total - n ? max : total - n);
		gm_message(it, r, request_origin(press)->chan_key, out);
	}
	/* Type 6 acknowledges and leaves the message as it is; it needs a
	 * follow-up to tell what the press did. */
	update = update || n == 1;
	if (update) {
		out->callback_body =
		    discord_interact__body_text(DISCORD_CALLBACK_UPDATE_MESSAGE, parts[0]);
	} else {
		char six[24];

		free(parts[0]);
		snprintf(six, sizeof(six), "{\"type\":%d}", DISCORD_CALLBACK_DEFERRED_UPDATE);
		out->callback_body = xstrdup(six);
	}
	for (size_t i = 1; i < n; i++)
		out->followups[out->nfollowups++] = parts[i];
	if (n > 1 || out->gm_user[0] != '\0')
		out->followup_path = xstrdup(webhook);
	return update;
}
