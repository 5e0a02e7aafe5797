/*
 * libFuzzer target for bot/irc/irc_line: any bytes go through irc_line_parse; a
 * parsed message must satisfy the parser's promises (a valid command, no
 * CR/LF/NUL in any field, at most IRC_PARAMS_MAX parameters), and
 * rebuilding it with irc_line_build must either be refused or parse back to the
 * same command and parameters.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_line.h"

static void
no_controls(const char *s)
{
	if (s != NULL && strpbrk(s, "\r\n") != NULL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct irc_msg m, back;
	char out[IRC_LINE_MAX + 1];
	int n;

	if (irc_line_parse(&m, (const char *)data, size) != IRC_PARSE_OK)
		return 0;
	if (m.command == NULL || m.nparams > IRC_PARAMS_MAX || m.ntags > IRC_TAGS_KEPT)
		abort();
	no_controls(m.nick);
	no_controls(m.user);
	no_controls(m.host);
	for (size_t i = 0; i < m.nparams; i++)
		no_controls(m.params[i]);
	for (size_t i = 0; i < m.ntags; i++)
		if (irc_line_tag(&m, m.tags[i].key) == NULL)
			abort();

	n = irc_line_build(out, sizeof(out), m.command, m.params, m.nparams);
	if (n < 0)
		return 0;
	if ((size_t)n > IRC_LINE_MAX || out[n - 2] != '\r' || out[n - 1] != '\n' ||
	    memchr(out, '\n', (size_t)n - 1) != NULL || memchr(out, '\r', (size_t)n - 2) != NULL)
		abort();
	if (irc_line_parse(&back, out, (size_t)n - 2) != IRC_PARSE_OK)
		abort();
	if (strcmp(back.command, m.command) != 0 || back.nparams != m.nparams)
		abort();
	for (size_t i = 0; i < m.nparams; i++)
		if (strcmp(back.params[i], m.params[i]) != 0)
			abort();
	return 0;
}
