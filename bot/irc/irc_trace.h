/*
 * irc_trace: IRC traffic as the debug log shows it. Each line is logged
 * with every control byte escaped, so that what a user sent (ESC
 * sequences, formatting codes) cannot act on a terminal showing the log,
 * and without its secrets: passwords (PASS, NickServ IDENTIFY and REGAIN),
 * SASL payloads and channel keys are cut off. Nothing is logged (or
 * formatted) below the debug level.
 *
 * Ownership: nothing is kept; the lines are the caller's.
 */
#ifndef DELVER_IRC_TRACE_H
#define DELVER_IRC_TRACE_H

#include <stddef.h>

/* Logs a line received on network (len bytes, without CR LF). */
void irc_trace_received(const char *network, const char *line, size_t len);
/* Logs a line about to be sent on network: len bytes of a NUL-terminated
 * line (its CR LF allowed). */
void irc_trace_sent(const char *network, const char *line, size_t len);

/* Writes s[0..len) to out (size bytes, NUL-terminated) with every control
 * byte and DEL as \xNN and a backslash as \\. A line that does not fit
 * is cut and ends with "...". */
void irc_trace_escape(char *out, size_t size, const char *s, size_t len);

#endif
