/* Unit tests for bot/render/render_layout: the layout both renderers share. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <utf8proc.h>

#include "bot/render/render_layout.h"

/* A column is as wide as its widest cell or header, in code points. */
static void
widths_count_code_points(void **unused)
{
	char *hdr[] = {"d6", "entry", "x"};
	char *r0[] = {"1-2", "a lost adventurer", ""};
	char *r1[] = {"3", "épée", "ü"};
	struct reply_row rows[] = {{.cells = r0}, {.cells = r1}};
	struct reply_block b = {
	    .kind = RB_TABLE, .ncols = 3, .header = hdr, .nrows = 2, .rows = rows};
	size_t width[RENDER_COLS_MAX] = {0};

	render_layout_widths(&b, width);
	assert_int_equal(width[0], 3);
	assert_int_equal(width[1], 17);
	assert_int_equal(width[2], 1);
	assert_int_equal(width[3], 0);
	/* Without a header, the cells alone count. */
	b.header = NULL;
	r1[1] = "ééééééééééééééééééé";
	render_layout_widths(&b, width);
	assert_int_equal(width[0], 3);
	assert_int_equal(width[1], 19);
	assert_int_equal(width[2], 1);
}

/* Play-test 2: a column of emoji names was laid out one column per emoji
 * and the rows fell out of line. A cell is as wide as a monospaced font
 * draws it: a wide character (an emoji, CJK) two columns, a combining mark
 * or a zero-width joiner none. */
static void
widths_count_display_columns(void **unused)
{
	char *r0[] = {"🐉🐉🐉", "日本", "b\u200do"};
	char *r1[] = {"Al", "e\u0301e\u0301", "◆"};
	struct reply_row rows[] = {{.cells = r0}, {.cells = r1}};
	struct reply_block b = {.kind = RB_TABLE, .ncols = 3, .nrows = 2, .rows = rows};
	size_t width[RENDER_COLS_MAX] = {0};

	assert_int_equal(render_layout_width("🐉🐉🐉"), 6);
	assert_int_equal(render_layout_width("b\u200do"), 2);
	assert_int_equal(render_layout_width("e\u0301"), 1);
	assert_int_equal(render_layout_width("▶ ◆■▲✚"), 6);
	assert_int_equal(render_layout_width(""), 0);
	/* a cut by columns ends on a character, its accents kept */
	assert_int_equal(render_layout_cut("日本語", 5), 6);
	assert_int_equal(render_layout_cut("日本語", 6), 9);
	assert_int_equal(render_layout_cut("e\u0301x", 1), 3);
	assert_int_equal(render_layout_cut("abc", 10), 3);
	assert_int_equal(render_layout_cut("", 3), 0);
	render_layout_widths(&b, width);
	assert_int_equal(width[0], 6);
	assert_int_equal(width[1], 4);
	assert_int_equal(width[2], 2);
}

static void
pad_appends_spaces(void **unused)
{
	struct buf b;

	buf_init(&b, 64);
	buf_adds(&b, "a");
	render_layout_pad(&b, 3);
	buf_adds(&b, "b");
	render_layout_pad(&b, 0);
	assert_string_equal(buf_str(&b), "a   b");
	buf_free(&b);
}

/* Palette order is Discord's ANSI palette; an unknown colour is gray. */
static void
palette_codes(void **unused)
{
	assert_int_equal(render_layout_ansi_colour(UC_GRAY), 30);
	assert_int_equal(render_layout_ansi_colour(UC_RED), 31);
	assert_int_equal(render_layout_ansi_colour(UC_GREEN), 32);
	assert_int_equal(render_layout_ansi_colour(UC_BLUE), 34);
	assert_int_equal(render_layout_ansi_colour(UC_WHITE), 37);
	assert_int_equal(render_layout_ansi_colour(UC_COUNT), 30);
	assert_int_equal(render_layout_ansi_colour((enum ucolour) - 1), 30);
}

/* Every ASCII byte counts as utf8proc counts its character, control
 * characters (no column) and DEL included, alone and among others. */
static void
widths_of_ascii_are_utf8procs(void **unused)
{
	for (int c = 1; c < 0x80; c++) {
		char one[2] = {(char)c, '\0'}, three[4] = {'a', (char)c, 'b', '\0'};
		size_t want = (size_t)utf8proc_charwidth(c);

		assert_int_equal(render_layout_width(one), want);
		assert_int_equal(render_layout_width(three), want + 2);
	}
	assert_int_equal(render_layout_width("a\tb"), 2);
	assert_int_equal(render_layout_width("x\x7f"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(widths_count_code_points),
	    cmocka_unit_test(widths_count_display_columns),
	    cmocka_unit_test(widths_of_ascii_are_utf8procs),
	    cmocka_unit_test(pad_appends_spaces),
	    cmocka_unit_test(palette_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
