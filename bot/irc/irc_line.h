/*
 * irc_line: one IRC message, parsed from the wire or built for it.
 *
 * Parsing follows RFC 1459/2812 framing with IRCv3 message tags: an
 * optional "@tags " section of at most IRC_TAGS_MAX bytes whose values are
 * unescaped (\: \s \\ \r \n), an optional ":source " prefix split into nick,
 * user and host, a command (letters, upper-cased, or three digits) and up
 * to IRC_PARAMS_MAX parameters, the last of which may be a ":trailing" one.
 * The parser is lenient where servers differ (repeated spaces, a missing
 * ':' on a 15th parameter) and strict where a mistake could be exploited
 * (NUL, CR and LF inside a line are refused).
 *
 * Building is the only way lines reach the wire: irc_line_build() refuses any
 * parameter that would change the meaning of the line (CR, LF or NUL
 * anywhere; a middle parameter that is empty, holds a space or starts with
 * ':') and any line longer than IRC_LINE_MAX bytes with its CRLF, so user
 * text can never start a new command.
 *
 * Ownership: a struct irc_msg holds a copy of the line; every pointer in it
 * points into that copy and lives as long as the struct.
 */
#ifndef DELVER_IRC_LINE_H
#define DELVER_IRC_LINE_H

#include <stdbool.h>
#include <stddef.h>

#define IRC_LINE_MAX   512  /* bytes of a message without tags, CRLF included */
#define IRC_TAGS_MAX   8191 /* bytes of the tag section, '@' and space included */
#define IRC_REST_MAX   1024 /* accepted bytes after the tags (lenient) */
#define IRC_RX_MAX     (IRC_TAGS_MAX + IRC_REST_MAX)
#define IRC_PARAMS_MAX 15
#define IRC_TAGS_KEPT  32 /* tags kept per message; later ones are ignored */

struct irc_tag {
	const char *key;
	const char *value; /* unescaped; "" when the tag has no value */
};

struct irc_msg {
	size_t ntags;
	struct irc_tag tags[IRC_TAGS_KEPT];
	const char *nick;    /* the nick, or the server name; NULL without prefix */
	const char *user;    /* NULL when the prefix has no '!' */
	const char *host;    /* NULL when the prefix has no '@' */
	const char *command; /* upper-case letters or three digits */
	size_t nparams;
	const char *params[IRC_PARAMS_MAX];
	char buf[IRC_RX_MAX + 1];
};

enum irc_parse_result {
	IRC_PARSE_OK = 0,
	IRC_PARSE_EMPTY = -1,     /* nothing but spaces */
	IRC_PARSE_TOOLONG = -2,   /* tags over IRC_TAGS_MAX or the rest over IRC_REST_MAX */
	IRC_PARSE_CONTROL = -3,   /* NUL, CR or LF inside the line */
	IRC_PARSE_BADTAGS = -4,   /* a tag section with no message after it */
	IRC_PARSE_BADPREFIX = -5, /* ':' with nothing after it */
	IRC_PARSE_BADCMD = -6,    /* no command, or not letters / three digits */
};

/*
 * Parses one line (without its CRLF; one trailing CR is tolerated). Returns
 * IRC_PARSE_OK and fills m, or a negative enum irc_parse_result; m is then
 * unspecified.
 */
int irc_line_parse(struct irc_msg *m, const char *line, size_t len);

/* A one-sentence description of a parse result, for logs. */
const char *irc_line_strerror(int result);

/* The unescaped value of a tag, "" for a tag without value, or NULL when
 * the message does not carry it. */
const char *irc_line_tag(const struct irc_msg *m, const char *key);

/* Parameter i, or "" when the message has fewer parameters. */
const char *irc_line_param(const struct irc_msg *m, size_t i);

/* Whether the message's command is cmd (case-sensitive: commands are
 * upper-cased by the parser). */
bool irc_line_is(const struct irc_msg *m, const char *cmd);

/*
 * Builds "CMD p1 p2 ... last\r\n" into out (size bytes, at least
 * IRC_LINE_MAX + 1 to be able to hold any line), NUL-terminated. The last
 * parameter gets a ':' when it is empty, starts with ':' or holds a space.
 * Returns the length of the line with its CRLF, or -1 when cmd is not a
 * command word, a middle parameter is empty, holds a space or starts with
 * ':', any parameter holds CR, LF or NUL, or the line would be longer than
 * IRC_LINE_MAX bytes (or size). out is then "".
 */
int irc_line_build(char *out, size_t size, const char *cmd, const char *const *params,
                   size_t nparams);

/* Whether s could be sent as a middle parameter (non-empty, no space,
 * no ':' first, no CR/LF/NUL). */
bool irc_line_middle_ok(const char *s);

#endif
