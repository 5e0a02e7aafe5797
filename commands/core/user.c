/* user: a user record's accessors; see user.h. */
#include "commands/core/user.h"

#include <string.h>

#include "commands/core/state_int.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

static void
copy_bounded(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

const char *
user_key(const struct user *u)
{
	return u->key;
}

const char *
user_name(const struct user *u)
{
	return u->name;
}

void
user_set_name(struct user *u, const char *name)
{
	copy_bounded(u->name, sizeof(u->name), name);
}

const struct thwacko_style *
user_style(const struct user *u)
{
	return u->style_set ? &u->style : NULL;
}

void
user_set_style(struct user *u, const struct thwacko_style *style)
{
	u->style = *style;
	u->style.mark[THWACKO_STYLE_MARK_MAX - 1] = '\0';
	u->style_set = true;
}

void
user_clear_style(struct user *u)
{
	memset(&u->style, 0, sizeof(u->style));
	u->style_set = false;
}

void
user_touch(struct user *u)
{
	if (u->touched)
		return;
	u->touched = true;
	u->next_touched = u->owner->touched_users;
	u->owner->touched_users = u;
}

bool
user_touched(const struct user *u)
{
	return u->touched;
}

bool
user_is_empty(const struct user *u)
{
	return !u->style_set && u->nsaved == 0;
}

int64_t
user_last_used(const struct user *u)
{
	return u->last_used;
}

void
user_set_last_used(struct user *u, int64_t when)
{
	u->last_used = when;
}

uint64_t
user_generation(const struct user *u)
{
	return u->generation;
}

void
user_set_generation(struct user *u, uint64_t generation)
{
	u->generation = generation;
}

size_t
user_nsaved(const struct user *u)
{
	return u->nsaved;
}

const struct user_saved *
user_saved_at(const struct user *u, size_t i)
{
	return i < u->nsaved ? &u->saved[i] : NULL;
}

const struct user_saved *
user_saved_find(const struct user *u, const char *name)
{
	for (size_t i = 0; i < u->nsaved; i++)
		if (utf8_casecmp(u->saved[i].name, name) == 0)
			return &u->saved[i];
	return NULL;
}

int
user_save(struct user *u, const char *name, const char *roll)
{
	struct user_saved *s = (struct user_saved *)user_saved_find(u, name);

	if (s == NULL) {
		if (u->nsaved >= USER_SAVED_MAX)
			return -1;
		u->saved = xrealloc(u->saved, (u->nsaved + 1) * sizeof(*u->saved));
		s = &u->saved[u->nsaved++];
	}
	copy_bounded(s->name, sizeof(s->name), name);
	copy_bounded(s->roll, sizeof(s->roll), roll);
	return 0;
}

bool
user_saved_delete(struct user *u, const char *name)
{
	const struct user_saved *s = user_saved_find(u, name);
	size_t i;

	if (s == NULL)
		return false;
	i = (size_t)(s - u->saved);
	memmove(&u->saved[i], &u->saved[i + 1], (u->nsaved - i - 1) * sizeof(*u->saved));
	u->nsaved--;
	return true;
}
