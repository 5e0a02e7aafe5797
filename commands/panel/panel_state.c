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
	char server[PANEL_MESSAGE_MAX]; /* "" none */
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
	if (ps->server[0] != '\0')
		cJSON_AddStringToObject(o, "server", ps->server);
	return o;
}

static int
panel_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct panel_state *ps = p;
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "message");
	const cJSON *sv = cJSON_GetObjectItemCaseSensitive(o, "server");

	/* "" is a fresh state's: no message yet. */
	if (!cJSON_IsObject(o) || cJSON_GetArraySize(o) != (sv != NULL ? 2 : 1) ||
	    !cJSON_IsString(m) ||
	    (m->valuestring[0] != '\0' && !panel_state_id_valid(m->valuestring)) ||
	    (sv != NULL && (!cJSON_IsString(sv) || !panel_state_id_valid(sv->valuestring)))) {
		snprintf(err, errlen,
		         "panel: the record must be {\"message\": ID} or {\"message\": ID, "
		         "\"server\": ID}, ids of up to %d printable characters without spaces.",
		         PANEL_MESSAGE_MAX - 1);
		return -1;
	}
	snprintf(ps->message, sizeof(ps->message), "%s", m->valuestring);
	snprintf(ps->server, sizeof(ps->server), "%s", sv != NULL ? sv->valuestring : "");
	return 0;
}

/* A channel whose panel is live is loaded at every start: the transport
 * checks each panel then (a change may have come just before a stop). */
static bool
panel_at_start(const void *state)
{
	const struct panel_state *ps = state;

	return ps->message[0] != '\0';
}

const struct chanmod panel_mod = {
    .name = "panel",
    .create = panel_create,
    .destroy = panel_destroy,
    .save = panel_save,
    .load = panel_load,
    .at_start = panel_at_start,
};

const char *
panel_state_message(const struct channel *ch)
{
	const struct panel_state *ps = channel_mod_peek(ch, CHANMOD_PANEL);

	return ps != NULL ? ps->message : "";
}

const char *
panel_state_server(const struct channel *ch)
{
	const struct panel_state *ps = channel_mod_peek(ch, CHANMOD_PANEL);

	return ps != NULL ? ps->server : "";
}

bool
panel_state_set(struct channel *ch, const char *id, const char *server)
{
	if (server == NULL || id[0] == '\0')
		server = "";
	if (strcmp(panel_state_message(ch), id) == 0 && strcmp(panel_state_server(ch), server) == 0)
		return false;
	if (id[0] == '\0') {
		channel_mod_set(ch, CHANMOD_PANEL, NULL);
	} else {
		struct panel_state *ps = channel_mod(ch, CHANMOD_PANEL);

		snprintf(ps->message, sizeof(ps->message), "%s", id);
		snprintf(ps->server, sizeof(ps->server), "%s", server);
	}
	channel_touch(ch);
	return true;
}

struct each {
	void (*fn)(const char *, const char *, const char *, void *);
	void *ctx;
};

static void
each_one(struct channel *ch, void *ctx)
{
	const struct each *e = ctx;
	const struct panel_state *ps = channel_mod_peek(ch, CHANMOD_PANEL);

	if (ps != NULL && ps->message[0] != '\0')
		e->fn(channel_key(ch), ps->message, ps->server, e->ctx);
}

void
panel_state_each(struct state *st,
                 void (*fn)(const char *chan_key, const char *message, const char *server,
                            void *ctx),
                 void *ctx)
{
	struct each e = {fn, ctx};

	state_each_channel(st, each_one, &e);
}
