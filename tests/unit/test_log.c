/* Tests for bot/log: secrets scrubbed whole, cut short, as encoded forms
 * (the SASL payload config registers) and, when short, as words. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bot/config/config.h"
#include "bot/log.h"
#include "tests/unit/helpers/stderrcap.h"

#define TOKEN "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"

/* Logs line at warn level and returns what reached stderr (static). */
static const char *
logged(const char *line)
{
	static struct stderrcap c;

	assert_int_equal(stderrcap_begin(&c), 0);
	log_warnx("%s", line);
	return stderrcap_end(&c);
}

/* The time of a stamped line ("2026-12-02T00:20:01.123Z "), in ms since
 * 1970, or -1 when line does not start with one. */
static int64_t
stamp_ms(const char *line)
{
	/* the shape, digit by digit: 'd' a digit, anything else itself */
	static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ ";
	static const int at[7] = {0, 5, 8, 11, 14, 17, 20}, len[7] = {4, 2, 2, 2, 2, 2, 3};
	int v[7] = {0};
	struct tm tm = {0};

	for (size_t k = 0; k < sizeof(shape) - 1; k++)
		if (shape[k] == 'd' ? line[k] < '0' || line[k] > '9' : line[k] != shape[k])
			return -1;
	for (int f = 0; f < 7; f++)
		for (int k = 0; k < len[f]; k++)
			v[f] = v[f] * 10 + (line[at[f] + k] - '0');
	tm.tm_year = v[0] - 1900;
	tm.tm_mon = v[1] - 1;
	tm.tm_mday = v[2];
	tm.tm_hour = v[3];
	tm.tm_min = v[4];
	tm.tm_sec = v[5];
	return (int64_t)timegm(&tm) * 1000 + v[6];
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Outside journald, a daemon's lines carry the time they were written
 * (UTC, ISO 8601, to the millisecond) once the run began (log_set_time);
 * before it was, none had a time, so an operator running delver by hand or
 * under another supervisor could not tell when anything happened. Under
 * journald (JOURNAL_STREAM names stderr), which stamps each line itself,
 * the lines keep their priority prefix and no time.
 */
static void
test_time_outside_the_journal(void **state)
{
	struct stderrcap c;
	const char *out;
	int64_t before, after, at;
	char v[64];
	struct stat st;

	(void)state;
	log_forget_secrets();
	unsetenv("JOURNAL_STREAM");
	log_detect_journal();
	assert_false(log_to_journal());
	log_set_time(true);
	before = now_ms();
	out = logged("a line");
	after = now_ms();
	at = stamp_ms(out);
	assert_true(at >= before && at <= after);
	assert_string_equal(out + 25, "warn: a line\n");
	/* the journal: the priority, no time */
	assert_int_equal(stderrcap_begin(&c), 0);
	assert_int_equal(fstat(STDERR_FILENO, &st), 0);
	snprintf(v, sizeof(v), "%llu:%llu", (unsigned long long)st.st_dev,
	         (unsigned long long)st.st_ino);
	setenv("JOURNAL_STREAM", v, 1);
	log_detect_journal();
	log_warnx("in the journal");
	assert_string_equal(stderrcap_end(&c), "<4>warn: in the journal\n");
	assert_true(log_to_journal());
	/* a stream that is not stderr: stamped */
	setenv("JOURNAL_STREAM", "1:2", 1);
	log_detect_journal();
	assert_true(stamp_ms(logged("elsewhere")) >= before);
	unsetenv("JOURNAL_STREAM");
	log_detect_journal();
	log_set_time(false);
	assert_string_equal(logged("plain"), "warn: plain\n");
}

static void
test_whole_and_cut(void **state)
{
	char body[512];

	log_forget_secrets();
	log_secret(TOKEN);
	assert_string_equal(logged("a " TOKEN " b"), "warn: a [redacted] b\n");
	/* An error body echoing "Authorization: Bot <token>", cut at 200
	 * characters by the caller: the token minus its last characters. */
	for (size_t k = 1; k <= strlen(TOKEN) - 8; k++) {
		snprintf(body, sizeof(body), "answered 400: {\"h\":\"Authorization: Bot %.*s",
		         (int)(strlen(TOKEN) - k), TOKEN);
		assert_string_equal(logged(body),
		                    "warn: answered 400: {\"h\":\"Authorization: Bot [redacted]\n");
	}
	/* Fewer than 8 bytes of its start are left alone. */
	assert_string_equal(logged("MTEwMDA"), "warn: MTEwMDA\n");
	log_forget_secrets();
	assert_string_equal(logged("a " TOKEN " b"), "warn: a " TOKEN " b\n");
}

static void
test_short_secret_as_word(void **state)
{
	log_forget_secrets();
	log_secret("k3y");
	assert_string_equal(logged(":srv 324 delver #a +k k3y"),
	                    "warn: :srv 324 delver #a +k [redacted]\n");
	assert_string_equal(logged("JOIN #a,#b k3y,k3y"),
	                    "warn: JOIN #a,#b [redacted],[redacted]\n");
	assert_string_equal(logged("monk3ys k3yring"), "warn: monk3ys k3yring\n");
	log_forget_secrets();
}

static void
test_sasl_payload(void **state)
{
	static const char text[] =
	    "[irc.n]\nhost = irc.example\nnick = delver\nsasl_user = delver\n"
	    "password_source = env:DELVER_TEST_PASS\n";
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	char err[512];
	struct config *c;
	const char *payload;
	char line[256];

	setenv("DELVER_TEST_PASS", "s3cret-pass-4-tests", 1);
	log_forget_secrets();
	c = config_load_stream(f, "t.conf", CONFIG_SECRETS_ALL, err, sizeof(err));
	fclose(f);
	if (c == NULL)
		fail_msg("%s", err);
	/* base64("delver\0delver\0s3cret-pass-4-tests") */
	payload = "ZGVsdmVyAGRlbHZlcgBzM2NyZXQtcGFzcy00LXRlc3Rz";
	snprintf(line, sizeof(line), ":srv 904 delver :bad payload %s", payload);
	assert_string_equal(logged(line), "warn: :srv 904 delver :bad payload [redacted]\n");
	log_forget_secrets();
	config_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_whole_and_cut),
	    cmocka_unit_test(test_time_outside_the_journal),
	    cmocka_unit_test(test_short_secret_as_word),
	    cmocka_unit_test(test_sasl_payload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
