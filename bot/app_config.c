/* app_config: the configuration with the command line applied; see app_config.h. */
#include "bot/app_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/log.h"
#include "bot/store/persist.h"
#include "bot/store/persist_restore.h"
#include "bot/store/store_pg_restore.h"
#include "bot/store/restore_channel.h"
#include "bot/store/shard_dirs.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

static void
replace(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

/* A process that runs only some of the bot's shards keeps its state in its
 * own part of the state root (bot/store/shard_dirs.h). */
static void
apply_shard_dir(struct config *c)
{
	const char *root = c->bot.state_dir != NULL ? c->bot.state_dir : persist_opts_default_dir();
	const struct config_discord *d = &c->discord;

	if (!c->discord.enabled || shard_dirs_all(d->shard_first, d->shard_last, d->shard_count))
		return;
	c->bot.state_root = xstrdup(root);
	free(c->bot.state_dir);
	c->bot.state_dir =
	    shard_dirs_own(c->bot.state_root, d->shard_first, d->shard_last, d->shard_count);
}

/* --state-dir, --fsync, --snapshot-interval and --evict-after win over the
 * [bot] keys. */
static void
apply_persist_overrides(const struct app_opts *o, struct config *c)
{
	if (o->state_dir != NULL)
		replace(&c->bot.state_dir, o->state_dir);
	if (o->fsync >= 0)
		c->bot.fsync = (enum fsync_policy)o->fsync;
	if (o->snapshot_interval > 0)
		c->bot.snapshot_interval = o->snapshot_interval;
	if (o->evict_after >= 0)
		c->bot.evict_after = o->evict_after;
}

/* --console, --user, --channel, --log-level and --shard win over the file.
 * --shard N runs shard N alone, of [discord] shard_count; one other than 0
 * runs Discord alone: the instances share one file, and each IRC network
 * must be joined once. */
static int
apply_overrides(const struct app_opts *o, struct config *c, char *err, size_t errlen)
{
	const char *file = c->path ? c->path : "the configuration";

	if (o->console)
		c->console.enabled = true;
	if (o->user != NULL)
		replace(&c->console.user, o->user);
	if (o->channel != NULL)
		replace(&c->console.channel, o->channel);
	if (o->log_level >= 0)
		c->bot.log_level = (enum log_level)o->log_level;
	if (o->shard < 0)
		return 0;
	if (!c->discord.enabled) {
		snprintf(err, errlen, "--shard %d needs a [discord] section in %s", o->shard, file);
		return -1;
	}
	if (c->discord.shard_count == 0) {
		snprintf(err, errlen,
		         "--shard %d needs [discord] shard_count in %s set to the number of shards "
		         "every instance runs (auto could differ between them)",
		         o->shard, file);
		return -1;
	}
	if (o->shard >= c->discord.shard_count) {
		snprintf(err, errlen,
		         "--shard must be from 0 to %d, below [discord] shard_count in %s (got %d)",
		         c->discord.shard_count - 1, file, o->shard);
		return -1;
	}
	c->discord.shard_first = c->discord.shard_last = o->shard;
	/* The other transports run once, in shard 0 (which also gets the DMs). */
	if (o->shard > 0) {
		for (size_t i = 0; i < c->nirc; i++)
			config_irc_clear(&c->irc[i]);
		c->nirc = 0;
		c->console.enabled = o->console;
	}
	return 0;
}

struct config *
app_config_load(const struct app_opts *o, char *err, size_t errlen)
{
	struct config *c;
	/* A shard other than 0 runs no IRC (below): it needs no IRC secret. */
	unsigned secrets =
	    o->shard > 0 ? CONFIG_SECRETS_DISCORD | CONFIG_SECRETS_STORE : CONFIG_SECRETS_ALL;

	if (o->config_path == NULL && access(DELVER_CONFIG_PATH, F_OK) != 0 && errno == ENOENT)
		c = config_defaults();
	else
		c = config_load(o->config_path ? o->config_path : DELVER_CONFIG_PATH, secrets, err,
		                errlen);
	if (c != NULL && apply_overrides(o, c, err, errlen) < 0) {
		config_free(c);
		return NULL;
	}
	if (c != NULL) {
		apply_persist_overrides(o, c);
		apply_shard_dir(c);
	}
	return c;
}

/* True when c runs no transport a service can serve on: only the console,
 * or nothing at all. */
static bool
no_network(const struct config *c)
{
	return !c->discord.enabled && c->nirc == 0;
}

/* True when standard input holds nothing for the console: closed, a
 * character device that is no terminal (/dev/null, what systemd gives a
 * service) or a regular file read to its end. A pipe may hold commands: it
 * is read. */
static bool
stdin_empty(void)
{
	struct stat st;
	off_t at;

	if (fstat(STDIN_FILENO, &st) != 0)
		return true;
	if (S_ISCHR(st.st_mode))
		return !isatty(STDIN_FILENO);
	if (!S_ISREG(st.st_mode))
		return false;
	at = lseek(STDIN_FILENO, 0, SEEK_CUR);
	return at >= 0 && at >= st.st_size;
}

/* True, with one sentence in err, when c enables no transport at all
 * ([console] enabled = no, and no [discord] or [irc.NETWORK] section):
 * refused wherever delver starts, since it would answer nobody. The advice
 * names the console off a service (INVOCATION_ID unset) only. */
static bool
enables_nothing(const struct config *c, char *err, size_t errlen)
{
	if (!no_network(c) || c->console.enabled)
		return false;
	snprintf(err, errlen,
	         "%s enables no transport ([console] enabled = no, and no [discord] or "
	         "[irc.NETWORK] section), so %s would answer nobody: add a [discord] or an "
	         "[irc.NETWORK] section%s (delver(8), CONFIGURATION)",
	         c->path != NULL ? c->path : DELVER_CONFIG_PATH,
	         getenv("INVOCATION_ID") != NULL ? "the service" : "delver",
	         getenv("INVOCATION_ID") != NULL
	             ? ""
	             : ", or remove enabled = no from [console] to play in this terminal");
	return true;
}

bool
app_config_start_refusal(const struct app_opts *o, const struct config *c, char *err, size_t errlen)
{
	if (enables_nothing(c, err, errlen))
		return true;
	if (getenv("INVOCATION_ID") == NULL || !no_network(c))
		return false;
	if (o->console || !stdin_empty())
		return false;
	if (c->path == NULL)
		snprintf(err, errlen,
		         "no configuration file: %s does not exist, so delver would play on the "
		         "console alone, and a service has no terminal to play on: copy "
		         "delver.conf.example (share/doc/delver under the installation prefix) "
		         "there and add a [discord] or an [irc.NETWORK] section (delver(8), "
		         "CONFIGURATION)",
		         DELVER_CONFIG_PATH);
	else
		snprintf(err, errlen,
		         "%s configures no transport but the console, and a service has no "
		         "terminal to play on: add a [discord] or an [irc.NETWORK] section "
		         "(delver(8), CONFIGURATION)",
		         c->path);
	return true;
}

static bool
same(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

void
app_config_note_restart(const struct config *old, const struct config *now)
{
	if (!same(old->bot.state_dir, now->bot.state_dir))
		log_warnx("[bot] state_dir changed: restart delver to apply it");
	if (old->discord.enabled != now->discord.enabled)
		log_warnx("[discord] was %s: restart delver to apply it",
		          now->discord.enabled ? "added" : "removed");
	if (old->console.enabled != now->console.enabled)
		log_warnx("[console] enabled changed: restart delver to apply it");
}

/* "discord (shard 0 of 1), irc libera, the console": what c runs. */
static void
describe(const struct config *c, struct buf *b)
{
	const struct config_discord *d = &c->discord;
	int first = d->shard_first >= 0 ? d->shard_first : 0;
	int last = d->shard_first >= 0 ? d->shard_last : d->shard_count - 1;

	if (d->enabled && d->shard_count == 0)
		buf_adds(b, "discord (as many shards as Discord recommends)");
	else if (d->enabled && first == last)
		buf_addf(b, "discord (shard %d of %d)", first, d->shard_count);
	else if (d->enabled)
		buf_addf(b, "discord (shards %d-%d of %d)", first, last, d->shard_count);
	for (size_t i = 0; i < c->nirc; i++)
		buf_addf(b, "%sirc %s (%s:%d, %zu channel%s)", b->len ? ", " : "",
		         c->irc[i].network, c->irc[i].host, c->irc[i].port, c->irc[i].nchannels,
		         c->irc[i].nchannels == 1 ? "" : "s");
	if (c->console.enabled)
		buf_addf(b, "%sthe console", b->len ? ", " : "");
	if (b->len == 0)
		buf_adds(b, "nothing");
}

int
app_config_check(const struct app_opts *o)
{
	char err[1024];
	struct config *c = app_config_load(o, err, sizeof(err));
	struct buf b;

	if (c == NULL) {
		log_error("%s", err);
		return APP_EXIT_CONFIG;
	}
	if (enables_nothing(c, err, sizeof(err))) {
		log_error("%s", err);
		config_free(c);
		return APP_EXIT_CONFIG;
	}
	buf_init(&b, 4096);
	describe(c, &b);
	if (c->path == NULL)
		printf("No configuration file: %s (read when --config names none) does not exist, "
		       "so delver runs with the defaults, which enable %s (as a service, which "
		       "has no terminal, it needs a file there with a [discord] or an "
		       "[irc.NETWORK] section: start from delver.conf.example)\n",
		       DELVER_CONFIG_PATH, buf_str(&b));
	else
		printf("%s is valid; it enables %s%s\n", c->path, buf_str(&b),
		       no_network(c) ? " (as a service, which has no terminal, it needs a "
		                       "[discord] or an [irc.NETWORK] section)"
		                     : "");
	buf_free(&b);
	config_free(c);
	return APP_EXIT_OK;
}

int
app_config_restore(const struct app_opts *o, const char *file)
{
	char err[8192];
	struct config *c = app_config_load(o, err, sizeof(err));
	int rc;

	if (c == NULL) {
		log_error("%s", err);
		return APP_EXIT_CONFIG;
	}
	if (c->store.backend == STORE_ENGINE_POSTGRESQL) {
		rc = store_pg_restore(c->store.conninfo, c->store.password,
		                      c->bot.state_dir != NULL ? c->bot.state_dir
		                                               : persist_opts_default_dir(),
		                      file, o->channel, err, sizeof(err));
		if (rc == 0)
			log_info("%s", err);
	} else {
		rc = o->channel != NULL
		         ? restore_channel(c->bot.state_dir, file, o->channel, err, sizeof(err))
		         : persist_restore(c->bot.state_dir, file, err, sizeof(err));
	}
	if (rc < 0)
		log_error("%s", err);
	config_free(c);
	return rc < 0 ? APP_EXIT_FAILURE : APP_EXIT_OK;
}
