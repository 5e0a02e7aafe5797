/* replaced: the replaced-TIME directories' names; see replaced.h. */
#include "bot/store/replaced.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/store/statedir.h"

#define PREFIX "replaced-"

int
replaced_make(char *out, size_t size, const char *dir, time_t now)
{
	char sub[64];
	struct tm tm;

	if (gmtime_r(&now, &tm) == NULL || strftime(sub, sizeof(sub), PREFIX "%Y%m%dT%H%M%SZ",
	                                            &tm) != strlen(PREFIX) + REPLACED_STAMP_LEN) {
		errno = EINVAL;
		return -1;
	}
	for (int k = 1; k <= 100; k++) {
		int n = k == 1 ? snprintf(out, size, "%s/%s", dir, sub)
		               : snprintf(out, size, "%s/%s-%d", dir, sub, k);

		if (n < 0 || (size_t)n >= size) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (statedir_mkdir_new(out) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1; /* errno is EEXIST */
}

long
replaced_rank(const char *name, char stamp[REPLACED_STAMP_LEN + 1])
{
	const char *rest;
	char *end;
	long n = 1;

	if (strncmp(name, PREFIX, strlen(PREFIX)) != 0)
		return -1;
	rest = name + strlen(PREFIX);
	if (strlen(rest) < REPLACED_STAMP_LEN)
		return -1;
	memcpy(stamp, rest, REPLACED_STAMP_LEN);
	stamp[REPLACED_STAMP_LEN] = '\0';
	rest += REPLACED_STAMP_LEN;
	if (*rest == '-') {
		errno = 0;
		n = strtol(rest + 1, &end, 10);
		if (errno != 0 || *end != '\0' || n < 2)
			return -1;
	} else if (*rest != '\0') {
		return -1;
	}
	return n;
}
