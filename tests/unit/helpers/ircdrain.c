/* ircdrain: see ircdrain.h. */
#include "tests/unit/helpers/ircdrain.h"

#include <string.h>

#include "bot/irc/irc_conn.h"

const char *
ircdrain(struct irc_conn *c, int64_t now)
{
	static char all[65536];
	char line[600];
	size_t n, len = 0;

	all[0] = '\0';
	while ((n = irc_conn_pop(c, now, line, sizeof(line))) > 0 && len + n < sizeof(all)) {
		memcpy(all + len, line, n + 1);
		len += n;
	}
	return all;
}
