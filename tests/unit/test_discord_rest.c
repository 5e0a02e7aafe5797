/* bot/discord/discord_rest: which routes an interaction's token authorises
 * (a 401 there fails one request; elsewhere it stops REST). The requests
 * themselves are tested against the fake Discord
 * (tests/integration/test_discord_rest.sh). */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "bot/discord/discord_rest.h"

static void
token_routes(void **unused)
{
	assert_true(
	    discord_rest_token_route("/interactions/1200000000000000000/aW50ZXJhY3Rpb24/callback"));
	assert_true(discord_rest_token_route("/webhooks/1100000000000000001/aW50ZXJhY3Rpb24"));
	assert_true(discord_rest_token_route(
	    "/webhooks/1100000000000000001/aW50ZXJhY3Rpb24/messages/@original"));
}

static void
bot_token_routes(void **unused)
{
	assert_false(discord_rest_token_route("/gateway/bot"));
	assert_false(discord_rest_token_route("/applications/1100000000000000001/commands"));
	assert_false(discord_rest_token_route("/applications/1/guilds/2/commands"));
	assert_false(discord_rest_token_route("/channels/1300000000000000000/messages"));
	/* A webhook named by id alone is managed with the bot token. */
	assert_false(discord_rest_token_route("/webhooks/1100000000000000001"));
	assert_false(discord_rest_token_route("/webhooks/1100000000000000001/"));
	assert_false(discord_rest_token_route("/webhooks/1100000000000000001/?wait=true"));
	assert_false(discord_rest_token_route("/interactionsx/1/t/callback"));
}

static int
code_of(const char *body)
{
	struct rest_result res = {.status = 403, .body = body, .len = strlen(body)};

	return discord_rest_error_code(&res);
}

/* Error codes come from the body's "code" member, never from digits found
 * elsewhere in it (a message may quote any number). */
static void
error_codes(void **state)
{
	(void)state;
	assert_int_equal(code_of("{\"message\": \"Cannot send messages to this user\", "
	                         "\"code\": 50007}"),
	                 50007);
	assert_int_equal(code_of("{\"code\": 10003, \"message\": \"Unknown Channel\"}"), 10003);
	assert_int_equal(code_of("{\"message\": \"error 50007\", \"code\": 0}"), 0);
	assert_int_equal(code_of("{\"message\": \"40060\"}"), 0);
	assert_int_equal(code_of("{\"code\": \"50007\"}"), 0);
	assert_int_equal(code_of("<html>50007</html>"), 0);
	assert_int_equal(code_of(""), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(token_routes),
	    cmocka_unit_test(error_codes),
	    cmocka_unit_test(bot_token_routes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
