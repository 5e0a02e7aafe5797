/*
 * dice_label: the command's "# label", as the parser keeps it and as chat
 * text shows it before it is parsed (dice_label_find() in dice.h).
 */
#include "rules/dice/dice.h"
#include "rules/dice/dice_impl.h"

#include <string.h>

void
dice__label_trim(const char *s, size_t *start, size_t *end)
{
	while (*start < *end && dice__isws((unsigned char)s[*start]))
		(*start)++;
	while (*end > *start && dice__isws((unsigned char)s[*end - 1]))
		(*end)--;
}

const char *
dice__label_close(const char *open)
{
	return strchr(open, ']');
}

const char *
dice__stop_find(const char *text, bool at_semicolon)
{
	const char *p = text;

	for (; *p != '\0' && *p != '#' && !(at_semicolon && *p == ';'); p++)
		if (*p == '[' && (p = dice__label_close(p)) == NULL)
			return text + strlen(text);
	return p;
}

const char *
dice_label_find(const char *text, const char **label, size_t *len)
{
	const char *p = dice__stop_find(text, false);
	size_t start = 1, end;

	if (*p != '#')
		return NULL;
	if (label != NULL) {
		end = strlen(p);
		dice__label_trim(p, &start, &end);
		*label = p + start;
		*len = end - start;
	}
	return p;
}
