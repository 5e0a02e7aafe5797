/*
 * libFuzzer target: rules/textsafe on any UTF-8 text. What textsafe_clean
 * writes is always textsafe_ok, valid UTF-8 and never longer than its input
 * (a removed character is at least as long as the space that may replace
 * it); text that is already ok comes out unchanged; cleaning is idempotent.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rules/base/buf.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct buf in, once, twice;
	size_t changed;

	buf_init(&in, 1 << 20);
	buf_init(&once, 1 << 20);
	buf_init(&twice, 1 << 20);
	utf8_repair(&in, s, size);
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
	buf_free(&in);
	buf_free(&once);
	buf_free(&twice);
	return 0;
}
