/* discord_register: the application's commands kept as this version
 * declares them; see discord_register.h. */
#include "bot/discord/discord_register.h"

#include <cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/discord/discord_cmds.h"
#include "bot/discord/discord_gw.h"
#include "bot/discord/discord_int.h"
#include "bot/discord/discord_rest.h"
#include "bot/log.h"
#include "bot/store/statedir.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define HASH_FILE "discord-commands.hash"

struct registration {
	struct discord *dc;
	char *path, *body; /* the scope's PUT path, the table's body */
	char want[17];     /* hash of body and path */
};

struct hash_write {
	uv_work_t work;
	char *path;
	char want[17], have[17];
};

static void
write_hash(uv_work_t *req)
{
	struct hash_write *hw = (struct hash_write *)req;
	struct buf tmp;
	FILE *f;
	int fd;

	buf_init(&tmp, 8192);
	buf_addf(&tmp, "%s.tmp", hw->path);
	/* 0600 whatever the umask, as every file of the state. */
	fd = statedir_open(buf_str(&tmp), O_WRONLY | O_CREAT | O_TRUNC);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f == NULL && fd >= 0)
		close(fd);
	if (f != NULL) {
		bool ok = fprintf(f, "%s %s\n", hw->want, hw->have) > 0;

		ok = fclose(f) == 0 && ok;
		if (!ok || rename(buf_str(&tmp), hw->path) != 0)
			unlink(buf_str(&tmp));
	}
	buf_free(&tmp);
}

static void
hash_written(uv_work_t *req, int status)
{
	struct hash_write *hw = (struct hash_write *)req;

	free(hw->path);
	free(hw);
}

static void
registration_free(struct registration *reg)
{
	free(reg->path);
	free(reg->body);
	free(reg);
}

/* Remembers that Discord answered have (its hash) while holding exactly
 * the table whose hash is want, so the next start skips the comparison
 * when both are the same again. */
static void
remember(struct discord *dc, const char *want, const char *have)
{
	struct hash_write *hw;

	snprintf(dc->stored_want, sizeof(dc->stored_want), "%s", want);
	snprintf(dc->stored_have, sizeof(dc->stored_have), "%s", have);
	if (dc->hash_path == NULL || dc->stopped)
		return;
	hw = xcalloc(1, sizeof(*hw));
	hw->path = xstrdup(dc->hash_path);
	snprintf(hw->want, sizeof(hw->want), "%s", want);
	snprintf(hw->have, sizeof(hw->have), "%s", have);
	uv_queue_work(dc->loop, &hw->work, write_hash, hash_written);
}

static void on_global_listed(void *ctx, const struct rest_result *res);

/*
 * The scope's registration is over. With a dev guild the commands live in
 * that guild, and what the application holds globally (left by a run
 * without dev_guild) would show every command twice there: it is read
 * next, and removed unless it is empty.
 */
static void
registration_end(struct registration *reg)
{
	struct discord *dc = reg->dc;
	const char *app = discord_app_id(dc);
	struct buf path;

	dc->registering = false;
	registration_free(reg);
	if (dc->dev_guild == NULL || app == NULL || dc->stopping || dc->stopped ||
	    dc->rest == NULL || discord_rest_stopped(dc->rest))
		return;
	buf_init(&path, 512);
	buf_addf(&path, "/applications/%s/commands", app);
	reg = xcalloc(1, sizeof(*reg));
	reg->dc = dc;
	reg->path = buf_take(&path);
	reg->body = xstrdup("[]");
	dc->registering = true;
	discord_rest_call(dc->rest, "GET", reg->path, NULL, REST_OPTIONAL, on_global_listed, reg);
}

static void
on_global_cleared(void *ctx, const struct rest_result *res)
{
	struct registration *reg = ctx;

	reg->dc->registering = false;
	if (res->status >= 200 && res->status <= 299)
		log_info("discord: the global commands are removed (dev_guild is set)");
	else
		log_warnx("discord: removing the global commands failed (HTTP %ld); it is tried "
		          "again at the next start",
		          res->status);
	registration_free(reg);
}

/* What the application holds globally while a dev guild is set: removed
 * unless empty. */
static void
on_global_listed(void *ctx, const struct rest_result *res)
{
	struct registration *reg = ctx;
	struct discord *dc = reg->dc;
	cJSON *got;
	int n;

	if (dc->stopping || dc->stopped || dc->rest == NULL || discord_rest_stopped(dc->rest) ||
	    res->status < 200 || res->status > 299) {
		if (res->status != 0 && (res->status < 200 || res->status > 299))
			log_warnx("discord: reading the global commands failed (HTTP %ld); they "
			          "are checked again at the next start",
			          res->status);
		dc->registering = false;
		registration_free(reg);
		return;
	}
	got = cJSON_ParseWithLength(res->body, res->len);
	n = cJSON_IsArray(got) ? cJSON_GetArraySize(got) : -1;
	cJSON_Delete(got);
	if (n == 0) {
		dc->registering = false;
		registration_free(reg);
		return;
	}
	log_info("discord: the application also has %d command%s registered globally, which "
	         "dev_guild replaces; removing them",
	         n < 0 ? 0 : n, n == 1 ? "" : "s");
	discord_rest_call(dc->rest, "PUT", reg->path, reg->body, REST_OPTIONAL, on_global_cleared,
	                  reg);
}

static void
on_registered(void *ctx, const struct rest_result *res)
{
	struct registration *reg = ctx;
	struct discord *dc = reg->dc;

	dc->registering = false;
	if (res->status >= 200 && res->status <= 299) {
		char have[17];

		dc->stats.registrations++;
		discord_cmds_hash(res->body, reg->path, have);
		remember(dc, reg->want, have);
		log_info("discord: the commands are registered");
	} else if (res->status == 400 && dc->user_install && dc->dev_guild == NULL) {
		log_warnx("discord: registering the commands failed (HTTP 400: %.200s); with "
		          "[discord] user_install = yes the application must also allow user "
		          "installs (Developer Portal, Installation, Installation Contexts: "
		          "User Install); they are compared and registered again at the next start",
		          res->len > 0 ? res->body : "");
	} else {
		log_warnx("discord: registering the commands failed (HTTP %ld); they are "
		          "compared and registered again at the next start",
		          res->status);
	}
	registration_end(reg);
}

static void
put_commands(struct registration *reg)
{
	struct discord *dc = reg->dc;

	log_info("discord: registering the commands %s",
	         dc->dev_guild != NULL ? "in the dev guild" : "globally");
	discord_rest_call(dc->rest, "PUT", reg->path, reg->body, REST_OPTIONAL, on_registered, reg);
}

/* Discord's list for the scope: registered again unless it holds the
 * table exactly. */
static void
on_listed(void *ctx, const struct rest_result *res)
{
	struct registration *reg = ctx;
	struct discord *dc = reg->dc;
	char have[17];
	cJSON *want, *got;
	bool same;

	if (dc->stopping || dc->stopped || dc->rest == NULL || discord_rest_stopped(dc->rest)) {
		dc->registering = false;
		registration_free(reg);
		return;
	}
	if (res->shed) {
		log_warnx("discord: the commands are compared at the next start (too many "
		          "invalid requests lately)");
		dc->registering = false;
		registration_free(reg);
		return;
	}
	if (res->status < 200 || res->status > 299) {
		log_warnx("discord: reading the registered commands failed (HTTP %ld); "
		          "registering them",
		          res->status);
		put_commands(reg);
		return;
	}
	discord_cmds_hash(res->body, reg->path, have);
	if (strcmp(reg->want, dc->stored_want) == 0 && strcmp(have, dc->stored_have) == 0) {
		log_info("discord: the commands are unchanged since they were registered");
		registration_end(reg);
		return;
	}
	want = cJSON_Parse(reg->body);
	got = cJSON_ParseWithLength(res->body, res->len);
	same = discord_cmds_same(want, got);
	cJSON_Delete(want);
	cJSON_Delete(got);
	if (same) {
		log_info("discord: the commands on Discord match this version's");
		remember(dc, reg->want, have);
		registration_end(reg);
		return;
	}
	log_info("discord: the commands on Discord differ from this version's");
	put_commands(reg);
}

/* Reads what Discord holds for the scope and registers the command table
 * unless that is exactly it. */
void
discord_register_commands(struct discord *dc)
{
	const char *app = discord_app_id(dc);
	struct registration *reg;
	struct buf path;

	if (dc->registering || dc->rest == NULL)
		return;
	dc->register_tried = true;
	if (app == NULL) {
		log_warnx("discord: READY named no application id; set [discord] application_id "
		          "to register the commands");
		return;
	}
	buf_init(&path, 512);
	if (dc->dev_guild != NULL)
		buf_addf(&path, "/applications/%s/guilds/%s/commands", app, dc->dev_guild);
	else
		buf_addf(&path, "/applications/%s/commands", app);
	reg = xcalloc(1, sizeof(*reg));
	reg->dc = dc;
	reg->path = buf_take(&path);
	reg->body = discord_cmds_body(NULL, dc->dev_guild != NULL ? DISCORD_REACH_GUILD
	                                    : dc->user_install    ? DISCORD_REACH_USER
	                                                          : DISCORD_REACH_SERVER);
	discord_cmds_hash(reg->body, reg->path, reg->want);
	dc->registering = true;
	discord_rest_call(dc->rest, "GET", reg->path, NULL, REST_OPTIONAL, on_listed, reg);
}

void
discord_register_read_hash(struct discord *dc, const char *state_dir)
{
	static const char hex[] = "0123456789abcdef";
	char line[64];
	struct buf p;
	FILE *f;
	int fd;

	if (state_dir == NULL)
		state_dir = getenv("STATE_DIRECTORY");
	if (state_dir == NULL || *state_dir == '\0')
		return;
	buf_init(&p, 8192);
	buf_addf(&p, "%s/%s", state_dir, HASH_FILE);
	dc->hash_path = buf_take(&p);
	fd = statedir_open(dc->hash_path, O_RDONLY);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (f == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* "<want> <have>": 16 hexadecimal digits each; anything else is
	 * ignored (the commands are then compared). */
	if (fgets(line, sizeof(line), f) != NULL && strspn(line, hex) == 16 && line[16] == ' ' &&
	    strspn(line + 17, hex) == 16) {
		memcpy(dc->stored_want, line, 16);
		memcpy(dc->stored_have, line + 17, 16);
	}
	fclose(f);
}
