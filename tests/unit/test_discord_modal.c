/* Unit tests for bot/discord/discord_modal: an ask as a modal (the fields
 * Discord's documentation bounds), and its submit read back, in the Label
 * form and the action-row form. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_modal.h"
#include "bot/discord/discord_proto.h"

static const struct reply_ask loot = {.line = "table set loot",
                                      .opt = "entries",
                                      .label = "Entries, one a line (or split by ;)",
                                      .sample = "1-2: a rat\n3-5: 1d4 goblins",
                                      .max = 4000};

static void
modal_for_an_ask(void **unused)
{
	cJSON *d = discord_modal_data(&loot), *label, *in;
	char *text;

	(void)unused;
	assert_non_null(d);
	text = cJSON_PrintUnformatted(d);
	assert_string_equal(
	    text, "{\"custom_id\":\"m:table set loot|entries\",\"title\":\"/table set loot\","
	          "\"components\":[{\"type\":18,\"label\":\"Entries, one a line (or split by ;)\","
	          "\"component\":{\"type\":4,\"custom_id\":\"entries\",\"style\":2,\"max_length\":"
	          "4000,\"required\":true,\"placeholder\":\"1-2: a rat\\n3-5: 1d4 goblins\"}}]}");
	free(text);
	label = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "components"), 0);
	in = cJSON_GetObjectItemCaseSensitive(label, "component");
	/* a text input inside a Label has no label of its own */
	assert_null(cJSON_GetObjectItemCaseSensitive(in, "label"));
	cJSON_Delete(d);
}

static void
long_fields_are_cut(void **unused)
{
	struct reply_ask a = loot;
	char line[200], label[100], sample[300];
	cJSON *d, *c;

	(void)unused;
	memset(label, 'l', sizeof(label) - 1);
	label[sizeof(label) - 1] = '\0';
	memset(sample, 's', sizeof(sample) - 1);
	sample[sizeof(sample) - 1] = '\0';
	snprintf(line, sizeof(line), "table set %s", "abcdefghijklmnopqrstuvwxyz012345");
	a.line = line;
	a.label = label;
	a.sample = sample;
	a.max = 100000;
	d = discord_modal_data(&a);
	assert_non_null(d);
	assert_int_equal(strlen(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "title"))),
	                 43);
	c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(d, "components"), 0);
	assert_int_equal(strlen(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "label"))),
	                 DISCORD_MODAL_LABEL_MAX);
	c = cJSON_GetObjectItemCaseSensitive(c, "component");
	assert_int_equal(
	    strlen(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "placeholder"))),
	    DISCORD_PLACEHOLDER_MAX);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(c, "max_length")->valueint,
	                 DISCORD_TEXT_INPUT_MAX);
	cJSON_Delete(d);
	/* a line that does not fit a custom_id makes no modal */
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	assert_null(discord_modal_data(&a));
}

static void
submits_are_read(void **unused)
{
	static const char *const forms[] = {
	    "{\"custom_id\":\"m:table set loot|entries\",\"components\":[{\"type\":18,\"id\":1,"
	    "\"component\":{\"type\":4,\"id\":2,\"custom_id\":\"entries\",\"value\":\"1-6: "
	    "gold\"}}]}",
	    "{\"custom_id\":\"m:table set loot|entries\",\"components\":[{\"type\":1,"
	    "\"components\":[{\"type\":4,\"custom_id\":\"entries\",\"value\":\"1-6: gold\"}]}]}",
	};
	static const char *const refused[] = {
	    "{\"custom_id\":\"b:1\",\"components\":[]}",
	    "{\"custom_id\":\"m:table set loot\",\"components\":[]}",
	    "{\"custom_id\":\"m:table set loot|entries\",\"components\":[{\"type\":18,"
	    "\"component\":{\"type\":4,\"custom_id\":\"other\",\"value\":\"x\"}}]}",
	    "{\"custom_id\":\"m:table set loot|\",\"components\":[]}",
	    "{\"components\":[]}",
	    "[]",
	};
	char line[128], opt[64];
	const char *v;

	(void)unused;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		cJSON *d = cJSON_Parse(forms[i]);

		v = NULL;
		assert_int_equal(discord_modal_submit(d, line, sizeof(line), opt, sizeof(opt), &v),
		                 0);
		assert_string_equal(line, "table set loot");
		assert_string_equal(opt, "entries");
		assert_string_equal(v, "1-6: gold");
		cJSON_Delete(d);
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		cJSON *d = cJSON_Parse(refused[i]);

		assert_int_equal(discord_modal_submit(d, line, sizeof(line), opt, sizeof(opt), &v),
		                 -1);
		cJSON_Delete(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(modal_for_an_ask),
	    cmocka_unit_test(long_fields_are_cut),
	    cmocka_unit_test(submits_are_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
