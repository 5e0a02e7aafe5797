/* Unit tests for rules/utf8 at the edges of the Unicode Standard's table
 * 3-7 of well-formed byte sequences. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "rules/base/utf8.h"

#define SEQ(s) utf8_seq_len((s), sizeof(s) - 1)

static void
sequence_lengths(void **unused)
{
	assert_int_equal(SEQ("a"), 1);
	assert_int_equal(SEQ("\x7f"), 1);
	assert_int_equal(SEQ("\xc2\x80"), 2);         /* U+0080 */
	assert_int_equal(SEQ("\xdf\xbf"), 2);         /* U+07FF */
	assert_int_equal(SEQ("\xe0\xa0\x80"), 3);     /* U+0800 */
	assert_int_equal(SEQ("\xed\x9f\xbf"), 3);     /* U+D7FF, below the surrogates */
	assert_int_equal(SEQ("\xef\xbf\xbf"), 3);     /* U+FFFF */
	assert_int_equal(SEQ("\xf0\x90\x80\x80"), 4); /* U+10000 */
	assert_int_equal(SEQ("\xf4\x8f\xbf\xbf"), 4); /* U+10FFFF */
	assert_int_equal(utf8_seq_len("", 0), 0);
}

static void
ill_formed_sequences(void **unused)
{
	assert_int_equal(SEQ("\x80"), 0);             /* a lone continuation byte */
	assert_int_equal(SEQ("\xc0\x80"), 0);         /* overlong NUL */
	assert_int_equal(SEQ("\xc1\xbf"), 0);         /* overlong */
	assert_int_equal(SEQ("\xe0\x9f\xbf"), 0);     /* overlong 3-byte */
	assert_int_equal(SEQ("\xed\xa0\x80"), 0);     /* U+D800, a surrogate */
	assert_int_equal(SEQ("\xf0\x8f\xbf\xbf"), 0); /* overlong 4-byte */
	assert_int_equal(SEQ("\xf4\x90\x80\x80"), 0); /* past U+10FFFF */
	assert_int_equal(SEQ("\xf5\x80\x80\x80"), 0);
	assert_int_equal(SEQ("\xe2\x82"), 0);     /* cut short */
	assert_int_equal(SEQ("\xe2\x28\xa1"), 0); /* bad continuation */
}

/* The decoder gives each code point at the edges of table 3-7, and at a
 * sequence that is not well-formed returns 0 and leaves *cp alone. */
static void
decoded(void **unused)
{
	static const struct {
		const char *s;
		size_t len;
		uint32_t cp;
	} ok[] = {
	    {"\0", 1, 0},
	    {"\x7f", 1, 0x7F},
	    {"\xc2\x80", 2, 0x80},
	    {"\xdf\xbf", 2, 0x7FF},
	    {"\xe0\xa0\x80", 3, 0x800},
	    {"\xe2\x90\x9b", 3, 0x241B},
	    {"\xed\x9f\xbf", 3, 0xD7FF},
	    {"\xee\x80\x80", 3, 0xE000},
	    {"\xef\xbf\xbf", 3, 0xFFFF},
	    {"\xf0\x90\x80\x80", 4, 0x10000},
	    {"\xf0\x9f\x8e\xb2", 4, 0x1F3B2},
	    {"\xf4\x8f\xbf\xbf", 4, 0x10FFFF},
	};
	static const char *bad[] = {
	    "\x80",     "\xc0\x80",     "\xe0\x9f\xbf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
	    "\xe2\x82", "\xe2\x28\xa1", "\xff"};
	uint32_t cp;

	(void)unused;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		cp = 0xDEAD;
		/* bytes after the sequence are not read into it */
		assert_int_equal(utf8_decode(ok[i].s, ok[i].len, &cp), ok[i].len);
		assert_int_equal(cp, ok[i].cp);
		assert_int_equal(utf8_decode(ok[i].s, ok[i].len - 1, &cp), 0);
	}
	cp = 0xDEAD;
	assert_int_equal(utf8_decode("\xe2\x90\x9bxyz", 6, &cp), 3);
	assert_int_equal(cp, 0x241B);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cp = 0xDEAD;
		assert_int_equal(utf8_decode(bad[i], strlen(bad[i]), &cp), 0);
		assert_int_equal(cp, 0xDEAD);
	}
	assert_int_equal(utf8_decode("a", 0, &cp), 0);
}

static void
whole_strings(void **unused)
{
	const char *ok = "dé ◆ 🎲";

	assert_true(utf8_valid(ok, strlen(ok)));
	assert_true(utf8_valid("a\0b", 3)); /* NUL is well-formed; callers refuse it */
	assert_false(utf8_valid("ab\xe2\x82", 4));
	assert_false(utf8_valid("\xff", 1));
	/* ASCII is checked eight bytes at a time: what follows a run of eight
	 * or more, a character across the run's end, a cut one at the end. */
	assert_false(utf8_valid("abcdefgh\xff", 9));
	assert_false(utf8_valid("abcdefghijklmnopq\xc3(", 19));
	assert_true(utf8_valid("abcdefg\xe2\x82\xacxyzabcdefgh", 21));
	assert_false(utf8_valid("abcdefghijklmno\xc3", 16));
	assert_true(utf8_valid("abcdefghijklmnop", 16));
	assert_false(utf8_valid("abcdefgh\xed\xa0\x80"
	                        "abcdefgh",
	                        19)); /* a surrogate */
	assert_int_equal(utf8_len(ok), 6);
	/* a prefix's code points: a column */
	assert_int_equal(utf8_count(ok, 0), 0);
	assert_int_equal(utf8_count(ok, 3), 2); /* "dé" */
	assert_int_equal(utf8_count(ok, 5), 4); /* "dé ◆": ◆ starts in it */
	assert_int_equal(utf8_count(ok, 8), 5); /* "dé ◆ " */
	assert_int_equal(utf8_count("\x80\x80"
	                            "a",
	                            3),
	                 1); /* continuation bytes start none */
	/* cutting never splits a character */
	assert_int_equal(utf8_cut(ok, strlen(ok), 2), 1);
	assert_int_equal(utf8_cut(ok, strlen(ok), 3), 3);
	assert_int_equal(utf8_cut(ok, strlen(ok), 100), strlen(ok));
}

#define PREFIX(s) utf8_valid_len((s), sizeof(s) - 1)

/* The well-formed prefix ends just before the first sequence that is cut
 * short, overlong or a surrogate, wherever it stands (after a run of
 * eight ASCII bytes or more, which is checked a word at a time); what
 * follows that sequence is not counted, well-formed or not. */
static void
valid_prefix(void **unused)
{
	(void)unused;
	assert_int_equal(utf8_valid_len("", 0), 0);
	assert_int_equal(utf8_valid_len("abc", 0), 0);
	assert_int_equal(PREFIX("d\xc3\xa9 \xe2\x97\x86 \xf0\x9f\x8e\xb2"), 12); /* whole */
	assert_int_equal(PREFIX("a\0b"), 3);
	/* cut short: at the end, before more text, after an ASCII run */
	assert_int_equal(PREFIX("ab\xe2\x82"), 2);
	assert_int_equal(PREFIX("\xe2\x82"), 0);
	assert_int_equal(PREFIX("d\xc3\xa9\xc3"), 3);
	assert_int_equal(PREFIX("ab\xe2\x82xyz"), 2);
	assert_int_equal(PREFIX("abcdefghij\xf0\x9f\x8e"), 10);
	assert_int_equal(PREFIX("abcdefgh\xe2\x82\xac\xe2\x82"), 11);
	/* overlong */
	assert_int_equal(PREFIX("x\xc0\x80y"), 1);
	assert_int_equal(PREFIX("\xc1\xbf"), 0);
	assert_int_equal(PREFIX("d\xc3\xa9\xe0\x9f\xbf"), 3);
	assert_int_equal(PREFIX("abcdefgh\xf0\x8f\xbf\xbf"
	                        "abcdefgh"),
	                 8);
	/* surrogates, and past U+10FFFF */
	assert_int_equal(PREFIX("ab\xed\xa0\x80"), 2);
	assert_int_equal(PREFIX("\xed\x9f\xbf\xed\xbf\xbf"), 3); /* U+D7FF, then U+DFFF */
	assert_int_equal(PREFIX("abcdefghijklmnop\xed\xb0\x80q"), 16);
	assert_int_equal(PREFIX("\xf4\x8f\xbf\xbf\xf4\x90\x80\x80"), 4);
	/* a stray byte stops it; well-formed text after does not count */
	assert_int_equal(PREFIX("a\xff"
	                        "bcdefghijklmnop"),
	                 1);
	assert_int_equal(PREFIX("abcdefg\x80"), 7);
}

/* Each byte that starts no well-formed sequence becomes U+FFFD; good
 * sequences, NUL included, pass unchanged. */
static void
repair(void **unused)
{
	struct buf b;

	buf_init(&b, 1000);
	assert_int_equal(utf8_repair(&b, "plain é ▶", strlen("plain é ▶")), 0);
	assert_string_equal(buf_str(&b), "plain é ▶");
	buf_reset(&b);
	assert_int_equal(utf8_repair(&b, "a\xC3", 2), 1);
	assert_string_equal(buf_str(&b), "a\xEF\xBF\xBD");
	buf_reset(&b);
	assert_int_equal(utf8_repair(&b, "\xE2\x96x\xC0\xAF\xED\xA0\x80", 8), 7);
	assert_string_equal(buf_str(&b), "\xEF\xBF\xBD\xEF\xBF\xBDx\xEF\xBF\xBD\xEF\xBF\xBD"
	                                 "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
	buf_reset(&b);
	assert_int_equal(utf8_repair(&b, "a\0b", 3), 0);
	assert_int_equal(b.len, 3);
	buf_free(&b);
}

/* Case folded in every script; bytes that are not UTF-8 compare as they
 * are. */
static void
case_folded(void **unused)
{
	(void)unused;
	assert_int_equal(utf8_casecmp("Émile", "émile"), 0);
	assert_int_equal(utf8_casecmp("ÉMILE", "émile"), 0);
	assert_int_equal(utf8_casecmp("Gus", "gUS"), 0);
	assert_int_equal(utf8_casecmp("ΣΟΦΊΑ", "σοφία"), 0);
	assert_int_equal(utf8_casecmp("ς", "Σ"), 0);
	assert_int_equal(utf8_casecmp("Straße", "STRASSE"), 0); /* full folding */
	assert_int_equal(utf8_casecmp("\xef\xac\x81re", "FIRE"), 0);
	assert_int_equal(utf8_casecmp("İstanbul", "istanbul"), 0);
	assert_int_equal(utf8_casecmp("Al\xe2\x80\x8b"
	                              "ba",
	                              "ALBA"),
	                 0); /* U+200B */
	assert_int_equal(utf8_casecmp("\xe2\x80\x8f"
	                              "x\xc2\xad",
	                              "X"),
	                 0); /* RLM, soft hyphen */
	assert_true(utf8_casecmp("Straße", "STRASSEN") < 0);
	/* a joiner counts where it shows (a family of three emoji is one
	 * glyph, the three apart are three; a Persian non-joiner keeps two
	 * letters apart; a joiner after a virama makes a half form), and is
	 * passed over where it shows nothing (between Latin letters) */
	assert_int_equal(utf8_casecmp("Al\xe2\x80\x8d"
	                              "ba",
	                              "ALBA"),
	                 0);
	assert_int_equal(utf8_casecmp("a\xe2\x80\x8c"
	                              "b",
	                              "ab"),
	                 0);
	assert_true(utf8_casecmp("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d"
	                         "\xf0\x9f\x91\xa7",
	                         "\xf0\x9f\x91\xa8\xf0\x9f\x91\xa9\xf0\x9f\x91\xa7") != 0);
	assert_true(utf8_casecmp("\xd8\xb9\xd9\x84\xdb\x8c\xe2\x80\x8c\xd8\xb1\xd8\xb6\xd8\xa7",
	                         "\xd8\xb9\xd9\x84\xdb\x8c\xd8\xb1\xd8\xb6\xd8\xa7") != 0);
	assert_true(utf8_casecmp("\xe0\xa4\x95\xe0\xa5\x8d\xe2\x80\x8d\xe0\xa4\xb7",
	                         "\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7") != 0);
	assert_int_equal(utf8_casecmp("\xd8\xb9\xd9\x84\xdb\x8c\xe2\x80\x8c\xd8\xb1",
	                              "\xd8\xb9\xd9\x84\xdb\x8c\xe2\x80\x8c\xd8\xb1"),
	                 0);
	/* compatibility forms: fullwidth letters, a precomposed and a
	 * decomposed ë */
	assert_int_equal(utf8_casecmp("\xef\xbc\xa1\xef\xbd\x8c\xef\xbd\x81", "Ala"), 0);
	assert_int_equal(utf8_casecmp("Zo\xc3\xab", "ZOe\xcc\x88"), 0);
	assert_true(utf8_casecmp("Emile", "Émile") != 0);
	assert_true(utf8_casecmp("gus", "gust") < 0);
	assert_true(utf8_casecmp("gust", "gus") > 0);
	assert_true(utf8_casecmp("a", "b") < 0);
	assert_int_equal(utf8_casecmp("\xff", "\xff"), 0);
	assert_true(utf8_casecmp("\xff", "\xfe") > 0);
	assert_true(utf8_casecmp("z", "\xfe") < 0);
	assert_int_equal(utf8_casecmp("", ""), 0);
}

/* A zero-width joiner shows between a pictograph (Extended_Pictographic,
 * or the U+FE0F or skin tone after one) and a pictograph, as in every
 * emoji ZWJ sequence, and nowhere else among symbols: not between check
 * marks or regional indicators, not before a variation selector. */
static void
emoji_joiners(void **unused)
{
	static const struct {
		uint32_t prev, next;
		bool shows;
	} cases[] = {
	    {0x1F468, 0x1F469, true},  /* 👨‍👩, a family's start */
	    {0x1F3FB, 0x1F4BB, true},  /* 👨🏻‍💻: a skin tone before the joiner */
	    {0xFE0F, 0x1F525, true},   /* ❤️‍🔥: the presentation selector before it */
	    {0x2764, 0x1F525, true},   /* ❤‍🔥 */
	    {0x1F426, 0x2B1B, true},   /* 🐦‍⬛ black bird: U+2B1B is a pictograph */
	    {0x1F642, 0x2194, true},   /* 🙂‍↔️ head shaking: so is U+2194 */
	    {0x00A9, 0x1F600, true},   /* © is one too */
	    {0x1F600, 0x1FAE9, true},  /* unassigned in Unicode 15, a pictograph's block */
	    {0x2713, 0x2713, false},   /* ✓ is a dingbat, no pictograph */
	    {0x1F1E6, 0x1F1E8, false}, /* regional indicators pair without one */
	    {0x1F600, 0xFE0F, false},  /* a selector after the joiner */
	    {0x1F600, 0x1F3FB, false}, /* a skin tone after the joiner */
	    {0x1F700, 0x1F600, false}, /* an alchemical symbol */
	    {'a', 0x1F600, false},     {0x1F600, 'a', false},
	    {0x1F600, 0, false},       {0, 0x1F600, false},
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("U+%04X U+200D U+%04X\n", (unsigned)cases[i].prev,
		              (unsigned)cases[i].next);
		assert_int_equal(utf8_joiner_shows(cases[i].prev, 0x200D, cases[i].next),
		                 cases[i].shows);
	}
	/* the black bird is not a bird beside a black square; two check
	 * marks with a joiner are the two without */
	assert_true(utf8_casecmp("\xf0\x9f\x90\xa6\xe2\x80\x8d\xe2\xac\x9b",
	                         "\xf0\x9f\x90\xa6\xe2\xac\x9b") != 0);
	assert_int_equal(
	    utf8_casecmp("\xe2\x9c\x93\xe2\x80\x8d\xe2\x9c\x93", "\xe2\x9c\x93\xe2\x9c\x93"), 0);
}

/* recheck3 F1: a cut of user text lands between two characters as a
 * reader sees them (UAX #29's grapheme clusters), where a code point cut
 * splits them. */
static void
cut_between_characters(void **unused)
{
	/* a, e + U+0301, b; the flags of France and Germany; a, thumbs up +
	 * a skin tone; a family (man, woman, girl joined by U+200D) */
	const char *acc = "ae\u0301b";
	const char *flags = "\xf0\x9f\x87\xab\xf0\x9f\x87\xb7\xf0\x9f\x87\xa9\xf0\x9f\x87\xaa";
	const char *tone = "a\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd";
	const char *fam =
	    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7";
	char two[64];

	(void)unused;
	assert_int_equal(utf8_cut(acc, strlen(acc), 3), 2); /* inside é */
	assert_int_equal(utf8_cut_text(acc, strlen(acc), 3), 1);
	assert_int_equal(utf8_cut_text(acc, strlen(acc), 4), 4);
	assert_int_equal(utf8_cut_text(acc, strlen(acc), 5), 5);
	assert_int_equal(utf8_cut_text(acc, strlen(acc), 99), 5);
	/* at most N code points, where utf8_cut_text() may cut a text
	 * limited in characters (a lone byte of no character counts one) */
	assert_int_equal(utf8_prefix(acc, strlen(acc), 2), 2);
	assert_int_equal(utf8_prefix(acc, strlen(acc), 3), 4);
	assert_int_equal(utf8_cut_text(acc, strlen(acc), utf8_prefix(acc, strlen(acc), 2)), 1);
	assert_int_equal(utf8_prefix("a\xff"
	                             "b",
	                             3, 2),
	                 2);
	assert_int_equal(utf8_prefix("ab", 2, 9), 2);
	assert_int_equal(utf8_cut(flags, 16, 12), 12); /* half a flag */
	assert_int_equal(utf8_cut_text(flags, 16, 12), 8);
	assert_int_equal(utf8_cut_text(tone, strlen(tone), 7), 1);
	/* A first character longer than max is cut on a code point. */
	assert_int_equal(utf8_cut_text(tone + 1, 8, 6), 4);
	snprintf(two, sizeof(two), "%s%s", fam, fam);
	assert_int_equal(utf8_cut_text(two, 36, 35), 18);
	assert_int_equal(utf8_cut_text(two, 36, 36), 36);
	/* Text that stops being well-formed ends at its last whole character. */
	assert_int_equal(utf8_cut_text("ab\xff", 3, 2), 2);
	assert_int_equal(utf8_cut_text("", 0, 0), 0);
}

/* utf8_copy_bytes() writes what snprintf(dst, size, "%s", src) writes,
 * byte for byte, and returns its count: every size from 1 to past the
 * text's length, a cut inside a character included. */
static void
copy_bytes_as_snprintf(void **unused)
{
	static const char *const texts[] = {"", "a", "discord:1300000000000000000",
	                                    "caf\xc3\xa9 \xe2\x82\xac!"};

	(void)unused;
	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
		for (size_t size = 1; size <= strlen(texts[t]) + 2; size++) {
			char got[40], want[40];

			memset(got, 'x', sizeof(got));
			memset(want, 'x', sizeof(want));
			assert_int_equal(utf8_copy_bytes(got, size, texts[t]),
			                 snprintf(want, size, "%s", texts[t]));
			assert_memory_equal(got, want, sizeof(got));
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(sequence_lengths),
	    cmocka_unit_test(ill_formed_sequences),
	    cmocka_unit_test(whole_strings),
	    cmocka_unit_test(repair),
	    cmocka_unit_test(case_folded),
	    cmocka_unit_test(decoded),
	    cmocka_unit_test(emoji_joiners),
	    cmocka_unit_test(valid_prefix),
	    cmocka_unit_test(cut_between_characters),
	    cmocka_unit_test(copy_bytes_as_snprintf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
