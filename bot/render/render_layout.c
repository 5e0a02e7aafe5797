/* render_layout: layout shared by the renderers; see render_layout.h. */
#include "bot/render/render_layout.h"

#include "rules/base/utf8.h"

int
render_layout_ansi_colour(enum ucolour c)
{
	return 30 + ((int)c >= 0 && c < UC_COUNT ? (int)c : 0);
}

void
render_layout_pad(struct buf *out, size_t n)
{
	while (n-- > 0)
		buf_addc(out, ' ');
}

void
render_layout_widths(const struct reply_block *b, size_t width[RENDER_COLS_MAX])
{
	for (int c = 0; c < b->ncols && c < RENDER_COLS_MAX; c++) {
		width[c] = b->header != NULL ? utf8_len(b->header[c]) : 0;
		for (size_t r = 0; r < b->nrows; r++) {
			size_t w = utf8_len(b->rows[r].cells[c]);

			if (w > width[c])
				width[c] = w;
		}
	}
}
