/*
 * libFuzzer target: a channel's saved Tension state (JSON from the journal
 * or a snapshot) through tension_chanmod.load. Whatever loads must save
 * and load again to the same text: a record the bot accepts is one it can
 * write back.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "commands/tension/tension_state.h"
#include "rules/base/mem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *
saved(const void *ts)
{
	cJSON *j = tension_chanmod.save(ts);
	char *text = cJSON_PrintUnformatted(j);

	cJSON_Delete(j);
	return text;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size), err[200];
	cJSON *j = cJSON_Parse(text);
	void *a = tension_chanmod.create(), *b = tension_chanmod.create();

	if (j != NULL && tension_chanmod.load(a, j, err, sizeof(err)) == 0) {
		char *first = saved(a), *second;
		cJSON *k = cJSON_Parse(first);

		if (k == NULL || tension_chanmod.load(b, k, err, sizeof(err)) != 0)
			abort();
		second = saved(b);
		if (strcmp(first, second) != 0)
			abort();
		cJSON_Delete(k);
		free(first);
		free(second);
	}
	cJSON_Delete(j);
	tension_chanmod.destroy(a);
	tension_chanmod.destroy(b);
	free(text);
	return 0;
}
