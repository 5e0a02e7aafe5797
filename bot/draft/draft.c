/* draft: long texts typed line by line; see draft.h. */
#include "bot/draft/draft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/core/registry_parse.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

struct draft {
	struct draft *next;
	char *chan, *user;
	char *line, *opt; /* the asking line and its option */
	size_t max;       /* bytes the option takes */
	struct buf text;
	size_t lines;
	int64_t last_ms; /* its last line, or its opening */
	bool spent;      /* past its limit: takes lines and keeps none */
};

struct drafts {
	struct draft *list; /* most recently used first */
	size_t n;
};

struct drafts *
drafts_new(void)
{
	return xcalloc(1, sizeof(struct drafts));
}

void
draft_free(struct draft *d)
{
	if (d == NULL)
		return;
	free(d->chan);
	free(d->user);
	free(d->line);
	free(d->opt);
	buf_free(&d->text);
	free(d);
}

void
drafts_free(struct drafts *ds)
{
	if (ds == NULL)
		return;
	while (ds->list != NULL) {
		struct draft *d = ds->list;

		ds->list = d->next;
		draft_free(d);
	}
	free(ds);
}

size_t
drafts_count(const struct drafts *ds)
{
	return ds->n;
}

/* Unlinks and returns the draft of user in chan, or NULL; drafts idle
 * past DRAFT_IDLE_MS are dropped on the way. */
static struct draft *
unlink_draft(struct drafts *ds, const char *chan, const char *user, int64_t now_ms)
{
	struct draft **p = &ds->list, *found = NULL;

	while (*p != NULL) {
		struct draft *d = *p;

		if (now_ms - d->last_ms > DRAFT_IDLE_MS) {
			*p = d->next;
			ds->n--;
			draft_free(d);
			continue;
		}
		if (found == NULL && strcmp(d->chan, chan) == 0 && strcmp(d->user, user) == 0) {
			*p = d->next;
			ds->n--;
			found = d;
			continue;
		}
		p = &d->next;
	}
	return found;
}

/* Puts d first (the most recently used). */
static void
link_draft(struct drafts *ds, struct draft *d)
{
	d->next = ds->list;
	ds->list = d;
	ds->n++;
}

void
drafts_open(struct drafts *ds, const char *chan, const char *user, const struct reply_ask *ask,
            int64_t now_ms, char *replaced, size_t size)
{
	struct draft *d = unlink_draft(ds, chan, user, now_ms);

	replaced[0] = '\0';
	if (d != NULL) {
		snprintf(replaced, size, "%s", d->line);
		draft_free(d);
	}
	if (ds->n >= DRAFT_MAX) {
		/* the one idle longest: the last of the list */
		struct draft **p = &ds->list;

		while ((*p)->next != NULL)
			p = &(*p)->next;
		draft_free(*p);
		*p = NULL;
		ds->n--;
	}
	d = xcalloc(1, sizeof(*d));
	d->chan = xstrdup(chan);
	d->user = xstrdup(user);
	d->line = xstrdup(ask->line);
	d->opt = xstrdup(ask->opt);
	d->max = ask->max;
	buf_init(&d->text, ask->max);
	if (ask->text != NULL && ask->text[0] != '\0' && buf_adds(&d->text, ask->text) == 0) {
		d->lines = 1;
		for (const char *p = ask->text; (p = strchr(p, '\n')) != NULL; p++)
			d->lines++;
	}
	d->last_ms = now_ms;
	link_draft(ds, d);
}

void
drafts_answered(struct drafts *ds, const char *chan, const char *user, struct reply *r,
                int64_t now_ms)
{
	const struct reply_ask *ask = reply_asked(r);
	char replaced[CMD_LINE_MAX + 1];
	struct draft *d;

	if (ask != NULL) {
		drafts_open(ds, chan, user, ask, now_ms, replaced, sizeof(replaced));
		if (replaced[0] != '\0')
			draft_reply_dropped(r, replaced, 0, 0, DRAFT_REPLACED);
	} else if (reply_ask_was_given(r) && ds->n > 0 &&
	           (d = unlink_draft(ds, chan, user, now_ms)) != NULL) {
		draft_reply_dropped(r, d->line, 0, 0, DRAFT_REPLACED);
		draft_free(d);
	}
}

enum draft_feed
drafts_feed(struct drafts *ds, const char *chan, const char *user, const char *text, size_t len,
            int64_t now_ms, struct draft **dropped)
{
	struct draft *d;

	if (dropped != NULL)
		*dropped = NULL;
	if (ds->n == 0 || (d = unlink_draft(ds, chan, user, now_ms)) == NULL)
		return DRAFT_NONE;
	if (!d->spent &&
	    (d->lines >= DRAFT_LINES || (d->text.len > 0 && buf_addc(&d->text, '\n') < 0) ||
	     buf_add(&d->text, text, len) < 0)) {
		/* what is left in its place takes the rest of the paste */
		struct draft *rest = xcalloc(1, sizeof(*rest));

		rest->chan = xstrdup(d->chan);
		rest->user = xstrdup(d->user);
		rest->line = xstrdup(d->line);
		rest->opt = xstrdup(d->opt);
		rest->max = d->max;
		buf_init(&rest->text, 1);
		rest->lines = d->lines + 1;
		rest->last_ms = now_ms;
		rest->spent = true;
		link_draft(ds, rest);
		if (dropped != NULL)
			*dropped = d;
		else
			draft_free(d);
		return DRAFT_TOO_BIG;
	}
	d->lines++;
	d->last_ms = now_ms;
	link_draft(ds, d);
	return DRAFT_TAKEN;
}

/* Whether line is "<first word of ask> <what>", spaces around. */
static bool
is_word(const char *ask, const char *line, const char *what)
{
	size_t n = strcspn(ask, " "), w = strlen(what);

	while (*line == ' ')
		line++;
	if (*line == '/')
		line++;
	if (strncmp(line, ask, n) != 0 || line[n] != ' ')
		return false;
	line += n;
	while (*line == ' ')
		line++;
	if (strncmp(line, what, w) != 0)
		return false;
	line += w;
	while (*line == ' ')
		line++;
	return *line == '\0';
}

enum draft_word
drafts_word(struct drafts *ds, const char *chan, const char *user, const char *line, int64_t now_ms)
{
	struct draft *d;
	enum draft_word w = DRAFT_WORD_NONE;

	if (ds->n == 0 || (d = unlink_draft(ds, chan, user, now_ms)) == NULL)
		return DRAFT_WORD_NONE;
	if (is_word(d->line, line, "end"))
		w = d->spent ? DRAFT_WORD_CANCEL : DRAFT_WORD_END;
	else if (is_word(d->line, line, "cancel"))
		w = DRAFT_WORD_CANCEL;
	link_draft(ds, d);
	return w;
}

struct draft *
drafts_take(struct drafts *ds, const char *chan, const char *user, int64_t now_ms)
{
	return unlink_draft(ds, chan, user, now_ms);
}

const char *
draft_line(const struct draft *d)
{
	return d->line;
}

const char *
draft_opt(const struct draft *d)
{
	return d->opt;
}

const char *
draft_text(const struct draft *d)
{
	return buf_str(&d->text);
}

size_t
draft_lines(const struct draft *d)
{
	return d->lines;
}

size_t
draft_max(const struct draft *d)
{
	return d->max;
}

int
draft_bind(const struct command *const *table, const char *line, const char *opt, const char *text,
           struct invocation *inv, struct reply *out)
{
	if (registry_parse_in(table, line, strlen(line), inv, out) < 0)
		return -1;
	if (registry_parse_bind(inv, opt, text, out) < 0 ||
	    registry_parse_check_required(inv, out) < 0) {
		invocation_clear(inv);
		return -1;
	}
	return 0;
}

void
draft_reply_dropped(struct reply *r, const char *line, size_t lines, size_t max,
                    enum draft_drop why)
{
	switch (why) {
	case DRAFT_CANCELLED:
		reply_line(r, 0, "Dropped what you were entering for %s (%zu %s).", line, lines,
		           lines == 1 ? "line" : "lines");
		break;
	case DRAFT_BIG: {
		char end[64];

		snprintf(end, sizeof(end), "%.*s end", (int)strcspn(line, " "), line);
		reply_error(r,
		            "What you were entering for %s was dropped: it passed %zu bytes (or %d "
		            "lines), the most it takes; the lines you send here until ",
		            line, max, DRAFT_LINES);
		reply_cmd(r, RS_BAD, end, NULL);
		reply_add(r, RS_BAD, " are dropped with it, never run.");
		break;
	}
	case DRAFT_REPLACED:
		reply_line(r, RS_DIM, "What you were entering for %s was dropped for this.", line);
		break;
	}
}
