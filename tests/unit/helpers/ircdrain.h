/* ircdrain: what an IRC session would write now, for unit tests. */
#ifndef DELVER_TEST_IRCDRAIN_H
#define DELVER_TEST_IRCDRAIN_H

#include <stdint.h>

struct irc_conn;

/* Every line the session may write at now, concatenated (CRLF kept), in a
 * static buffer that the next call overwrites. */
const char *ircdrain(struct irc_conn *c, int64_t now);

#endif
