/* completions: suggestions for a partly typed value; see completions.h. */
#include "commands/core/completions.h"

#include <stdlib.h>
#include <string.h>

#include "commands/core/registry.h"
#include "rules/base/mem.h"

void
completions_add(struct completions *c, const char *value)
{
	if (c->n == COMPLETIONS_MAX || value == NULL || *value == '\0' || strlen(value) > 100)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i], value) == 0)
			return;
	c->v[c->n++] = xstrdup(value);
}

void
completions_clear(struct completions *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i]);
	c->n = 0;
}
