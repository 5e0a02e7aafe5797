/* console: stdin/stdout transport on the libuv loop; see console.h. */
#include "bot/console/console.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bot/log.h"
#include "bot/console/render_text.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#define READ_CHUNK 4096

struct console {
	struct dispatch *d;
	struct console_opts o;
	struct origin from; /* who speaks where, rebuilt after /as or /channel */
	bool from_ok;
	struct reply *reply; /* reused line after line */
	char user[NAME_MAX_LEN];
	char channel[NAME_MAX_LEN];
	/* the line being read: at most CMD_LINE_MAX bytes are kept */
	char line[CMD_LINE_MAX + 1];
	size_t len;
	size_t dropped; /* bytes past the limit in the current line */
	/* input handle: a stream (tty, pipe) or a file read by uv_fs_read */
	union {
		uv_tty_t tty;
		uv_pipe_t pipe;
	} h;
	bool is_stream;
	bool reading;
	bool inflight; /* a uv_fs_read is pending */
	bool stopping; /* console_stop was called: free when idle */
	uv_fs_t req;
	char chunk[READ_CHUNK];
	uv_loop_t *loop;
	void (*on_eof)(void *);
	void *ctx;
};

static void
copy_name(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

static bool
valid_name(const char *s, size_t len)
{
	if (len == 0 || len >= NAME_MAX_LEN)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= ' ' || c == ':' || c == 0x7f)
			return false;
	}
	return true;
}

static void
emit(struct console *c, const struct reply *r, struct buf *out)
{
	const struct reply_msg *m = reply_msg(r, REPLY_CHANNEL);

	if (m != NULL)
		render_text(m, c->o.ansi, out);
	m = reply_msg(r, REPLY_INVOKER);
	if (m != NULL) {
		buf_addf(out,
		         c->o.ansi ? "\033[2m(only %s sees this)\033[0m\n"
		                   : "(only %s sees this)\n",
		         c->user);
		render_text(m, c->o.ansi, out);
	}
}

/* "/as NAME" and "/channel NAME": returns true when line was one. */
static bool
console_command(struct console *c, const char *line, size_t len, struct buf *out)
{
	static const struct {
		const char *word;
		size_t off;
		const char *what;
	} cmds[] = {
	    {"/as ", offsetof(struct console, user), "You are now"},
	    {"/channel ", offsetof(struct console, channel), "You are now in channel"},
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		size_t wl = strlen(cmds[i].word);
		const char *arg;
		size_t alen;

		if (len < wl || strncmp(line, cmds[i].word, wl) != 0)
			continue;
		arg = line + wl;
		alen = len - wl;
		while (alen > 0 && arg[alen - 1] == ' ')
			alen--;
		if (!valid_name(arg, alen)) {
			buf_addf(out, "%sa name is 1 to %d characters with no spaces or colons.\n",
			         cmds[i].word, NAME_MAX_LEN - 1);
			return true;
		}
		snprintf((char *)c + cmds[i].off, NAME_MAX_LEN, "%.*s", (int)alen, arg);
		c->from_ok = false;
		buf_addf(out, "%s %.*s.\n", cmds[i].what, (int)alen, arg);
		return true;
	}
	return false;
}

void
console_handle_line(struct console *c, const char *line, size_t len, struct buf *out)
{
	struct reply *r;

	while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	if (len == 0)
		return;
	if (c->o.echo && utf8_valid(line, len) && memchr(line, '\0', len) == NULL)
		buf_addf(out, "%s> %.*s\n", c->user, (int)utf8_cut(line, len, 200), line);
	else if (c->o.echo)
		buf_addf(out, "%s> (%zu bytes that are not text)\n", c->user, len);
	if (console_command(c, line, len, out))
		return;
	if (!c->from_ok) {
		memset(&c->from, 0, sizeof(c->from));
		c->from.platform = "console";
		snprintf(c->from.chan_key, sizeof(c->from.chan_key), "console:%s", c->channel);
		snprintf(c->from.user_key, sizeof(c->from.user_key), "console:%s", c->user);
		copy_name(c->from.user_name, sizeof(c->from.user_name), c->user);
		c->from_ok = true;
	}
	if (len > 0 && line[0] == '!') {
		line++;
		len--;
	}
	r = c->reply;
	reply_clear(r);
	dispatch_line(c->d, &c->from, line, len, (int64_t)time(NULL), r);
	emit(c, r, out);
}

static void
flush_out(struct buf *out)
{
	if (out->len > 0) {
		fwrite(out->p, 1, out->len, stdout);
		fflush(stdout);
	}
	buf_reset(out);
}

/* Splits input bytes into lines, handling each complete one. */
static void
feed(struct console *c, const char *p, size_t n)
{
	struct buf out;

	buf_init(&out, 1 << 20);
	for (size_t i = 0; i < n; i++) {
		if (p[i] != '\n') {
			if (c->len < CMD_LINE_MAX + 1)
				c->line[c->len++] = p[i];
			else
				c->dropped++;
			continue;
		}
		if (c->len > CMD_LINE_MAX) {
			if (c->o.echo)
				buf_addf(&out, "%s> (a line of %zu bytes)\n", c->user,
				         c->len + c->dropped);
			buf_addf(
			    &out,
			    "That line is %zu bytes long; a command may be at most %d bytes.\n",
			    c->len + c->dropped, CMD_LINE_MAX);
		} else {
			console_handle_line(c, c->line, c->len, &out);
		}
		c->len = 0;
		c->dropped = 0;
		flush_out(&out);
	}
	buf_free(&out);
}

static void
finish(struct console *c)
{
	if (c->len > 0) {
		feed(c, "\n", 1);
	}
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
		return;
	}
	if (n < 0) {
		if (n != UV_EOF)
			log_warnx("console: reading stdin failed: %s", uv_strerror((int)n));
		uv_read_stop(s);
		c->reading = false;
		finish(c);
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
		finish(c);
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
		if (c->reading)
			fs_read_next(c);
		return;
	}
	if (n < 0)
		log_warnx("console: reading stdin failed: %s", uv_strerror((int)n));
	c->reading = false;
	finish(c);
}

struct console *
console_new(struct dispatch *d, const struct console_opts *o)
{
	struct console *c = xcalloc(1, sizeof(*c));

	c->d = d;
	c->o = *o;
	copy_name(c->user, sizeof(c->user), o->user);
	copy_name(c->channel, sizeof(c->channel), o->channel);
	c->o.user = c->user;
	c->o.channel = c->channel;
	c->reply = reply_new();
	return c;
}

void
console_free(struct console *c)
{
	if (c == NULL)
		return;
	reply_free(c->reply);
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

void
console_stop(struct console *c)
{
	if (c == NULL)
		return;
	c->reading = false;
	c->on_eof = NULL;
	if (c->is_stream) {
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
