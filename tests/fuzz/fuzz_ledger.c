/*
 * libFuzzer target for bot/discord/discord_ledger: any bytes go through
 * discord_ledger_parse, as a damaged or edited ledger file would. A record
 * it accepts must keep the parser's promises (at most LEDGER_BUCKETS_MAX
 * buckets, ids from 0 to 65535, counts and times not negative, owners
 * shorter than LEDGER_OWNER_MAX) and must format and parse back to the
 * same record; every rule then applies to it without harm. A refused one
 * leaves the record empty.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_ledger.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ledger_rec rec, back;

static void
check(const struct ledger_rec *r)
{
	if (r->nb < 0 || r->nb > LEDGER_BUCKETS_MAX || r->total < 0 || r->remaining < 0 ||
	    r->reset_at < 0 || r->refused_count < 0 || r->refused_at < 0)
		abort();
	for (int i = 0; i < r->nb; i++)
		if (r->b[i].id < 0 || r->b[i].id > 65535 || r->b[i].last < 0 ||
		    r->b[i].lease_until < 0 || strlen(r->b[i].owner) >= LEDGER_OWNER_MAX)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ledger_kind kinds[] = {LEDGER_LIMITS, LEDGER_TRY, LEDGER_SENT,
	                                         LEDGER_UNUSED, LEDGER_REFUSED};
	struct ledger_op op;
	struct ledger_result res;
	char *text;

	if (discord_ledger_parse((const char *)data, size, &rec) < 0) {
		if (rec.nb != 0 || rec.total != 0)
			abort();
		return 0;
	}
	check(&rec);
	text = discord_ledger_format(&rec);
	if (discord_ledger_parse(text, strlen(text), &back) < 0 ||
	    memcmp(&rec, &back, offsetof(struct ledger_rec, nb)) != 0 || rec.nb != back.nb ||
	    rec.total != back.total || rec.remaining != back.remaining ||
	    rec.reset_at != back.reset_at || rec.refused_count != back.refused_count)
		abort();
	free(text);
	memset(&op, 0, sizeof(op));
	snprintf(op.owner, sizeof(op.owner), "fuzz:1");
	op.interval = 5500;
	op.lease = 15000;
	op.reserve = 10;
	op.total = 1000;
	op.remaining = 500;
	op.reset_after = 3600000;
	op.nbuckets = 3;
	for (int i = 0; i < 3; i++)
		op.bucket[i] = i;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		op.kind = kinds[k];
		discord_ledger_apply(&rec, &op, 1764000000000LL + (int64_t)k * 1000, &res);
		check(&rec);
	}
	return 0;
}
