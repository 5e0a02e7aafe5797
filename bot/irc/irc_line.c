/* irc_line: IRC message parsing and building; see irc_line.h. */
#include "bot/irc/irc_line.h"

#include <string.h>

static bool
tag_key_ok(const char *k)
{
	if (*k == '+')
		k++;
	if (*k == '\0')
		return false;
	for (; *k != '\0'; k++) {
		unsigned char c = (unsigned char)*k;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '/' || c == '.' || c == '_'))
			return false;
	}
	return true;
}

/* Unescapes a tag value in place (the result is never longer). */
static void
tag_unescape(char *v)
{
	char *w = v;

	for (char *r = v; *r != '\0'; r++) {
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		r++;
		switch (*r) {
		case ':':
			*w++ = ';';
			break;
		case 's':
			*w++ = ' ';
			break;
		case 'r':
			*w++ = '\r';
			break;
		case 'n':
			*w++ = '\n';
			break;
		case '\0': /* a lone trailing backslash is dropped */
			r--;
			break;
		default: /* "\\" and any other escaped character stand for themselves */
			*w++ = *r;
			break;
		}
	}
	*w = '\0';
}

/* Splits "k=v;k2;..." (NUL-terminated, in m->buf) into m->tags. */
static void
parse_tags(struct irc_msg *m, char *s)
{
	while (s != NULL && *s != '\0') {
		char *next = strchr(s, ';');
		char *eq;

		if (next != NULL)
			*next++ = '\0';
		eq = strchr(s, '=');
		if (eq != NULL)
			*eq++ = '\0';
		if (tag_key_ok(s)) {
			const char *value = "";
			size_t i;

			if (eq != NULL) {
				tag_unescape(eq);
				value = eq;
			}
			/* A repeated key: the last value wins. */
			for (i = 0; i < m->ntags; i++)
				if (strcmp(m->tags[i].key, s) == 0)
					break;
			if (i < m->ntags) {
				m->tags[i].value = value;
			} else if (m->ntags < IRC_TAGS_KEPT) {
				m->tags[m->ntags].key = s;
				m->tags[m->ntags].value = value;
				m->ntags++;
			}
		}
		s = next;
	}
}

static void
split_source(struct irc_msg *m, char *src)
{
	char *bang = strchr(src, '!');
	char *at = strchr(src, '@');

	m->nick = src;
	if (bang == NULL && at == NULL)
		return;
	if (at != NULL && (bang == NULL || at > bang)) {
		*at = '\0';
		m->host = at + 1;
	}
	if (bang != NULL) {
		*bang = '\0';
		m->user = bang + 1;
	}
}

static bool
command_ok(char *c)
{
	size_t n = strlen(c);
	bool digits = true, letters = true;

	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)c[i];

		digits &= ch >= '0' && ch <= '9';
		letters &= (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
	}
	if (digits)
		return n == 3;
	if (!letters)
		return false;
	for (size_t i = 0; i < n; i++)
		if (c[i] >= 'a' && c[i] <= 'z')
			c[i] = (char)(c[i] - 'a' + 'A');
	return true;
}

static char *
skip_spaces(char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* Cuts the next space-delimited word at p; returns what follows it. */
static char *
cut_word(char *p)
{
	char *sp = strchr(p, ' ');

	if (sp == NULL)
		return p + strlen(p);
	*sp = '\0';
	return sp + 1;
}

int
irc_line_parse(struct irc_msg *m, const char *line, size_t len)
{
	char *p, *rest, *src = NULL;
	size_t taglen = 0;

	m->ntags = 0;
	m->nparams = 0;
	m->nick = m->user = m->host = NULL;
	m->command = NULL;
	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (memchr(line, '\0', len) != NULL || memchr(line, '\r', len) != NULL ||
	    memchr(line, '\n', len) != NULL)
		return IRC_PARSE_CONTROL;
	if (len > 0 && line[0] == '@') {
		const char *sp = memchr(line, ' ', len);

		taglen = sp != NULL ? (size_t)(sp - line) + 1 : len;
		if (taglen > IRC_TAGS_MAX)
			return IRC_PARSE_TOOLONG;
	}
	if (len - taglen > IRC_REST_MAX)
		return IRC_PARSE_TOOLONG;
	memcpy(m->buf, line, len);
	m->buf[len] = '\0';
	p = m->buf;

	if (*p == '@') {
		char *tags = p + 1;

		if (taglen == len)
			return IRC_PARSE_BADTAGS;
		p[taglen - 1] = '\0';
		p += taglen;
		parse_tags(m, tags);
	}
	p = skip_spaces(p);
	if (*p == '\0')
		return taglen > 0 ? IRC_PARSE_BADTAGS : IRC_PARSE_EMPTY;
	if (*p == ':') {
		src = p + 1;
		p = cut_word(src);
		if (*src == '\0')
			return IRC_PARSE_BADPREFIX;
		p = skip_spaces(p);
	}
	rest = cut_word(p);
	if (!command_ok(p))
		return IRC_PARSE_BADCMD;
	m->command = p;
	p = rest;
	while (*(p = skip_spaces(p)) != '\0') {
		if (*p == ':') {
			m->params[m->nparams++] = p + 1;
			break;
		}
		if (m->nparams == IRC_PARAMS_MAX - 1) {
			/* A 15th parameter takes the rest of the line. */
			m->params[m->nparams++] = p;
			break;
		}
		m->params[m->nparams++] = p;
		p = cut_word(p);
	}
	if (src != NULL)
		split_source(m, src);
	return IRC_PARSE_OK;
}

const char *
irc_line_strerror(int result)
{
	switch (result) {
	case IRC_PARSE_OK:
		return "the line is well-formed";
	case IRC_PARSE_EMPTY:
		return "the line is empty";
	case IRC_PARSE_TOOLONG:
		return "the line is longer than IRC allows";
	case IRC_PARSE_CONTROL:
		return "the line holds a NUL, CR or LF byte";
	case IRC_PARSE_BADTAGS:
		return "the line has message tags but no command";
	case IRC_PARSE_BADPREFIX:
		return "the line has an empty source prefix";
	case IRC_PARSE_BADCMD:
		return "the line's command is not a word or a three-digit numeric";
	default:
		return "the line is malformed";
	}
}

const char *
irc_line_tag(const struct irc_msg *m, const char *key)
{
	for (size_t i = 0; i < m->ntags; i++)
		if (strcmp(m->tags[i].key, key) == 0)
			return m->tags[i].value;
	return NULL;
}

const char *
irc_line_param(const struct irc_msg *m, size_t i)
{
	return i < m->nparams ? m->params[i] : "";
}

bool
irc_line_is(const struct irc_msg *m, const char *cmd)
{
	return m->command != NULL && strcmp(m->command, cmd) == 0;
}

static bool
has_control(const char *s)
{
	return strpbrk(s, "\r\n") != NULL;
}

bool
irc_line_middle_ok(const char *s)
{
	return s != NULL && *s != '\0' && *s != ':' && strchr(s, ' ') == NULL && !has_control(s);
}

static bool
command_word_ok(const char *c)
{
	char tmp[32];
	size_t n = strlen(c);

	if (n == 0 || n >= sizeof(tmp))
		return false;
	memcpy(tmp, c, n + 1);
	return command_ok(tmp) && strcmp(tmp, c) == 0;
}

int
irc_line_build(char *out, size_t size, const char *cmd, const char *const *params, size_t nparams)
{
	size_t limit = size - 1 < IRC_LINE_MAX ? size - 1 : IRC_LINE_MAX;
	size_t n;

	if (size == 0)
		return -1;
	out[0] = '\0';
	if (!command_word_ok(cmd) || nparams > IRC_PARAMS_MAX)
		return -1;
	n = strlen(cmd);
	if (n + 2 > limit)
		return -1;
	memcpy(out, cmd, n);
	for (size_t i = 0; i < nparams; i++) {
		const char *p = params[i];
		size_t pl;
		bool colon = false;

		if (p == NULL || has_control(p))
			goto bad;
		if (i + 1 < nparams) {
			if (!irc_line_middle_ok(p))
				goto bad;
		} else {
			colon = *p == '\0' || *p == ':' || strchr(p, ' ') != NULL;
		}
		pl = strlen(p);
		if (n + 1 + colon + pl + 2 > limit)
			goto bad;
		out[n++] = ' ';
		if (colon)
			out[n++] = ':';
		memcpy(out + n, p, pl);
		n += pl;
	}
	out[n++] = '\r';
	out[n++] = '\n';
	out[n] = '\0';
	return (int)n;
bad:
	out[0] = '\0';
	return -1;
}
