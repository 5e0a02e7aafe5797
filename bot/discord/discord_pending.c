/* discord_pending: deferrals a killed process left "thinking..."; see
 * discord_pending.h. */
#include "bot/discord/discord_pending.h"
#include "bot/discord/discord_int.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bot/discord/discord_answer.h"
#include "bot/discord/discord_defer.h"
#include "bot/discord/discord_interact_render.h"
#include "bot/discord/discord_json.h"
#include "bot/discord/discord_proto.h"
#include "bot/discord/discord_rest.h"
#include "bot/discord/discord_shed.h"
#include "bot/fsio.h"
#include "bot/log.h"
#include "commands/core/request.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

#define NOTE_MAX 8192 /* bytes of a note: a path with a token, two keys */

/* A note being worked out at start. */
struct pending {
	struct discord *dc;
	char id[24];
	int type;
	bool private;  /* the deferral is ephemeral */
	char *webhook; /* "/webhooks/APP/TOKEN" */
	char chan_key[KEY_MAX], user_key[KEY_MAX];
	int64_t created_ms; /* unix ms, from the id */
};

/* The note's path for interaction id into out; false when there is no
 * state directory or it does not fit. */
static bool
note_path(const struct discord *dc, const char *id, char *out, size_t size)
{
	int n;

	if (dc->state_dir == NULL)
		return false;
	n = id != NULL ? snprintf(out, size, "%s/" PENDING_DIR "/%s", dc->state_dir, id)
	               : snprintf(out, size, "%s/" PENDING_DIR, dc->state_dir);
	return n > 0 && (size_t)n < size;
}

void
discord_pending_note(struct discord *dc, const struct defer_item *item, const struct origin *o)
{
	char dir[4096], path[4200], tmp[4300];
	struct buf b;
	int fd;

	if (item->webhook_path == NULL || !note_path(dc, NULL, dir, sizeof(dir)))
		return;
	snprintf(path, sizeof(path), "%s/%llu", dir, (unsigned long long)item->id);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		log_warn("discord: cannot make %s, so a deferral cut short by a crash will stay "
		         "unanswered",
		         dir);
		return;
	}
	buf_init(&b, 512);
	buf_adds(&b, "{\"w\":");
	json_write_string(item->webhook_path, &b);
	buf_addf(&b, ",\"t\":%d,\"p\":%s,\"c\":", item->type, item->private ? "true" : "false");
	json_write_string(o->chan_key, &b);
	buf_adds(&b, ",\"u\":");
	json_write_string(o->user_key, &b);
	buf_adds(&b, "}\n");
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || fsio_write_all(fd, buf_str(&b), b.len) < 0 || close(fd) < 0 ||
	    fsio_rename(tmp, path) < 0) {
		/* the path holds no token: the token is the file's content */
		log_warn("discord: cannot write the note of a deferral in %s", dir);
		if (fd >= 0)
			(void)fsio_unlink(tmp);
	}
	buf_free(&b);
}

void
discord_pending_done(struct discord *dc, const char *id)
{
	char path[4200];

	if (note_path(dc, id, path, sizeof(path)) && fsio_unlink(path) < 0 && errno != ENOENT)
		log_warn("discord: cannot remove %s", path);
}

static void
pending_free(struct pending *p)
{
	free(p->webhook);
	free(p);
}

/* What the user of a deferral a killed process left is told when its
 * answer cannot be given: nothing was changed (nothing_done), or the
 * change was made and its answer lost; a button's presser, of the press. */
static const char *
lost_answer_note(bool press, bool nothing_done)
{
	if (nothing_done)
		return press ? PENDING_NOTHING_DONE_PRESS : PENDING_NOTHING_DONE;
	return press ? "delver restarted before it could answer your press of the button; what "
	               "it does was carried out, but its answer is lost."
	             : "delver restarted before it could answer; the command was carried out, "
	               "but its answer is lost.";
}

/* The store's word on p's command: committed (its mark, with the answer
 * kept) or not; then the deferral is edited accordingly. */
static void
on_probe(struct request *req, void *ctx)
{
	struct pending *p = ctx;
	struct discord *dc = p->dc;
	struct interact_out out;
	enum request_outcome how = request_outcome(req);
	size_t len = 0;
	const char *kept = request_kept(req, &len);

	memset(&out, 0, sizeof(out));
	if (how == REQUEST_REPLAYED &&
	    discord_interact_render_kept(kept, len, p->webhook, &out) == 0) {
		/* A refusal kept is a claim's (persist_commit.c): nothing was
		 * done. */
		log_info("discord: interaction %s, deferred by the process before, is answered "
		         "with %s",
		         p->id,
		         out.error ? "the refusal it had stored (nothing was done)"
		                   : "what it had committed");
	} else if (how == REQUEST_DONE || how == REQUEST_REPLAYED) {
		/* REPLAYED without an answer to read: committed, but what it
		 * said is lost; the change stays, and the user is told that
		 * something went wrong, not that nothing changed. */
		discord_interact_out_clear(&out);
		out.callback_body = discord_interact_render_note(
		    dc->it, lost_answer_note(p->type == DISCORD_INTERACTION_COMPONENT,
		                             how == REQUEST_DONE));
		out.error = true;
		log_info("discord: interaction %s, deferred by the process before, had %s", p->id,
		         how == REQUEST_DONE ? "changed nothing: the user is told so"
		                             : "an answer that cannot be read");
	} else {
		log_warnx(
		    "discord: whether interaction %s, deferred by the process before, "
		    "changed anything cannot be told now; it is tried again at the next start",
		    p->id);
		request_free(req);
		pending_free(p);
		return;
	}
	request_free(req);
	snprintf(out.id, sizeof(out.id), "%s", p->id);
	out.type = p->type;
	if (out.followup_path == NULL)
		out.followup_path = xstrdup(p->webhook);
	discord_answer_complete(dc, &out, p->private, p->created_ms);
	discord_interact_out_clear(&out);
	pending_free(p);
}

/* Discord's word on p's original response: still the deferral (LOADING)
 * or not. */
static void
on_original(void *ctx, const struct rest_result *res)
{
	struct pending *p = ctx;
	struct discord *dc = p->dc;
	struct origin o;
	struct request *req;
	bool loading, ephemeral;

	if (res->status == 401 || res->status == 404) {
		discord_pending_done(dc, p->id); /* no token left, or nothing to edit */
		pending_free(p);
		return;
	}
	if (res->status < 200 || res->status > 299) {
		log_warnx("discord: the answer of interaction %s, deferred by the process before, "
		          "cannot be read (%ld); it is tried again at the next start",
		          p->id, res->status);
		pending_free(p);
		return;
	}
	/* A body that is no JSON reads as answered: nothing is sent. After a
	 * button's deferral (type 6), @original is the pressed message, which
	 * never shows whether the answer went: the note alone says it did not. */
	discord_answer_original(res->body, res->len, &loading, &ephemeral);
	if (p->type == DISCORD_INTERACTION_COMPONENT)
		loading = true;
	if (!loading || dc->d == NULL) {
		discord_pending_done(dc, p->id); /* answered before the kill */
		pending_free(p);
		return;
	}
	/* A request that runs nothing: a replay of the interaction, whose
	 * mark the store reads (request.h). */
	memset(&o, 0, sizeof(o));
	o.platform = "discord";
	snprintf(o.chan_key, sizeof(o.chan_key), "%s", p->chan_key);
	snprintf(o.user_key, sizeof(o.user_key), "%s", p->user_key);
	req = request_new(&o, (int64_t)time(NULL), on_probe, p);
	request_set_key(req, p->id, NULL);
	request_set_replayed(req);
	dispatch_submit(dc->d, req);
}

/* Reads the note of interaction id at path into a pending, or NULL when
 * it is no note (logged) or its token's time is over. */
static struct pending *
note_read(struct discord *dc, const char *path, const char *id)
{
	char text[NOTE_MAX];
	FILE *f = fopen(path, "re");
	size_t n = f != NULL ? fread(text, 1, sizeof(text) - 1, f) : 0;
	cJSON *j;
	const char *w, *c, *u;
	const cJSON *t;
	struct pending *p = NULL;
	uint64_t v;
	struct timespec now;

	if (f != NULL)
		fclose(f);
	text[n] = '\0';
	j = cJSON_Parse(text);
	w = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "w"));
	c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "c"));
	u = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "u"));
	t = cJSON_GetObjectItemCaseSensitive(j, "t");
	if (w == NULL || strncmp(w, "/webhooks/", 10) != 0 || c == NULL || strlen(c) >= KEY_MAX ||
	    u == NULL || strlen(u) >= KEY_MAX || !cJSON_IsNumber(t) ||
	    !discord_json_snowflake(id, &v) || strlen(id) >= sizeof(p->id)) {
		log_warnx("discord: %s is not the note of a deferral; removed", path);
		cJSON_Delete(j);
		return NULL;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	p = xcalloc(1, sizeof(*p));
	p->dc = dc;
	snprintf(p->id, sizeof(p->id), "%s", id);
	p->type = t->valueint;
	p->private = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "p"));
	p->webhook = xstrdup(w);
	snprintf(p->chan_key, sizeof(p->chan_key), "%s", c);
	snprintf(p->user_key, sizeof(p->user_key), "%s", u);
	p->created_ms = (int64_t)(v >> 22) + SHED_DISCORD_EPOCH_MS;
	cJSON_Delete(j);
	if ((int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 - p->created_ms >= DEFER_TOKEN_MS) {
		log_warnx("discord: interaction %s was deferred by a process that stopped before "
		          "answering it, and its 15 minutes are over: it stays unanswered",
		          id);
		pending_free(p);
		return NULL;
	}
	return p;
}

void
discord_pending_resume(struct discord *dc)
{
	char dir[4096], path[4400];
	DIR *d;
	struct dirent *e;

	if (dc->rest == NULL || !note_path(dc, NULL, dir, sizeof(dir)) ||
	    (d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		struct pending *p;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (strchr(e->d_name, '.') != NULL) { /* a note cut short while written */
			(void)fsio_unlink(path);
			continue;
		}
		if ((p = note_read(dc, path, e->d_name)) == NULL) {
			(void)fsio_unlink(path);
			continue;
		}
		snprintf(path, sizeof(path), "%s/messages/@original", p->webhook);
		discord_rest_call(dc->rest, "GET", path, NULL, REST_INTERACTION, on_original, p);
	}
	closedir(d);
}
