/*
 * Unit tests for bot/irc/irc_fold: every CASEMAPPING, with exact folded bytes;
 * rfc7613's width mapping, lowercase and NFC; text that is not UTF-8; and
 * folds too long for their buffer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "bot/irc/irc_fold.h"

static const char *
fold(enum irc_casemap cm, const char *in)
{
	static char out[256];

	assert_int_equal(irc_fold(cm, in, out, sizeof(out)), 0);
	return out;
}

static void
test_casemapping_names(void **state)
{
	(void)state;
	assert_int_equal(irc_fold_casemap("ascii"), IRC_CM_ASCII);
	assert_int_equal(irc_fold_casemap("rfc1459"), IRC_CM_RFC1459);
	assert_int_equal(irc_fold_casemap("strict-rfc1459"), IRC_CM_STRICT);
	assert_int_equal(irc_fold_casemap("rfc7613"), IRC_CM_RFC7613);
	assert_int_equal(irc_fold_casemap("RFC7613"), IRC_CM_ASCII);
	assert_int_equal(irc_fold_casemap("rfc3454"), IRC_CM_ASCII);
}

static void
test_ascii_family(void **state)
{
	(void)state;
	assert_string_equal(fold(IRC_CM_ASCII, "#Dice[]\\~"), "#dice[]\\~");
	assert_string_equal(fold(IRC_CM_RFC1459, "#Dice[]\\~"), "#dice{}|^");
	assert_string_equal(fold(IRC_CM_STRICT, "#Dice[]\\~"), "#dice{}|~");
	/* Bytes past ASCII are left alone by these. */
	assert_string_equal(fold(IRC_CM_RFC1459, "\xc3\x89lodie"), "\xc3\x89lodie");
}

static void
test_rfc7613(void **state)
{
	(void)state;
	/* Plain ASCII: letters only; []\~ are not letters here. */
	assert_string_equal(fold(IRC_CM_RFC7613, "#Dice[]\\~"), "#dice[]\\~");
	/* Fullwidth capitals: width mapping, then lowercase. */
	assert_string_equal(fold(IRC_CM_RFC7613, "\xef\xbc\xa3\xef\xbc\xb2\xef\xbc\xb9\xef\xbc\xb0"
	                                         "\xef\xbc\xb4"),
	                    "crypt");
	assert_string_equal(fold(IRC_CM_RFC7613, "#\xef\xbc\xa3rypt"), "#crypt");
	/* Halfwidth katakana KA (U+FF76) becomes KA (U+30AB). */
	assert_string_equal(fold(IRC_CM_RFC7613, "\xef\xbd\xb6"), "\xe3\x82\xab");
	/* Accented capitals, precomposed or not, fold to the NFC lowercase. */
	assert_string_equal(fold(IRC_CM_RFC7613, "\xc3\x89LODIE"), "\xc3\xa9lodie");
	assert_string_equal(fold(IRC_CM_RFC7613, "E\xcc\x81lodie"), "\xc3\xa9lodie");
	assert_string_equal(fold(IRC_CM_RFC7613, "\xc3\x85SA"), "\xc3\xa5sa");
	/* ANGSTROM SIGN (U+212B) and KELVIN SIGN (U+212A) are letters too. */
	assert_string_equal(fold(IRC_CM_RFC7613, "\xe2\x84\xab"), "\xc3\xa5");
	assert_string_equal(fold(IRC_CM_RFC7613, "\xe2\x84\xaa"), "k");
	/* Greek capitals: sigma is always U+03C3 (no final-sigma rule). */
	assert_string_equal(fold(IRC_CM_RFC7613, "\xce\xa3\xce\x91\xce\xa3"),
	                    "\xcf\x83\xce\xb1\xcf\x83");
	/* Lowercase, not case folding: ß stays, so "straße" is not "strasse". */
	assert_string_equal(fold(IRC_CM_RFC7613, "STRA\xc3\x9f"
	                                         "E"),
	                    "stra\xc3\x9f"
	                    "e");
	/* Capital I with dot above keeps its dot, as full lowercasing does. */
	assert_string_equal(fold(IRC_CM_RFC7613, "\xc4\xb0"), "i\xcc\x87");
	/* Compatibility characters other than width are kept (not NFKC). */
	assert_string_equal(fold(IRC_CM_RFC7613, "\xef\xac\x81"), "\xef\xac\x81"); /* fi ligature */
	assert_string_equal(fold(IRC_CM_RFC7613, "x\xc2\xb2"), "x\xc2\xb2"); /* superscript 2 */
}

/* Text that is not UTF-8 folds as ascii and stays apart from every
 * well-formed name. */
static void
test_rfc7613_not_utf8(void **state)
{
	char a[64], b[64];

	(void)state;
	assert_string_equal(fold(IRC_CM_RFC7613, "Bad\xff"), "bad\xff");
	assert_string_equal(fold(IRC_CM_RFC7613, "\xc3\x89\xff"), "\xc3\x89\xff");
	assert_string_equal(fold(IRC_CM_RFC7613, "\xc3\xa9\xff"), "\xc3\xa9\xff");
	/* a lone continuation byte, an overlong '/', a surrogate */
	assert_string_equal(fold(IRC_CM_RFC7613, "X\x80"), "x\x80");
	assert_string_equal(fold(IRC_CM_RFC7613, "\xc0\xaf"), "\xc0\xaf");
	assert_string_equal(fold(IRC_CM_RFC7613, "\xed\xa0\x80Z"), "\xed\xa0\x80z");
	/* Two malformed names that differ beyond ASCII case stay apart. */
	assert_int_equal(irc_fold(IRC_CM_RFC7613, "\xc3\x89\xff", a, sizeof(a)), 0);
	assert_int_equal(irc_fold(IRC_CM_RFC7613, "\xc3\xa9\xff", b, sizeof(b)), 0);
	assert_string_not_equal(a, b);
}

static void
test_cut(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(irc_fold(IRC_CM_RFC7613, "\xef\xbc\xa1\xef\xbc\xa2\xef\xbc\xa3", out, 4),
	                 0);
	assert_string_equal(out, "abc");
	assert_int_equal(irc_fold(IRC_CM_RFC7613, "ABCD", out, 4), -1);
	assert_string_equal(out, "abc");
	/* Cut on a character: "éé" is 4 bytes, 3 fit, so one é. */
	assert_int_equal(irc_fold(IRC_CM_RFC7613, "\xc3\x89\xc3\x89", out, 4), -1);
	assert_string_equal(out, "\xc3\xa9");
	assert_int_equal(irc_fold(IRC_CM_RFC1459, "\xc3\x89\xc3\x89", out, 4), -1);
	assert_string_equal(out, "\xc3\x89");
	assert_int_equal(irc_fold(IRC_CM_ASCII, "\xff\xff\xff\xff", out, 4), -1);
	assert_string_equal(out, "\xff\xff\xff");
	assert_int_equal(irc_fold(IRC_CM_ASCII, "x", out, 0), -1);
	/* A long name decomposes past the stack buffer and still folds. */
	{
		char big[3000], want[3000], got[3000];
		size_t n = 0;

		for (int i = 0; i < 600; i++) {
			memcpy(big + n, "\xc3\x89", 2); /* É: two code points once decomposed */
			memcpy(want + n, "\xc3\xa9", 2);
			n += 2;
		}
		big[n] = want[n] = '\0';
		assert_int_equal(irc_fold(IRC_CM_RFC7613, big, got, sizeof(got)), 0);
		assert_string_equal(got, want);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_casemapping_names),
	    cmocka_unit_test(test_ascii_family),
	    cmocka_unit_test(test_rfc7613),
	    cmocka_unit_test(test_rfc7613_not_utf8),
	    cmocka_unit_test(test_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
