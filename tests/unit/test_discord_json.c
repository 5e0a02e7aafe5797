/* bot/discord/discord_json: gateway frames into an arena of cJSON nodes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bot/discord/discord_json.h"
#include "rules/base/json.h"
#include "rules/base/buf.h"

static const cJSON *
parse(struct discord_json *a, const char *text)
{
	return discord_json_parse(a, text, strlen(text));
}

/* A frame as the gateway sends one: read through cJSON's own accessors. */
static void
reads_a_frame(void **unused)
{
	struct discord_json *a = discord_json_new();
	const cJSON *root =
	    parse(a, "{\"op\":0,\"s\":42,\"t\":\"INTERACTION_CREATE\",\"d\":{\"id\":"
	             "\"123\",\"data\":{\"options\":[{\"value\":\"4d6\"},{\"value\":"
	             "-7.5}]},\"nick\":null,\"ok\":true,\"no\":false}}");
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "d"), *opts, *o;
	int n = 0;

	assert_non_null(root);
	assert_true(cJSON_IsObject(root));
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(root, "op")->valueint, 0);
	assert_true(cJSON_GetObjectItemCaseSensitive(root, "s")->valuedouble == 42.0);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "t")),
	                    "INTERACTION_CREATE");
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "id")), "123");
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(d, "nick")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "ok")));
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(d, "ok")->valueint, 1);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(d, "no")));
	opts = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "data"),
	                                        "options");
	assert_int_equal(cJSON_GetArraySize(opts), 2);
	cJSON_ArrayForEach(o, opts) n++;
	assert_int_equal(n, 2);
	o = cJSON_GetArrayItem(opts, 1);
	assert_true(cJSON_GetObjectItemCaseSensitive(o, "value")->valuedouble == -7.5);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(o, "value")->valueint, -7);
	assert_ptr_equal(opts->child->prev, o); /* cJSON's head-to-tail link */
	discord_json_free(a);
}

static void
decodes_strings(void **unused)
{
	struct discord_json *a = discord_json_new();
	const cJSON *v = parse(a, "[\"a\\u00e9\\ud83d\\ude00\\n\\t\\\"\\\\\\/\", \"\\uZZZZx\"]");

	assert_non_null(v);
	assert_string_equal(cJSON_GetArrayItem(v, 0)->valuestring,
	                    "a\xc3\xa9\xf0\x9f\x98\x80\n\t\"\\/");
	/* cJSON reads an escape that is not hex as U+0000, so the string ends. */
	assert_string_equal(cJSON_GetArrayItem(v, 1)->valuestring, "");
	/* A lone low surrogate, a high one without its pair, an unknown escape. */
	assert_null(parse(a, "\"\\udc00\""));
	assert_null(parse(a, "\"\\ud800x\""));
	assert_null(parse(a, "\"\\q\""));
	assert_null(parse(a, "\"open"));
	discord_json_free(a);
}

static void
reads_numbers_as_cjson(void **unused)
{
	struct discord_json *a = discord_json_new();
	const cJSON *v = parse(a, "[0,-0,12345678901234567890,1e999,-1e999,2.5e-3,0012]");

	assert_non_null(v);
	assert_true(cJSON_GetArrayItem(v, 1)->valuedouble == 0.0);
	assert_true(signbit(cJSON_GetArrayItem(v, 1)->valuedouble));
	assert_true(cJSON_GetArrayItem(v, 2)->valuedouble == 12345678901234567890.0);
	assert_int_equal(cJSON_GetArrayItem(v, 2)->valueint, INT_MAX);
	assert_int_equal(cJSON_GetArrayItem(v, 3)->valueint, INT_MAX);
	assert_int_equal(cJSON_GetArrayItem(v, 4)->valueint, INT_MIN);
	assert_true(cJSON_GetArrayItem(v, 5)->valuedouble == 2.5e-3);
	assert_int_equal(cJSON_GetArrayItem(v, 6)->valueint, 12);
	assert_null(parse(a, "-"));
	assert_null(parse(a, "[1.2.3]"));
	assert_null(parse(a, "+1"));
	discord_json_free(a);
}

/* Only white space may follow the value (cJSON_ParseWithLength would take
 * trailing bytes); any byte up to 0x20 counts as white space, as in cJSON. */
static void
takes_one_value(void **unused)
{
	struct discord_json *a = discord_json_new();

	assert_non_null(parse(a, " \t\r\n{} \x01"));
	assert_non_null(parse(a, "\xef\xbb\xbf{\"a\":1}"));
	assert_null(parse(a, "{}x"));
	assert_null(parse(a, "{} {}"));
	assert_null(parse(a, ""));
	assert_null(parse(a, "   "));
	assert_null(parse(a, "[1,]"));
	assert_null(parse(a, "{\"a\" 1}"));
	assert_null(parse(a, "{\"a\":1,}"));
	assert_null(parse(a, "nul"));
	/* Not NUL-terminated: only len bytes are read. */
	assert_non_null(discord_json_parse(a, "[1]]]", 3));
	discord_json_free(a);
}

static void
stops_at_cjsons_nesting_limit(void **unused)
{
	struct discord_json *a = discord_json_new();
	struct buf b;

	buf_init(&b, 1 << 16);
	for (int i = 0; i < 1000; i++)
		buf_add(&b, "[", 1);
	for (int i = 0; i < 1000; i++)
		buf_add(&b, "]", 1);
	assert_non_null(discord_json_parse(a, buf_str(&b), b.len));
	buf_reset(&b);
	for (int i = 0; i < 1001; i++)
		buf_add(&b, "[", 1);
	for (int i = 0; i < 1001; i++)
		buf_add(&b, "]", 1);
	assert_null(discord_json_parse(a, buf_str(&b), b.len));
	buf_free(&b);
	discord_json_free(a);
}

/* A frame larger than the arena's block (a GUILD_CREATE), then a small one
 * in the same arena: both read whole. */
static void
grows_and_shrinks(void **unused)
{
	struct discord_json *a = discord_json_new();
	struct buf b;
	const cJSON *v;

	buf_init(&b, 1 << 20);
	buf_add(&b, "[", 1);
	for (int i = 0; i < 20000; i++)
		buf_addf(&b, "%s{\"name\":\"role %d\"}", i ? "," : "", i);
	buf_add(&b, "]", 1);
	v = discord_json_parse(a, buf_str(&b), b.len);
	assert_int_equal(cJSON_GetArraySize(v), 20000);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
	                        cJSON_GetArrayItem(v, 19999), "name")),
	                    "role 19999");
	v = parse(a, "{\"op\":11}");
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(v, "op")->valueint, 11);
	buf_free(&b);
	discord_json_free(a);
}

/* Strings are scanned sixteen bytes at a time, both ways: every character
 * that needs an escape, at every offset of a longer plain string (across
 * three blocks of the scan), is written as cJSON prints it and read back
 * as it was. */
static void
escapes_at_every_offset(void **unused)
{
	static const char specials[] = {'"', '\\', '\x01', '\x1f', '\n', '\x7f', '/'};
	static const char plain[] = "abcdefgh\xc3\xa9ijklmnopqrstuvwxyz"
	                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ"; /* 54 bytes */
	struct discord_json *a = discord_json_new();
	char text[64];
	struct buf b;

	buf_init(&b, 4096);
	for (size_t k = 0; k < sizeof(specials); k++) {
		for (size_t at = 0; at < sizeof(plain) - 1; at++) {
			cJSON *o = cJSON_CreateObject();
			const cJSON *back;
			char *want;

			memcpy(text, plain, sizeof(plain));
			text[at] = specials[k];
			cJSON_AddStringToObject(o, "s", text);
			buf_reset(&b);
			assert_int_equal(json_write(o, &b), 0);
			want = cJSON_PrintUnformatted(o);
			assert_string_equal(buf_str(&b), want);
			back = discord_json_parse(a, buf_str(&b), b.len);
			assert_non_null(back);
			assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(back, "s")),
			                    text);
			cJSON_free(want);
			cJSON_Delete(o);
		}
	}
	buf_free(&b);
	discord_json_free(a);
}

/* A string is read only up to len, though the scan reads blocks past it:
 * a closing quote, or the character a final backslash escapes, that lies
 * past len is not the string's, at every length around a block's edge. */
static void
strings_end_within_len(void **unused)
{
	struct discord_json *a = discord_json_new();
	char text[80];

	for (size_t n = 0; n < 40; n++) {
		size_t len = 2 + n; /* [" and n letters */

		memset(text, 0, sizeof(text));
		text[0] = '[';
		text[1] = '"';
		memset(text + 2, 'x', n);
		memcpy(text + len, "\"]", 3);
		assert_null(discord_json_parse(a, text, len));
		assert_null(discord_json_parse(a, text, len + 1)); /* no ] */
		assert_non_null(discord_json_parse(a, text, len + 2));
		assert_int_equal(strlen(discord_json_parse(a, text, len + 2)->child->valuestring),
		                 n);
		/* A backslash as the last byte read: what it escapes is past len. */
		text[len] = '\\';
		memcpy(text + len + 1, "\"\"]", 4);
		assert_null(discord_json_parse(a, text, len + 1));
		assert_null(discord_json_parse(a, text, len + 2));
		assert_null(discord_json_parse(a, text, len + 3));
		assert_non_null(discord_json_parse(a, text, len + 4));
		assert_int_equal(discord_json_parse(a, text, len + 4)->child->valuestring[n], '"');
	}
	discord_json_free(a);
}

/* Every proper prefix of a frame is refused: no truncation reads as a
 * value. */
static void
refuses_every_truncation(void **unused)
{
	static const char frame[] =
	    "{\"t\":\"INTERACTION_CREATE\",\"s\":7,\"op\":0,\"d\":{\"token\":\"aW50"
	    "ZXJhY3Rpb24\",\"data\":{\"name\":\"roll\",\"options\":[{\"type\":3,"
	    "\"value\":\"2d6 \\\"a\\u00e9\\\\\"}]},\"nick\":null,\"ok\":true,\"f\":-1.5e3}}";
	struct discord_json *a = discord_json_new();

	for (size_t len = 0; len < sizeof(frame) - 1; len++)
		assert_null(discord_json_parse(a, frame, len));
	assert_non_null(discord_json_parse(a, frame, sizeof(frame) - 1));
	discord_json_free(a);
}

/* Snowflakes: the digits' value exactly, up to 2^64 - 1; anything else,
 * an empty text, a sign, a space, a 21st digit or a value past 64 bits, is
 * not one (and *out is left alone). */
static void
reads_snowflakes(void **unused)
{
	uint64_t v = 7;

	assert_true(discord_json_snowflake("1100000000000000001", &v));
	assert_true(v == 1100000000000000001ull);
	assert_true(discord_json_snowflake("0", &v));
	assert_true(v == 0);
	assert_true(discord_json_snowflake("007", &v));
	assert_true(v == 7);
	assert_true(discord_json_snowflake("18446744073709551615", &v));
	assert_true(v == UINT64_MAX);
	assert_true(discord_json_snowflake("00000000000000000042", &v));
	assert_true(v == 42);
	v = 5;
	assert_false(discord_json_snowflake("18446744073709551616", &v));
	assert_false(discord_json_snowflake("99999999999999999999", &v));
	assert_false(discord_json_snowflake("000000000000000000042", &v));
	assert_false(discord_json_snowflake("", &v));
	assert_false(discord_json_snowflake(NULL, &v));
	assert_false(discord_json_snowflake("-1", &v));
	assert_false(discord_json_snowflake("+1", &v));
	assert_false(discord_json_snowflake(" 1", &v));
	assert_false(discord_json_snowflake("12 ", &v));
	assert_false(discord_json_snowflake("12a", &v));
	assert_false(discord_json_snowflake("0x12", &v));
	assert_true(v == 5);
	/* Every digit in its place, at each length the reading goes by
	 * (eight at a time, then one). */
	assert_true(discord_json_snowflake("12345678", &v));
	assert_true(v == 12345678ull);
	assert_true(discord_json_snowflake("1234567890123456", &v));
	assert_true(v == 1234567890123456ull);
	assert_true(discord_json_snowflake("98765432109876543", &v));
	assert_true(v == 98765432109876543ull);
	assert_true(discord_json_snowflake("1234567890123456789", &v));
	assert_true(v == 1234567890123456789ull);
	assert_true(discord_json_snowflake("12345678901234567890", &v));
	assert_true(v == 12345678901234567890ull);
	/* A byte that is not a digit, at any place of 19 or 20 digits: the
	 * bytes either side of '0'-'9', a letter, a space, one past ASCII. */
	for (size_t len = 19; len <= 20; len++) {
		const char bad[] = {'/', ':', 'a', ' ', (char)0xB9};

		for (size_t at = 0; at < len; at++) {
			for (size_t k = 0; k < sizeof(bad); k++) {
				char text[21];

				memset(text, '1', len);
				text[len] = '\0';
				text[at] = bad[k];
				v = 5;
				assert_false(discord_json_snowflake(text, &v));
				assert_true(v == 5);
			}
		}
	}
	assert_true(v == 5);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(reads_a_frame),
	    cmocka_unit_test(decodes_strings),
	    cmocka_unit_test(reads_numbers_as_cjson),
	    cmocka_unit_test(takes_one_value),
	    cmocka_unit_test(stops_at_cjsons_nesting_limit),
	    cmocka_unit_test(grows_and_shrinks),
	    cmocka_unit_test(escapes_at_every_offset),
	    cmocka_unit_test(strings_end_within_len),
	    cmocka_unit_test(refuses_every_truncation),
	    cmocka_unit_test(reads_snowflakes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
