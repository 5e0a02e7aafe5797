/* discord_buttons: button custom_ids and the store of long lines; see
 * discord_buttons.h. */
#include "bot/discord/discord_buttons.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "bot/discord/discord_proto.h"
#include "rules/base/mem.h"

/* The store is a ring: line n (counted from 1) lives in slot n % cap until
 * line n + cap takes its place. */
struct discord_buttons {
	size_t cap;
	uint64_t next;
	struct {
		uint64_t id;
		char *action;
	} * slot;
};

struct discord_buttons *
discord_buttons_new(size_t cap, uint64_t first)
{
	struct discord_buttons *bs = xcalloc(1, sizeof(*bs));

	bs->cap = cap > 0 ? cap : 1;
	bs->next = first > 0 ? first - 1 : 0;
	bs->slot = xcalloc(bs->cap, sizeof(*bs->slot));
	return bs;
}

uint64_t
discord_buttons_first(void)
{
	uint64_t r = 0;
	struct timespec ts;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		r = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	return (r & ((UINT64_C(1) << 48) - 1)) + 1;
}

void
discord_buttons_free(struct discord_buttons *bs)
{
	if (bs == NULL)
		return;
	for (size_t i = 0; i < bs->cap; i++)
		free(bs->slot[i].action);
	free(bs->slot);
	free(bs);
}

/* Stores a long line; returns its number. */
static uint64_t
put(struct discord_buttons *bs, const char *action)
{
	uint64_t id = ++bs->next;
	size_t i = (size_t)(id % bs->cap);

	free(bs->slot[i].action);
	bs->slot[i].id = id;
	bs->slot[i].action = xstrdup(action);
	return id;
}

/* Each kind's letters: the line in the id, the number of a stored line. */
static const char inline_letter[] = {'a', 'u', 'p'};
static const char stored_letter[] = {'b', 'v', 'q'};

int
discord_buttons_id(struct discord_buttons *bs, const char *line, enum discord_button_kind kind,
                   char *id, size_t len)
{
	size_t n = strlen(line);
	int r;

	if ((unsigned)kind > DISCORD_BUTTON_PANEL)
		return -1;
	if (n + 2 <= DISCORD_CUSTOM_ID_MAX) {
		if (n + 2 >= len)
			return -1;
		id[0] = inline_letter[kind];
		id[1] = ':';
		memcpy(id + 2, line, n + 1);
		return 0;
	}
	if (bs != NULL)
		r = snprintf(id, len, "%c:%" PRIx64, stored_letter[kind], put(bs, line));
	else
		return -1;
	return r >= 0 && (size_t)r < len ? 0 : -1;
}

const char *
discord_buttons_action(const struct discord_buttons *bs, const char *custom_id,
                       enum discord_button_kind *kind)
{
	const char *in = memchr(inline_letter, custom_id[0], sizeof(inline_letter));
	const char *st = memchr(stored_letter, custom_id[0], sizeof(stored_letter));
	char *end;
	uint64_t id;

	if (custom_id[0] == '\0' || (in == NULL && st == NULL))
		return NULL;
	if (kind != NULL)
		*kind = (enum discord_button_kind)(in != NULL ? in - inline_letter
		                                              : st - stored_letter);
	if (in != NULL && custom_id[1] == ':' && custom_id[2] != '\0')
		return custom_id + 2;
	if (bs == NULL || st == NULL || custom_id[1] != ':' || custom_id[2] == '\0')
		return NULL;
	id = strtoull(custom_id + 2, &end, 16);
	if (*end != '\0' || id == 0)
		return NULL;
	if (bs->slot[id % bs->cap].id != id)
		return NULL;
	return bs->slot[id % bs->cap].action;
}
