/*
 * fuzz_record: arbitrary bytes as one stored record line (the rec column of
 * a row, store_record.h), decoded as persist decodes a row, and as one line
 * of a channel's log. Checks, beyond the sanitizers: a refusal is one
 * line, and every record or log entry accepted encodes, decodes and
 * encodes again to the same line. Built with FUZZING, the checksum is not
 * checked, so the fuzzer reaches the JSON.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/store/store_record.h"
#include "rules/base/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The record as one line, into b. */
static void
encode(const struct store_record *r, struct buf *b)
{
	buf_reset(b);
	if (store_record_encode(r, store_record_builtin_mods(), b) < 0)
		abort();
}

/* The bytes as entry 1 of a channel's log. */
static void
as_log_entry(const uint8_t *data, size_t size)
{
	const struct store_record_mods *m = store_record_builtin_mods();
	struct store_record r = {.kind = STORE_RECORD_CHANNEL, .owns_mods = true}, back = r;
	struct buf a, b;
	char err[2048] = "";
	size_t slot;

	if (store_record_log_mod(m, &slot) == NULL)
		return;
	if (store_record_decode_log(&r, m, 1, (const char *)data, size, err, sizeof(err)) < 0) {
		if (err[0] == '\0' || strchr(err, '\n') != NULL) {
			fprintf(stderr, "refusal not one line: '%s'\n", err);
			abort();
		}
		store_record_clear(&r, m);
		return;
	}
	buf_init(&a, STORE_RECORD_LINE_MAX);
	buf_init(&b, STORE_RECORD_LINE_MAX);
	if (store_record_encode_log(m, r.mods[slot], 1, &a) < 0 ||
	    store_record_decode_log(&back, m, 1, a.p, a.len, err, sizeof(err)) < 0 ||
	    store_record_encode_log(m, back.mods[slot], 1, &b) < 0 ||
	    strcmp(buf_str(&a), buf_str(&b)) != 0)
		abort();
	store_record_clear(&r, m);
	store_record_clear(&back, m);
	buf_free(&a);
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct store_record_mods *m = store_record_builtin_mods();
	struct store_record r, back;
	struct buf a, b;
	char err[2048] = "";

	if (size >= STORE_RECORD_LINE_MAX)
		return 0;
	as_log_entry(data, size);
	if (store_record_decode((const char *)data, size, STORE_RECORD_VERSION, m, &r, err,
	                        sizeof(err)) < 0) {
		if (err[0] == '\0' || strchr(err, '\n') != NULL) {
			fprintf(stderr, "refusal not one line: '%s'\n", err);
			abort(); /* a refusal is one line */
		}
		return 0;
	}
	buf_init(&a, STORE_RECORD_LINE_MAX);
	buf_init(&b, STORE_RECORD_LINE_MAX);
	encode(&r, &a);
	store_record_clear(&r, m);
	if (store_record_decode(a.p, a.len - 1, STORE_RECORD_VERSION, m, &back, err, sizeof(err)) <
	    0)
		abort();
	encode(&back, &b);
	store_record_clear(&back, m);
	if (strcmp(buf_str(&a), buf_str(&b)) != 0)
		abort();
	buf_free(&a);
	buf_free(&b);
	return 0;
}
