/* fake_discord/dms: the bot's DM channels (POST /users/@me/channels) and
 * its messages to them, with the "dmclosed" and "dmforget" controls. */
#include "tests/tools/fake_discord/fake.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

/* DM channel i's id: the fake numbers them in the order it opens them. */
#define DM_CHAN0 1500000000000000000ull

static bool
digits(const char *s, size_t n)
{
	return n > 0 && strspn(s, "0123456789") >= n;
}

/* The place of the DM channel with user that is not gone, or -1. */
static int
dm_of_user(uint64_t user)
{
	for (int i = 0; i < F.ndms; i++)
		if (F.dms[i].user == user && !F.dms[i].gone)
			return i;
	return -1;
}

/* The place of the DM channel chan (one the bot opened, gone or not), or
 * -1: its id says it. */
static int
dm_of_chan(uint64_t chan)
{
	return chan >= DM_CHAN0 && chan - DM_CHAN0 < (uint64_t)F.ndms ? (int)(chan - DM_CHAN0) : -1;
}

/* The DM channel with user, opened when there is none: its place, or -1
 * when the fake holds no more. */
static int
dm_open(uint64_t user)
{
	int i = dm_of_user(user);

	if (i >= 0)
		return i;
	if (F.ndms == (int)(sizeof(F.dms) / sizeof(F.dms[0])))
		return -1;
	i = F.ndms++;
	F.dms[i].user = user;
	F.dms[i].chan = DM_CHAN0 + (uint64_t)i;
	return i;
}

/* POST /users/@me/channels {"recipient_id": USER}: the DM channel with
 * USER, the same one each time, as Discord answers. */
void
dms_fake_open(const char *body, size_t len, struct http_answer *a)
{
	cJSON *j = cJSON_ParseWithLength(body, len);
	const char *rid = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "recipient_id"));
	uint64_t user;
	char out[512];
	int i;

	if (rid == NULL || !digits(rid, strlen(rid)) || strlen(rid) > 20) {
		fake_violation("POST /users/@me/channels without a recipient_id snowflake");
		fake_answer(a, 400, "{\"message\":\"Invalid Form Body\",\"code\":50035}");
		cJSON_Delete(j);
		return;
	}
	user = strtoull(rid, NULL, 10);
	cJSON_Delete(j);
	if ((i = dm_open(user)) < 0) {
		fake_answer(a, 400, "{\"message\":\"fake: too many DM channels\",\"code\":0}");
		return;
	}
	F.st.dm_channels++;
	snprintf(out, sizeof(out),
	         "{\"id\":\"%" PRIu64 "\",\"type\":1,\"last_message_id\":null,\"flags\":0,"
	         "\"recipients\":[{\"id\":\"%" PRIu64 "\",\"username\":\"user\","
	         "\"discriminator\":\"0\",\"global_name\":null,\"avatar\":null}]}",
	         F.dms[i].chan, user);
	fake_answer(a, 200, out);
}

/* Whether chan is a DM channel the bot opened (or one it opened and
 * "dmforget" deleted). */
bool
dms_fake_channel(uint64_t chan)
{
	return dm_of_chan(chan) >= 0;
}

/* POST /channels/ID/messages to a DM channel the bot opened; refused with
 * 50007 when the recipient closed their DMs. */
void
dms_fake_message(const char *path, const char *body, size_t len, struct http_answer *a)
{
	uint64_t chan = strtoull(path + strlen("/channels/"), NULL, 10);
	const cJSON *flags, *content;
	cJSON *j;
	char out[256];
	int i;

	i = dm_of_chan(chan);
	if (i < 0 || F.dms[i].gone) {
		if (i < 0)
			fake_violation(
			    "a message to channel %" PRIu64 ", no DM channel the bot opened", chan);
		else
			F.st.dms_unknown++;
		fake_answer(a, 404, "{\"message\":\"Unknown Channel\",\"code\":10003}");
		return;
	}
	j = cJSON_ParseWithLength(body, len);
	flags = cJSON_GetObjectItemCaseSensitive(j, "flags");
	if (check_message(j, "direct message") == 0 && cJSON_IsNumber(flags) &&
	    ((int)flags->valuedouble & 64))
		fake_violation("direct message: a channel message cannot be ephemeral (flags 64)");
	if (F.dms[i].closed) {
		F.st.dms_refused++;
		fake_answer(a, 403,
		            "{\"message\":\"Cannot send messages to this user\",\"code\":50007}");
		cJSON_Delete(j);
		return;
	}
	content = cJSON_GetObjectItemCaseSensitive(j, "content");
	free(F.dm_last);
	F.dm_last = xstrdup(cJSON_IsString(content) ? content->valuestring : "");
	F.st.dms++;
	cJSON_Delete(j);
	snprintf(out, sizeof(out),
	         "{\"id\":\"%" PRIu64 "\",\"type\":0,\"channel_id\":\"%" PRIu64 "\"}",
	         (uint64_t)(1600000000000000000ull + F.st.dms), chan);
	fake_answer(a, 200, out);
}

int
rest_fake_dm_closed(const char *args, char *err, size_t errlen)
{
	const char *p = args + strlen("dmclosed");
	char *end;
	uint64_t user = strtoull(p, &end, 10);
	bool off = strstr(end, "off") != NULL;
	int i;

	if (end == p) {
		snprintf(err, errlen, "dmclosed needs a user id or number");
		return -1;
	}
	if (user < 1400000000000000000ull)
		user += 1400000000000000000ull;
	if ((i = dm_open(user)) < 0) {
		snprintf(err, errlen, "too many DM channels");
		return -1;
	}
	F.dms[i].closed = !off;
	return 0;
}

int
rest_fake_dm_forget(const char *args, char *err, size_t errlen)
{
	const char *p = args + strlen("dmforget");
	char *end;
	uint64_t user = strtoull(p, &end, 10);
	int i;

	if (end == p) {
		snprintf(err, errlen, "dmforget needs a user id or number");
		return -1;
	}
	if (user < 1400000000000000000ull)
		user += 1400000000000000000ull;
	if ((i = dm_of_user(user)) < 0) {
		snprintf(err, errlen, "no DM channel with user %" PRIu64, user);
		return -1;
	}
	F.dms[i].gone = true;
	return 0;
}
