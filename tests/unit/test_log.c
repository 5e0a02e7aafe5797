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
	    cmocka_unit_test(test_short_secret_as_word),
	    cmocka_unit_test(test_sasl_payload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
