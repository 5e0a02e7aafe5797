/* render_layout: layout shared by the renderers; see render_layout.h. */
#include "bot/render/render_layout.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <utf8proc.h>

int
render_layout_ansi_colour(enum ucolour c)
{
	return 30 + ((int)c >= 0 && c < UC_COUNT ? (int)c : 0);
}

const char *
render_layout_channel(const char *key)
{
	const char *colon = strrchr(key, ':');

	return colon != NULL && colon[1] != '\0' ? colon + 1 : key;
}

void
render_layout_pad(struct buf *out, size_t n)
{
	if (n > 0 && buf_reserve(out, n) == 0) {
		memset(out->p + out->len, ' ', n);
		out->len += n;
		out->p[out->len] = '\0';
		return;
	}
	/* Past the cap: as many as fit, one at a time. */
	while (n-- > 0)
		buf_addc(out, ' ');
}

/* Whether the 8 bytes at p are all printable ASCII (0x20 to 0x7e): none
 * has its high bit, none is below 0x20 (subtracting 0x20 sets the high bit
 * of the first that is), none is 0x7f (adding 1 sets it). A borrow or a
 * carry only ever reaches a byte after one that already failed. */
static bool
eight_printable(const utf8proc_uint8_t *p)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t x;

	memcpy(&x, p, 8);
	return (((x - ones * 0x20) | x | (x + ones)) & highs) == 0;
}

size_t
render_layout_width(const char *s)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
	utf8proc_ssize_t left = (utf8proc_ssize_t)strlen(s);
	size_t w = 0;

	while (left > 0) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t n;

		if (left >= 8 && eight_printable(p)) { /* a column a byte */
			w += 8;
			p += 8;
			left -= 8;
			continue;
		}
		if (*p >= 0x20 && *p < 0x7f) { /* printable ASCII: one column */
			w++;
			p++;
			left--;
			continue;
		}
		n = utf8proc_iterate(p, left, &cp);
		if (n <= 0) { /* not UTF-8 after all: a column a byte */
			w++;
			n = 1;
		} else {
			w += (size_t)utf8proc_charwidth(cp);
		}
		p += n;
		left -= n;
	}
	return w;
}

size_t
render_layout_cut(const char *s, size_t cols)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s;
	utf8proc_ssize_t left = (utf8proc_ssize_t)strlen(s);
	size_t w = 0, at = 0;

	while (left > 0) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t n = utf8proc_iterate(p + at, left, &cp);
		size_t cw = n <= 0 ? 1 : (size_t)utf8proc_charwidth(cp);

		if (n <= 0)
			n = 1;
		if (w + cw > cols)
			break;
		w += cw;
		at += (size_t)n;
		left -= n;
	}
	return at;
}

void
render_layout_widths(const struct reply_block *b, size_t width[RENDER_COLS_MAX])
{
	for (int c = 0; c < b->ncols && c < RENDER_COLS_MAX; c++) {
		width[c] = b->header != NULL ? render_layout_width(b->header[c]) : 0;
		for (size_t r = 0; r < b->nrows; r++) {
			size_t w = render_layout_width(b->rows[r].cells[c]);

			if (w > width[c])
				width[c] = w;
		}
	}
}
