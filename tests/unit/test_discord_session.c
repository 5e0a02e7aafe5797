/* Tests for bot/discord/discord_session: the saved gateway session. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot/discord/discord_session.h"
#include "rules/base/buf.h"
#include "tests/unit/helpers/faultio.h"

static const struct discord_session S1 = {
    .session_id = "0123456789abcdef0123456789abcdef",
    .resume_url = "wss://gateway-us-east1-b.discord.gg",
    .app_id = "1100000000000000001",
    .seq = 4242,
    .intents = 1,
    .shard_count = 1,
};

static void
test_round_trip(void **state)
{
	struct discord_session got;
	char err[256];
	char *text = discord_session_format(&S1);

	assert_string_equal(text, "{\"session_id\":\"0123456789abcdef0123456789abcdef\","
	                          "\"resume_gateway_url\":\"wss://gateway-us-east1-b.discord.gg\","
	                          "\"application_id\":\"1100000000000000001\",\"seq\":4242,"
	                          "\"intents\":1,\"shard_count\":1}\n");
	assert_int_equal(discord_session_parse(text, strlen(text), &got, err, sizeof(err)), 0);
	assert_true(discord_session_equal(&got, &S1));
	free(text);
}

/* fuzz_session: cJSON's printer wrote 7777777770499381 as 7.77777777049938e+15,
 * which read back one less; every whole number up to 2^53 keeps its digits */
static void
test_large_numbers_round_trip(void **state)
{
	struct discord_session s = S1, got;
	char err[256];
	char *text;

	(void)state;
	s.seq = 9007199254740991;
	s.intents = 7777777770499381;
	text = discord_session_format(&s);
	assert_non_null(strstr(text, "\"seq\":9007199254740991,\"intents\":7777777770499381,"));
	assert_int_equal(discord_session_parse(text, strlen(text), &got, err, sizeof(err)), 0);
	assert_true(discord_session_equal(&got, &s));
	free(text);
}

static void
test_rejects_bad_files(void **state)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
	    {"", "the file is not a JSON object"},
	    {"[1]", "the file is not a JSON object"},
	    {"{\"seq\":1}", "\"session_id\" must be a non-empty string"},
	    {"{\"session_id\":\"\",\"seq\":1}", "\"session_id\" must be a non-empty string"},
	    {"{\"session_id\":\"a b\",\"seq\":1}",
	     "\"session_id\" holds a character that is not printable ASCII"},
	    {"{\"session_id\":\"a\"}", "\"seq\" must be a whole number from 0 to 2^53"},
	    {"{\"session_id\":\"a\",\"seq\":-1}", "\"seq\" must be a whole number from 0 to 2^53"},
	    {"{\"session_id\":\"a\",\"seq\":1.5}", "\"seq\" must be a whole number from 0 to 2^53"},
	    {"{\"session_id\":\"a\",\"seq\":1e300}",
	     "\"seq\" must be a whole number from 0 to 2^53"},
	    {"{\"session_id\":\"a\",\"seq\":1,\"resume_gateway_url\":\"http://x\"}",
	     "\"resume_gateway_url\" must be a ws:// or wss:// URL"},
	    {"{\"session_id\":\"a\",\"seq\":1,\"application_id\":\"12a\"}",
	     "\"application_id\" must be digits"},
	    {"{\"session_id\":\"a\",\"seq\":1}",
	     "\"intents\" must be a whole number from 0 to 2^53"},
	    {"{\"session_id\":\"a\",\"seq\":1,\"intents\":1,\"shard_count\":0}",
	     "\"shard_count\" must be a whole number from 1 to 65535"},
	    {"{\"session_id\":\"a\",\"seq\":1,\"intents\":1,\"shard_count\":1,\"gm_roles\":[]}",
	     "\"gm_roles\" must be an object under 8192 bytes"},
	    {"{\"last_identify\":0,\"seq\":0}", "\"session_id\" must be a non-empty string"},
	};
	struct discord_session got;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(
		    discord_session_parse(bad[i].text, strlen(bad[i].text), &got, err, sizeof(err)),
		    -1);
		assert_string_equal(err, bad[i].err);
		assert_string_equal(got.session_id, "");
	}
	/* the optional members may be absent */
	assert_int_equal(discord_session_parse(
	                     "{\"session_id\":\"a\",\"seq\":0,\"intents\":0,\"shard_count\":2}", 54,
	                     &got, err, sizeof(err)),
	                 0);
	assert_int_equal(got.shard_count, 2);
	assert_string_equal(got.resume_url, "");
	assert_int_equal(got.seq, 0);
}

/* The spacing of IDENTIFYs is the identify ledger's now: a file without a
 * session (as an earlier version wrote, keeping only its last IDENTIFY)
 * resumes nothing, and the key beside a session is ignored. */
static void
test_last_identify_ignored(void **state)
{
	static const char only[] = "{\"session_id\":\"\",\"resume_gateway_url\":\"\","
	                           "\"application_id\":\"\",\"seq\":0,\"intents\":1,"
	                           "\"shard_count\":1,\"last_identify\":1790000000123}\n";
	struct discord_session got;
	char err[256];
	char *text = discord_session_format(&S1);
	const char *with;
	struct buf b;

	assert_int_equal(discord_session_parse(only, strlen(only), &got, err, sizeof(err)), -1);
	assert_null(strstr(text, "last_identify"));
	buf_init(&b, 1 << 16);
	buf_add(&b, text, strlen(text) - 2); /* without the closing "}\n" */
	buf_adds(&b, ",\"last_identify\":1790000000123}\n");
	with = buf_str(&b);
	assert_int_equal(discord_session_parse(with, strlen(with), &got, err, sizeof(err)), 0);
	assert_true(discord_session_equal(&got, &S1));
	buf_free(&b);
	free(text);
}

static void
test_save_and_load(void **state)
{
	char *dir = tmpdir_new();
	struct buf path;
	struct discord_session got, s2 = S1;
	char err[256];
	FILE *f;

	buf_init(&path, 4096);
	buf_addf(&path, "%s/discord-session-0.json", dir);
	assert_int_equal(discord_session_load(buf_str(&path), &got, err, sizeof(err)), 0);
	assert_int_equal(discord_session_save(buf_str(&path), &S1, err, sizeof(err)), 0);
	assert_int_equal(discord_session_load(buf_str(&path), &got, err, sizeof(err)), 1);
	assert_true(discord_session_equal(&got, &S1));

	/* A failed write or fsync or rename leaves the old file whole. */
	s2.seq = 9999;
	faultio_arm(FAULTIO_WRITE, 1, ENOSPC, false);
	assert_int_equal(discord_session_save(buf_str(&path), &s2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot write"));
	faultio_arm(FAULTIO_FSYNC, 1, EIO, false);
	assert_int_equal(discord_session_save(buf_str(&path), &s2, err, sizeof(err)), -1);
	faultio_arm(FAULTIO_RENAME, 1, EIO, false);
	assert_int_equal(discord_session_save(buf_str(&path), &s2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot replace"));
	faultio_off();
	assert_int_equal(discord_session_load(buf_str(&path), &got, err, sizeof(err)), 1);
	assert_int_equal(got.seq, 4242);
	assert_int_equal(discord_session_save(buf_str(&path), &s2, err, sizeof(err)), 0);
	assert_int_equal(discord_session_load(buf_str(&path), &got, err, sizeof(err)), 1);
	assert_int_equal(got.seq, 9999);

	/* A damaged file is reported, naming the file. */
	f = fopen(buf_str(&path), "w");
	fputs("{\"session_id\":\"abc\",\"se", f);
	fclose(f);
	assert_int_equal(discord_session_load(buf_str(&path), &got, err, sizeof(err)), -1);
	assert_non_null(strstr(err, buf_str(&path)));
	assert_non_null(strstr(err, "not a JSON object"));
	/* Removed, durably; removing nothing is no error. */
	assert_int_equal(discord_session_remove(buf_str(&path), err, sizeof(err)), 0);
	assert_int_equal(discord_session_load(buf_str(&path), &got, err, sizeof(err)), 0);
	assert_int_equal(discord_session_remove(buf_str(&path), err, sizeof(err)), 0);
	buf_free(&path);
	tmpdir_remove(dir);
}

/* A link in the state directory is never followed (check-26 F6): neither
 * the session file nor its temporary file, whatever they point to; the
 * target keeps its bytes and its mode. */
static void
test_links_not_followed(void **state)
{
	char *dir = tmpdir_new();
	struct buf path, tmp, victim;
	struct discord_session got;
	struct stat sb;
	char err[512], text[64] = "";
	FILE *f;

	buf_init(&path, 4096);
	buf_init(&tmp, 4096);
	buf_init(&victim, 4096);
	buf_addf(&path, "%s/discord-session-0.json", dir);
	buf_addf(&tmp, "%s/discord-session-0.json.tmp", dir);
	buf_addf(&victim, "%s/victim", dir);
	f = fopen(buf_str(&victim), "w");
	fputs("not delver\n", f);
	fclose(f);
	assert_int_equal(chmod(buf_str(&victim), 0644), 0);
	assert_int_equal(symlink(buf_str(&victim), buf_str(&tmp)), 0);
	assert_int_equal(discord_session_save(buf_str(&path), &S1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a symbolic link, and delver never follows a link in "
	                            "its state directory"));
	assert_int_equal(symlink(buf_str(&victim), buf_str(&path)), 0);
	assert_int_equal(discord_session_load(buf_str(&path), &got, err, sizeof(err)), -1);
	assert_non_null(strstr(err, buf_str(&path)));
	assert_non_null(strstr(err, "is a symbolic link"));
	assert_int_equal(stat(buf_str(&victim), &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0644);
	f = fopen(buf_str(&victim), "r");
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_string_equal(text, "not delver\n");
	buf_free(&path);
	buf_free(&tmp);
	buf_free(&victim);
	tmpdir_remove(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_large_numbers_round_trip),
	    cmocka_unit_test(test_rejects_bad_files),
	    cmocka_unit_test(test_last_identify_ignored),
	    cmocka_unit_test(test_save_and_load),
	    cmocka_unit_test(test_links_not_followed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
