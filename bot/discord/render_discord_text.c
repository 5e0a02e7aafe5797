/* render_discord_text: reply spans as Discord text; see render_discord_text.h. */
#include "bot/discord/render_discord_text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/render/render_layout.h"
#include "rules/base/num.h"

#define ZWSP   "\xe2\x80\x8b"
#define STROKE "\xcc\xb6" /* U+0336 COMBINING LONG STROKE OVERLAY */
/* Spans with any of these styles make a line a dice line (fenced). */
#define DICE_STYLES (RS_CRIT | RS_FUMBLE | RS_STRUCK | RS_USER | RS_HIGHLIGHT | RS_DIM)
#define BOLD_STYLES (RS_BOLD | RS_CRIT | RS_FUMBLE | RS_HIGHLIGHT)

/* Whether none of the 8 bytes at s is a control character (below 0x20,
 * or 0x7f) or a backquote: each test finds whether some byte is one,
 * exactly (a borrow only ever marks a byte after one that is). */
static bool
eight_fence_plain(const char *s)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t x, del, tick;

	memcpy(&x, s, 8);
	del = x ^ (ones * 0x7f);
	tick = x ^ (ones * '`');
	return ((((x - ones * 0x20) & ~x) | ((del - ones) & ~del) | ((tick - ones) & ~tick)) &
	        highs) == 0;
}

void
render_discord_text_fenced(struct buf *b, const char *s)
{
	const char *end = s + strlen(s);

	while (s < end) {
		const char *run = s;
		unsigned char c;

		/* Plain characters go in as one run: this runs for every line. */
		while (end - s >= 8 && eight_fence_plain(s))
			s += 8;
		while ((c = (unsigned char)*s) >= 0x20 && c != 0x7f && c != '`')
			s++;
		buf_add(b, run, (size_t)(s - run));
		if (c == '\0')
			break;
		if (c == '`') {
			buf_addc(b, '`');
			buf_adds(b, ZWSP);
		} else {
			buf_addc(b, ' ');
		}
		s++;
	}
}

/* Whether Discord's markdown reads c anywhere in a line (it is escaped). */
static bool
md_special(unsigned char c)
{
	switch (c) {
	case '\\':
	case '*':
	case '_':
	case '~':
	case '`':
	case '|':
	case '<':
	case '[':
	case ']':
		return true;
	default:
		return false;
	}
}

/* Whether c goes in as it is past a line's start: printable, not read as
 * markdown (the NUL is not). */
static bool
md_plain(unsigned char c)
{
	return c >= 0x20 && c != 0x7f && !md_special(c);
}

void
render_discord_text_md(struct buf *b, const char *s, bool *at_start)
{
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (!*at_start && md_plain(c)) {
			/* Past a line's start, a run that needs nothing goes in at
			 * once (this runs for every character of a reply). */
			const char *run = p;

			while (md_plain((unsigned char)p[1]))
				p++;
			buf_add(b, run, (size_t)(p + 1 - run));
			continue;
		}

		if (c == '\n') {
			buf_addc(b, '\n');
			*at_start = true;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			buf_addc(b, ' ');
			continue;
		}
		if (md_special(c) || (*at_start && (c == '#' || c == '>' || c == '-' || c == '+')))
			buf_addc(b, '\\');
		if (*at_start && c >= '0' && c <= '9') {
			const char *q = p;

			while (*q >= '0' && *q <= '9')
				q++;
			buf_add(b, p, (size_t)(q - p));
			if (*q == '.')
				buf_addc(b, '\\');
			p = q - 1;
			*at_start = false;
			continue;
		}
		buf_addc(b, *p);
		if (c != ' ')
			*at_start = false;
	}
}

/* A command as typed on Discord, where every option is named:
 * "/fungeon annoy obstacle:pit who:Alba"; a usage "/pick who:text [n:N]". */
static char *
discord_cmd(const struct reply_cmdref *c)
{
	struct buf b;

	buf_init(&b, RENDER_DISCORD_TEXT_MAX);
	buf_addc(&b, '/');
	buf_adds(&b, c->path);
	for (size_t i = 0; i < c->nopts; i++) {
		const struct reply_cmd_opt *o = &c->opts[i];

		buf_addc(&b, ' ');
		if (c->usage && o->name[0] == '\0') { /* the subcommands */
			buf_addc(&b, '<');
			buf_adds(&b, o->value);
			buf_addc(&b, '>');
			continue;
		}
		if (c->usage && o->optional)
			buf_addc(&b, '[');
		buf_adds(&b, o->name);
		buf_addc(&b, ':');
		buf_adds(&b, c->usage ? o->kind : o->value);
		if (c->usage && o->optional)
			buf_addc(&b, ']');
	}
	return buf_take(&b);
}

/* s, or a copy of it whose text is its command as typed on Discord (in
 * *own, to free). */
static const struct reply_span *
discord_span(const struct reply_span *s, struct reply_span *own)
{
	if (s->cmd == NULL)
		return s;
	*own = *s;
	own->text = discord_cmd(s->cmd);
	own->len = strlen(own->text);
	own->style |= RS_CODE; /* shown as code: what to type */
	return own;
}

static void
md_span(const struct reply_span *s, struct buf *b, bool *at_start)
{
	struct buf t;
	const char *text, *core, *end;
	const char *mark = "";
	size_t lead, trail;
	bool code =
	    (s->style & RS_CODE) && strchr(s->text, '`') == NULL && strchr(s->text, '\n') == NULL;
	const char *open = "";
	bool copied;

	if ((s->style & RS_CHANNEL) && strncmp(s->text, "discord:", 8) == 0 && s->text[8] != '\0' &&
	    strspn(s->text + 8, "0123456789") == strlen(s->text + 8)) {
		buf_addf(b, "<#%s>", s->text + 8); /* a mention links, and pings nobody */
		*at_start = false;
		return;
	}
	if ((s->style & RS_USER) && s->user.mark[0] != '\0')
		mark = s->user.mark;
	/* The mark and the text as one text: copied into t when there is a
	 * mark (or, below, when the core must end before the text does); a
	 * text past the cap is as empty, as a copy of it would be. */
	buf_init(&t, RENDER_DISCORD_TEXT_MAX);
	copied = mark[0] != '\0';
	if (copied) {
		buf_adds(&t, mark);
		buf_adds(&t, s->text);
		text = buf_str(&t);
	} else {
		text = strlen(s->text) <= RENDER_DISCORD_TEXT_MAX ? s->text : "";
	}
	lead = strspn(text, " \t");
	core = text + lead;
	end = core + strlen(core);
	while (end > core && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	trail = strlen(end);
	buf_add(b, text, lead);
	if (core == end) {
		buf_adds(b, end);
		buf_free(&t);
		return;
	}
	if (s->style & BOLD_STYLES)
		open = "**";
	else if (s->style & RS_ITALIC)
		open = "*";
	if (s->style & RS_STRUCK)
		buf_adds(b, "~~");
	buf_adds(b, open);
	if (code) {
		buf_addc(b, '`');
		buf_add(b, core, (size_t)(end - core));
		buf_addc(b, '`');
		*at_start = false;
	} else if (trail == 0) {
		render_discord_text_md(b, core, at_start);
	} else if (copied) {
		/* The core alone: cut in place in t, the trail put back after. */
		char *cut = t.p + (end - text), after = *cut;

		*cut = '\0';
		render_discord_text_md(b, core, at_start);
		*cut = after;
	} else {
		buf_add(&t, core, (size_t)(end - core));
		render_discord_text_md(b, buf_str(&t), at_start);
	}
	buf_adds(b, open);
	if (s->style & RS_STRUCK)
		buf_adds(b, "~~");
	buf_add(b, end, trail);
	buf_free(&t);
}

bool
render_discord_text_sgr(unsigned style, const struct thwacko_style *us, char *out, size_t len)
{
	int colour = -1;
	bool bold = (style & (BOLD_STYLES | RS_USER)) != 0;
	bool under = (style & RS_USER) != 0;
	char t[8 + NUM_TEXT_MAX];
	size_t n = 0;

	if (style & RS_USER)
		colour = render_layout_ansi_colour(us->colour);
	else if (style & (RS_CRIT | RS_GOOD))
		colour = 32;
	else if (style & (RS_FUMBLE | RS_BAD))
		colour = 31;
	else if (style & RS_HIGHLIGHT)
		colour = 33;
	else if (style & RS_CODE)
		colour = 36;
	else if (style & (RS_DIM | RS_STRUCK))
		colour = 30;
	if (!bold && !under && colour < 0)
		return false;
	/* "ESC[" 0|1 [";4"] [";" colour] "m", cut to len as snprintf cuts */
	t[n++] = '\033';
	t[n++] = '[';
	t[n++] = bold ? '1' : '0';
	if (under) {
		t[n++] = ';';
		t[n++] = '4';
	}
	if (colour >= 0) {
		t[n++] = ';';
		n += num_text(colour, t + n);
	}
	t[n++] = 'm';
	if (len > 0) {
		n = n < len ? n : len - 1;
		memcpy(out, t, n);
		out[n] = '\0';
	}
	return true;
}

/* Struck text inside the ansi block, where markdown's ~~ would show as
 * tildes: every visible character is followed by U+0336 (a combining long
 * stroke), which crosses it out in the text itself, coloured or not. */
static void
struck_text(struct buf *b, const char *s)
{
	struct buf t;

	buf_init(&t, RENDER_DISCORD_TEXT_MAX);
	render_discord_text_fenced(&t, s);
	for (const char *p = buf_str(&t); *p != '\0';) {
		size_t n = 1;

		while ((p[n] & 0xC0) == 0x80)
			n++;
		buf_add(b, p, n);
		if (*p != ' ' && strncmp(p, ZWSP, n) != 0)
			buf_adds(b, STROKE);
		p += n;
	}
	buf_free(&t);
}

static void
ansi_span(const struct reply_span *s, struct buf *b)
{
	char sgr[32];
	bool styled = render_discord_text_sgr(s->style, &s->user, sgr, sizeof(sgr));

	if (styled)
		buf_adds(b, sgr);
	if ((s->style & RS_USER) && s->user.mark[0] != '\0')
		render_discord_text_fenced(b, s->user.mark);
	if (s->style & RS_STRUCK)
		struck_text(b, s->text);
	else
		render_discord_text_fenced(b, s->text);
	if (styled)
		buf_adds(b, RENDER_SGR_RESET);
}

bool
render_discord_text_is_dice(const struct reply_block *bl)
{
	for (size_t j = 0; j < bl->nspans; j++)
		if (bl->spans[j].style & DICE_STYLES)
			return true;
	return false;
}

void
render_discord_text_span(struct buf *b, const struct reply_span *s, bool fenced, bool *at_start)
{
	struct reply_span own;
	const struct reply_span *sp = discord_span(s, &own);

	if (fenced)
		ansi_span(sp, b);
	else
		md_span(sp, b, at_start);
	if (sp == &own)
		free(own.text);
}
