/*
 * /roll: dice in the full chat notation (rules/dice.h, NOTATION.md), each
 * roll shown as roll_line.h writes it.
 */
#include "commands/dice/cmd_roll.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/dice/roll_line.h"
#include "commands/dice/roll_log.h"
#include "commands/dice/roll_words.h"
#include "commands/dice/rollchan.h"
#include "commands/gm/gm_screen.h"
#include "rules/base/buf.h"
#include "rules/base/num.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"
#include "rules/dice/dice.h"

/* "Natural 20!" or "Natural 1." after a roll of one lone d20 (no other
 * dice term, no repeat; kept from several, as adv and dis do, counts), as
 * Roll20 and Avrae mark it; NULL otherwise. */
static const char *
natural(const struct dice_result *res)
{
	const struct dice_group *g = NULL;
	const struct dice_die *d = NULL;
	const struct dice_expr *e;

	if (dice_result_nexprs(res) != 1)
		return NULL;
	e = dice_result_expr(res, 0);
	if (e->nrepeats != 1)
		return NULL;
	for (size_t i = 0; i < e->repeats[0].nitems; i++) {
		const struct dice_item *it = &e->repeats[0].items[i];

		if (it->kind != DICE_ITEM_GROUP)
			continue;
		if (g != NULL)
			return NULL;
		g = it->group;
	}
	if (g == NULL || g->fate || g->sides != 20 || g->successes_counted)
		return NULL;
	for (size_t i = 0; i < g->ndice; i++) {
		if (g->dice[i].flags & (DICE_DROPPED | DICE_REROLLED))
			continue;
		if (d != NULL || (g->dice[i].flags & (DICE_MIN | DICE_MAX | DICE_ADDED)))
			return NULL;
		d = &g->dice[i];
	}
	if (d != NULL && d->value == 20)
		return "Natural 20!";
	if (d != NULL && d->value == 1)
		return "Natural 1.";
	return NULL;
}

/* Whether the byte c may be part of a saved roll's name: an ASCII letter,
 * digit, '-' or '_', or a byte of a character beyond ASCII (the name is
 * checked whole after). */
static bool
name_byte(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || (unsigned char)c >= 0x80;
}

/* Whether name[0..n) holds an invisible character without which it would
 * be a saved roll's name: "bo<U+200B>om" is said to be one with that
 * character, not read as dice ("'bo' is no dice function"); "1d<U+200B>6"
 * stays the dice parser's to refuse. */
static bool
name_but_invisible(const char *name, size_t n)
{
	struct buf b;
	bool yes;

	if (!utf8_valid(name, n) || !textsafe_invisible_in(name, n, NULL, NULL))
		return false;
	buf_init(&b, ROLLCHAN_NAME_MAX);
	textsafe_clean(&b, name, n);
	yes = rollchan_name_ok(buf_str(&b));
	buf_free(&b);
	return yes;
}

/*
 * "/roll fireball +2 # big" with fireball saved as "8d6 # fire" rolls
 * "8d6 +2 # big": the saved roll, what follows its name, and the label
 * given (after '#', or as the label option when labelled) or else the
 * saved one. The invoker's saved roll (in every channel) wins over the
 * channel's. The name may be quoted, as a name is anywhere ("/roll \"atk\"
 * adv" is "/roll atk adv"). Returns expr itself when it does not start
 * with a name, the expansion (in buf, len bytes; *at and *n then get the
 * offset and length of the name in expr, its quotes too), or NULL with an
 * error reply.
 */
static const char *
expand_saved(struct invocation *inv, const char *expr, bool labelled, char *buf, size_t len,
             size_t *at, size_t *named, struct reply *out)
{
	const char *sroll, *sname = NULL;
	bool mine;
	char name[ROLLCHAN_NAME_MAX];
	const char *p = expr, *rest, *hash, *semi, *slabel, *advword = NULL;
	size_t n = 0, base;
	bool quoted;
	struct buf b;

	while (*p == ' ' || *p == '\t')
		p++;
	if ((quoted = *p == '"'))
		p++;
	while (n + 1 < sizeof(name) && name_byte(p[n])) {
		name[n] = p[n];
		n++;
	}
	name[n] = '\0';
	if (n > 0 && !name_byte(p[n]) && name_but_invisible(name, n)) {
		char err[400];

		rollchan_name_refusal(name, err, sizeof(err));
		reply_error(out, "%s", err);
		return NULL;
	}
	if (n == 0 || name_byte(p[n]) || (quoted && p[n] != '"') || !rollchan_name_ok(name))
		return expr;
	/* A word before '(' is a function of the notation ("floor(8d6/2)"),
	 * which the dice engine reads, or names as none. */
	for (rest = p + n + quoted; *rest == ' ' || *rest == '\t'; rest++)
		;
	if (*rest == '(')
		return expr;
	if ((sroll = rollchan_lookup(inv->chan, inv->user, name, &sname, &mine)) == NULL) {
		reply_error(out, "'%s' is neither dice nor a saved roll here; ", name);
		reply_cmd(out, RS_BAD, "saved list", NULL);
		reply_add(out, RS_BAD, " lists the saved rolls, ");
		reply_cmd(out, RS_BAD, "help", "command", "roll", NULL);
		reply_add(out, RS_BAD, " the notation.");
		return NULL;
	}
	rest = p + n + quoted;
	hash = dice_label_find(rest, NULL, NULL);
	slabel = dice_label_find(sroll, NULL, NULL);
	base = slabel != NULL ? (size_t)(slabel - sroll) : strlen(sroll);
	while (base > 0 && (sroll[base - 1] == ' ' || sroll[base - 1] == '\t'))
		base--;
	/* A saved "1d20+5 adv" keeps its adv last in its roll: "/roll atk
	 * +2; 2d6" is "1d20+5 +2 adv; 2d6". */
	if (base > 4 && (sroll[base - 4] == ' ' || sroll[base - 4] == '\t') &&
	    (strncasecmp(sroll + base - 3, "adv", 3) == 0 ||
	     strncasecmp(sroll + base - 3, "dis", 3) == 0))
		advword = sroll + base - 3;
	if (hash == NULL)
		hash = rest + strlen(rest);
	semi = advword != NULL ? memchr(rest, ';', (size_t)(hash - rest)) : NULL;
	if (semi == NULL)
		semi = hash;
	buf_init(&b, len - 1);
	buf_add(&b, sroll, advword != NULL ? base - 4 : base);
	buf_add(&b, rest, (size_t)(semi - rest));
	if (advword != NULL) {
		buf_addc(&b, ' ');
		buf_add(&b, advword, 3);
		buf_add(&b, semi, (size_t)(hash - semi));
		buf_addc(&b, ' ');
	}
	if (*hash != '\0')
		buf_adds(&b, hash);
	else if (slabel != NULL && !labelled)
		buf_adds(&b, slabel);
	if (b.toobig) {
		buf_free(&b);
		reply_error(out, "With what follows it, the saved roll %s is longer than %d bytes.",
		            sname, DICE_TEXT_MAX);
		return NULL;
	}
	memcpy(buf, buf_str(&b), b.len + 1);
	buf_free(&b);
	/* a quoted name spans its quotes, the columns they stand in */
	*at = (size_t)(p - quoted - expr);
	*named = n + 2 * quoted;
	return buf;
}

/* typed with the saved roll's name at typed[at, at + n) made a number of
 * as many characters, into t (DICE_TEXT_MAX + 1 bytes): what follows the
 * name stands in the columns typed. Returns false when that is too long. */
static bool
name_as_number(const char *typed, size_t at, size_t n, char *t)
{
	size_t chars = utf8_count(typed + at, n);

	if (strlen(typed) - n + chars > DICE_TEXT_MAX)
		return false;
	snprintf(t, DICE_TEXT_MAX + 1, "%.*s1%*s%s", (int)at, typed, (int)(chars - 1), "",
	         typed + at + n);
	return true;
}

/* err (errlen bytes) said as the fault of the saved roll named
 * typed[at, at + n) with what follows it: quoting the expansion its
 * columns count in. */
static void
saved_reads(const char *typed, size_t at, size_t n, const char *expanded, char *err, size_t errlen)
{
	struct buf b;

	buf_init(&b, errlen - 1);
	buf_addf(&b, "with what follows it, the saved roll %.*s reads ", (int)n, typed + at);
	textsafe_quote(&b, expanded, strlen(expanded), 80);
	buf_addf(&b, ", where %s", err);
	memcpy(err, buf_str(&b), b.len + 1);
	buf_free(&b);
}

/*
 * err (errlen bytes), the error of a roll that starts with a saved roll's
 * name (typed[at, at + n)), expanded to expanded, said in the columns
 * typed: typed again with the name made a number (name_as_number), what
 * follows the name fails where it was typed. When it does not, the fault
 * is in the saved roll with what follows it (saved_reads).
 */
static void
saved_error(const char *typed, size_t at, size_t n, const char *expanded, char *err, size_t errlen)
{
	char t[DICE_TEXT_MAX + 1], adv[DICE_TEXT_MAX + 1], e[DICE_ERR_MAX];
	const char *chk;

	if (name_as_number(typed, at, n, t)) {
		chk = dice_advantage(t, adv, sizeof(adv), e, sizeof(e));
		if (chk != NULL && dice_check(chk, strlen(chk), e, sizeof(e)) != DICE_OK) {
			if (chk != t)
				dice_advantage_error(t, e, sizeof(e));
			snprintf(err, errlen, "%s", e);
			return;
		}
	}
	saved_reads(typed, at, n, expanded, err, errlen);
}

/*
 * The same for the advantage shorthand's error of where an adv or dis word
 * stands (dice_advantage_words): one typed after the name is named in the
 * columns typed, one the saved roll brought as its fault with what follows
 * it. Its other error (a roll with no plain d20) names no column and is
 * left as it is.
 */
static void
saved_adv_error(const char *typed, size_t at, size_t n, const char *expanded, char *err,
                size_t errlen)
{
	char t[DICE_TEXT_MAX + 1], e[DICE_ERR_MAX];

	if (dice_advantage_words(expanded, e, sizeof(e)) == 0)
		return;
	if (name_as_number(typed, at, n, t) && dice_advantage_words(t, e, sizeof(e)) < 0)
		snprintf(err, errlen, "%s", e);
	else
		saved_reads(typed, at, n, expanded, err, errlen);
}

/* dst (size bytes) = b's text, and "…" when some of it was refused (as
 * much of that as fits). b holds at most size - 1 bytes. */
static void
log_text(char *dst, size_t size, const struct buf *b)
{
	if (!b->toobig)
		memcpy(dst, buf_str(b), b->len + 1);
	else
		snprintf(dst, size, "%s…", buf_str(b));
}

/* Logs a roll (roll_log_keep): its canonical text (with label, the
 * label option's when the text has none) and its totals; a secret one
 * (gm: the key of the GM it went to, else NULL) in the GM's secret log. */
static void
log_roll(struct invocation *inv, const struct dice_result *res, const char *label, const char *gm)
{
	char what[ROLLCHAN_WHAT_MAX * 2], result[ROLLCHAN_RESULT_MAX * 2];
	struct buf w, t;

	buf_init(&w, sizeof(what) - 1);
	buf_init(&t, sizeof(result) - 1);
	for (size_t i = 0; i < dice_result_nexprs(res); i++) {
		const struct dice_expr *e = dice_result_expr(res, i);

		if (i > 0)
			buf_adds(&w, "; ");
		if (e->nrepeats > 1)
			buf_addf(&w, "%zux ", e->nrepeats);
		buf_adds(&w, e->source);
		for (size_t k = 0; k < e->nrepeats; k++) {
			char piece[2 + NUM_TEXT_MAX]; /* ", " and the total, added whole */
			size_t sep = t.len > 0 ? 2 : 0;

			memcpy(piece, ", ", sep);
			buf_add(&t, piece,
			        sep + num_text((long long)e->repeats[k].total, piece + sep));
		}
	}
	if (dice_result_label(res) != NULL || label != NULL)
		buf_addf(&w, " # %s",
		         dice_result_label(res) != NULL ? dice_result_label(res) : label);
	/* A text too long for the log is cut (by the log, on a character);
	 * "…" says so. */
	log_text(what, sizeof(what), &w);
	log_text(result, sizeof(result), &t);
	roll_log_keep(inv, what, result, gm);
	buf_free(&w);
	buf_free(&t);
}

/* Who sees a roll: the channel, the invoker alone (private), or the GM
 * alone (secret: a player's blind roll, or the GM's own behind the
 * screen). */
enum roll_audience {
	ROLL_OPEN,
	ROLL_PRIVATE,
	ROLL_SECRET,
};

/*
 * Where a secret roll goes: the channel is told that it was made and by
 * whom, nothing else (not the dice, which give the modifier away, nor the
 * label), and the roll goes behind the GM's screen (gm_screen.h): the GM's
 * own secret roll (or that of anyone who may act as GM here) to the invoker
 * alone, a player's to the seat's holder. Returns NULL, the refusal in out,
 * when nobody holds the seat or the transport knows the GM cannot receive
 * it (struct origin's unreachable): the roll is then not made.
 */
/* ", or roll in the open with /roll." (or /table roll TABLE, see
 * cmd_roll_secret_to) at the end of a refusal. */
static void
open_instead(struct reply *out, const char *table)
{
	reply_add(out, RS_BAD, ", or roll in the open with ");
	if (table != NULL)
		reply_cmd(out, RS_BAD, "table roll", "name", table, NULL);
	else
		reply_cmd(out, RS_BAD, "roll", NULL);
	reply_add(out, RS_BAD, ".");
}

const char *
cmd_roll_secret_to(struct invocation *inv, struct reply *out, const char *table)
{
	if (inv->is_gm) {
		reply_add(out, RS_BOLD, "%s", inv->from->user_name);
		reply_add(out, 0, " (GM) rolls behind the screen.");
		reply_nl(out);
	} else if (channel_gm(inv->seat) != NULL && gm_screen_unreachable(inv)) {
		/* Known before it goes: not made, as on IRC when the GM is
		 * away. */
		reply_error(out,
		            "The GM, %.64s, takes no direct messages from delver, so a secret "
		            "roll would reach nobody; the GM can accept them or name a channel for "
		            "secret rolls with ",
		            channel_gm_name(inv->seat));
		reply_cmd(out, RS_BAD, "gm secret-channel", NULL);
		open_instead(out, table);
		return NULL;
	} else if (channel_gm(inv->seat) != NULL) {
		reply_add(out, RS_BOLD, "%s", inv->from->user_name);
		reply_add(out, 0, " rolls in secret: only the GM, ");
		reply_add(out, RS_BOLD, "%s", channel_gm_name(inv->seat));
		reply_add(out, 0, ", sees the result.");
		reply_nl(out);
	} else {
		reply_error(out, "Nobody is GM here, so a secret roll would reach nobody; the GM "
		                 "takes the seat with ");
		reply_cmd(out, RS_BAD, "gm claim", NULL);
		open_instead(out, table);
		return NULL;
	}
	return gm_screen_to(inv, out);
}

/* The label option *label as shown: blanks around it trimmed (into buf,
 * len bytes); one of blanks alone, or none given, is no label (NULL), as
 * an empty "# " is. One that would show as nothing for its invisible
 * characters is refused naming the first, as the dice refuse such a label
 * after '#': returns false with an error reply. */
static bool
label_option(const char **label, char *buf, size_t len, struct reply *out)
{
	const char *l = *label;
	char name[TEXTSAFE_NAME_MAX];
	size_t n, at;
	uint32_t cp;

	if (l == NULL)
		return true;
	if (utf8_valid(l, strlen(l)) && textsafe_invisible_in(l, strlen(l), &cp, &at) &&
	    textsafe_blank(l, strlen(l))) {
		textsafe_invisible_name(name, sizeof(name), cp, true);
		reply_error(out,
		            "The label option holds nothing but %s at column %zu of it; write a "
		            "label that shows, or none.",
		            name, 1 + utf8_count(l, at));
		return false;
	}
	l += strspn(l, " \t");
	for (n = strlen(l); n > 0 && (l[n - 1] == ' ' || l[n - 1] == '\t'); n--)
		;
	*label = NULL;
	if (n > 0)
		*label = buf;
	snprintf(buf, len, "%.*s", (int)n, l);
	return true;
}

/* Refuses a roll labelled twice, by the label option and after '#' in its
 * expression, as any option given twice is: neither is silently dropped. */
static void
label_twice(struct invocation *inv, const char *option, const char *hashed, struct reply *out)
{
	size_t a = utf8_cut_text(option, strlen(option), 40),
	       b = utf8_cut_text(hashed, strlen(hashed), 40);

	reply_error(out,
	            "The label is given twice, as label:%.*s%s and as '# %.*s%s' in the "
	            "expression; give it once, as label: or after ' # '; usage: ",
	            (int)a, option, option[a] != '\0' ? "…" : "", (int)b, hashed,
	            hashed[b] != '\0' ? "…" : "");
	registry_usage_add(inv->path, RS_BAD, out);
}

/* Appends the n bytes at s, blanks around them trimmed, to the text in dst
 * (size bytes), after a space when both hold some. */
static void
words_add(char *dst, size_t size, const char *s, size_t n)
{
	size_t have = strlen(dst);

	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n > 0 && have + 1 < size)
		snprintf(dst + have, size - have, "%s%.*s", have > 0 ? " " : "", (int)n, s);
}

/*
 * The label after '#' in typed as a user means it (recheck2 F5): a blank
 * one is no label, so its '#' goes ("/roll 1d20 #" rolls, and rolls again,
 * 1d20); a word label:VALUE among its words is the label option typed
 * after the '#', as a private: word is /roll's option (roll_fn), so that a
 * label given both ways is refused in either order. labelled: the label
 * option was given, and the label after '#' then is refused beside it as
 * it stands. Returns typed, its rewrite (in buf, len bytes) with the label
 * after '#' alone, or NULL with an error reply.
 */
static const char *
hash_label(struct invocation *inv, const char *typed, bool labelled, char *buf, size_t len,
           struct reply *out)
{
	const char *label, *hash, *end, *w = NULL, *v, *e;
	char value[DICE_TEXT_MAX + 1] = "", rest[DICE_TEXT_MAX + 1] = "";
	size_t n, before, vlen;

	if ((hash = dice_label_find(typed, &label, &n)) == NULL)
		return typed;
	end = label + n;
	for (const char *p = label; p + 6 <= end && w == NULL; p++)
		if ((p == label || p[-1] == ' ' || p[-1] == '\t') &&
		    strncasecmp(p, "label:", 6) == 0)
			w = p;
	if (w != NULL && labelled)
		return typed;
	if (w == NULL) {
		if (n > 0) /* a plain label */
			return typed;
		w = v = e = end;
		vlen = 0;
	} else if (*(v = w + 6) == '"' && memchr(v + 1, '"', (size_t)(end - v - 1)) != NULL) {
		v++;
		vlen = (size_t)((const char *)memchr(v, '"', (size_t)(end - v)) - v);
		e = v + vlen + 1;
	} else {
		for (vlen = 0; v + vlen < end && v[vlen] != ' ' && v[vlen] != '\t'; vlen++)
			;
		e = v + vlen;
	}
	words_add(value, sizeof(value), v, vlen);
	/* the label's other words, on either side of that one */
	words_add(rest, sizeof(rest), label, (size_t)(w - label));
	words_add(rest, sizeof(rest), e, (size_t)(end - e));
	if (value[0] != '\0' && rest[0] != '\0') {
		label_twice(inv, value, rest, out);
		return NULL;
	}
	for (before = (size_t)(hash - typed); before > 0 && strchr(" \t", typed[before - 1]);
	     before--)
		;
	snprintf(buf, len, "%.*s%s%s", (int)before, typed,
	         value[0] != '\0' || rest[0] != '\0' ? " # " : "", value[0] != '\0' ? value : rest);
	return buf;
}

static void
roll_run(struct invocation *inv, struct reply *out, enum roll_audience who, const char *expr,
         const char *label)
{
	bool private = who == ROLL_PRIVATE;
	bool compact = rollchan_compact(inv->chan);
	struct dice_result *res = NULL;
	char err[2 * DICE_ERR_MAX], advbuf[DICE_TEXT_MAX + 1], savbuf[DICE_TEXT_MAX + 1];
	char labelbuf[DICE_LABEL_MAX + 1], hashbuf[DICE_TEXT_MAX + 1];
	const char *typed = expr, *nat, *to = NULL, *written;
	size_t name_at = 0, name_len = 0;
	struct buf action;
	const char *shown_label;
	int r;

	if (!label_option(&label, labelbuf, sizeof(labelbuf), out))
		return;
	if ((typed = hash_label(inv, typed, label != NULL, hashbuf, sizeof(hashbuf), out)) == NULL)
		return;
	if ((expr = expand_saved(inv, typed, label != NULL, savbuf, sizeof(savbuf), &name_at,
	                         &name_len, out)) == NULL)
		return;
	written = expr;
	if ((expr = dice_advantage(written, advbuf, sizeof(advbuf), err, sizeof(err))) == NULL) {
		if (written != typed)
			saved_adv_error(typed, name_at, name_len, written, err, sizeof(err));
		reply_error_sentence(out, err);
		return;
	}
	r = dice_roll(expr, strlen(expr), inv->rng, &res, err, sizeof(err));
	if (r != DICE_OK) {
		if (expr != written)
			dice_advantage_error(written, err, sizeof(err));
		if (written != typed)
			saved_error(typed, name_at, name_len, written, err, sizeof(err));
		if (roll_words_typo(inv, typed, out))
			return;
		reply_error_sentence(out, err);
		return;
	}
	if (label != NULL && dice_result_label(res) != NULL) {
		label_twice(inv, label, dice_result_label(res), out);
		dice_result_free(res);
		return;
	}
	shown_label = dice_result_label(res) ? dice_result_label(res) : label;
	if (private)
		reply_to(out, REPLY_INVOKER);
	if (who == ROLL_SECRET && (to = cmd_roll_secret_to(inv, out, NULL)) == NULL) {
		dice_result_free(res);
		return;
	}
	reply_add(out, RS_BOLD, "%s", inv->from->user_name);
	reply_add(out, 0, " rolls");
	if (shown_label != NULL)
		reply_add(out, RS_ITALIC, " %s", shown_label);
	if (who == ROLL_SECRET)
		reply_add(out, 0, " in secret");
	/* Compact output: who rolls opens the first line, not a line of its
	 * own; each roll is one line; a natural 20 or 1 closes the last. */
	if (compact)
		reply_add(out, 0, shown_label != NULL || who == ROLL_SECRET ? " · " : " ");
	else
		reply_nl(out);
	for (size_t i = 0; i < dice_result_nexprs(res); i++) {
		const struct dice_expr *e = dice_result_expr(res, i);

		if (e->nrepeats > 1)
			reply_line(out, RS_CODE, "%zux %s", e->nrepeats, e->source);
		for (size_t k = 0; k < e->nrepeats; k++) {
			roll_line_repeat(out, e, k);
			if (!compact || i + 1 < dice_result_nexprs(res) || k + 1 < e->nrepeats)
				reply_nl(out);
		}
	}
	nat = natural(res);
	if (nat != NULL && rollchan_of(inv->chan)->no_natural)
		nat = NULL;
	if (nat != NULL && compact)
		reply_add(out, RS_BOLD | (nat[9] == '2' ? RS_CRIT : RS_FUMBLE), " · %s", nat);
	if (compact)
		reply_nl(out);
	else if (nat != NULL)
		reply_line(out, RS_BOLD | (nat[9] == '2' ? RS_CRIT : RS_FUMBLE), "%s", nat);
	if (dice_result_capped(res))
		reply_line(out, RS_DIM,
		           "A die marked … kept exploding or rerolling; its chain stopped after %d "
		           "extra rolls.",
		           DICE_CHAIN_MAX);
	/* Named options go first: everything after a '#' is label text. The
	 * button carries the command whatever its length: Discord's transport
	 * keeps one too long for its button's id (bot/discord/discord_buttons.h). */
	buf_init(&action, CMD_LINE_MAX);
	buf_adds(&action, private ? "roll private:true " : "roll ");
	buf_adds(&action, typed);
	if (label != NULL && dice_result_label(res) == NULL) {
		buf_adds(&action, " # ");
		buf_adds(&action, label);
	}
	/* A secret roll has no button: it would show under the result;
	 * compact output has none: it is a line of its own where buttons are
	 * text (console). */
	if (!action.toobig && who != ROLL_SECRET && !compact)
		reply_button(out, "Roll again", buf_str(&action));
	buf_free(&action);
	if (who != ROLL_PRIVATE)
		log_roll(inv, res, label, to);
	dice_result_free(res);
}

/*
 * /roll. A private:VALUE word in the label (after " # " in the expression,
 * or in the label option) is the option the user meant, not label text:
 * a roll meant to be private must never go to the channel because its
 * option was typed after the label.
 */
static void
roll_fn(struct invocation *inv, struct reply *out)
{
	const char *expr = invocation_str(inv, "expression");
	const char *label = invocation_str(inv, "label");
	bool private = invocation_bool(inv, "private", false), asked;
	char exprbuf[DICE_TEXT_MAX + 1], labelbuf[DICE_LABEL_MAX + 1], bad[48];
	int r, q;

	r = roll_words_in_label(expr, "private", &asked, exprbuf, sizeof(exprbuf), bad,
	                        sizeof(bad));
	if (r == 1)
		expr = exprbuf;
	if (r >= 0 && label != NULL &&
	    (q = roll_words_find(label, 0, "private", &asked, labelbuf, sizeof(labelbuf), bad,
	                         sizeof(bad))) != 0) {
		r = q;
		label = labelbuf[strspn(labelbuf, " ")] != '\0' ? labelbuf : NULL;
	}
	if (r < 0) {
		roll_words_bad(out, "roll", "private", bad);
		reply_add(out, RS_BAD, " (");
		reply_cmd(out, RS_BAD, "roll", "expression", "1d20 # insight", "private:", "true",
		          NULL);
		reply_add(out, RS_BAD, " is a roll only you see).");
		return;
	}
	if (r == 1 && invocation_has(inv, "private") && asked != private) {
		roll_words_twice(out, "roll", "private", private);
		return;
	}
	if (r == 1)
	private = asked;
	roll_run(inv, out, private ? ROLL_PRIVATE : ROLL_OPEN, expr, label);
}

static void
gmroll_fn(struct invocation *inv, struct reply *out)
{
	const char *expr = invocation_str(inv, "expression");

	/* /roll's option, typed here (before any label): said as such, not
	 * as bad dice. */
	if (roll_words_option(expr, "private") != NULL) {
		reply_error(out, "A secret roll takes no private option: it already goes to the GM "
		                 "alone (");
		reply_cmd(out, RS_BAD, "roll", "expression", "1d20", "private:", "true", NULL);
		reply_add(out, RS_BAD, " is a roll only you see).");
		return;
	}
	roll_run(inv, out, ROLL_SECRET, expr, invocation_str(inv, "label"));
}

static const struct cmd_opt roll_opts[] = {
    {.name = "expression",
     .desc = "Dice to roll, e.g. 4d6kh3, 2d20kl1+3, 6x 4d6kh3, 1d20+5 # attack",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_REST | OPT_TYPED,
     .max = DICE_TEXT_MAX},
    {.name = "label",
     .desc = "What the roll is for (shown, never parsed as dice)",
     .type = OPT_STRING,
     .max = DICE_LABEL_MAX},
    {.name = "private", .desc = "Show the result only to you", .type = OPT_BOOL},
    {0},
};

/* What /help roll points to: the whole notation, in parts. */
static const struct help_topic roll_topics[] = {
    {.name = "notation",
     .desc = "every part of a roll",
     .text = "NdS (d% = d100, dF = fate); keep/drop kh kl dh dl (k = kh, d = dl; one of each per "
             "term, each on the whole pool: 4d6kh3dl1 is 4d6kh3; keeping more than were rolled "
             "keeps them all); explode ! (compound !!, penetrate !p); reroll r, once ro; "
             "successes >=N, failures fN; min/max; criticals cs/cf; sort s/sa/sd; + - * / ( ), "
             "where / rounds down (7/2 is 3); floor() ceil() round() abs(), inside which / is "
             "exact (ceil(8d6/2)); repeat 6x; several rolls split by ';'; a label after ' # ' "
             "or in [brackets] after a term (private:true among its words is still the "
             "option). Compare points: =N <>N <N <=N >N >=N; a bare "
             "number means =N; right after a term !=N explodes on N, so not-equal is <>N. "
             "1d20+5 adv (or dis) rolls the d20 twice keeping the better (worse). A roll saved "
             "with {/save} is rolled by its name, and more may follow: "
             "{/roll expression=\"NAME +2 # label\"}."},
    {.name = "marks",
     .desc = "what the dice of a result show",
     .text = "~~struck~~ dropped, ! exploded, r rerolled, * success, _ failure, ** critical, "
             "__ fumble, ^ raised by min, v lowered by max, … a chain stopped; in a pool of "
             "over 20 dice, 6x3 is three 6s in a row. A lone d20's natural 20 and 1 are "
             "marked ({/settings natural mode=off} stops that)."},
    {.name = "rulings",
     .desc = "where the notation leaves room",
     .text = "min/max clamp explosion and reroll dice too; a penetrated die keeps its -1 "
             "through a reroll; a die's explosion or reroll chain stops after 100 extra "
             "rolls."},
    {.name = "limits",
     .desc = "how big a roll may be",
     .text = "500 bytes, 200 a label, 1000 dice a term, 1,000,000 sides, 10,000 dice a "
             "command, 20 repeats, 10 rolls."},
    {0},
};

const struct command cmd_roll = {
    .name = "roll",
    .desc = "Roll dice: 4d6kh3, 2d20kl1+3, 3d6!, 5d10>=8, 6x 4d6kh3, 1d20+5 # attack",
    .help = "Keep kh3 (kl1), drop dl1 (dh1), explode !, reroll r, successes >=8; + - * / ( ), "
            "where / rounds down (7/2 is 3) but not inside floor() ceil() round() abs() "
            "(ceil(8d6/2)); 6x repeats, ';' splits rolls, ' # ' starts a label; 1d20+5 adv "
            "(or dis); {/r} is {/roll}; {/roll expression=NAME} rolls a roll saved with "
            "{/save}.",
    .topics = roll_topics,
    .opts = roll_opts,
    .fn = roll_fn,
    .alias = "r",
};

static const struct cmd_opt gmroll_opts[] = {
    {.name = "expression",
     .desc = "Dice to roll in secret, e.g. 1d20+5, 2d6 # perception, or a saved roll's name",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_REST | OPT_TYPED,
     .max = DICE_TEXT_MAX},
    {.name = "label",
     .desc = "What the roll is for (the GM sees it)",
     .type = OPT_STRING,
     .max = DICE_LABEL_MAX},
    {0},
};

/* What /help gmroll points to. */
static const struct help_topic gmroll_topics[] = {
    {.name = "delivery",
     .desc = "how the GM gets a secret roll, and where it is kept",
     .text = "The roll goes to the GM who holds the seat alone: on Discord by direct "
             "message, or, when the GM takes none, to the channel the GM set with "
             "{/gm secret-channel} (the roller is told where); on IRC by NOTICE, on the "
             "console as a line marked for the GM. With several GMs (a Discord GM role, "
             "channel admins) only the seat's holder gets it. The GM's own roll: the channel "
             "sees that the GM rolled, the GM alone the result. Secret rolls are not in "
             "{/log}, but the GM's {/log kind=secret} has them."},
    {0},
};

const struct command cmd_gmroll = {
    .name = "gmroll",
    .desc = "Roll in secret: only the GM sees the result (the GM's own: behind the screen)",
    .help = "A blind roll, as Roll20's gmroll: the channel sees only who rolls in secret (not "
            "the dice, the modifier or the label); the GM who holds the seat ({/gm claim}) "
            "alone sees the roll, and the GM's own {/gmroll} stays behind the screen. The "
            "notation, saved rolls and adv/dis are those of {/roll}.",
    .topics = gmroll_topics,
    .opts = gmroll_opts,
    .fn = gmroll_fn,
};
