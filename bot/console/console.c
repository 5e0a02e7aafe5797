/* console: stdin/stdout transport on the libuv loop; see console.h. */
#include "bot/console/console.h"
#include "bot/console/console_tty.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <utf8proc.h>

#include "bot/log.h"
#include "bot/console/console_edit.h"
#include "bot/console/console_int.h"
#include "bot/console/console_name.h"
#include "bot/console/render_text.h"
#include "rules/base/mem.h"
#include "bot/draft/draft.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

static void
copy_name(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

/* The reply r as text into out; on a terminal, its tables laid out for
 * the terminal's width. */
static void
emit(struct console *c, const struct reply *r, struct buf *out)
{
	const struct reply_msg *m = reply_msg(r, REPLY_CHANNEL);
	size_t cols = c->editing ? c->width : 0;

	if (m != NULL)
		render_text_width(m, c->o.ansi, cols, out);
	m = reply_msg(r, REPLY_INVOKER);
	if (m != NULL) {
		buf_addf(out,
		         c->o.ansi ? "\033[2m(only %s sees this)\033[0m\n"
		                   : "(only %s sees this)\n",
		         c->user);
		render_text_width(m, c->o.ansi, cols, out);
	}
	m = reply_msg(r, REPLY_GM);
	if (m != NULL) {
		buf_addf(out,
		         c->o.ansi ? "\033[2m(only the GM, %s, sees this)\033[0m\n"
		                   : "(only the GM, %s, sees this)\n",
		         reply_gm_name(r));
		render_text_width(m, c->o.ansi, cols, out);
	}
}

/* "/as [NAME]" and "/channel [NAME]": returns true when line was one. With
 * no name, says the current one. */
static bool
console_command(struct console *c, const char *line, size_t len, struct buf *out)
{
	static const struct {
		const char *word;
		size_t off;
		const char *now; /* after a switch */
		const char *is;  /* with no name */
	} cmds[] = {
	    {"/as", offsetof(struct console, user), "You are now", "You are"},
	    {"/channel", offsetof(struct console, channel), "You are now in channel",
	     "You are in channel"},
	};

	/* Like every command, these may start with '/', '!' or nothing (but
	 * while a draft is open, a line without either is the draft's). */
	if (len > 0 && (line[0] == '/' || line[0] == '!')) {
		line++;
		len--;
	} else if (drafts_count(c->drafts) > 0) {
		return false;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		size_t wl = strlen(cmds[i].word) - 1;
		char *name = (char *)c + cmds[i].off;
		const char *arg;
		size_t alen;
		char clean[NAME_MAX_LEN], err[256];

		if (len < wl || strncasecmp(line, cmds[i].word + 1, wl) != 0 ||
		    (len > wl && line[wl] != ' '))
			continue;
		arg = line + wl;
		alen = len - wl;
		while (alen > 0 && arg[0] == ' ') {
			arg++;
			alen--;
		}
		while (alen > 0 && arg[alen - 1] == ' ')
			alen--;
		/* A name in quotes ("Sir Bob") is the name without them; "" is
		 * no name. */
		if (alen >= 2 && (arg[0] == '"' || arg[0] == '\'') && arg[alen - 1] == arg[0]) {
			arg++;
			alen -= 2;
			while (alen > 0 && arg[0] == ' ') {
				arg++;
				alen--;
			}
			while (alen > 0 && arg[alen - 1] == ' ')
				alen--;
		}
		if (alen == 0) {
			buf_addf(out, "%s %s; %s NAME changes it.\n", cmds[i].is, name,
			         cmds[i].word);
			return true;
		}
		if (console_name_clean(cmds[i].word, arg, alen, clean, err, sizeof(err)) < 0) {
			buf_addf(out, "%s\n", err);
			return true;
		}
		memcpy(name, clean, NAME_MAX_LEN);
		c->from_ok = false;
		buf_addf(out, "%s %s.\n", cmds[i].now, name);
		return true;
	}
	return false;
}

/* "quit" and "exit" (after '/' or '!' or nothing, in any case, as every
 * command) end the console when alone on their line: returns 1 then, 2
 * when words follow them (which they do not take), 0 for any other line.
 * line has no blank at either end. */
static int
is_quit(const char *line, size_t len)
{
	if (len > 0 && (line[0] == '/' || line[0] == '!')) {
		line++;
		len--;
	}
	if (len < 4 || (strncasecmp(line, "quit", 4) != 0 && strncasecmp(line, "exit", 4) != 0))
		return 0;
	if (len == 4)
		return 1;
	return line[4] == ' ' || line[4] == '\t' ? 2 : 0;
}

/* Copies line into dst with every control character (C0 and DEL) replaced
 * by its Unicode control picture (ESC becomes U+241B; a tab, a space), so
 * none reaches the
 * terminal raw, in an echo or quoted in a reply. Returns the new length;
 * dst holds at least 3 * len bytes. */
static size_t
picture_controls(const char *line, size_t len, char *dst)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)line[i];

		if (ch >= 0x20 && ch != 0x7f) {
			dst[n++] = (char)ch;
			continue;
		}
		if (ch == '\t') {
			dst[n++] = ' ';
			continue;
		}
		n += (size_t)utf8proc_encode_char(ch == 0x7f ? 0x2421 : 0x2400 + ch,
		                                  (utf8proc_uint8_t *)dst + n);
	}
	return n;
}

static void answered(struct request *req, void *ctx);

static int64_t
mono_ms(void)
{
	return (int64_t)(uv_hrtime() / 1000000);
}

/*
 * While a draft of this user here is open: a line without a prefix (/ or
 * !) joins it (nothing is printed but its echo), and "<word> end" or
 * "<word> cancel" ends it. Returns 1 when the line was the draft's and *out
 * has all there is to say, 2 when inv was bound from the draft (dispatch
 * it), 0 when the line is a command as ever.
 */
static int
drafted(struct console *c, const char *line, size_t len, bool prefixed, struct reply *r,
        struct invocation *inv)
{
	char cmd[CMD_LINE_MAX + 1];
	struct draft *d = NULL;
	int rc = 1;

	if (drafts_count(c->drafts) == 0)
		return 0;
	if (!prefixed) {
		switch (drafts_feed(c->drafts, c->from.chan_key, c->from.user_key, line, len,
		                    mono_ms(), &d)) {
		case DRAFT_TAKEN:
			return 1;
		case DRAFT_TOO_BIG:
			draft_reply_dropped(r, draft_line(d), draft_lines(d), draft_max(d),
			                    DRAFT_BIG);
			draft_free(d);
			return 1;
		case DRAFT_NONE:
			return 0;
		}
	}
	snprintf(cmd, sizeof(cmd), "%.*s", (int)len, line);
	switch (drafts_word(c->drafts, c->from.chan_key, c->from.user_key, cmd, mono_ms())) {
	case DRAFT_WORD_NONE:
		return 0;
	case DRAFT_WORD_CANCEL:
		d = drafts_take(c->drafts, c->from.chan_key, c->from.user_key, mono_ms());
		draft_reply_dropped(r, draft_line(d), draft_lines(d), 0, DRAFT_CANCELLED);
		break;
	case DRAFT_WORD_END:
		d = drafts_take(c->drafts, c->from.chan_key, c->from.user_key, mono_ms());
		if (draft_bind(dispatch_commands(c->d), draft_line(d), draft_opt(d), draft_text(d),
		               inv, r) == 0) {
			inv->drafted = true;
			rc = 2;
		}
		break;
	}
	draft_free(d);
	return rc;
}

/* One line: what the console answers itself is appended to out; a command
 * is submitted (c->waiting until answered prints it). Returns false when
 * the line ends the console. */
static bool
handle_line(struct console *c, const char *line, size_t len, struct buf *out)
{
	char clean[3 * CMD_LINE_MAX];
	struct request *req;
	bool prefixed;
	size_t lead;

	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	if (len == 0)
		return true;
	/* NUL bytes stay: the dispatcher refuses them with its own error. */
	if (len <= CMD_LINE_MAX && memchr(line, '\0', len) == NULL) {
		len = picture_controls(line, len, clean);
		line = clean;
	}
	if (c->o.echo && utf8_valid(line, len) && memchr(line, '\0', len) == NULL) {
		/* Echoed as every label is shown: no bidi control reorders it; a
		 * line longer than CONSOLE_ECHO_MAX bytes is cut on a character,
		 * and "…" says so. */
		size_t cut = len <= CONSOLE_ECHO_MAX
		                 ? len
		                 : utf8_cut_text(line, len, CONSOLE_ECHO_MAX - strlen("…"));

		buf_addf(out, "%s> ", c->user);
		textsafe_clean(out, line, cut);
		buf_adds(out, cut < len ? "…\n" : "\n");
	} else if (c->o.echo)
		buf_addf(out, "%s> (%zu bytes that are not text)\n", c->user, len);
	/* The console's own words are read as commands are: from the first
	 * character that is not blank. */
	for (lead = 0; lead < len && (line[lead] == ' ' || line[lead] == '\t'); lead++)
		;
	switch (lead < len ? is_quit(line + lead, len - lead) : 0) {
	case 1:
		return false;
	case 2: {
		bool slash = line[lead] == '/' || line[lead] == '!';
		const char *w = tolower((unsigned char)line[lead + slash]) == 'q' ? "quit" : "exit";

		/* unprefixed while a draft is open, the line may be the draft's */
		if (!slash && drafts_count(c->drafts) > 0)
			break;
		buf_addf(out, "%s takes no words after it: type %s alone to leave the console.\n",
		         w, w);
		return true;
	}
	default:
		break;
	}
	if (lead < len && console_command(c, line + lead, len - lead, out))
		return true;
	if (!c->from_ok) {
		memset(&c->from, 0, sizeof(c->from));
		c->from.platform = "console";
		c->from.channel_named = console_name_channel;
		snprintf(c->from.chan_key, sizeof(c->from.chan_key), "console:%s", c->channel);
		snprintf(c->from.user_key, sizeof(c->from.user_key), "console:%s", c->user);
		copy_name(c->from.user_name, sizeof(c->from.user_name), c->user);
		c->from_ok = true;
	}
	prefixed = len > 0 && (line[0] == '!' || line[0] == '/');
	if (len > 0 && line[0] == '!') {
		line++;
		len--;
	}
	reply_clear(c->reply);
	req = request_new(&c->from, (int64_t)time(NULL), answered, c);
	request_use_reply(req, c->reply);
	switch (drafted(c, line, len, prefixed, c->reply, request_invocation(req))) {
	case 1: /* the draft's line: answered here, nothing to run */
		request_free(req);
		emit(c, c->reply, out);
		return true;
	case 2: /* the draft's end: its invocation is bound */
		break;
	default:
		request_set_line(req, line, len);
		break;
	}
	c->waiting = true;
	dispatch_submit(c->d, req);
	return true;
}

/* The easy interface over the same road: the line is submitted, then the
 * store is waited on until the answer came (its text goes to out). */
bool
console_handle_line(struct console *c, const char *line, size_t len, struct buf *out)
{
	bool more;

	c->to = out;
	more = handle_line(c, line, len, out);
	while (c->waiting)
		dispatch_poll(c->d);
	c->to = NULL;
	return more;
}

void
console__flush_out(struct buf *out)
{
	if (out->len > 0) {
		fwrite(out->p, 1, out->len, stdout);
		fflush(stdout);
	}
	buf_reset(out);
}

/* Handles one whole input line of len bytes (dropped more were cut off),
 * appending what to print to out. Returns false when the line ends the
 * console. */
bool
console__input_line(struct console *c, const char *line, size_t len, size_t dropped,
                    struct buf *out)
{
	if (len + dropped <= CMD_LINE_MAX)
		return handle_line(c, line, len, out);
	if (c->o.echo)
		buf_addf(out, "%s> (a line of %zu bytes)\n", c->user, len + dropped);
	buf_addf(out, "That line is %zu bytes long; a command may be at most %d bytes.\n",
	         len + dropped, CMD_LINE_MAX);
	return true;
}

/* Splits input bytes into lines, handling each complete one, up to a line
 * that ends the console (c->quit). */
static void
feed(struct console *c, const char *p, size_t n)
{
	struct buf out;

	buf_init(&out, 1 << 20);
	for (size_t i = 0; i < n && !c->quit; i++) {
		if (p[i] != '\n') {
			if (c->len < CMD_LINE_MAX + 1)
				c->line[c->len++] = p[i];
			else
				c->dropped++;
			continue;
		}
		if (!console__input_line(c, c->line, c->len, c->dropped, &out))
			c->quit = true;
		c->len = 0;
		c->dropped = 0;
		console__flush_out(&out);
		if (c->waiting) {
			/* The rest waits for the held reply. */
			buf_add(&c->rest, p + i + 1, n - i - 1);
			break;
		}
	}
	buf_free(&out);
}

static void resume(struct console *c);

/* Input ended (end of file, an error, or a quit line): handles a last line
 * with no newline and calls on_eof, which may free c, so the caller must
 * not touch c afterwards. */
void
console__finish(struct console *c)
{
	if (c->waiting) {
		c->eof_seen = true;
		return;
	}
	if (c->len > 0 && !c->quit) {
		feed(c, "\n", 1);
		if (c->waiting) {
			c->eof_seen = true;
			return;
		}
	}
	c->len = 0;
	if (c->on_eof != NULL) {
		void (*fn)(void *) = c->on_eof;

		c->on_eof = NULL;
		fn(c->ctx);
	}
}

static void
alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	struct console *c = h->data;

	(void)suggested;
	b->base = c->chunk;
	b->len = sizeof(c->chunk);
}

static void
read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct console *c = s->data;

	if (n > 0) {
		feed(c, b->base, (size_t)n);
		if (c->waiting) {
			uv_read_stop(s);
			return;
		}
		if (c->quit) {
			uv_read_stop(s);
			c->reading = false;
			console__finish(c);
		}
		return;
	}
	if (n < 0) {
		if (n != UV_EOF)
			log_warnx("console: reading stdin failed: %s", uv_strerror((int)n));
		uv_read_stop(s);
		c->reading = false;
		console__finish(c);
	}
}

static void fs_read_cb(uv_fs_t *req);

static void
fs_read_next(struct console *c)
{
	uv_buf_t b = uv_buf_init(c->chunk, sizeof(c->chunk));

	c->req.data = c;
	if (uv_fs_read(c->loop, &c->req, STDIN_FILENO, &b, 1, -1, fs_read_cb) < 0) {
		c->reading = false;
		console__finish(c);
		return;
	}
	c->inflight = true;
}

static void
fs_read_cb(uv_fs_t *req)
{
	struct console *c = req->data;
	ssize_t n = req->result;

	uv_fs_req_cleanup(req);
	c->inflight = false;
	if (c->stopping) {
		console_free(c);
		return;
	}
	if (n > 0 && c->reading) {
		feed(c, c->chunk, (size_t)n);
		if (c->waiting)
			return; /* resume reads on */
		if (!c->quit) {
			fs_read_next(c);
			return;
		}
	}
	if (n < 0)
		log_warnx("console: reading stdin failed: %s", uv_strerror((int)n));
	c->reading = false;
	console__finish(c);
}

/* A line's answer came: prints it, then goes on with the input that
 * waited. */
static void
answered(struct request *req, void *ctx)
{
	struct console *c = ctx;
	struct reply *r = request_reply(req);
	struct buf out;

	request_free(req); /* the reply is the console's */
	c->waiting = false;
	if (c->freed_wait) {
		console_free(c);
		return;
	}
	/* an ask opens a draft: the lines that follow here, until "<word> end" */
	drafts_answered(c->drafts, c->from.chan_key, c->from.user_key, r, mono_ms());
	if (c->to != NULL) {
		emit(c, r, c->to);
		return;
	}
	buf_init(&out, 1 << 20);
	emit(c, r, &out);
	if (c->editing) {
		/* The terminal: the reply, then the prompt, then keys again. */
		console_edit_write(c, &out);
		buf_free(&out);
		c->in_handler = false;
		console_edit_prompt(c);
		uv_poll_start(&c->poll, UV_READABLE, console_edit_poll_cb);
		return;
	}
	console__flush_out(&out);
	buf_free(&out);
	resume(c);
}

static void
resume(struct console *c)
{
	while (!c->waiting && c->rest.len > 0 && !c->quit) {
		struct buf todo = c->rest;

		buf_init(&c->rest, SIZE_MAX);
		feed(c, todo.p, todo.len);
		buf_free(&todo);
	}
	if (c->waiting)
		return;
	if (c->quit || c->eof_seen || !c->reading) {
		if (c->is_stream && c->reading) {
			uv_read_stop((uv_stream_t *)&c->h.pipe);
			c->reading = false;
		}
		c->reading = false;
		console__finish(c);
		return;
	}
	if (c->is_stream)
		uv_read_start((uv_stream_t *)&c->h.pipe, alloc_cb, read_cb);
	else
		fs_read_next(c);
}

struct console *
console_new(struct dispatch *d, const struct console_opts *o)
{
	struct console *c = xcalloc(1, sizeof(*c));

	c->d = d;
	c->o = *o;
	/* The service checked both (console_name_clean); cleaning again
	 * changes nothing then, and keeps a caller's bad name off the screen. */
	if (console_name_clean("user", o->user, strlen(o->user), c->user, NULL, 0) < 0)
		copy_name(c->user, sizeof(c->user), "player");
	if (console_name_clean("channel", o->channel, strlen(o->channel), c->channel, NULL, 0) < 0)
		copy_name(c->channel, sizeof(c->channel), "table");
	c->o.user = c->user;
	c->o.channel = c->channel;
	c->reply = reply_new();
	c->drafts = drafts_new();
	buf_init(&c->rest, SIZE_MAX);
	return c;
}

void
console_free(struct console *c)
{
	if (c == NULL)
		return;
	if (c->waiting) {
		c->freed_wait = true; /* answered frees it */
		return;
	}
	reply_free(c->reply);
	drafts_free(c->drafts);
	buf_free(&c->rest);
	free(c);
}

struct console *
console_start(uv_loop_t *loop, struct dispatch *d, const struct console_opts *o,
              void (*on_eof)(void *), void *ctx)
{
	struct console *c = console_new(d, o);
	uv_handle_type t = uv_guess_handle(STDIN_FILENO);
	int r;

	c->loop = loop;
	c->on_eof = on_eof;
	c->ctx = ctx;
	c->reading = true;
	if (t == UV_TTY && o->interactive) {
		r = console_edit_start(c);
		if (r == 0)
			return c;
		if (c->editing) {
			/* its handles are open: they free c when closed */
			log_warnx("console: cannot read the terminal: %s", uv_strerror(r));
			c->on_eof = NULL;
			console_stop(c);
			return NULL;
		}
		log_warnx("console: cannot read the terminal: %s", uv_strerror(r));
		console_free(c);
		return NULL;
	}
	if (t == UV_TTY) {
		r = uv_tty_init(loop, &c->h.tty, STDIN_FILENO, 1);
		c->is_stream = true;
	} else if (t == UV_NAMED_PIPE) {
		r = uv_pipe_init(loop, &c->h.pipe, 0);
		if (r == 0)
			r = uv_pipe_open(&c->h.pipe, STDIN_FILENO);
		c->is_stream = true;
	} else {
		fs_read_next(c);
		return c;
	}
	if (r == 0) {
		c->h.pipe.data = c;
		r = uv_read_start((uv_stream_t *)&c->h.pipe, alloc_cb, read_cb);
	}
	if (r != 0) {
		log_warnx("console: cannot read stdin: %s", uv_strerror(r));
		console_free(c);
		return NULL;
	}
	return c;
}

static void
closed_cb(uv_handle_t *h)
{
	console_free(h->data);
}

static void
edit_closed_cb(uv_handle_t *h)
{
	struct console *c = h->data;

	if (--c->open_handles == 0)
		console_free(c);
}

void
console_stop(struct console *c)
{
	if (c == NULL)
		return;
	c->reading = false;
	c->on_eof = NULL;
	if (c->open_handles > 0) {
		console_edit_end(c);
		uv_close((uv_handle_t *)&c->poll, edit_closed_cb);
		uv_close((uv_handle_t *)&c->winch, edit_closed_cb);
	} else if (c->is_stream) {
		uv_read_stop((uv_stream_t *)&c->h.pipe);
		uv_close((uv_handle_t *)&c->h.pipe, closed_cb);
	} else if (c->inflight) {
		/* The pending read's callback frees the console. */
		c->stopping = true;
		uv_cancel((uv_req_t *)&c->req);
	} else {
		console_free(c);
	}
}
