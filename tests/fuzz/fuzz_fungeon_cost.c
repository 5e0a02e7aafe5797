/*
 * libFuzzer target: Fungeon design words. The first byte picks trap,
 * monster or treasure; the rest is the spec. Whatever parses must price or
 * fail cleanly, and its canonical words must parse back to the same design
 * and the same cost.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/fungeon/fungeon_cost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fungeon_price p, q;
	char spec[FUNGEON_SPEC_MAX + 64], canon[FUNGEON_SPEC_MAX + 1], err[300];
	struct fungeon_design a, b;
	enum fungeon_kind kind;
	int pa, pb;

	if (size == 0 || size > sizeof(spec))
		return 0;
	kind = (enum fungeon_kind)(data[0] % FUNGEON_KIND_COUNT);
	memcpy(spec, data + 1, size - 1);
	spec[size - 1] = '\0';
	if (fungeon_cost_parse(kind, spec, &a, err, sizeof(err)) < 0)
		return 0;
	pa = fungeon_cost_price(&a, &p, err, sizeof(err));
	fungeon_cost_format(&a, canon, sizeof(canon));
	if (fungeon_cost_parse(kind, canon, &b, err, sizeof(err)) < 0 ||
	    memcmp(&a, &b, sizeof(a)) != 0)
		abort();
	pb = fungeon_cost_price(&b, &q, err, sizeof(err));
	if (pa != pb || (pa == 0 && (p.total != q.total || p.total > FUNGEON_COST_MAX)))
		abort();
	return 0;
}
