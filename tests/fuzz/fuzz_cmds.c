/*
 * fuzz_cmds: the comparison of what Discord answers to GET .../commands
 * with the command table (bot/discord/discord_cmds discord_cmds_same), on any
 * bytes. The comparison must not crash, and must be exact: the table's own
 * body always compares equal, and the input (when it is JSON) compares
 * equal to the table only if it also does after a round trip through
 * cJSON's printer.
 */
#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bot/discord/discord_cmds.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static cJSON *want;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cJSON *have, *again;
	char *text;
	bool same;

	if (want == NULL) {
		want = discord_cmds_json(NULL, DISCORD_REACH_USER);
		if (!discord_cmds_same(want, want))
			abort();
	}
	have = cJSON_ParseWithLength((const char *)data, size);
	same = discord_cmds_same(want, have);
	text = have != NULL ? cJSON_PrintUnformatted(have) : NULL;
	again = text != NULL ? cJSON_Parse(text) : NULL;
	if (have != NULL && again != NULL && same != discord_cmds_same(want, again))
		abort();
	cJSON_free(text);
	cJSON_Delete(again);
	cJSON_Delete(have);
	return 0;
}
