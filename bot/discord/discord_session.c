/* discord_session: the saved gateway session; see discord_session.h. */
#include "bot/discord/discord_session.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/fsio.h"
#include "bot/store/statedir.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

/* A string member that fits in n bytes (NUL included) and holds only
 * printable ASCII; "" when absent and allowed. */
static int
take_string(const cJSON *root, const char *key, bool required, char *dst, size_t n, char *err,
            size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
	const char *s = cJSON_GetStringValue(v);

	dst[0] = '\0';
	if (v == NULL && !required)
		return 0;
	if (s == NULL || (required && *s == '\0')) {
		snprintf(err, errlen, "\"%s\" must be a non-empty string", key);
		return -1;
	}
	if (strlen(s) >= n) {
		snprintf(err, errlen, "\"%s\" is longer than %zu characters", key, n - 1);
		return -1;
	}
	for (const char *p = s; *p != '\0'; p++) {
		if (*p < 0x21 || *p > 0x7e) {
			snprintf(err, errlen,
			         "\"%s\" holds a character that is not printable ASCII", key);
			return -1;
		}
	}
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

int
discord_session_parse(const char *text, size_t len, struct discord_session *out, char *err,
                      size_t errlen)
{
	cJSON *root;
	const cJSON *seq, *roles;
	int r = -1;

	memset(out, 0, sizeof(*out));
	if (len > DISCORD_SESSION_FILE_MAX) {
		snprintf(err, errlen, "the file is over %d bytes", DISCORD_SESSION_FILE_MAX);
		return -1;
	}
	root = cJSON_ParseWithLength(text, len);
	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "the file is not a JSON object");
		goto out;
	}
	if (take_string(root, "session_id", true, out->session_id, sizeof(out->session_id), err,
	                errlen) < 0 ||
	    take_string(root, "resume_gateway_url", false, out->resume_url, sizeof(out->resume_url),
	                err, errlen) < 0 ||
	    take_string(root, "application_id", false, out->app_id, sizeof(out->app_id), err,
	                errlen) < 0)
		goto out;
	if (out->resume_url[0] != '\0' && strncmp(out->resume_url, "wss://", 6) != 0 &&
	    strncmp(out->resume_url, "ws://", 5) != 0) {
		snprintf(err, errlen, "\"resume_gateway_url\" must be a ws:// or wss:// URL");
		goto out;
	}
	if (strspn(out->app_id, "0123456789") != strlen(out->app_id)) {
		snprintf(err, errlen, "\"application_id\" must be digits");
		goto out;
	}
	seq = cJSON_GetObjectItemCaseSensitive(root, "seq");
	if (!cJSON_IsNumber(seq) || seq->valuedouble < 0 ||
	    seq->valuedouble >= 9007199254740992.0 ||
	    seq->valuedouble != (double)(int64_t)seq->valuedouble) {
		snprintf(err, errlen, "\"seq\" must be a whole number from 0 to 2^53");
		goto out;
	}
	out->seq = (int64_t)seq->valuedouble;
	seq = cJSON_GetObjectItemCaseSensitive(root, "intents");
	if (!cJSON_IsNumber(seq) || seq->valuedouble < 0 ||
	    seq->valuedouble >= 9007199254740992.0 ||
	    seq->valuedouble != (double)(int64_t)seq->valuedouble) {
		snprintf(err, errlen, "\"intents\" must be a whole number from 0 to 2^53");
		goto out;
	}
	out->intents = (uint64_t)seq->valuedouble;
	seq = cJSON_GetObjectItemCaseSensitive(root, "shard_count");
	if (!cJSON_IsNumber(seq) || seq->valuedouble < 1 || seq->valuedouble > 65535 ||
	    seq->valuedouble != (double)(int)seq->valuedouble) {
		snprintf(err, errlen, "\"shard_count\" must be a whole number from 1 to 65535");
		goto out;
	}
	out->shard_count = (int)seq->valuedouble;
	roles = cJSON_GetObjectItemCaseSensitive(root, "gm_roles");
	if (roles != NULL) {
		char *rt = cJSON_IsObject(roles) ? json_print(roles) : NULL;

		if (rt == NULL || strlen(rt) >= sizeof(out->gm_roles)) {
			free(rt);
			snprintf(err, errlen, "\"gm_roles\" must be an object under %zu bytes",
			         sizeof(out->gm_roles));
			goto out;
		}
		memcpy(out->gm_roles, rt, strlen(rt) + 1);
		free(rt);
	}
	r = 0;
out:
	cJSON_Delete(root);
	if (r < 0)
		memset(out, 0, sizeof(*out));
	return r;
}

char *
discord_session_format(const struct discord_session *s)
{
	cJSON *root = cJSON_CreateObject();
	struct buf out;
	char *line;

	cJSON_AddStringToObject(root, "session_id", s->session_id);
	cJSON_AddStringToObject(root, "resume_gateway_url", s->resume_url);
	cJSON_AddStringToObject(root, "application_id", s->app_id);
	cJSON_AddNumberToObject(root, "seq", (double)s->seq);
	cJSON_AddNumberToObject(root, "intents", (double)s->intents);
	cJSON_AddNumberToObject(root, "shard_count", s->shard_count);
	if (s->gm_roles[0] != '\0') {
		cJSON *roles = cJSON_Parse(s->gm_roles);

		if (cJSON_IsObject(roles))
			cJSON_AddItemToObject(root, "gm_roles", roles);
		else
			cJSON_Delete(roles);
	}
	/* json_write, not cJSON's printer: cJSON prints a number of 16 digits
	 * with 15 when that reads back within its tolerance, so a sequence
	 * or intents near 2^53 would not read back the same */
	buf_init(&out, 8 * DISCORD_SESSION_FILE_MAX);
	if (json_write(root, &out) < 0)
		abort(); /* the fields are bounded, and escaping grows a byte to 6 at most */
	cJSON_Delete(root);
	buf_addc(&out, '\n');
	line = xstrndup(buf_str(&out), out.len);
	buf_free(&out);
	return line;
}

int
discord_session_load(const char *path, struct discord_session *out, char *err, size_t errlen)
{
	char text[DISCORD_SESSION_FILE_MAX + 1];
	size_t n = 0;
	ssize_t r;
	int fd = statedir_open(path, O_RDONLY);

	memset(out, 0, sizeof(*out));
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot open %s: %s", path, statedir_strerror(errno));
		return -1;
	}
	while (n < sizeof(text) && (r = read(fd, text + n, sizeof(text) - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		n += (size_t)r;
	}
	close(fd);
	if (discord_session_parse(text, n, out, err, errlen) < 0) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
	return 1;
}

int
discord_session_save(const char *path, const struct discord_session *s, char *err, size_t errlen)
{
	struct buf tmp, dir;
	char *text = discord_session_format(s);
	const char *slash = strrchr(path, '/');
	int fd, r = -1;

	buf_init(&tmp, 8192);
	buf_init(&dir, 8192);
	buf_addf(&tmp, "%s.tmp", path);
	if (slash != NULL)
		buf_add(&dir, path, slash == path ? 1 : (size_t)(slash - path));
	else
		buf_adds(&dir, ".");
	fd = statedir_open(buf_str(&tmp), O_WRONLY | O_CREAT | O_TRUNC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", buf_str(&tmp),
		         statedir_strerror(errno));
		goto out;
	}
	if (fsio_write_all(fd, text, strlen(text)) < 0 || fsio_fsync(fd) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", buf_str(&tmp), strerror(errno));
		close(fd);
		unlink(buf_str(&tmp));
		goto out;
	}
	if (close(fd) < 0 || fsio_rename(buf_str(&tmp), path) < 0) {
		snprintf(err, errlen, "cannot replace %s: %s", path, strerror(errno));
		unlink(buf_str(&tmp));
		goto out;
	}
	if (fsio_fsync_dir(buf_str(&dir)) < 0) {
		snprintf(err, errlen, "cannot make %s durable: %s", path, strerror(errno));
		goto out;
	}
	r = 0;
out:
	free(text);
	buf_free(&tmp);
	buf_free(&dir);
	return r;
}

int
discord_session_remove(const char *path, char *err, size_t errlen)
{
	struct buf dir;
	const char *slash = strrchr(path, '/');
	int r = 0;

	if (unlink(path) < 0 && errno != ENOENT) {
		snprintf(err, errlen, "cannot remove %s: %s", path, strerror(errno));
		return -1;
	}
	buf_init(&dir, 8192);
	if (slash != NULL)
		buf_add(&dir, path, slash == path ? 1 : (size_t)(slash - path));
	else
		buf_adds(&dir, ".");
	if (fsio_fsync_dir(buf_str(&dir)) < 0) {
		snprintf(err, errlen, "cannot make the removal of %s durable: %s", path,
		         strerror(errno));
		r = -1;
	}
	buf_free(&dir);
	return r;
}

bool
discord_session_equal(const struct discord_session *a, const struct discord_session *b)
{
	return a->seq == b->seq && a->intents == b->intents && a->shard_count == b->shard_count &&
	       strcmp(a->session_id, b->session_id) == 0 &&
	       strcmp(a->resume_url, b->resume_url) == 0 && strcmp(a->app_id, b->app_id) == 0 &&
	       strcmp(a->gm_roles, b->gm_roles) == 0;
}
