/* undo_screen: which undo steps stay behind the GM's screen; see undo_screen.h. */
#include "commands/core/undo_screen.h"

#include <string.h>

#include "commands/core/registry.h"
#include "commands/tension/tension_state.h"

/* Whether any command on the path ("hazard sign") is the GM's alone. A
 * path that no longer names a command (an older version's) counts as the
 * GM's: nothing is shown that might have been hidden. */
static bool
gm_path(const char *path)
{
	const struct command *c = NULL;
	const char *p = path;

	while (*p != '\0') {
		size_t n = strcspn(p, " ");

		c = c == NULL ? registry_find(p, n) : registry_find_sub(c, p, n);
		if (c == NULL)
			return true;
		if (c->role == ROLE_GM)
			return true;
		p += n;
		p += strspn(p, " ");
	}
	return c == NULL;
}

/* Whether the path is a change to the channel's tables ("table set"): the
 * encounter tables among them are behind the screen, and a step keeps no
 * table's name apart from its command, so every table change a GM made
 * counts. */
static bool
table_path(const char *path)
{
	return strncmp(path, "table", 5) == 0 && (path[5] == ' ' || path[5] == '\0');
}

/* Whether the path changes which tables go behind the screen ("table
 * hide", "table reveal"): the GM's alone to read whether Tension is
 * hidden or open. */
static bool
marks_path(const char *path)
{
	return strcmp(path, "table hide") == 0 || strcmp(path, "table reveal") == 0;
}

bool
undo_screen_hides_when(bool hidden, const struct undo_screen_step *s)
{
	if (marks_path(s->path))
		return true;
	return hidden && !s->public &&
	       (s->screened || s->changed_tension || gm_path(s->path) ||
	        (s->seated && table_path(s->path)));
}

bool
undo_screen_hides(const struct channel *ch, const struct undo_screen_step *s)
{
	return undo_screen_hides_when(tension_state_hidden(ch), s);
}
