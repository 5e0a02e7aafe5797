/* Unit tests for bot/discord/discord_rest_wire: request targets, headers
 * and the proxy from the environment. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_rest_wire.h"

static void
expect_target(const char *origin, const char *path, const char *want)
{
	char *t = discord_rest_wire_target(origin, "/api/v10", 8, path);

	if (want == NULL) {
		assert_null(t);
		return;
	}
	assert_non_null(t);
	assert_string_equal(t, want);
	free(t);
}

/* The base's path and the path, as they are; spaces and bytes past ASCII
 * percent-encoded; other control characters refused. */
static void
targets(void **unused)
{
	(void)unused;
	expect_target(NULL, "/interactions/1/tok/callback", "/api/v10/interactions/1/tok/callback");
	expect_target(NULL, "/webhooks/3/tok?wait=true&thread_id=4",
	              "/api/v10/webhooks/3/tok?wait=true&thread_id=4");
	expect_target("http://proxy.test:8080", "/gateway/bot",
	              "http://proxy.test:8080/api/v10/gateway/bot");
	expect_target(NULL, "/a b/\xc3\xa9", "/api/v10/a%20b/%C3%A9");
	expect_target(NULL, "/a\r\nX-Injected: 1", NULL);
	expect_target(NULL, "/a\tb", NULL);
	expect_target(NULL, "/a\x7f", NULL);
	expect_target(NULL, "", "/api/v10");
}

/* A long path is read eight bytes at a time: a byte to refuse or to
 * encode is found at every offset, whatever its neighbours. */
static void
targets_long(void **unused)
{
	static const char odd[] = {'\n', '\x01', '\x1f', '\x7f', ' ', '!', '~', '\x80', '\xff'};
	char path[41], want[80];

	for (size_t at = 0; at < 40; at++) {
		for (size_t k = 0; k < sizeof(odd); k++) {
			unsigned char c = (unsigned char)odd[k];
			char *t;

			memset(path, 'a', 40);
			path[40] = '\0';
			path[at] = (char)c;
			t = discord_rest_wire_target(NULL, "/b", 2, path);
			if (c < 0x20 || c == 0x7f) {
				assert_null(t);
				continue;
			}
			memcpy(want, "/b", 2);
			memset(want + 2, 'a', at);
			if (c == ' ' || c > 0x7f)
				snprintf(want + 2 + at, sizeof(want) - 2 - at, "%%%02X%s", c,
				         path + at + 1);
			else
				snprintf(want + 2 + at, sizeof(want) - 2 - at, "%s", path + at);
			assert_non_null(t);
			assert_string_equal(t, want);
			free(t);
		}
	}
}

static int
count(const struct curl_slist *l, const char *prefix)
{
	int n = 0;

	for (; l != NULL; l = l->next)
		if (strncmp(l->data, prefix, strlen(prefix)) == 0)
			n++;
	return n;
}

/* The bot token only when given; a content type with a body; "Expect:"
 * only for the big ones. */
static void
headers(void **unused)
{
	struct curl_slist *l;

	(void)unused;
	l = discord_rest_wire_headers("secret.token", 1);
	assert_int_equal(count(l, "Authorization: Bot secret.token"), 1);
	assert_int_equal(count(l, "User-Agent: DiscordBot ("), 1);
	assert_int_equal(count(l, "Content-Type: application/json"), 1);
	assert_int_equal(count(l, "Expect:"), 0);
	curl_slist_free_all(l);
	l = discord_rest_wire_headers(NULL, 2);
	assert_int_equal(count(l, "Authorization"), 0);
	assert_int_equal(count(l, "Content-Type: application/json"), 1);
	assert_int_equal(count(l, "Expect:"), 1);
	curl_slist_free_all(l);
	l = discord_rest_wire_headers("t", 0);
	assert_int_equal(count(l, "Content-Type"), 0);
	assert_int_equal(count(l, "Authorization: Bot t"), 1);
	curl_slist_free_all(l);
}

static void
clear_proxies(void)
{
	static const char *const names[] = {"https_proxy", "HTTPS_PROXY", "http_proxy",
	                                    "HTTP_PROXY",  "all_proxy",   "ALL_PROXY",
	                                    "no_proxy",    "NO_PROXY"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unsetenv(names[i]);
}

static void
expect_proxy(const char *scheme, const char *want, const char *want_exempt)
{
	char *proxy, *noproxy;

	discord_rest_wire_proxy(scheme, &proxy, &noproxy);
	assert_string_equal(proxy, want);
	assert_string_equal(noproxy, want_exempt);
	free(proxy);
	free(noproxy);
}

/* libcurl's rules: the scheme's lower-case name first, the capitals then
 * (never HTTP_PROXY), then all_proxy; an empty variable does not count. */
static void
proxies(void **unused)
{
	(void)unused;
	clear_proxies();
	expect_proxy("https", "", "");
	setenv("https_proxy", "", 1);
	setenv("HTTPS_PROXY", "http://upper:1", 1);
	setenv("ALL_PROXY", "http://all:1", 1);
	setenv("NO_PROXY", "example.test", 1);
	expect_proxy("https", "http://upper:1", "example.test");
	setenv("HTTP_PROXY", "http://cgi:1", 1);
	expect_proxy("http", "http://all:1", "example.test");
	clear_proxies();
}

static void
origins(void **unused)
{
	CURLU *u = curl_url();
	char *o;

	(void)unused;
	assert_int_equal(curl_url_set(u, CURLUPART_URL, "http://127.0.0.1:8080/api/v10?x=1", 0),
	                 CURLUE_OK);
	o = discord_rest_wire_origin(u);
	assert_string_equal(o, "http://127.0.0.1:8080");
	free(o);
	curl_url_cleanup(u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(targets), cmocka_unit_test(targets_long), cmocka_unit_test(headers),
	    cmocka_unit_test(proxies), cmocka_unit_test(origins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
