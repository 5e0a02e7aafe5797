/* irc_trace: IRC traffic as the debug log shows it; see irc_trace.h. */
#include "bot/irc/irc_trace.h"

#include <string.h>

#include "bot/irc/irc_line.h"
#include "bot/log.h"

void
irc_trace_escape(char *out, size_t size, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (o + 8 >= size) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			if (c == '\\')
				out[o++] = '\\';
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
}

/* Where the command of a received line ends when it is part of SASL
 * (AUTHENTICATE, numerics 900-908, whose text a server may fill with the
 * payload it got), else 0. */
static size_t
sasl_command_end(const char *line, size_t len)
{
	size_t i = 0, start;

	for (int skip = 0; skip < 2; skip++) /* "@tags " and ":prefix " */
		if (i < len && line[i] == (skip == 0 ? '@' : ':')) {
			while (i < len && line[i] != ' ')
				i++;
			while (i < len && line[i] == ' ')
				i++;
		}
	start = i;
	while (i < len && line[i] != ' ')
		i++;
	if ((i - start == 12 && strncmp(line + start, "AUTHENTICATE", 12) == 0) ||
	    (i - start == 3 && line[start] == '9' && line[start + 1] == '0' &&
	     line[start + 2] >= '0' && line[start + 2] <= '8'))
		return i;
	return 0;
}

void
irc_trace_received(const char *network, const char *line, size_t len)
{
	size_t cmd;
	char shown[4 * IRC_RX_MAX + 8];

	if (log_get_level() < LOG_LEVEL_DEBUG)
		return;
	cmd = sasl_command_end(line, len);
	irc_trace_escape(shown, sizeof(shown), line, cmd > 0 ? cmd : len);
	log_debug("irc %s: <- %s%s", network, shown, cmd > 0 ? " (SASL: the rest not shown)" : "");
}

void
irc_trace_sent(const char *network, const char *line, size_t len)
{
	const char *keys;
	char shown[4 * IRC_LINE_MAX + 8];

	if (log_get_level() < LOG_LEVEL_DEBUG)
		return;
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	/* Passwords, SASL payloads and channel keys never reach the log. */
	if (strncmp(line, "PASS ", 5) == 0 || (strncmp(line, "AUTHENTICATE ", 13) == 0 &&
	                                       strcmp(line, "AUTHENTICATE PLAIN\r\n") != 0))
		len = (size_t)(strchr(line, ' ') - line);
	if (strncmp(line, "PRIVMSG NickServ :", 18) == 0)
		len = 17; /* IDENTIFY and REGAIN carry the password */
	if (strncmp(line, "JOIN ", 5) == 0 && (keys = memchr(line + 5, ' ', len - 5)) != NULL) {
		irc_trace_escape(shown, sizeof(shown), line, (size_t)(keys - line));
		log_debug("irc %s: -> %s (keys not shown)", network, shown);
		return;
	}
	irc_trace_escape(shown, sizeof(shown), line, len);
	log_debug("irc %s: -> %s", network, shown);
}
