/* reply_ref: command references in a reply; see reply_ref.h. */
#include "commands/core/reply_ref.h"

#include <string.h>

#include "commands/core/reply.h"
#include "commands/core/reply_fmt.h"
#include "commands/core/reply_int.h"
#include "rules/base/buf.h"

/* Its text is the console's form. */
void
reply_ref_add(struct reply *r, unsigned style, const char *path, size_t plen,
              const struct reply_ref_opt *in, size_t n)
{
	struct reply_cmdref *c = reply__alloc(r, sizeof(*c));
	struct reply_span *s;
	struct buf b;

	memset(c, 0, sizeof(*c));
	c->path = reply_fmt_text(r, path, plen, NULL);
	c->nopts = n;
	c->opts = n > 0 ? reply__alloc(r, n * sizeof(*c->opts)) : NULL;
	if (n > 0)
		memset(c->opts, 0, n * sizeof(*c->opts));
	buf_init(&b, SPAN_MAX);
	buf_addf(&b, "/%s", c->path);
	for (size_t i = 0; i < n; i++) {
		struct reply_cmd_opt *o = &c->opts[i];
		bool quote;

		o->name = reply_fmt_text(r, in[i].name, in[i].nlen, NULL);
		o->value = reply_fmt_text(r, in[i].value, in[i].vlen, NULL);
		o->named = in[i].named;
		quote = memchr(o->value, ' ', in[i].vlen) != NULL && (o->named || i + 1 < n);
		buf_addf(&b, " %s%s%s%s%s", o->named ? o->name : "", o->named ? ":" : "",
		         quote ? "\"" : "", o->value, quote ? "\"" : "");
	}
	s = reply__push_span(r, style | RS_CMD, NULL);
	s->text = reply_fmt_text(r, buf_str(&b), b.len, &s->len);
	s->cmd = c;
	buf_free(&b);
	reply__error_extend(r);
}

void
reply_usage(struct reply *r, unsigned style, const char *path, const struct reply_usage_opt *opts,
            size_t n)
{
	struct reply_cmdref *c = reply__alloc(r, sizeof(*c));
	struct reply_span *s;
	struct buf b;

	memset(c, 0, sizeof(*c));
	c->path = reply_fmt_text(r, path, strlen(path), NULL);
	c->usage = true;
	c->nopts = n;
	c->opts = n > 0 ? reply__alloc(r, n * sizeof(*c->opts)) : NULL;
	buf_init(&b, SPAN_MAX);
	buf_addf(&b, "/%s", c->path);
	for (size_t i = 0; i < n; i++) {
		struct reply_cmd_opt *o = &c->opts[i];
		const char *open = opts[i].optional ? "[" : "<",
		           *close = opts[i].optional ? "]" : ">";

		o->name = reply_fmt_text(r, opts[i].name, strlen(opts[i].name), NULL);
		o->value = reply_fmt_text(r, opts[i].value, strlen(opts[i].value), NULL);
		o->kind = reply_fmt_text(r, opts[i].kind, strlen(opts[i].kind), NULL);
		o->named = opts[i].named;
		o->optional = opts[i].optional;
		if (o->named)
			buf_addf(&b, " %s%s:%s%s", open, o->name, o->kind, close);
		else
			buf_addf(&b, " %s%s%s", open, o->value, close);
	}
	s = reply__push_span(r, (style & ~RS_USER) | RS_CMD, NULL);
	s->text = reply_fmt_text(r, buf_str(&b), b.len, &s->len);
	s->cmd = c;
	buf_free(&b);
	reply__error_extend(r);
}

/* Parses "/path opt=value name:\"a b\"}" (just after the brace) into a
 * reference; returns the length up to and with the closing brace, or 0
 * when it is not one. */
static size_t
parse_ref(const char *t, const char **path, size_t *plen, struct reply_ref_opt *in, size_t *n)
{
	const char *p = t + 1;

	*path = p;
	*plen = 0;
	*n = 0;
	while (*p != '\0' && *p != '}') {
		size_t w = strcspn(p, " =:}\"");

		if (p[w] != '=' && p[w] != ':') { /* a word of the path */
			if (*n > 0 || w == 0)
				return 0;
			p += w;
			*plen = (size_t)(p - *path);
		} else {
			struct reply_ref_opt *o = &in[*n];

			if (*n == REPLY_REF_OPTS_MAX || w == 0)
				return 0;
			o->name = p;
			o->nlen = w;
			o->named = p[w] == ':';
			p += w + 1;
			if (*p == '"') {
				o->value = ++p;
				p += strcspn(p, "\"");
				if (*p != '"')
					return 0;
				o->vlen = (size_t)(p++ - o->value);
			} else {
				o->value = p;
				o->vlen = strcspn(p, " }");
				p += o->vlen;
			}
			(*n)++;
		}
		p += strspn(p, " ");
	}
	if (*p != '}' || *plen == 0)
		return 0;
	return (size_t)(p + 1 - t) + 1;
}

void
reply_text(struct reply *r, unsigned style, const char *text)
{
	const char *p = text;

	for (;;) {
		const char *ref = strstr(p, "{/"), *path;
		struct reply_ref_opt in[REPLY_REF_OPTS_MAX];
		size_t plen, n, len = 0;

		while (ref != NULL && (len = parse_ref(ref + 1, &path, &plen, in, &n)) == 0)
			ref = strstr(ref + 2, "{/");
		if (ref == NULL)
			break;
		if (ref > p)
			reply_add(r, style, "%.*s", (int)(ref - p), p);
		reply_ref_add(r, style & ~RS_USER, path, plen, in, n);
		p = ref + len;
	}
	if (*p != '\0')
		reply_add(r, style, "%s", p);
}
