/* discord_gw_outbox: a gateway connection's frames to send and its send
 * budget; see discord_gw_outbox.h. */
#include "bot/discord/discord_gw_outbox.h"

#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_budget.h"
#include "bot/discord/discord_gw.h"
#include "bot/log.h"
#include "rules/base/mem.h"

#define OUTBOX_MAX 16

struct frame {
	char *text;
	size_t len;
	int64_t queued_at;
	bool heartbeat;
	bool identify;
};

struct discord_gw_outbox {
	struct frame out[OUTBOX_MAX];
	size_t nout;
	struct budget *budget; /* the sends of this connection */
};

struct discord_gw_outbox *
discord_gw_outbox_new(void)
{
	struct discord_gw_outbox *o = xcalloc(1, sizeof(*o));

	o->budget = discord_budget_new(DISCORD_GW_BUDGET, DISCORD_GW_BUDGET_WINDOW);
	return o;
}

void
discord_gw_outbox_free(struct discord_gw_outbox *o)
{
	if (o == NULL)
		return;
	discord_gw_outbox_clear(o, false);
	discord_budget_free(o->budget);
	free(o);
}

void
discord_gw_outbox_clear(struct discord_gw_outbox *o, bool budget)
{
	if (budget)
		discord_budget_reset(o->budget);
	for (size_t i = 0; i < o->nout; i++)
		free(o->out[i].text);
	o->nout = 0;
}

bool
discord_gw_outbox_push(struct discord_gw_outbox *o, char *text, bool heartbeat, bool identify,
                       int64_t now)
{
	struct frame *f;

	if (o->nout == OUTBOX_MAX) { /* cannot happen: we queue a few frames a minute */
		log_warnx("discord: gateway send queue full; dropping a frame");
		free(text);
		return false;
	}
	f = &o->out[o->nout++];
	f->text = text;
	f->queued_at = now;
	f->len = strlen(text);
	f->heartbeat = heartbeat;
	f->identify = identify;
	return true;
}

bool
discord_gw_outbox_heartbeat(struct discord_gw_outbox *o, const char *s)
{
	for (size_t i = 0; i < o->nout; i++) {
		if (o->out[i].heartbeat) {
			free(o->out[i].text);
			o->out[i].text = xstrdup(s);
			o->out[i].len = strlen(s);
			return true;
		}
	}
	return false;
}

size_t
discord_gw_outbox_count(const struct discord_gw_outbox *o)
{
	return o->nout;
}

size_t
discord_gw_outbox_pick(const struct discord_gw_outbox *o, int64_t now)
{
	bool hb_ok = discord_budget_allows_at(o->budget, DISCORD_GW_BUDGET) <= now;
	bool other_ok = discord_budget_allows_at(o->budget, DISCORD_GW_BUDGET_OTHER) <= now;

	for (size_t i = 0; i < o->nout; i++)
		if (o->out[i].heartbeat && hb_ok)
			return i;
	for (size_t i = 0; i < o->nout; i++)
		if (!o->out[i].heartbeat && other_ok)
			return i;
	return SIZE_MAX;
}

size_t
discord_gw_outbox_heartbeat_index(const struct discord_gw_outbox *o)
{
	for (size_t i = 0; i < o->nout; i++)
		if (o->out[i].heartbeat)
			return i;
	return SIZE_MAX;
}

int64_t
discord_gw_outbox_queued_at(const struct discord_gw_outbox *o, size_t i)
{
	return o->out[i].queued_at;
}

int64_t
discord_gw_outbox_wakeup(const struct discord_gw_outbox *o, int64_t now)
{
	int64_t t = INT64_MAX;

	if (o->nout == 0 || discord_gw_outbox_pick(o, now) != SIZE_MAX)
		return INT64_MAX;
	for (size_t i = 0; i < o->nout; i++) {
		int64_t at = discord_budget_allows_at(
		    o->budget, o->out[i].heartbeat ? DISCORD_GW_BUDGET : DISCORD_GW_BUDGET_OTHER);

		if (at < t)
			t = at;
	}
	return t;
}

char *
discord_gw_outbox_take(struct discord_gw_outbox *o, size_t i, int64_t now, size_t *len,
                       bool *heartbeat, bool *identify)
{
	char *text = o->out[i].text;

	*len = o->out[i].len;
	*heartbeat = o->out[i].heartbeat;
	*identify = o->out[i].identify;
	memmove(&o->out[i], &o->out[i + 1], (o->nout - i - 1) * sizeof(o->out[0]));
	o->nout--;
	discord_budget_spend(o->budget, now);
	return text;
}
