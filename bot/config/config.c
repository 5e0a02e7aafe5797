/*
 * config: the INI configuration; see config.h.
 *
 * libinih splits the file into (section, key, value); everything else is
 * table-driven: each section kind has a table of keys saying where a value
 * goes, its type and what it allows, and one function turns any bad value
 * into a message naming file, line, section and key. The reader that feeds
 * inih counts lines and sees section headers itself, so even an empty
 * section is known and every message has its line.
 */
#include "bot/config/config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ini.h>
#include <openssl/evp.h>

#include "bot/config/config_int.h"
#include "bot/config/config_keys.h"
#include "bot/config/config_pem.h"
#include "bot/config/config_secret.h"
#include "bot/config/config_set.h"
#include "bot/config/config_value.h"
#include "commands/core/registry.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"
#include "rules/base/textsafe.h"

#define LINE_BYTES 1024 /* longer lines are refused before inih sees them */

/* Records the first error, at line, with the file's name in front. */
void
config__fail(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->err_line != 0)
		return;
	p->err_line = line;
	n = snprintf(p->err, p->errlen, "%s:%d: ", p->name, line);
	if (n < 0 || (size_t)n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	/* A name quoted raw (the file's, a key's) may still hold a bidi
	 * control or an invisible character: never written (values name
	 * theirs, config__shown()) */
	if (!textsafe_ok(p->err, strlen(p->err))) {
		struct buf b;

		buf_init(&b, p->errlen - 1);
		textsafe_clean(&b, p->err, strlen(p->err));
		snprintf(p->err, p->errlen, "%s", buf_str(&b));
		buf_free(&b);
	}
}

/* Into b, the sections other than kind's that have the key name
 * ("[irc.<network>]", "[bot] or [store]"); returns how many. */
static size_t
sections_with(const struct section_kind *kind, const char *name, struct buf *b)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < KIND_COUNT; i++)
		n += &config_kinds[i] != kind && config_keys_find(&config_kinds[i], name) >= 0;
	for (size_t i = 0; i < KIND_COUNT; i++)
		if (&config_kinds[i] != kind && config_keys_find(&config_kinds[i], name) >= 0)
			buf_addf(b, "%s[%s%s]",
			         k++ == 0 ? ""
			         : k == n ? " or "
			                  : ", ",
			         config_kinds[i].name, i == KIND_IRC ? ".<network>" : "");
	return n;
}

static int
on_value(void *user, const char *section, const char *name, const char *value)
{
	struct parser *p = user;
	const struct key *k;
	char keys[CONFIG_KEYS_MAX * 32], shown[CONFIG_SHOWN_MAX];
	size_t used = 0;
	int i;

	(void)section; /* the reader tracks sections itself: p->cur */
	if (p->err_line != 0)
		return 0;
	if (p->cur == NULL) {
		config__fail(p, p->line,
		             "key '%s' is outside any section; put it under [bot], [discord], "
		             "[irc.<network>], [store] or [console]",
		             name);
		return 0;
	}
	if (p->cur->kind == &config_kinds[KIND_DISCORD] &&
	    (strcmp(name, "shard_id") == 0 || strcmp(name, "shards") == 0)) {
		/* shard_id is the older name of shards. */
		int had = p->cur->key_line[config_keys_find(p->cur->kind, "shards")];

		if (had != 0 && (strcmp(name, "shard_id") == 0) != (p->shard_id_line != 0)) {
			config__fail(
			    p, p->line,
			    "[discord] shard_id and shards both name this process's shards; keep "
			    "shards");
			return 0;
		}
		if (strcmp(name, "shard_id") == 0 && had == 0)
			p->shard_id_line = p->line;
		name = "shards";
	}
	i = config_keys_find(p->cur->kind, name);
	if (i < 0 && p->cur->kind == &config_kinds[KIND_BOT] &&
	    strcmp(name, "players_roll_hazard") == 0) {
		/* It was read but never used: a file that has it must learn why it
		 * no longer applies, not merely that it is unknown. */
		config__fail(
		    p, p->line,
		    "[bot] players_roll_hazard is no longer a key: the GM chooses who rolls the "
		    "hazard die in each channel with /hazard who anyone or /hazard who gm; remove "
		    "the line");
		return 0;
	}
	if (i < 0) {
		struct buf elsewhere;

		/* a key of another section: where it belongs, not this one's
		 * keys (recheck9 F14: "port" under [discord]) */
		buf_init(&elsewhere, 200);
		if (sections_with(p->cur->kind, name, &elsewhere) > 0) {
			config__shown(name, shown, sizeof(shown));
			config__fail(p, p->line,
			             "[%s] has no key %s; it is a key of %s: move the line there",
			             p->cur->name, shown, buf_str(&elsewhere));
			buf_free(&elsewhere);
			return 0;
		}
		buf_free(&elsewhere);
		for (size_t j = 0; j < p->cur->kind->nkeys; j++) {
			int r = snprintf(keys + used, sizeof(keys) - used, "%s%s", j ? ", " : "",
			                 p->cur->kind->keys[j].name);

			if (r > 0 && (size_t)r < sizeof(keys) - used)
				used += (size_t)r;
		}
		{
			const char **names = xmalloc(p->cur->kind->nkeys * sizeof(*names) + 1);
			const char *best;

			for (size_t j = 0; j < p->cur->kind->nkeys; j++)
				names[j] = p->cur->kind->keys[j].name;
			best = registry_suggest(name, names, p->cur->kind->nkeys);
			config__shown(name, shown, sizeof(shown));
			if (best != NULL)
				config__fail(p, p->line, "[%s] has no key %s; did you mean %s?",
				             p->cur->name, shown, best);
			else
				config__fail(p, p->line, "[%s] has no key %s; its keys are %s",
				             p->cur->name, shown, keys);
			free(names);
		}
		return 0;
	}
	k = &p->cur->kind->keys[i];
	if (p->cur->key_line[i] != 0 && k->type != KEY_LIST && k->type != KEY_CHANNELS) {
		if (p->continued)
			config__fail(
			    p, p->line,
			    "[%s] %s takes one line: an indented line continues the key above it, "
			    "which only lists (channels, alt_nicks) allow",
			    p->cur->name, name);
		else
			config__fail(p, p->line, "[%s] %s is set twice (first on line %d)",
			             p->cur->name, name, p->cur->key_line[i]);
		return 0;
	}
	if (p->cur->key_line[i] == 0)
		p->cur->key_line[i] = p->line;
	p->have_key = true;
	return config_set_value(p, k, value) == 0;
}

/* Starts the section named name (the text between the brackets). */
static void
open_section(struct parser *p, const char *name)
{
	struct config *c = p->c;
	struct sect *s;
	int kind = -1;
	void *base = NULL;

	if (strcmp(name, "bot") == 0) {
		kind = KIND_BOT;
		base = &c->bot;
	} else if (strcmp(name, "discord") == 0) {
		kind = KIND_DISCORD;
		base = &c->discord;
		c->discord.enabled = true;
	} else if (strcmp(name, "store") == 0) {
		kind = KIND_STORE;
		base = &c->store;
	} else if (strcmp(name, "console") == 0) {
		kind = KIND_CONSOLE;
		base = &c->console;
	} else if (strncmp(name, "irc.", 4) == 0) {
		kind = KIND_IRC;
		if (!config_value_network(name + 4)) {
			config__fail(p, p->line,
			             "[%s] needs a network name after 'irc.': 1 to 32 ASCII "
			             "letters, digits, "
			             "'-' "
			             "or '_'",
			             name);
			return;
		}
	} else {
		char shown[CONFIG_SHOWN_MAX];

		/* [bot<U+200B>] shown as [bot] would read as a right name */
		if (textsafe_invisible_in(name, strlen(name), NULL, NULL))
			config__fail(p, p->line,
			             "unknown section %s; sections are [bot], [discord], "
			             "[irc.<network>], [store] and [console]",
			             config__shown(name, shown, sizeof(shown)));
		else
			config__fail(p, p->line,
			             "unknown section [%s]; sections are [bot], [discord], "
			             "[irc.<network>], [store] and [console]",
			             name);
		return;
	}
	for (size_t i = 0; i < p->nsects; i++) {
		if (strcasecmp(p->sects[i].name, name) == 0) {
			config__fail(p, p->line, "section [%s] appears twice (first on line %d)",
			             name, p->sects[i].line);
			return;
		}
	}
	if (kind == KIND_IRC) {
		if (c->nirc == CONFIG_IRC_MAX) {
			config__fail(p, p->line,
			             "[%s] is one [irc.<network>] section too many; at most %d",
			             name, CONFIG_IRC_MAX);
			return;
		}
		base = &c->irc[c->nirc];
		config_irc_init(&c->irc[c->nirc++], name + 4);
	}
	s = &p->sects[p->nsects++];
	memset(s, 0, sizeof(*s));
	s->kind = &config_kinds[kind];
	s->base = base;
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->line = p->line;
	p->cur = s;
	p->have_key = false;
}

/*
 * Looks at a line before inih does: a header starts a section here (so an
 * empty one is seen too); an indented header, a header with text after it
 * a line too long for inih and one starting with an invisible character
 * (which would hide a header or a key) are refused. Returns -1 after
 * config__fail().
 */
static int
look_at_line(struct parser *p, const char *line, int max)
{
	const char *s = line, *end;
	char name[64], what[TEXTSAFE_NAME_MAX];
	uint32_t cp;

	if (strlen(line) > (size_t)max - 1 || (strchr(line, '\n') == NULL && !feof(p->f))) {
		config__fail(
		    p, p->line,
		    "the line is longer than %d characters; give a long list on several lines, "
		    "repeating its key",
		    max - 2);
		return -1;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '\0' && utf8_valid(s, strlen(s)) && textsafe_invisible_at(s, strlen(s), &cp)) {
		textsafe_invisible_name(what, sizeof(what), cp, true);
		config__fail(p, p->line,
		             "the line starts with %s at column %d; remove it (a line holds 'key = "
		             "value', a [section] header or a comment)",
		             what, (int)(s - line) + 1);
		return -1;
	}
	/* inih's rule for a continuation line, so messages can tell. */
	p->continued = p->have_key && s > line && *s != '\0' && *s != '\n' && *s != '\r' &&
	               *s != ';' && *s != '#';
	if (*s != '[')
		return 0;
	if (s > line) {
		config__fail(p, p->line,
		             "a section header must start at the beginning of its line");
		return -1;
	}
	end = strchr(s, ']');
	if (end == NULL) {
		config__fail(p, p->line, "a section header needs a closing ']'");
		return -1;
	}
	for (const char *t = end + 1; *t != '\0' && *t != ';' && *t != '#'; t++) {
		if (*t != ' ' && *t != '\t' && *t != '\r' && *t != '\n') {
			config__fail(p, p->line, "a section header must end at its ']'");
			return -1;
		}
	}
	snprintf(name, sizeof(name), "%.*s", (int)(end - s - 1), s + 1);
	open_section(p, name);
	return p->err_line != 0 ? -1 : 0;
}

/* inih's reader: one physical line per call, so its line count is ours. */
static char *
read_line(char *str, int num, void *stream)
{
	struct parser *p = stream;
	char line[LINE_BYTES];

	if (p->err_line != 0 || fgets(line, sizeof(line), p->f) == NULL)
		return NULL;
	p->line++;
	/* A byte-order mark some editors write first is no part of the text. */
	if (p->line == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0)
		memmove(line, line + 3, strlen(line + 3) + 1);
	if (look_at_line(p, line, num) < 0)
		return NULL;
	memcpy(str, line, strlen(line) + 1);
	return str;
}

/* [discord] shards (or shard_id) against shard_count: a range needs a
 * count it lies within, so that every process of a fleet runs the same
 * total. */
static void
check_shards(struct parser *p, struct sect *s)
{
	const struct config_discord *d = &p->c->discord;
	int line = s->key_line[config_keys_find(s->kind, "shards")];
	const char *name = p->shard_id_line != 0 ? "shard_id" : "shards";

	if (d->shard_first >= 0 && d->shard_count == 0) {
		config__fail(
		    p, line,
		    "[discord] %s needs shard_count set to the fleet's number of shards (auto "
		    "could differ between processes)",
		    name);
	} else if (d->shard_first >= 0 && d->shard_last >= d->shard_count) {
		char got[32];

		if (d->shard_first == d->shard_last)
			snprintf(got, sizeof(got), "%d", d->shard_first);
		else
			snprintf(got, sizeof(got), "%d-%d", d->shard_first, d->shard_last);
		config__fail(p, line, "[discord] %s must lie below shard_count (%d) (got '%s')",
		             name, d->shard_count, got);
	}
}

/* Keys that must be present, and checks across keys. */
static void
check_sections(struct parser *p)
{
	struct config *c = p->c;

	for (size_t i = 0; i < p->nsects && p->err_line == 0; i++) {
		struct sect *s = &p->sects[i];

		for (size_t j = 0; j < s->kind->nkeys; j++) {
			const struct key *k = &s->kind->keys[j];

			if ((k->flags & KEY_REQUIRED) && s->key_line[j] == 0) {
				config__fail(p, s->line, "[%s] is missing %s (%s)", s->name,
				             k->name, k->allowed);
				break;
			}
		}
		if (p->err_line != 0)
			break;
		if (s->kind == &config_kinds[KIND_DISCORD]) {
			check_shards(p, s);
		} else if (s->kind == &config_kinds[KIND_STORE] &&
		           c->store.backend == STORE_ENGINE_POSTGRESQL &&
		           c->store.conninfo == NULL) {
			config__fail(
			    p, s->line,
			    "[store] backend = postgresql needs conninfo (the server to use, e.g. "
			    "host=/run/postgresql dbname=delver)");
		} else if (s->kind == &config_kinds[KIND_IRC]) {
			struct config_irc *irc = s->base;

			if (irc->sasl_user != NULL && irc->password_source == NULL)
				config__fail(p, s->key_line[config_keys_find(s->kind, "sasl_user")],
				             "[%s] sasl_user needs password_source too (%s)",
				             s->name, CONFIG_SOURCE_ALLOWED);
			if (irc->sasl_external && (irc->tls_cert_file == NULL || !irc->tls))
				config__fail(
				    p, s->key_line[config_keys_find(s->kind, "sasl_external")],
				    "[%s] sasl_external needs tls = yes and tls_cert_file (the "
				    "client "
				    "certificate the server identifies the bot by)",
				    s->name);
			if (irc->port == 0)
				irc->port = irc->tls ? 6697 : 6667;
			if (irc->username == NULL)
				irc->username = xstrdup(irc->nick);
		}
	}
	/* The console is on by default only when nothing else is configured. */
	for (size_t i = 0; i < p->nsects; i++) {
		struct sect *s = &p->sects[i];

		if (s->kind == &config_kinds[KIND_CONSOLE] &&
		    s->key_line[config_keys_find(s->kind, "enabled")])
			return;
	}
	c->console.enabled = !c->discord.enabled && c->nirc == 0;
}

/* Reads the secret of the source key named key in section s into *out. */
static void
resolve(struct parser *p, struct sect *s, const char *key, const char *source, char **out)
{
	char why[700];

	if (p->err_line != 0 || source == NULL)
		return;
	*out = config_secret_read(source, why, sizeof(why));
	if (*out == NULL)
		config__fail(p, s->key_line[config_keys_find(s->kind, key)], "[%s] %s: %s", s->name,
		             key, why);
}

/* Refuses a Discord token that cannot be one: Discord's tokens hold no
 * blank, and delver writes the "Bot " of the Authorization header itself. */
static void
check_token(struct parser *p, struct sect *s, struct config_discord *d)
{
	const char *why = NULL, *where;

	if (p->err_line != 0 || d->token == NULL)
		return;
	where = d->token_source;
	if (strncasecmp(d->token, "Bot ", 4) == 0)
		why = "starts with 'Bot ', which delver adds itself; keep the token alone there";
	else if (strpbrk(d->token, " \t") != NULL)
		why = "holds a blank, which no Discord token does; keep the token alone there";
	if (why == NULL)
		return;
	config_secret_free(d->token);
	d->token = NULL;
	config__fail(p, s->key_line[config_keys_find(s->kind, "token_source")],
	             "[%s] token_source: the token read from %s %s", s->name, where, why);
}

/* Refuses a key naming a PEM file (config_pem.h) that cannot be used. */
static void
check_pem(struct parser *p, struct sect *s, const char *key, const char *path, enum config_pem kind)
{
	char why[700];

	if (p->err_line != 0 || path == NULL || config_pem_check(path, kind, why, sizeof(why)) == 0)
		return;
	config__fail(p, s->key_line[config_keys_find(s->kind, key)], "[%s] %s: %s", s->name, key,
	             why);
}

/* Reads the secrets of the transports in secrets, and checks the files
 * their keys name (read as the secrets are, by the process that uses
 * them). */
static void
resolve_secrets(struct parser *p, unsigned secrets)
{
	for (size_t i = 0; i < p->nsects; i++) {
		struct sect *s = &p->sects[i];

		if (s->kind == &config_kinds[KIND_DISCORD] && (secrets & CONFIG_SECRETS_DISCORD)) {
			struct config_discord *d = s->base;

			resolve(p, s, "token_source", d->token_source, &d->token);
			check_token(p, s, d);
			check_pem(p, s, "tls_ca_file", d->tls_ca_file, CONFIG_PEM_CA);
		} else if (s->kind == &config_kinds[KIND_IRC] && (secrets & CONFIG_SECRETS_IRC)) {
			struct config_irc *irc = s->base;

			resolve(p, s, "password_source", irc->password_source, &irc->password);
			resolve(p, s, "nickserv_password_source", irc->nickserv_source,
			        &irc->nickserv_password);
			check_pem(p, s, "tls_ca_file", irc->tls_ca_file, CONFIG_PEM_CA);
			check_pem(p, s, "tls_cert_file", irc->tls_cert_file, CONFIG_PEM_CERT_KEY);
		} else if (s->kind == &config_kinds[KIND_STORE] &&
		           (secrets & CONFIG_SECRETS_STORE)) {
			resolve(p, s, "password_source", p->c->store.password_source,
			        &p->c->store.password);
		}
	}
}

struct config *
config_load_stream(FILE *f, const char *name, unsigned secrets, char *err, size_t errlen)
{
	struct parser p;
	int r;

	memset(&p, 0, sizeof(p));
	p.c = config_defaults();
	p.c->path = xstrdup(name);
	p.f = f;
	p.name = name;
	p.err = err;
	p.errlen = errlen;
	r = ini_parse_stream(read_line, &p, on_value, &p);
	if (r > 0 && (p.err_line == 0 || r < p.err_line)) {
		p.err_line = 0;
		config__fail(&p, r, "expected 'key = value', a [section] header or a comment");
	} else if (r < 0 && p.err_line == 0) {
		config__fail(&p, p.line, "cannot parse the file (out of memory)");
	}
	if (p.err_line == 0 && ferror(f))
		config__fail(&p, p.line, "cannot read the file: %s", strerror(errno));
	check_sections(&p);
	resolve_secrets(&p, secrets);
	if (p.err_line != 0) {
		config_free(p.c);
		return NULL;
	}
	config_log_secrets(p.c);
	return p.c;
}

struct config *
config_load(const char *path, unsigned secrets, char *err, size_t errlen)
{
	struct config *c;
	FILE *f = fopen(path, "re");
	struct stat st;

	if (f == NULL) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	/* The file decides which files are read as secrets and where they are
	 * sent: as OpenSSH does, only its owner (or root) may be able to change
	 * it. */
	if (fstat(fileno(f), &st) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		fclose(f);
		return NULL;
	}
	/* A directory reads as an empty file and a device as whatever it
	 * gives: neither is a configuration, and the advice of the checks
	 * below (chmod) would be wrong for them. */
	if (S_ISDIR(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		snprintf(err, errlen,
		         "%s is a %s, not a configuration file; name the file itself (--config "
		         "/etc/delver/delver.conf, delver.conf(5))",
		         path, S_ISDIR(st.st_mode) ? "directory" : "device");
		fclose(f);
		return NULL;
	}
	if ((st.st_mode & 022) != 0) {
		snprintf(err, errlen,
		         "%s is writable by %s (mode %04o), and it decides where secrets are "
		         "sent; run chmod go-w %s",
		         path, (st.st_mode & 002) ? "any user" : "its group",
		         (unsigned)(st.st_mode & 07777), path);
		fclose(f);
		return NULL;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		snprintf(err, errlen,
		         "%s is owned by user %u, neither root nor the user delver runs as (%u); "
		         "chown it to one of them",
		         path, (unsigned)st.st_uid, (unsigned)geteuid());
		fclose(f);
		return NULL;
	}
	c = config_load_stream(f, path, secrets, err, errlen);
	fclose(f);
	return c;
}

void
config_irc_init(struct config_irc *irc, const char *network)
{
	memset(irc, 0, sizeof(*irc));
	irc->network = xstrdup(network);
	irc->tls = true;
	irc->tls_verify = true;
	irc->realname = xstrdup("delver dice bot");
	irc->prefix = xstrdup("!");
	irc->flood_burst = CONFIG_IRC_FLOOD_BURST;
	irc->flood_interval_ms = CONFIG_IRC_FLOOD_INTERVAL_MS;
	irc->max_lines = CONFIG_IRC_MAX_LINES;
	irc->formatting = true;
	irc->user_burst = CONFIG_IRC_USER_BURST;
	irc->user_interval_ms = CONFIG_IRC_USER_INTERVAL_MS;
	irc->channel_burst = CONFIG_IRC_CHANNEL_BURST;
	irc->channel_interval_ms = CONFIG_IRC_CHANNEL_INTERVAL_MS;
	irc->ping_interval = CONFIG_IRC_PING_INTERVAL;
	irc->ping_timeout = CONFIG_IRC_PING_TIMEOUT;
}

struct config *
config_defaults(void)
{
	struct config *c = xcalloc(1, sizeof(*c));

	c->bot.snapshot_interval = 60;
	c->bot.snapshot_keep = 24;
	c->bot.fsync = FSYNC_EVERYSEC;
	c->bot.evict_after = 86400;
	c->bot.log_level = LOG_LEVEL_INFO;
	c->discord.rest_url = xstrdup("https://discord.com/api/v10");
	c->discord.shard_first = c->discord.shard_last = -1;
	c->discord.intents = 1;
	c->discord.tls_verify = true;
	c->discord.compress = DISCORD_COMPRESS_ZLIB;
	c->discord.stats_interval = 300;
	c->console.enabled = true;
	c->console.channel = xstrdup("table");
	return c;
}

/*
 * Registers the SASL PLAIN payload as IRC sends it (irc_reg.c: base64 of
 * "user\0user\0password", in lines of 400 characters), so a server that
 * echoes it, whole or one line of it, does not put the password in the log.
 */
static void
log_sasl_payload(const char *user, const char *pw)
{
	size_t ul = strlen(user), pl = strlen(pw), n = 2 * ul + 2 + pl, len;
	unsigned char *raw;
	char *enc;

	if (ul > 255 || pl > 1024) /* never sent: irc_reg refuses them */
		return;
	raw = xmalloc(n);
	enc = xmalloc(4 * (n / 3 + 1) + 1);
	memcpy(raw, user, ul);
	raw[ul] = '\0';
	memcpy(raw + ul + 1, user, ul);
	raw[2 * ul + 1] = '\0';
	memcpy(raw + 2 * ul + 2, pw, pl);
	EVP_EncodeBlock((unsigned char *)enc, raw, (int)n);
	len = strlen(enc);
	for (size_t off = 0; off < len; off += 400) {
		char chunk[401];
		size_t k = len - off > 400 ? 400 : len - off;

		memcpy(chunk, enc + off, k);
		chunk[k] = '\0';
		log_secret(chunk);
	}
	memset(raw, 0, n);
	memset(enc, 0, len);
	free(raw);
	free(enc);
}

void
config_log_secrets(const struct config *c)
{
	log_secret(c->discord.token);
	log_secret(c->store.password);
	for (size_t i = 0; i < c->nirc; i++) {
		log_secret(c->irc[i].password);
		log_secret(c->irc[i].nickserv_password);
		if (c->irc[i].sasl_user != NULL && c->irc[i].password != NULL)
			log_sasl_payload(c->irc[i].sasl_user, c->irc[i].password);
		for (size_t k = 0; k < c->irc[i].nchannels; k++)
			log_secret(c->irc[i].channel_keys[k]);
	}
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

void
config_irc_copy(struct config_irc *dst, const struct config_irc *src)
{
	*dst = *src;
	dst->network = dup_or_null(src->network);
	dst->host = dup_or_null(src->host);
	dst->tls_ca_file = dup_or_null(src->tls_ca_file);
	dst->tls_fingerprint = dup_or_null(src->tls_fingerprint);
	dst->tls_cert_file = dup_or_null(src->tls_cert_file);
	dst->nick = dup_or_null(src->nick);
	for (size_t i = 0; i < src->nalt_nicks; i++)
		dst->alt_nicks[i] = dup_or_null(src->alt_nicks[i]);
	dst->username = dup_or_null(src->username);
	dst->realname = dup_or_null(src->realname);
	dst->sasl_user = dup_or_null(src->sasl_user);
	dst->password_source = dup_or_null(src->password_source);
	dst->password = dup_or_null(src->password);
	dst->nickserv_source = dup_or_null(src->nickserv_source);
	dst->nickserv_password = dup_or_null(src->nickserv_password);
	for (size_t i = 0; i < src->nchannels; i++) {
		dst->channels[i] = dup_or_null(src->channels[i]);
		dst->channel_keys[i] = dup_or_null(src->channel_keys[i]);
	}
	dst->prefix = dup_or_null(src->prefix);
	for (size_t i = 0; i < src->nplain_channels; i++)
		dst->plain_channels[i] = dup_or_null(src->plain_channels[i]);
	for (size_t i = 0; i < src->nadmins; i++)
		dst->admins[i] = dup_or_null(src->admins[i]);
}

void
config_irc_clear(struct config_irc *irc)
{
	free(irc->network);
	free(irc->host);
	free(irc->tls_ca_file);
	free(irc->tls_fingerprint);
	free(irc->tls_cert_file);
	free(irc->nick);
	for (size_t i = 0; i < irc->nalt_nicks; i++)
		free(irc->alt_nicks[i]);
	free(irc->username);
	free(irc->realname);
	free(irc->sasl_user);
	free(irc->password_source);
	config_secret_free(irc->password);
	free(irc->nickserv_source);
	config_secret_free(irc->nickserv_password);
	for (size_t i = 0; i < irc->nchannels; i++) {
		free(irc->channels[i]);
		config_secret_free(irc->channel_keys[i]);
	}
	free(irc->prefix);
	for (size_t i = 0; i < irc->nplain_channels; i++)
		free(irc->plain_channels[i]);
	for (size_t i = 0; i < irc->nadmins; i++)
		free(irc->admins[i]);
	memset(irc, 0, sizeof(*irc));
}

void
config_free(struct config *c)
{
	if (c == NULL)
		return;
	free(c->path);
	free(c->bot.state_dir);
	free(c->bot.state_root);
	free(c->bot.gm_role);
	free(c->discord.token_source);
	config_secret_free(c->discord.token);
	free(c->discord.application_id);
	free(c->discord.gateway_url);
	free(c->discord.rest_url);
	free(c->discord.tls_ca_file);
	free(c->discord.dev_guild);
	for (size_t i = 0; i < c->nirc; i++)
		config_irc_clear(&c->irc[i]);
	free(c->store.conninfo);
	free(c->store.password_source);
	config_secret_free(c->store.password);
	free(c->console.user);
	free(c->console.channel);
	free(c);
}
