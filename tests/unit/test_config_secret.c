/* Unit tests for secrets in the configuration: env:, file:, credential:,
 * their error messages (which never hold the secret) and log scrubbing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/config/config.h"
#include "bot/config/config_secret.h"
#include "bot/log.h"

#define TOKEN "MTIzNDU2Nzg5MDEy.GhIjKl.s3cr3t-t0ken"

static char dir[64];
static char err[1024];

static int
setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/delver-secret-XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	unsetenv("CREDENTIALS_DIRECTORY");
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Writes text to dir/name with mode; returns the path (static buffer). */
static const char *
put(const char *name, const char *text, mode_t mode)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
	return path;
}

/* Loads text as "t.conf", resolving secrets. */
static struct config *
load_text(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct config *c;

	assert_non_null(f);
	err[0] = '\0';
	c = config_load_stream(f, "t.conf", CONFIG_SECRETS_ALL, err, sizeof(err));
	fclose(f);
	return c;
}

/* Loads a config whose [discord] token_source is source. */
static struct config *
load_source(const char *source)
{
	char text[512];

	snprintf(text, sizeof(text), "[discord]\ntoken_source = %s\n", source);
	return load_text(text);
}

static void
refused(const char *source, const char *want)
{
	struct config *c = load_source(source);

	if (c != NULL)
		fail_msg("accepted %s", source);
	assert_string_equal(err, want);
	assert_null(strstr(err, TOKEN));
}

static void
test_env(void **state)
{
	struct config *c;

	setenv("DELVER_TEST_TOKEN", TOKEN, 1);
	c = load_source("env:DELVER_TEST_TOKEN");
	assert_non_null(c);
	assert_string_equal(c->discord.token, TOKEN);
	config_free(c);
	unsetenv("DELVER_TEST_TOKEN");
	refused("env:DELVER_TEST_TOKEN", "t.conf:2: [discord] token_source: the environment "
	                                 "variable DELVER_TEST_TOKEN is not set");
	/* Not a token as Discord issues them: named, never echoed. */
	setenv("DELVER_TEST_TOKEN", "Bot " TOKEN, 1);
	refused(
	    "env:DELVER_TEST_TOKEN",
	    "t.conf:2: [discord] token_source: the token read from env:DELVER_TEST_TOKEN starts "
	    "with 'Bot ', which delver adds itself; keep the token alone there");
	setenv("DELVER_TEST_TOKEN", TOKEN " " TOKEN, 1);
	refused("env:DELVER_TEST_TOKEN",
	        "t.conf:2: [discord] token_source: the token read from env:DELVER_TEST_TOKEN holds "
	        "a blank, which no Discord token does; keep the token alone there");
	setenv("DELVER_TEST_TOKEN", TOKEN "\nPRIVMSG #x :hi", 1);
	refused("env:DELVER_TEST_TOKEN",
	        "t.conf:2: [discord] token_source: the environment variable DELVER_TEST_TOKEN must "
	        "hold the secret alone, on one line (at most 4096 bytes)");
	unsetenv("DELVER_TEST_TOKEN");
}

static void
test_file(void **state)
{
	char source[160], want[400];
	const char *path = put("token", TOKEN "\r\n", 0600);
	struct config *c;

	snprintf(source, sizeof(source), "file:%s", path);
	c = load_source(source);
	assert_non_null(c);
	assert_string_equal(c->discord.token, TOKEN); /* the line end is dropped */
	config_free(c);

	assert_int_equal(chmod(path, 0644), 0);
	snprintf(want, sizeof(want),
	         "t.conf:2: [discord] token_source: %s is open to other users (mode 0644); run "
	         "chmod 600 %s",
	         path, path);
	refused(source, want);
	assert_int_equal(chmod(path, 0640), 0);
	snprintf(want, sizeof(want),
	         "t.conf:2: [discord] token_source: %s is open to other users (mode 0640); run "
	         "chmod 600 %s",
	         path, path);
	refused(source, want);

	put("token", TOKEN "\nsecond line\n", 0400);
	snprintf(want, sizeof(want),
	         "t.conf:2: [discord] token_source: %s must hold the secret alone, on one line",
	         path);
	refused(source, want);
	put("token", "", 0600);
	snprintf(
	    want, sizeof(want),
	    "t.conf:2: [discord] token_source: %s is empty; it must hold the secret, on one line",
	    path);
	refused(source, want);
	put("token", "\n", 0600);
	refused(source, want);

	snprintf(source, sizeof(source), "file:%s/absent", dir);
	snprintf(want, sizeof(want),
	         "t.conf:2: [discord] token_source: cannot read %s/absent: No such file or "
	         "directory",
	         dir);
	refused(source, want);
	snprintf(source, sizeof(source), "file:%s", dir);
	snprintf(want, sizeof(want), "t.conf:2: [discord] token_source: %s is not a regular file",
	         dir);
	refused(source, want);
}

static void
test_file_too_long(void **state)
{
	char *big = malloc(SECRET_MAX + 2), source[160], want[400];
	const char *path;

	memset(big, 'a', SECRET_MAX + 1);
	big[SECRET_MAX + 1] = '\0';
	path = put("big", big, 0600);
	snprintf(source, sizeof(source), "file:%s", path);
	snprintf(want, sizeof(want),
	         "t.conf:2: [discord] token_source: %s is longer than 4096 bytes; it must hold "
	         "only the secret",
	         path);
	refused(source, want);
	big[SECRET_MAX] = '\0'; /* exactly the limit */
	put("big", big, 0600);
	config_free(load_source(source));
	assert_string_equal(err, "");
	free(big);
}

static void
test_credential(void **state)
{
	char want[400];
	struct config *c;

	refused(
	    "credential:discord-token",
	    "t.conf:2: [discord] token_source: credential:discord-token is read from "
	    "$CREDENTIALS_DIRECTORY, which systemd sets for the service (the shipped unit loads "
	    "it from /etc/credstore/ with LoadCredential=discord-token); outside it, name the "
	    "directory with --credentials-dir (delver --check-config --credentials-dir "
	    "/etc/credstore)");
	setenv("CREDENTIALS_DIRECTORY", dir, 1);
	snprintf(want, sizeof(want),
	         "t.conf:2: [discord] token_source: cannot read credential discord-token "
	         "(%s/discord-token): No such file or directory",
	         dir);
	refused("credential:discord-token", want);
	/* In a directory no one else may enter (systemd's, /etc/credstore's
	 * 0700) the file's mode does not matter. */
	put("discord-token", TOKEN, 0444);
	c = load_source("credential:discord-token");
	assert_non_null(c);
	assert_string_equal(c->discord.token, TOKEN);
	config_free(c);
	/* In one anyone may enter, a file anyone may read is refused; group
	 * bits are allowed (systemd may grant access through a group). */
	assert_int_equal(chmod(dir, 0711), 0);
	snprintf(want, sizeof(want),
	         "t.conf:2: [discord] token_source: credential discord-token (%s/discord-token) is "
	         "open to other users (mode 0444); run chmod 600 %s/discord-token",
	         dir, dir);
	refused("credential:discord-token", want);
	put("discord-token", TOKEN, 0440);
	c = load_source("credential:discord-token");
	assert_non_null(c);
	assert_string_equal(c->discord.token, TOKEN);
	config_free(c);
	assert_int_equal(chmod(dir, 0700), 0);
	unsetenv("CREDENTIALS_DIRECTORY");
}

static void
test_irc_password(void **state)
{
	const char *text = "[irc.n]\nhost = h\nnick = n\nsasl_user = me\n"
	                   "password_source = env:DELVER_TEST_PASS\n";
	struct config *c;

	setenv("DELVER_TEST_PASS", "hunter22", 1);
	c = load_text(text);
	assert_non_null(c);
	assert_string_equal(c->irc[0].password, "hunter22");
	config_free(c);
	unsetenv("DELVER_TEST_PASS");
	assert_null(load_text(text));
	assert_string_equal(err, "t.conf:5: [irc.n] password_source: the environment variable "
	                         "DELVER_TEST_PASS is not set");
}

/* Loads [discord] with tls_ca_file = path (line 3), or [irc.n] with key =
 * path (line 4). */
static struct config *
load_pem(const char *section, const char *key, const char *path)
{
	char text[512];

	if (strcmp(section, "discord") == 0)
		snprintf(text, sizeof(text),
		         "[discord]\ntoken_source = env:DELVER_TEST_TOKEN\n%s = %s\n", key, path);
	else
		snprintf(text, sizeof(text), "[irc.n]\nhost = h\nnick = n\n%s = %s\n", key, path);
	return load_text(text);
}

/* Asserts that section's key = path is refused at line with key: why. */
static void
pem_refused(const char *section, const char *key, const char *path, const char *why)
{
	char want[700];
	struct config *c = load_pem(section, key, path);

	if (c != NULL)
		fail_msg("accepted %s = %s", key, path);
	snprintf(want, sizeof(want), "t.conf:%d: [%s] %s: %s",
	         strcmp(section, "discord") == 0 ? 3 : 4,
	         strcmp(section, "discord") == 0 ? "discord" : "irc.n", key, why);
	assert_string_equal(err, want);
}

/*
 * A key naming a PEM file is refused as the configuration is read when the
 * file is missing, not a file, or does not hold what the key needs; the
 * connection would otherwise fail for ever at every attempt.
 */
static void
test_pem_files_are_checked(void **state)
{
	char cmd[512], ca[128], both[128], none[128], why[400];
	struct config *c;

	snprintf(cmd, sizeof(cmd),
	         "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
	         "-days 2 -subj /CN=t -keyout %s/key.pem -out %s/ca.pem 2> /dev/null && "
	         "cat %s/ca.pem %s/key.pem > %s/both.pem",
	         dir, dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(ca, sizeof(ca), "%s/ca.pem", dir);
	snprintf(both, sizeof(both), "%s/both.pem", dir);
	snprintf(none, sizeof(none), "%s/none.pem", dir);
	setenv("DELVER_TEST_TOKEN", TOKEN, 1);
	c = load_pem("discord", "tls_ca_file", ca);
	assert_non_null(c);
	config_free(c);
	snprintf(why, sizeof(why), "cannot read %s: No such file or directory", none);
	pem_refused("discord", "tls_ca_file", none, why);
	pem_refused("irc", "tls_ca_file", none, why);
	pem_refused("irc", "tls_cert_file", none, why);
	snprintf(why, sizeof(why), "%s is not a file; it must be a PEM file", dir);
	pem_refused("discord", "tls_ca_file", dir, why);
	put("text.pem", "not a certificate\n", 0600);
	snprintf(why, sizeof(why),
	         "%s/text.pem holds no certificate in PEM; it must be a PEM file of CA "
	         "certificates",
	         dir);
	snprintf(cmd, sizeof(cmd), "%s/text.pem", dir);
	pem_refused("discord", "tls_ca_file", cmd, why);
	/* A client certificate needs its key beside it. */
	snprintf(why, sizeof(why),
	         "%s must hold the client certificate and its private key, in PEM", ca);
	pem_refused("irc", "tls_cert_file", ca, why);
	c = load_pem("irc", "tls_cert_file", both);
	assert_non_null(c);
	config_free(c);
	c = load_pem("irc", "tls_ca_file", ca);
	assert_non_null(c);
	config_free(c);
	log_forget_secrets();
	unsetenv("DELVER_TEST_TOKEN");
}

/* A loaded secret is registered: no later log line can carry it. */
static void
test_secrets_are_scrubbed_from_logs(void **state)
{
	char path[128], line[512] = "";
	int saved = dup(STDERR_FILENO), fd;
	struct config *c;
	FILE *f;

	setenv("DELVER_TEST_TOKEN", TOKEN, 1);
	c = load_source("env:DELVER_TEST_TOKEN");
	assert_non_null(c);
	snprintf(path, sizeof(path), "%s/log", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	log_warnx("sending Authorization: Bot %s", c->discord.token);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(fd);
	close(saved);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_string_equal(line, "warn: sending Authorization: Bot [redacted]\n");
	config_free(c);
	log_forget_secrets();
	unsetenv("DELVER_TEST_TOKEN");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_env),
	    cmocka_unit_test(test_file),
	    cmocka_unit_test(test_file_too_long),
	    cmocka_unit_test(test_credential),
	    cmocka_unit_test(test_irc_password),
	    cmocka_unit_test(test_secrets_are_scrubbed_from_logs),
	    cmocka_unit_test(test_pem_files_are_checked),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
