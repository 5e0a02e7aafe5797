/*
 * libFuzzer target: render_text_wrap, which breaks reply text (holding whatever
 * a user typed) at the terminal's width. The first byte picks the width
 * (0 to 255; under 20 leaves the text alone), the rest is the text.
 * Oracles: wrapping only moves spaces and line breaks (the other bytes come
 * out in the same order); no line is wider than the width (render_text_columns)
 * once wrapped; valid UTF-8 stays valid.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bot/console/render_text.h"
#include "rules/base/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes of s other than spaces and newlines, in order, into out. */
static size_t
ink(const char *s, size_t n, char *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\n')
			out[k++] = s[i];
	return k;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char a[1 << 16], b[1 << 18];
	const char *text = (const char *)data + 1;
	size_t width, len, na, nb;
	struct buf out;

	if (size < 1 || size > 4096)
		return 0;
	width = data[0];
	len = size - 1;
	buf_init(&out, 1 << 20);
	render_text_wrap(text, len, width, &out);
	na = ink(text, len, a);
	nb = ink(out.p != NULL ? out.p : "", out.len, b);
	if (na != nb || memcmp(a, b, na) != 0)
		__builtin_trap();
	if (utf8_valid(text, len) && !utf8_valid(out.p != NULL ? out.p : "", out.len))
		__builtin_trap();
	if (width >= 20) {
		for (size_t i = 0; i < out.len;) {
			const char *nl = memchr(out.p + i, '\n', out.len - i);
			size_t n = nl != NULL ? (size_t)(nl - (out.p + i)) : out.len - i;

			if (render_text_columns(out.p + i, n) > width)
				__builtin_trap();
			i += n + 1;
		}
	}
	buf_free(&out);
	return 0;
}
