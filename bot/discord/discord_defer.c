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

/* An item in the table (hashed by id), and while it waits in the heap of
 * waiting items too. */
struct entry {
	struct defer_item item;
	uint64_t seq;   /* the order it was added in */
	size_t heap_at; /* its place in the heap plus one; 0 once it waits no more */
	UT_hash_handle hh;
};

struct defer {
	struct entry *items;
	/* The waiting items as a binary min-heap by due, then by the order
	 * they were added: the earliest due is heap[0]. */
	struct entry **heap;
	size_t nheap, heap_cap;
	uint64_t seq;
	/* At or before the earliest due of a waiting item (0: none waits). */
	uint64_t next;
};

/* Whether a comes before b: due earlier, or added earlier at the same due. */
static bool
heap_before(const struct entry *a, const struct entry *b)
{
	return a->item.due != b->item.due ? a->item.due < b->item.due : a->seq < b->seq;
}

static void
heap_set(struct defer *df, size_t i, struct entry *e)
{
	df->heap[i] = e;
	e->heap_at = i + 1;
}

/* Moves the entry at i up, then down, to its place. */
static void
heap_fix(struct defer *df, size_t i)
{
	struct entry *e = df->heap[i];

	while (i > 0 && heap_before(e, df->heap[(i - 1) / 2])) {
		heap_set(df, i, df->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= df->nheap)
			break;
		if (c + 1 < df->nheap && heap_before(df->heap[c + 1], df->heap[c]))
			c++;
		if (!heap_before(df->heap[c], e))
			break;
		heap_set(df, i, df->heap[c]);
		i = c;
	}
	heap_set(df, i, e);
}

static void
heap_push(struct defer *df, struct entry *e)
{
	if (df->nheap == df->heap_cap) {
		df->heap_cap = df->heap_cap ? 2 * df->heap_cap : 64;
		df->heap = xrealloc(df->heap, df->heap_cap * sizeof(*df->heap));
	}
	heap_set(df, df->nheap++, e);
	heap_fix(df, df->nheap - 1);
}

/* Takes e out of the heap (it waits no more). */
static void
heap_remove(struct defer *df, struct entry *e)
{
	size_t i = e->heap_at - 1;

	e->heap_at = 0;
	if (i != --df->nheap) {
		heap_set(df, i, df->heap[df->nheap]);
		heap_fix(df, i);
	}
}

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
	free(df->heap);
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
	e->seq = df->seq++;
	HASH_ADD(hh, df->items, item.id, sizeof(e->item.id), e);
	heap_push(df, e);
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
	if (e->heap_at != 0)
		heap_remove(df, e);
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
	size_t n = 0;

	if (df->next == 0 || df->next > now_ns)
		return 0; /* nothing can be due yet */
	while (n < max && df->nheap > 0 && df->heap[0]->item.due <= now_ns) {
		struct entry *e = df->heap[0];

		heap_remove(df, e);
		e->item.state = DEFER_SENDING;
		out[n++] = &e->item;
	}
	df->next = df->nheap > 0 ? df->heap[0]->item.due : 0;
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
	type = cJSON_GetObjectItemCaseSensitive(root, "type");
	if (item->type == DISCORD_INTERACTION_COMPONENT && cJSON_IsNumber(type) &&
	    type->valueint == DISCORD_CALLBACK_DEFERRED_UPDATE && ans->nfollowups > 0) {
		/* An answer that leaves the pressed message as it is: its
		 * follow-ups are all of it. */
		cJSON_Delete(root);
		if (ans->followup_path == NULL)
			ans->followup_path = xstrdup(item->webhook_path);
		return 0;
	}
	if (!cJSON_IsObject(data) ||
	    ans->nfollowups >= sizeof(ans->followups) / sizeof(ans->followups[0])) {
		cJSON_Delete(root);
		return -1;
	}
	flags = cJSON_GetObjectItemCaseSensitive(data, "flags");
	eph = cJSON_IsNumber(flags) && ((int)flags->valuedouble & DISCORD_FLAG_EPHEMERAL);
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
