/* panel_state: the message that shows a channel's panel; see
 * panel_state.h. */
#include "commands/panel/panel_state.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/mem.h"

struct panel_state {
	char message[PANEL_MESSAGE_MAX];
};

static void *
panel_create(void)
{
	return xcalloc(1, sizeof(struct panel_state));
}

static void
panel_destroy(void *p)
{
	free(p);
}

bool
panel_state_id_valid(const char *id)
{
	size_t n = strlen(id);

	if (n == 0 || n >= PANEL_MESSAGE_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (id[i] <= ' ' || id[i] > '~')
			return false;
	return true;
}

static cJSON *
panel_save(const void *p)
{
	const struct panel_state *ps = p;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "message", ps->message);
	return o;
}

static int
panel_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct panel_state *ps = p;
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "message");

	/* "" is a fresh state's: no message yet. */
	if (!cJSON_IsObject(o) || cJSON_GetArraySize(o) != 1 || !cJSON_IsString(m) ||
	    (m->valuestring[0] != '\0' && !panel_state_id_valid(m->valuestring))) {
		snprintf(err, errlen,
		         "panel: the record must be {\"message\": ID}, an id of up to %d "
		         "printable characters without spaces.",
		         PANEL_MESSAGE_MAX - 1);
		return -1;
	}
	snprintf(ps->message, sizeof(ps->message), "%s", m->valuestring);
	return 0;
}

const struct chanmod panel_mod = {
    .name = "panel",
    .create = panel_create,
    .destroy = panel_destroy,
    .save = panel_save,
    .load = panel_load,
};

const char *
panel_state_message(const struct channel *ch)
{
	const struct panel_state *ps = channel_mod_peek(ch, CHANMOD_PANEL);

	return ps != NULL ? ps->message : "";
}

bool
panel_state_set(struct channel *ch, const char *id)
{
	if (strcmp(panel_state_message(ch), id) == 0)
		return false;
	if (id[0] == '\0') {
		channel_mod_set(ch, CHANMOD_PANEL, NULL);
	} else {
		struct panel_state *ps = channel_mod(ch, CHANMOD_PANEL);

		snprintf(ps->message, sizeof(ps->message), "%s", id);
	}
	channel_touch(ch);
	return true;
}
