/* fake_discord/faults: the gateway faults a test script asks for through
 * POST /_control (see fake_discord.c), compressed-stream faults included. */
#include "tests/tools/fake_discord/fake.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

#define OP1 "{\"t\":null,\"s\":null,\"op\":1,\"d\":null}"

static void
each_conn(void (*fn)(struct conn *, const char *), const char *arg)
{
	for (int i = 0; i < F.nconns; i++)
		fn(F.conns[i], arg);
}

static void
do_drop(struct conn *c, const char *arg)
{
	c->drop = true;
	lws_callback_on_writable(c->wsi);
}

static void
do_noack(struct conn *c, const char *arg)
{
	c->noack = true;
}

static void
do_send(struct conn *c, const char *arg)
{
	if (strstr(arg, "\"op\":7") != NULL)
		c->op7_at = fake_now();
	gw_fake_send(c, arg);
}

static void
do_close(struct conn *c, const char *arg)
{
	int code = atoi(arg);

	if (c->s != NULL && (code == 4007 || code == 4009))
		c->s->invalid = true;
	gw_fake_close(c, code, "asked by the test");
}

static void
malformed(struct conn *c, const char *arg)
{
	static const char *const junk[] = {
	    "not json at all",
	    "{\"op\":",
	    "[1,2,3]",
	    "{\"op\":\"0\",\"d\":{}}",
	    "{\"op\":0,\"s\":null,\"t\":null,\"d\":null}",
	    "{\"op\":12345,\"d\":{}}",
	    "\"just a string\"",
	};

	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		gw_fake_send(c, junk[i]);
}

/* A block of the reserved type 3 where the next payload should start:
 * no inflater gets past it. */
static void
do_zcorrupt(struct conn *c, const char *arg)
{
	if (c->zlib)
		gw_fake_send_raw(c, "\xff\x00\x00\xff\xff", 5, true);
}

/* A heartbeat request as plain text, on a compressed connection. */
static void
do_ztext(struct conn *c, const char *arg)
{
	if (c->zlib)
		gw_fake_send_raw(c, OP1, strlen(OP1), false);
}

static int
zlib_conns(void)
{
	int n = 0;

	for (int i = 0; i < F.nconns; i++)
		n += F.conns[i]->zlib;
	return n;
}

/* An event of `bytes` bytes of padding that deflates about a thousandfold,
 * made and compressed piece by piece (it is never whole in memory here):
 * a zip bomb, never replayed. */
static int
zbomb(size_t bytes, char *err, size_t errlen)
{
	struct conn *c = gw_fake_live(F.current);
	char head[128], pad[65536];
	struct buf out;
	size_t n;

	if (c == NULL || !c->zlib) {
		snprintf(err, errlen,
		         "zbomb needs a ready connection that asked for compression\n");
		return -1;
	}
	snprintf(head, sizeof(head),
	         "{\"t\":\"GUILD_UPDATE\",\"s\":%" PRId64 ",\"op\":0,\"d\":{\"padding\":\"",
	         gw_fake_log(F.current, NULL));
	memset(pad, 'x', sizeof(pad));
	buf_init(&out, 64u << 20);
	zs_deflate(c, head, strlen(head), false, &out);
	for (size_t left = bytes; left > 0; left -= n) {
		n = left < sizeof(pad) ? left : sizeof(pad);
		zs_deflate(c, pad, n, false, &out);
	}
	zs_deflate(c, "\"}}", 3, true, &out);
	gw_fake_send_packed(c, &out, strlen(head) + bytes + 3);
	buf_free(&out);
	return 0;
}

static int
zlib_control(const char *word, const char *arg, char *err, size_t errlen)
{
	if (strcmp(word, "zsplit") == 0) {
		F.zsplit = atoi(arg);
		return 0;
	}
	if (strcmp(word, "zexpect") == 0) {
		F.expect_compress = !strcmp(arg, "yes") ? 1 : !strcmp(arg, "no") ? -1 : 0;
		return 0;
	}
	if (zlib_conns() == 0) {
		snprintf(err, errlen, "%s needs a connection that asked for compression\n", word);
		return -1;
	}
	if (strcmp(word, "zcorrupt") == 0) {
		each_conn(do_zcorrupt, NULL);
	} else if (strcmp(word, "ztext") == 0) {
		each_conn(do_ztext, NULL);
	} else if (strcmp(word, "zbomb") == 0) {
		return zbomb((size_t)strtoull(arg, NULL, 10), err, errlen);
	} else {
		snprintf(err, errlen, "unknown gateway control '%s'", word);
		return -1;
	}
	return 0;
}

int
gw_fake_control(const char *cmd, char *err, size_t errlen)
{
	char word[32] = "", arg[64] = "";
	size_t wl = strcspn(cmd, " \n");

	snprintf(word, sizeof(word), "%.*s", (int)wl, cmd);
	cmd += wl;
	cmd += strspn(cmd, " ");
	snprintf(arg, sizeof(arg), "%.*s", (int)strcspn(cmd, " \n"), cmd);
	if (strcmp(word, "drop") == 0) {
		each_conn(do_drop, NULL);
	} else if (strcmp(word, "noack") == 0) {
		each_conn(do_noack, NULL);
	} else if (strcmp(word, "op1") == 0) {
		each_conn(do_send, OP1);
	} else if (strcmp(word, "op7") == 0) {
		each_conn(do_send, "{\"t\":null,\"s\":null,\"op\":7,\"d\":null}");
	} else if (strcmp(word, "op9") == 0) {
		bool resumable = strcmp(arg, "true") == 0;

		if (!resumable && F.current != NULL)
			F.current->invalid = true;
		for (int i = 0; !resumable && i < F.nconns; i++)
			if (F.conns[i]->s != NULL)
				F.conns[i]->s->invalid = true;
		each_conn(do_send, resumable ? "{\"t\":null,\"s\":null,\"op\":9,\"d\":true}"
		                             : "{\"t\":null,\"s\":null,\"op\":9,\"d\":false}");
	} else if (strcmp(word, "close") == 0) {
		each_conn(do_close, arg);
	} else if (strcmp(word, "malformed") == 0) {
		each_conn(malformed, NULL);
		if (F.current != NULL) {
			gw_fake_emit(F.current, "INTERACTION_CREATE", "{\"id\":\"1\",\"type\":2}",
			             false);
			gw_fake_emit(F.current, "INTERACTION_CREATE", "[]", false);
			gw_fake_emit(F.current, "NEVER_HEARD_OF_IT", "{\"x\":1}", false);
		}
	} else if (strcmp(word, "oversize") == 0 && F.current != NULL) {
		size_t size = (size_t)strtoull(arg, NULL, 10);
		char *pad = xmalloc(size + 64);

		memset(pad, 'x', size);
		memcpy(pad, "{\"padding\":\"", 12);
		memcpy(pad + size - 2, "\"}", 3);
		gw_fake_emit(F.current, "GUILD_UPDATE", pad, true);
		free(pad);
	} else if (strcmp(word, "fragment") == 0) {
		F.fragment = atoi(arg);
	} else if (strcmp(word, "heartbeat") == 0) {
		F.heartbeat_ms = atoi(arg);
	} else if (strcmp(word, "remaining") == 0) {
		F.remaining = atoi(arg);
	} else if (strcmp(word, "budget") == 0) {
		/* budget TOTAL REMAINING RESET_AFTER_MS */
		char *end;
		long total = strtol(cmd, &end, 10), rem = strtol(end, &end, 10);
		long long after = strtoll(end, &end, 10);

		if (shard_fake_budget((int)total, (int)rem, after) < 0) {
			snprintf(err, errlen,
			         "budget takes TOTAL REMAINING RESET_AFTER_MS "
			         "(0 <= REMAINING <= TOTAL, 1 ms to a day)");
			return -1;
		}
	} else if (strcmp(word, "maxconcurrency") == 0 && atoi(arg) >= 1 &&
	           atoi(arg) <= FAKE_BUCKETS_MAX) {
		F.max_concurrency = atoi(arg);
		memset(F.bucket_last, 0, sizeof(F.bucket_last));
	} else if (strcmp(word, "identifyinterval") == 0 && atoi(arg) >= 1 && atoi(arg) <= 60000) {
		F.identify_interval = atoi(arg);
	} else if (strcmp(word, "clockoffset") == 0) {
		F.clock_offset = atoll(arg);
	} else if (strcmp(word, "shards") == 0 && atoi(arg) >= 1) {
		F.shards = atoi(arg);
	} else if (strcmp(word, "guilds") == 0 && atoi(arg) >= 1 && atoi(arg) <= 1000) {
		F.guilds = atoi(arg);
	} else if (strcmp(word, "guildcount") == 0 && atoll(arg) >= 1) {
		F.guild_count = atoll(arg);
	} else if (strcmp(word, "shardmultiple") == 0 && atoi(arg) >= 1) {
		F.shard_multiple = atoi(arg);
	} else if (strcmp(word, "hold") == 0) {
		F.hold = strcmp(arg, "off") != 0;
	} else if (strcmp(word, "lenient") == 0) {
		F.lenient = strcmp(arg, "off") != 0;
	} else if (strcmp(word, "age") == 0) {
		struct inter *it, *tmp;

		/* Every interaction so far was created MS earlier: its token
		 * expires without a test waiting 15 minutes. */
		HASH_ITER(hh, F.inters, it, tmp)
		it->created -= atoll(arg);
	} else if (strcmp(word, "mark") == 0) {
		F.st.max_hb_gap = F.st.min_hb_gap = 0;
		F.mark_id = F.next_id > 0 ? F.next_id : 1;
		F.st.mark_created = F.st.mark_answered = F.st.mark_unanswered = F.st.mark_late = 0;
	} else if (word[0] == 'z') {
		return zlib_control(word, arg, err, errlen);
	} else {
		snprintf(err, errlen, "unknown gateway control '%s'", word);
		return -1;
	}
	return 0;
}
