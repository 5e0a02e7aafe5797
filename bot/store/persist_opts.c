/* persist_opts: persistence options from defaults and command-line text;
 * see persist_opts.h. */
#include "bot/store/persist_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/base/textsafe.h"

void
persist_opts_default(struct persist_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->fsync = FSYNC_EVERYSEC;
	o->snapshot_interval = 60;
	o->snapshot_keep = 24;
	o->evict_after = 86400;
	o->snapshot_on_stop = true;
	o->stop_reach_ms = PERSIST_STOP_REACH_MS;
}

static int
parse_seconds(const char *s, long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

int
persist_opts_parse(struct persist_opts *o, const char *name, const char *value, char *err,
                   size_t errlen)
{
	/* the value as a refusal quotes it: an invisible or bidi character
	 * named, never written */
	char got[200];

	textsafe_quoted(got, sizeof(got), value, strlen(value), 80);
	if (strcmp(name, "state-dir") == 0) {
		if (*value == '\0') {
			snprintf(err, errlen, "--state-dir needs a directory name");
			return -1;
		}
		o->dir = value;
	} else if (strcmp(name, "fsync") == 0) {
		if (strcmp(value, "always") == 0)
			o->fsync = FSYNC_ALWAYS;
		else if (strcmp(value, "everysec") == 0)
			o->fsync = FSYNC_EVERYSEC;
		else if (strcmp(value, "no") == 0)
			o->fsync = FSYNC_NO;
		else {
			snprintf(err, errlen, "--fsync must be always, everysec or no (got %s)",
			         got);
			return -1;
		}
	} else if (strcmp(name, "snapshot-interval") == 0) {
		if (parse_seconds(value, 1, 86400, &o->snapshot_interval) < 0) {
			snprintf(err, errlen,
			         "--snapshot-interval must be a whole number of seconds from 1 to "
			         "86400 (got %s)",
			         got);
			return -1;
		}
	} else if (strcmp(name, "evict-after") == 0) {
		if (parse_seconds(value, 0, 365L * 86400, &o->evict_after) < 0) {
			snprintf(
			    err, errlen,
			    "--evict-after must be a whole number of seconds from 0 (never) to "
			    "31536000 (got %s)",
			    got);
			return -1;
		}
	} else {
		snprintf(err, errlen, "unknown persistence option '%s'", name);
		return -1;
	}
	return 0;
}

const char *
persist_opts_default_dir(void)
{
	static char first[4096];
	const char *sd = getenv("STATE_DIRECTORY");

	if (sd == NULL || *sd == '\0')
		return "./state";
	/* systemd lists one directory per StateDirectory= entry, ':'-separated. */
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(sd, ":"), sd);
	return first;
}
