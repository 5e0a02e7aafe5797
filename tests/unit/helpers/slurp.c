/* slurp: a whole file for tests; see slurp.h. */
#include "tests/unit/helpers/slurp.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "rules/base/mem.h"

char *
slurp_try(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t len = 0, cap = 0, got;

	if (f == NULL)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap * 2 + 4096;
			data = xrealloc(data, cap);
		}
		got = fread(data + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0);
	fclose(f);
	data[len] = '\0';
	if (n != NULL)
		*n = len;
	return data;
}

char *
slurp(const char *path, size_t *n)
{
	char *data = slurp_try(path, n);

	if (data == NULL)
		fail_msg("cannot read %s", path);
	return data;
}
