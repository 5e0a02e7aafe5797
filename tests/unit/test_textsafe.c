/* Unit tests for rules/base/textsafe: how a refusal finds, names and
 * quotes a character that would show as nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "rules/base/buf.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

static size_t
find(const char *s, uint32_t *cp)
{
	*cp = 0;
	return textsafe_invisible_find(s, strlen(s), cp);
}

/* The first bidi control or invisible character is found, where it
 * stands; controls, breaks, a lone byte of no character and a joiner that
 * makes an emoji sequence are not. */
static void
invisible_characters_are_found(void **unused)
{
	uint32_t cp;

	assert_int_equal(find("2\xe2\x80\x8b", &cp), 1);
	assert_int_equal(cp, 0x200B);
	assert_int_equal(find("al\xe2\x80\xaeways", &cp), 2);
	assert_int_equal(cp, 0x202E);
	assert_int_equal(find("cla\xc2\xadssic\xef\xbb\xbf", &cp), 3);
	assert_int_equal(cp, 0xAD);
	assert_int_equal(find("a\xe2\x80\x8d"
	                      "b",
	                      &cp),
	                 1);
	assert_int_equal(cp, 0x200D);
	/* a family: man, ZWJ, woman */
	assert_int_equal(find("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", &cp), 11);
	assert_int_equal(find("a\tb\x01\xc2\x85", &cp), 6);
	assert_int_equal(find("\xad", &cp), 1);
	assert_int_equal(find("", &cp), 0);
}

/* textsafe_invisible_in() says whether there is one, and where, as find
 * does; its outputs are optional. */
static void
invisible_characters_are_held(void **unused)
{
	uint32_t cp = 0;
	size_t at = 0;

	assert_true(textsafe_invisible_in("cla\xc2\xadssic", 9, &cp, &at));
	assert_int_equal(cp, 0xAD);
	assert_int_equal(at, 3);
	assert_true(textsafe_invisible_in("\xe2\x80\xae", 3, NULL, NULL));
	cp = 1;
	at = 7;
	assert_false(
	    textsafe_invisible_in("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", 11, &cp, &at));
	assert_int_equal(cp, 1);
	assert_int_equal(at, 7);
	assert_false(textsafe_invisible_in("", 0, NULL, NULL));
}

/* Blank: only spaces and what textsafe removes, or turns into a space. */
static void
blank_texts_are_seen(void **unused)
{
	assert_true(textsafe_blank("", 0));
	assert_true(textsafe_blank(" \xe2\x80\x8b\t\xe2\x80\xae ", 10));
	assert_true(textsafe_blank("\xe2\x80\x8d", 3));
	assert_false(textsafe_blank(" \xe2\x80\x8bx", 5));
	assert_false(textsafe_blank("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", 11));
}

static void
invisible_characters_are_named(void **unused)
{
	char name[TEXTSAFE_NAME_MAX];

	textsafe_invisible_name(name, sizeof(name), 0x200B, true);
	assert_string_equal(name, "an invisible character U+200B");
	textsafe_invisible_name(name, sizeof(name), 0xE007F, false);
	assert_string_equal(name, "invisible character U+E007F");
}

static void
quote(const char *s, size_t max, const char *want, bool named)
{
	struct buf b;

	buf_init(&b, 200);
	assert_int_equal(textsafe_quote(&b, s, strlen(s), max), named);
	assert_string_equal(buf_str(&b), want);
	buf_free(&b);
}

/* A refused value is quoted without what textsafe removes (no bidi
 * control reaches a terminal), and the first invisible character in it is
 * named with its column, also past the cut. */
static void
refused_values_are_quoted(void **unused)
{
	quote("no", 40, "'no'", false);
	quote("no\xe2\x80\x8b", 40, "'no' with an invisible character U+200B at column 3", true);
	quote("al\xe2\x80\xaeways", 40, "'always' with an invisible character U+202E at column 3",
	      true);
	quote("\xc3\xa9t\xc3\xa9\xe2\x80\x8b", 2,
	      "'\xc3\xa9' with an invisible character U+200B at column 4", true);
	quote("a\tb", 40, "'a b'", false);
}

/* The same quote for printf, cut on a character when out is short. */
static void
quoted_for_printf(void **unused)
{
	char out[64], small[8];
	const char *v = "no\xe2\x80\x8b";

	assert_ptr_equal(textsafe_quoted(out, sizeof(out), v, strlen(v), 80), out);
	assert_string_equal(out, "'no' with an invisible character U+200B at column 3");
	textsafe_quoted(small, sizeof(small), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8, 80);
	assert_string_equal(small, "'\xc3\xa9\xc3\xa9\xc3\xa9");
}

/* textsafe_ok_utf8 is utf8_valid() && textsafe_ok() in one walk: plain and
 * non-ASCII text, a control, a bidi control, a joiner that shows and one
 * that does not, and ill-formed bytes (a lone continuation byte, a
 * truncated sequence, an overlong one, a surrogate) at the start, in the
 * middle and at the end, after ASCII long enough for the word-at-a-time
 * path. */
static void
ok_utf8_is_valid_and_ok(void **unused)
{
	static const char *const texts[] = {
	    "",
	    "Tension 4/10",
	    "Tension \xe2\x96\x88\xe2\x96\x91 4/10",
	    "a\tb",
	    "abc\xe2\x80\xaexyz",
	    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9",
	    "a\xe2\x80\x8d b",
	    "\x80"
	    "abcdefghijkl",
	    "abcdefghijkl\x80mnop",
	    "abcdefghijklmnop\xe2\x96",
	    "abcdefghijkl\xc0\xafmnop",
	    "abcdefghijkl\xed\xa0\x80",
	    "abcdefghijkl\xe2\x96\x88\x80",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t n = strlen(texts[i]);

		assert_int_equal(textsafe_ok_utf8(texts[i], n),
		                 utf8_valid(texts[i], n) && textsafe_ok(texts[i], n));
	}
	assert_true(textsafe_ok_utf8("Tension \xe2\x96\x88 4/10", 16));
	assert_false(textsafe_ok_utf8("abcdefghijkl\x80mnop", 17));
	assert_false(textsafe_ok_utf8("abc\xe2\x80\xaexyz", 9));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(invisible_characters_are_found),
	    cmocka_unit_test(invisible_characters_are_held),
	    cmocka_unit_test(blank_texts_are_seen),
	    cmocka_unit_test(invisible_characters_are_named),
	    cmocka_unit_test(refused_values_are_quoted),
	    cmocka_unit_test(quoted_for_printf),
	    cmocka_unit_test(ok_utf8_is_valid_and_ok),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
