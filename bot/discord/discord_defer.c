/* discord_defer: deferring held answers; see discord_defer.h. */
#include "bot/discord/discord_defer.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "bot/discord/discord_proto.h"
#include "bot/discord/render_discord.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

#define MS 1000000ull /* ns */

/* An item in the table (hashed by id; uthash iterates in insertion order). */
struct entry {
	struct defer_item item;
	UT_hash_handle hh;
};

struct defer {
	struct entry *items;
	/* At or before the earliest due of a waiting item (0: none waits). */
	uint64_t next;
};

struct defer *
discord_defer_new(void)
{
	return xcalloc(1, sizeof(struct defer));
}

static void
entry_free(struct entry *e)
{
	free(e->item.callback_path);
	free(e->item.webhook_path);
	discord_interact_out_clear(&e->item.ready);
	free(e);
}

void
discord_defer_free(struct defer *df)
{
	struct entry *e, *tmp;

	if (df == NULL)
		return;
	HASH_ITER(hh, df->items, e, tmp)
	{
		HASH_DEL(df->items, e);
		entry_free(e);
	}
	free(df);
}

uint64_t
discord_defer_due_at(uint64_t rx_ns, uint64_t deadline)
{
	/* The deadline is the creation (on rx_ns's clock) plus the shedding
	 * horizon; a creation estimated after the receipt is not believed. */
	uint64_t horizon = (uint64_t)(SHED_WINDOW_MS - SHED_MARGIN_MS) * MS;
	uint64_t created = deadline > horizon ? deadline - horizon : 0;

	if (created > rx_ns)
		created = rx_ns;
	return created + (uint64_t)DEFER_AFTER_MS * MS;
}

struct defer_item *
discord_defer_add(struct defer *df, uint64_t id, int type, bool private, const char *callback_path,
                  const char *webhook_path, uint64_t rx_ns, uint64_t deadline)
{
	struct entry *e;

	HASH_FIND(hh, df->items, &id, sizeof(id), e);
	if (e != NULL)
		return NULL;
	e = xcalloc(1, sizeof(*e));
	e->item.id = id;
	e->item.type = type;
	e->item.private = private;
	e->item.callback_path = xstrdup(callback_path);
	e->item.webhook_path = xstrdup(webhook_path);
	e->item.rx_ns = rx_ns;
	e->item.deadline = deadline;
	e->item.due = discord_defer_due_at(rx_ns, deadline);
	e->item.state = DEFER_WAITING;
	HASH_ADD(hh, df->items, item.id, sizeof(e->item.id), e);
	if (df->next == 0 || e->item.due < df->next)
		df->next = e->item.due;
	return &e->item;
}

struct defer_item *
discord_defer_find(struct defer *df, uint64_t id)
{
	struct entry *e;

	HASH_FIND(hh, df->items, &id, sizeof(id), e);
	return e != NULL ? &e->item : NULL;
}

void
discord_defer_remove(struct defer *df, struct defer_item *item)
{
	struct entry *e = (struct entry *)item; /* item is an entry's first member */

	HASH_DEL(df->items, e);
	entry_free(e);
	/* df->next may now be early: the next take_due corrects it. */
}

size_t
discord_defer_count(const struct defer *df)
{
	return HASH_COUNT(df->items);
}

size_t
discord_defer_take_due(struct defer *df, uint64_t now_ns, struct defer_item **out, size_t max)
{
	struct entry *e, *tmp;
	uint64_t next = 0;
	size_t n = 0;

	if (df->next == 0 || df->next > now_ns)
		return 0; /* nothing can be due yet */
	HASH_ITER(hh, df->items, e, tmp)
	{
		struct defer_item *it = &e->item;

		if (it->state != DEFER_WAITING)
			continue;
		if (it->due <= now_ns && n < max) {
			it->state = DEFER_SENDING;
			out[n++] = it;
			continue;
		}
		if (next == 0 || it->due < next)
			next = it->due;
	}
	df->next = next;
	return n;
}

uint64_t
discord_defer_next(const struct defer *df)
{
	return df->next;
}

const char *
discord_defer_body(const struct defer_item *item)
{
	if (item->type == DISCORD_INTERACTION_COMPONENT)
		return "{\"type\":6}";
	return item->private ? "{\"type\":5,\"data\":{\"flags\":64}}" : "{\"type\":5}";
}

/* Puts body first among ans's follow-ups. */
static void
followup_first(struct interact_out *ans, char *body)
{
	memmove(ans->followups + 1, ans->followups, ans->nfollowups * sizeof(*ans->followups));
	ans->followups[0] = body;
	ans->nfollowups++;
}

int
discord_defer_edit(const struct defer_item *item, struct interact_out *ans, char **patch)
{
	/* A form cannot open once the interaction was deferred: its message
	 * for that case goes instead. */
	const char *body = ans->modal_late != NULL ? ans->modal_late : ans->callback_body;
	cJSON *root = body != NULL ? cJSON_Parse(body) : NULL;
	cJSON *data = cJSON_GetObjectItemCaseSensitive(root, "data"), *flags;
	const cJSON *type;
	bool eph;

	*patch = NULL;
	if (!cJSON_IsObject(data) ||
	    ans->nfollowups >= sizeof(ans->followups) / sizeof(ans->followups[0])) {
		cJSON_Delete(root);
		return -1;
	}
	flags = cJSON_GetObjectItemCaseSensitive(data, "flags");
	eph = cJSON_IsNumber(flags) && ((int)flags->valuedouble & DISCORD_FLAG_EPHEMERAL);
	type = cJSON_GetObjectItemCaseSensitive(root, "type");
	if (item->type == DISCORD_INTERACTION_COMPONENT && cJSON_IsNumber(type) &&
	    type->valueint == DISCORD_CALLBACK_UPDATE_MESSAGE) {
		/* After type 6, @original is the pressed message: the update
		 * edits it. */
		*patch = json_print(data);
	} else if (item->type == DISCORD_INTERACTION_COMPONENT) {
		/* Type 6 updated nothing: the answer is a new message. */
		followup_first(ans, json_print(data));
	} else if (eph && !item->private && !ans->error) {
		cJSON *note = cJSON_CreateObject();

		cJSON_AddStringToObject(note, "content", DEFER_PRIVATE_NOTE);
		cJSON_AddArrayToObject(cJSON_AddObjectToObject(note, "allowed_mentions"), "parse");
		*patch = json_print(note);
		cJSON_Delete(note);
		followup_first(ans, json_print(data));
	} else {
		/* An edit may set SUPPRESS_EMBEDS alone. */
		int keep = cJSON_IsNumber(flags)
		               ? (int)flags->valuedouble & DISCORD_FLAG_SUPPRESS_EMBEDS
		               : 0;

		cJSON_DeleteItemFromObjectCaseSensitive(data, "flags");
		if (keep != 0)
			cJSON_AddNumberToObject(data, "flags", keep);
		*patch = json_print(data);
	}
	cJSON_Delete(root);
	if (ans->followup_path == NULL)
		ans->followup_path = xstrdup(item->webhook_path);
	return 0;
}
