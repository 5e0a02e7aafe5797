/* rules/base/json: cJSON trees written as JSON text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/buf.h"
#include "rules/base/json.h"

/* The writer: what cJSON_PrintUnformatted writes, escapes and all. */
static void
writes_as_cjson_prints(void **unused)
{
	cJSON *msg = cJSON_CreateObject(), *am;
	struct buf b;
	char *want;

	cJSON_AddStringToObject(msg, "content",
	                        "a \"quote\", a \\, \x01\ttab\nnew line, caf\xc3\xa9");
	cJSON_AddNumberToObject(msg, "flags", 64);
	cJSON_AddNumberToObject(msg, "neg", -12);
	cJSON_AddNumberToObject(msg, "half", 0.5);
	cJSON_AddNumberToObject(msg, "big", 12345678901234567.0);
	cJSON_AddBoolToObject(msg, "t", 1);
	cJSON_AddNullToObject(msg, "n");
	am = cJSON_AddObjectToObject(msg, "allowed_mentions");
	cJSON_AddArrayToObject(am, "parse");
	buf_init(&b, 4096);
	assert_int_equal(json_write(msg, &b), 0);
	assert_string_equal(buf_str(&b),
	                    "{\"content\":\"a \\\"quote\\\", a \\\\, \\u0001\\ttab\\nnew line, "
	                    "caf\xc3\xa9\",\"flags\":64,\"neg\":-12,\"half\":0.5,\"big\":"
	                    "12345678901234568,\"t\":true,\"n\":null,\"allowed_mentions\":{"
	                    "\"parse\":[]}}");
	want = cJSON_PrintUnformatted(msg);
	assert_string_equal(buf_str(&b), want);
	cJSON_free(want);
	/* A buffer too small: -1, never a cut body taken for whole. */
	buf_free(&b);
	buf_init(&b, 16);
	assert_int_equal(json_write(msg, &b), -1);
	buf_free(&b);
	cJSON_Delete(msg);
}

/* Integers, every number a record holds, are written digit by digit and
 * read back exactly, up to 2^53 (cJSON itself prints those past 2^31 with
 * 15 significant digits, which loses the last ones). */
static void
writes_integers_exactly(void **unused)
{
	static const struct {
		double v;
		const char *text;
	} cases[] = {
	    {0.0, "0"},
	    {-0.0, "-0"},
	    {7.0, "7"},
	    {-7.0, "-7"},
	    {1795929538.0, "1795929538"},
	    {4294967296.0, "4294967296"},
	    {9007199254740991.0, "9007199254740991"},
	    {-9007199254740991.0, "-9007199254740991"},
	    {1e300, "1.0000000000000001e+300"},
	    {0.5, "0.5"},
	};
	struct buf b;

	buf_init(&b, 4096);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *o = cJSON_CreateNumber(cases[i].v), *back;

		buf_reset(&b);
		assert_int_equal(json_write(o, &b), 0);
		assert_string_equal(buf_str(&b), cases[i].text);
		back = cJSON_Parse(buf_str(&b));
		assert_true(cJSON_IsNumber(back));
		assert_true(back->valuedouble == cases[i].v);
		cJSON_Delete(back);
		cJSON_Delete(o);
	}
	buf_free(&b);
}

/* The pieces a writer without a tree uses: every int64 exactly, strings
 * escaped as in a tree. */
static void
writes_pieces(void **unused)
{
	struct buf b;

	buf_init(&b, 4096);
	json_write_int(INT64_MIN, &b);
	buf_addc(&b, ' ');
	json_write_int(INT64_MAX, &b);
	buf_addc(&b, ' ');
	json_write_int(0, &b);
	buf_addc(&b, ' ');
	json_write_string("a \"b\"\n", &b);
	buf_addc(&b, ' ');
	json_write_string(NULL, &b);
	assert_string_equal(buf_str(&b),
	                    "-9223372036854775808 9223372036854775807 0 \"a \\\"b\\\"\\n\" \"\"");
	/* Every count of digits, each side of every power of ten. */
	for (uint64_t p = 1; p <= 1000000000000000000u; p *= 10) {
		for (int64_t d = -1; d <= 1; d++) {
			for (int sign = -1; sign <= 1; sign += 2) {
				char want[32];
				int64_t v = sign * ((int64_t)p + d);

				snprintf(want, sizeof(want), "%lld", (long long)v);
				buf_reset(&b);
				json_write_int(v, &b);
				assert_string_equal(buf_str(&b), want);
			}
		}
	}
	buf_free(&b);
}

/* Strings of every length and byte are escaped as cJSON prints them,
 * whether they are written in the room reserved for them or, past that
 * room's size or under a cap too tight for it, piece by piece; a string
 * that fits the cap exactly is written whole, one byte more is refused. */
static void
writes_strings_as_cjson_does(void **unused)
{
	static const char bytes[] = "ab \"\\\x01\x1f\t\n\x7f\xc3\xa9z";
	char s[5000];
	unsigned seed = 7;

	for (size_t len = 0; len < sizeof(s); len += len < 40 ? 1 : 97) {
		cJSON *o;
		char *want;
		struct buf b;

		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly plain runs, as text is, with escapes among them */
			s[i] = (seed >> 16) % 4 != 0 ? (char)('a' + (seed >> 20) % 26)
			                             : bytes[(seed >> 20) % (sizeof(bytes) - 1)];
		}
		s[len] = '\0';
		o = cJSON_CreateString(s);
		want = cJSON_PrintUnformatted(o);
		buf_init(&b, 1 << 20);
		json_write_string(s, &b);
		assert_string_equal(buf_str(&b), want);
		buf_free(&b);
		buf_init(&b, strlen(want)); /* no room for the worst case */
		json_write_string_len(s, len, &b);
		assert_false(b.toobig);
		assert_string_equal(buf_str(&b), want);
		buf_free(&b);
		buf_init(&b, strlen(want));
		buf_addc(&b, 'x');
		json_write_string_len(s, len, &b);
		assert_true(b.toobig);
		buf_free(&b);
		cJSON_free(want);
		cJSON_Delete(o);
	}
}

/* The escape of byte c as JSON writes it, a byte at a time. */
static void
escape_ref(unsigned char c, struct buf *out)
{
	static const char shorts[] = "btn.fr";

	if (c == '"' || c == '\\')
		buf_addf(out, "\\%c", c);
	else if (c >= 8 && c <= 13 && shorts[c - 8] != '.')
		buf_addf(out, "\\%c", shorts[c - 8]);
	else if (c < 32)
		buf_addf(out, "\\u%04x", c);
	else
		buf_addc(out, (char)c);
}

/* Every byte at every place of strings of up to 19 bytes, alone, beside
 * another to escape and beside a blank (where a word's test may flag a
 * byte that needs nothing), is written as a byte-at-a-time escaper
 * writes it. */
static void
escapes_every_byte_in_every_place(void **unused)
{
	static const unsigned char beside[] = {'a', ' ', '!', '"', '\\', 0x1f, 0x00, 0x7f, 0xff};

	for (size_t len = 1; len < 20; len++)
		for (size_t at = 0; at < len; at++)
			for (unsigned c = 0; c < 256; c++)
				for (size_t k = 0; k < sizeof(beside); k++) {
					unsigned char s[20];
					struct buf want, got;

					memset(s, 'a', sizeof(s));
					s[at] = (unsigned char)c;
					if (at + 1 < len)
						s[at + 1] = beside[k];
					buf_init(&want, 1 << 12);
					buf_init(&got, 1 << 12);
					buf_addc(&want, '"');
					for (size_t i = 0; i < len; i++)
						escape_ref(s[i], &want);
					buf_addc(&want, '"');
					json_write_string_len((const char *)s, len, &got);
					assert_int_equal(got.len, want.len);
					assert_memory_equal(got.p, want.p, want.len);
					buf_free(&want);
					buf_free(&got);
				}
}

/* A name of the program's own is written as json_write_string writes it,
 * in room to spare or under a cap: whole when it fits, else refused. */
static void
writes_names_as_strings(void **unused)
{
	static const char *const names[] = {
	    "tension", "", "a", "dungeon procedure", "x-y_z.1 (2)", "\xc3\xa9t\xc3\xa9"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct buf want, got;

		buf_init(&want, 1 << 20);
		buf_init(&got, 1 << 20);
		buf_addc(&want, ',');
		buf_addc(&got, ',');
		json_write_string(names[i], &want);
		json_write_name(names[i], &got);
		assert_string_equal(buf_str(&got), buf_str(&want));
		for (size_t cap = 0; cap <= want.len + 1; cap++) {
			struct buf w, g;

			buf_init(&w, cap);
			buf_init(&g, cap);
			json_write_string(names[i], &w);
			json_write_name(names[i], &g);
			assert_int_equal(g.toobig, w.toobig);
			assert_string_equal(buf_str(&g), buf_str(&w));
			buf_free(&w);
			buf_free(&g);
		}
		buf_free(&want);
		buf_free(&got);
	}
}

/* json_write_string_len writes every byte it is given, a NUL too. */
static void
writes_counted_strings(void **unused)
{
	struct buf b;

	buf_init(&b, 4096);
	json_write_string_len("a\0\"b", 4, &b);
	json_write_string_len("", 0, &b);
	assert_int_equal(b.len, 14);
	assert_memory_equal(b.p, "\"a\\u0000\\\"b\"\"\"", 14);
	buf_free(&b);
}

/* json_print: json_write's text as a string of its own; NULL for no tree
 * or a raw node. */
static void
prints_a_string(void **unused)
{
	cJSON *o = cJSON_CreateObject();
	char *t;

	cJSON_AddNumberToObject(o, "seq", 7777777770499381.0);
	cJSON_AddStringToObject(o, "s", "a\"b");
	t = json_print(o);
	assert_string_equal(t, "{\"seq\":7777777770499381,\"s\":\"a\\\"b\"}");
	free(t);
	cJSON_AddRawToObject(o, "raw", "1");
	assert_null(json_print(o));
	assert_null(json_print(NULL));
	cJSON_Delete(o);
}

/* Trees made in a scratch window come from the arena and go at its end;
 * one made before a window and deleted in it is freed for real (the
 * sanitizers' leak check would see it otherwise); nested windows end at
 * the outermost; a large node takes a block of its own. */
static void
scratch_trees(void **state)
{
	cJSON_Hooks hooks = {.malloc_fn = json_malloc, .free_fn = json_free};
	cJSON *before, *o;
	char big[100000], *want;
	struct buf b;

	cJSON_InitHooks(&hooks);
	buf_init(&b, 1 << 20);
	before = cJSON_CreateString("made outside");
	json_scratch_begin();
	o = cJSON_CreateObject();
	for (int i = 0; i < 2000; i++)
		cJSON_AddNumberToObject(o, "n", i);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	json_scratch_begin();
	cJSON_AddStringToObject(o, "big", big);
	json_scratch_end();
	cJSON_Delete(before);
	assert_int_equal(json_write(o, &b), 0);
	want = cJSON_PrintUnformatted(o); /* from the arena too */
	assert_string_equal(buf_str(&b), want);
	assert_int_equal(b.len, 1 + 2000 * 5 + 6890 + 7 + 99999 + 1 + 1);
	cJSON_free(want);
	cJSON_Delete(o);
	json_scratch_end();
	/* Outside a window, cJSON allocates as ever. */
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "k", "v");
	buf_reset(&b);
	assert_int_equal(json_write(o, &b), 0);
	assert_string_equal(buf_str(&b), "{\"k\":\"v\"}");
	cJSON_Delete(o);
	buf_free(&b);
	cJSON_InitHooks(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(writes_as_cjson_prints),
	    cmocka_unit_test(writes_strings_as_cjson_does),
	    cmocka_unit_test(writes_counted_strings),
	    cmocka_unit_test(writes_names_as_strings),
	    cmocka_unit_test(escapes_every_byte_in_every_place),
	    cmocka_unit_test(writes_integers_exactly),
	    cmocka_unit_test(writes_pieces),
	    cmocka_unit_test(prints_a_string),
	    cmocka_unit_test(scratch_trees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
