/* user: a user record's accessors; see user.h. */
#include "commands/user.h"

#include <string.h>

#include "commands/state_int.h"

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

const struct ustyle *
user_style(const struct user *u)
{
	return u->style_set ? &u->style : NULL;
}

void
user_set_style(struct user *u, const struct ustyle *style)
{
	u->style = *style;
	u->style.mark[USTYLE_MARK_MAX - 1] = '\0';
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
