/*
 * libFuzzer target for bot/discord/discord_session: any bytes go through
 * discord_session_parse, as a damaged or edited session file would. A file
 * it accepts must satisfy the parser's promises (a non-empty printable
 * session id, a ws:// or wss:// resume URL or none, a digit-only
 * application id, a sequence from 0 to 2^53) and must format and parse back
 * to the same session; a refused one leaves the session empty with an error
 * sentence.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot/discord/discord_session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct discord_session s, back;
	char err[256] = "";
	char *text;

	if (discord_session_parse((const char *)data, size, &s, err, sizeof(err)) < 0) {
		if (err[0] == '\0' || s.session_id[0] != '\0')
			abort();
		return 0;
	}
	if (s.session_id[0] == '\0' || s.seq < 0 || s.seq >= (int64_t)1 << 53 ||
	    strspn(s.app_id, "0123456789") != strlen(s.app_id) ||
	    (s.resume_url[0] != '\0' && strncmp(s.resume_url, "ws://", 5) != 0 &&
	     strncmp(s.resume_url, "wss://", 6) != 0))
		abort();
	text = discord_session_format(&s);
	if (discord_session_parse(text, strlen(text), &back, err, sizeof(err)) < 0 ||
	    !discord_session_equal(&s, &back))
		abort();
	free(text);
	return 0;
}
