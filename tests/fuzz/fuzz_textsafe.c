/*
 * libFuzzer target: rules/base/utf8's decoder on any bytes, then
 * rules/textsafe on the same bytes made UTF-8.
 *
 * utf8_decode is checked against the definition of UTF-8: the bytes at a
 * place are a well-formed sequence exactly when, for some length 1-4, they
 * are the encoding (shortest, as utf8proc_encode_char writes it) of the
 * code point their bits spell, and that code point is a scalar value (no
 * surrogate, none past U+10FFFF). utf8_valid is true exactly when decoding
 * from the start never fails, and utf8_repair replaces one byte per
 * failure.
 *
 * What textsafe_clean
 * writes is always textsafe_ok, valid UTF-8 and never longer than its input
 * (a removed character is at least as long as the space that may replace
 * it); text that is already ok comes out unchanged; cleaning is idempotent.
 * textsafe_ok_utf8 is utf8_valid and textsafe_ok at once, on any bytes.
 * An invisible character textsafe_invisible_find() finds is one cleaning
 * removes, and cleaned text has none; textsafe_quote()'s quote is ok text.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rules/base/buf.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

#include <utf8proc.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The length of the well-formed sequence at s[0..n) by the definition,
 * its code point in *cp; 0 when there is none. */
static size_t
defined_len(const uint8_t *s, size_t n, uint32_t *cp)
{
	static const uint8_t lead_bits[] = {0x7F, 0x1F, 0x0F, 0x07};

	for (size_t k = 1; k <= 4 && k <= n; k++) {
		uint32_t c = s[0] & lead_bits[k - 1];
		utf8proc_uint8_t enc[4];

		for (size_t j = 1; j < k; j++)
			c = c << 6 | (s[j] & 0x3F);
		if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
			continue;
		if ((size_t)utf8proc_encode_char((utf8proc_int32_t)c, enc) == k &&
		    memcmp(enc, s, k) == 0) {
			*cp = c;
			return k;
		}
	}
	return 0;
}

/* Decodes data[0..size) from the start as every reader does; returns how
 * many bytes started no well-formed sequence. */
static size_t
decode_all(const uint8_t *data, size_t size)
{
	size_t failures = 0;

	for (size_t i = 0; i < size;) {
		uint32_t cp = 0xFFFFFFFF, want = 0;
		size_t n = utf8_decode((const char *)data + i, size - i, &cp);

		if (n != defined_len(data + i, size - i, &want) ||
		    n != utf8_seq_len((const char *)data + i, size - i))
			__builtin_trap();
		if (n == 0) {
			if (cp != 0xFFFFFFFF)
				__builtin_trap();
			failures++;
			i++;
			continue;
		}
		if (cp != want)
			__builtin_trap();
		i += n;
	}
	return failures;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct buf in, once, twice, quoted;
	size_t changed;
	uint32_t cp;

	size_t failures = decode_all(data, size);

	buf_init(&in, 1 << 20);
	buf_init(&once, 1 << 20);
	buf_init(&twice, 1 << 20);
	if (utf8_valid(s, size) != (failures == 0) || utf8_repair(&in, s, size) != failures)
		__builtin_trap();
	if (textsafe_ok_utf8(s, size) != (failures == 0 && textsafe_ok(s, size)))
		__builtin_trap();
	changed = textsafe_clean(&once, buf_str(&in), in.len);
	if (!textsafe_ok(buf_str(&once), once.len) || !utf8_valid(buf_str(&once), once.len) ||
	    once.len > in.len)
		__builtin_trap();
	if ((changed == 0) !=
	    (once.len == in.len && memcmp(buf_str(&once), buf_str(&in), in.len) == 0))
		__builtin_trap();
	if (textsafe_ok(buf_str(&in), in.len) != (changed == 0))
		__builtin_trap();
	if (textsafe_clean(&twice, buf_str(&once), once.len) != 0)
		__builtin_trap();
	if ((textsafe_invisible_find(buf_str(&in), in.len, &cp) < in.len && changed == 0) ||
	    textsafe_invisible_find(buf_str(&once), once.len, &cp) != once.len)
		__builtin_trap();
	buf_init(&quoted, 1 << 20);
	if (textsafe_quote(&quoted, buf_str(&in), in.len, 40) !=
	        (textsafe_invisible_find(buf_str(&in), in.len, &cp) < in.len) ||
	    !textsafe_ok(buf_str(&quoted), quoted.len))
		__builtin_trap();
	buf_free(&quoted);
	buf_free(&in);
	buf_free(&once);
	buf_free(&twice);
	return 0;
}
