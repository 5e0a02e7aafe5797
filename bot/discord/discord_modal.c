/* discord_modal: an ask as a Discord modal, and its submit; see discord_modal.h. */
#include "bot/discord/discord_modal.h"

#include <stdio.h>
#include <string.h>

#include "bot/discord/discord_proto.h"
#include "rules/base/utf8.h"

#define PREFIX "m:"

cJSON *
discord_modal_data(const struct reply_ask *ask)
{
	char id[DISCORD_CUSTOM_ID_MAX + 1], title[DISCORD_MODAL_TITLE_MAX + 1];
	cJSON *data, *label, *input;
	size_t n;
	int r = snprintf(id, sizeof(id), PREFIX "%s|%s", ask->line, ask->opt);

	/* Bytes bound the characters Discord counts: a custom_id that fits in
	 * 100 bytes fits in 100 characters. */
	if (r < 0 || (size_t)r >= sizeof(id) || strchr(ask->opt, '|') != NULL)
		return NULL;
	title[0] = '/';
	n = utf8_cut(ask->line, strlen(ask->line), DISCORD_MODAL_TITLE_MAX - 1);
	memcpy(title + 1, ask->line, n);
	title[n + 1] = '\0';
	data = cJSON_CreateObject();
	cJSON_AddStringToObject(data, "custom_id", id);
	cJSON_AddStringToObject(data, "title", title);
	label = cJSON_CreateObject();
	cJSON_AddNumberToObject(label, "type", DISCORD_COMPONENT_LABEL);
	{
		char l[DISCORD_MODAL_LABEL_MAX + 1];

		n = utf8_cut(ask->label, strlen(ask->label), DISCORD_MODAL_LABEL_MAX);
		memcpy(l, ask->label, n);
		l[n] = '\0';
		cJSON_AddStringToObject(label, "label", l);
	}
	input = cJSON_AddObjectToObject(label, "component");
	cJSON_AddNumberToObject(input, "type", DISCORD_COMPONENT_TEXT_INPUT);
	cJSON_AddStringToObject(input, "custom_id", ask->opt);
	cJSON_AddNumberToObject(input, "style", DISCORD_TEXT_PARAGRAPH);
	cJSON_AddNumberToObject(
	    input, "max_length",
	    (double)(ask->max < DISCORD_TEXT_INPUT_MAX ? ask->max : DISCORD_TEXT_INPUT_MAX));
	cJSON_AddBoolToObject(input, "required", 1);
	if (ask->sample[0] != '\0') {
		char ph[DISCORD_PLACEHOLDER_MAX + 1];

		n = utf8_cut(ask->sample, strlen(ask->sample), DISCORD_PLACEHOLDER_MAX);
		memcpy(ph, ask->sample, n);
		ph[n] = '\0';
		cJSON_AddStringToObject(input, "placeholder", ph);
	}
	cJSON_AddItemToArray(cJSON_AddArrayToObject(data, "components"), label);
	return data;
}

/* The text input a submitted component holds: a Label's "component", or
 * the first of an action row's "components". */
static const cJSON *
input_of(const cJSON *c)
{
	const cJSON *in = cJSON_GetObjectItemCaseSensitive(c, "component");

	if (in == NULL) {
		const cJSON *row = cJSON_GetObjectItemCaseSensitive(c, "components");

		in = cJSON_IsArray(row) ? row->child : NULL;
	}
	return in;
}

int
discord_modal_submit(const cJSON *data, char *line, size_t len, char *opt, size_t optlen,
                     const char **value)
{
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(data, "custom_id"));
	const char *bar;
	const cJSON *c;

	if (id == NULL || strncmp(id, PREFIX, 2) != 0 || (bar = strrchr(id, '|')) == NULL ||
	    (size_t)(bar - id - 2) >= len || strlen(bar + 1) >= optlen || bar[1] == '\0')
		return -1;
	memcpy(line, id + 2, (size_t)(bar - id - 2));
	line[bar - id - 2] = '\0';
	snprintf(opt, optlen, "%s", bar + 1);
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(data, "components"))
	{
		const cJSON *in = input_of(c);
		const char *cid =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(in, "custom_id"));
		const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(in, "value"));

		if (cid != NULL && v != NULL && strcmp(cid, opt) == 0) {
			*value = v;
			return 0;
		}
	}
	return -1;
}
