/* snapshot: the name of the old snapshot file; see snapshot.h. */
#include "bot/store/snapshot.h"

#include <stdio.h>

int
snapshot_path(char *out, size_t size, const char *dir)
{
	int r = snprintf(out, size, "%s/%s", dir, SNAPSHOT_FILE);

	return r < 0 || (size_t)r >= size ? -1 : 0;
}
