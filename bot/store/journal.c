/* journal: the names of the old journal files; see journal.h. */
#include "bot/store/journal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int
journal_path(char *out, size_t size, const char *dir, uint64_t seq)
{
	int r = snprintf(out, size, "%s/journal.%08" PRIu64 ".dlv", dir, seq);

	return r < 0 || (size_t)r >= size ? -1 : 0;
}

bool
journal_parse_name(const char *name, uint64_t *seq)
{
	const char *p = name + strlen("journal.");
	uint64_t v = 0;
	size_t digits = 0;

	if (strncmp(name, "journal.", strlen("journal.")) != 0)
		return false;
	for (; *p >= '0' && *p <= '9' && digits < 19; p++, digits++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (digits < 8 || strcmp(p, ".dlv") != 0)
		return false;
	*seq = v;
	return true;
}
