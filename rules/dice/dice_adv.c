/*
 * dice_adv: the advantage shorthand, a rewrite of chat notation before it
 * is parsed. See dice_advantage() in dice.h.
 */
#include "rules/dice/dice.h"
#include "rules/dice/dice_impl.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Whether c may end a dice term that adv/dis can double: an operator, a
 * space, a label or the end. */
static bool
term_end(int c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == '+' || c == '-' || c == '*' || c == '/' ||
	       c == ')' || c == ';' || c == '[' || c == '#';
}

static bool
is_ws(int c)
{
	return c == ' ' || c == '\t';
}

/* The first plain d20 term of [expr, stop) ("d20" or "1d20", not part of
 * a longer number or word), or NULL. stop ends a roll (next_roll): a
 * [label] that starts before it closes before it, or holds the rest. */
static const char *
first_d20(const char *expr, const char *stop)
{
	for (const char *p = expr; p < stop; p++) {
		const char *d = p;

		if (*p == '[') { /* a label: never dice */
			if ((p = dice__label_close(p)) == NULL)
				return NULL;
			continue;
		}
		if (*p == '1' && (p == expr || !isdigit((unsigned char)p[-1])))
			d = p + 1;
		else if (p > expr &&
		         (isdigit((unsigned char)p[-1]) || isalpha((unsigned char)p[-1])))
			continue;
		if (d + 3 <= stop && (*d == 'd' || *d == 'D') && d[1] == '2' && d[2] == '0' &&
		    term_end(d + 3 < stop ? d[3] : '\0'))
			return p;
	}
	return NULL;
}

/* One roll of the command: the text between ';'s (or the start, or the
 * '#' of the command's label), and its trailing adv or dis word. */
struct adv_roll {
	const char *start, *end; /* the roll, trailing blanks left out */
	const char *word;        /* its last word when that is adv or dis, else NULL */
	bool adv;
};

/* Whether the three bytes at w are the word adv or dis (any case), and
 * which. */
static bool
adv_word(const char *w, bool *adv)
{
	if (strncasecmp(w, "adv", 3) == 0)
		*adv = true;
	else if (strncasecmp(w, "dis", 3) == 0)
		*adv = false;
	else
		return false;
	return true;
}

/* The next roll of the command from *p; false at its end (a '#', or the
 * NUL). Moves *p past the roll and its ';'. A "[label]" is skipped whole. */
static bool
next_roll(const char **p, struct adv_roll *r)
{
	const char *s = *p;

	if (*s == '\0' || *s == '#')
		return false;
	r->start = s;
	s = dice__stop_find(s, true);
	*p = *s == ';' ? s + 1 : s;
	while (s > r->start && is_ws(s[-1]))
		s--;
	r->end = s;
	r->word = NULL;
	if (s - r->start >= 4 && is_ws(s[-4]) && adv_word(s - 3, &r->adv))
		r->word = s - 3;
	return true;
}

/* The first adv or dis word of [s, stop) standing alone (not in a label,
 * not part of a longer word), or NULL. stop ends a roll, or is its last
 * word (next_roll), as for first_d20(). */
static const char *
stray_word(const char *s, const char *stop)
{
	bool adv;

	for (const char *p = s; p + 3 <= stop; p++) {
		if (*p == '[') {
			if ((p = dice__label_close(p)) == NULL)
				return NULL;
			continue;
		}
		if ((p == s || !isalnum((unsigned char)p[-1])) && adv_word(p, &adv) &&
		    (p + 3 == stop || !isalnum((unsigned char)p[3])))
			return p;
	}
	return NULL;
}

/* Whether an invisible character (textsafe.h) stands at p, right after
 * an adv or dis word of expr: then it is what keeps the word from being
 * its roll's last, and err names it ("adv<U+200B>"). */
static bool
invisible_after(const char *expr, const char *p, char *err, size_t errlen)
{
	char q[DICE_QUOTE_MAX];
	size_t n = strlen(p);
	uint32_t cp;

	if (utf8_seq_len(p, n) < 2 || !textsafe_invisible_at(p, n, &cp))
		return false;
	dice__quote(p, n, 0, false, q, sizeof(q));
	snprintf(err, errlen,
	         "Unexpected %s at column %d, after the word '%.3s'; the end, ';' or '# label' "
	         "may follow it, as in 1d20+5 adv; 2d6.",
	         q, dice__column(expr, (size_t)(p - expr)), p - 3);
	return true;
}

int
dice_advantage_words(const char *expr, char *err, size_t errlen)
{
	struct adv_roll r;
	const char *p = expr, *w;

	while (next_roll(&p, &r)) {
		w = stray_word(r.start, r.word != NULL ? r.word : r.end);
		if (w != NULL && invisible_after(expr, w + 3, err, errlen))
			return -1;
		if (w != NULL) {
			snprintf(
			    err, errlen,
			    "The word '%.3s' at column %d must come last in its roll (before any "
			    "';' or '# label'), as in 1d20+5 adv; 2d6.",
			    w, dice__column(expr, (size_t)(w - expr)));
			return -1;
		}
	}
	return 0;
}

/* Checks every roll of expr: a lone adv or dis is its roll's last word,
 * and that roll has a plain d20. Returns how many rolls end in one, or -1
 * with err set. */
static int
adv_check(const char *expr, char *err, size_t errlen)
{
	struct adv_roll r;
	const char *p = expr;
	int nrolls = 0, nadv = 0, bad = 0;
	bool bad_adv = true;

	if (dice_advantage_words(expr, err, errlen) < 0)
		return -1;
	while (next_roll(&p, &r)) {
		nrolls++;
		if (r.word == NULL)
			continue;
		nadv++;
		if (bad == 0 && first_d20(r.start, r.word) == NULL) {
			bad = nrolls;
			bad_adv = r.adv;
		}
	}
	if (bad == 0)
		return nadv;
	if (nrolls == 1)
		snprintf(err, errlen,
		         "%s rolls a plain d20 twice and this roll has none; write it as in 1d20+5 "
		         "%s.",
		         bad_adv ? "Adv" : "Dis", bad_adv ? "adv" : "dis");
	else
		snprintf(
		    err, errlen,
		    "%s rolls a plain d20 twice and roll %d of this list has none; write it as "
		    "in 1d20+5 %s; 2d6.",
		    bad_adv ? "Adv" : "Dis", bad, bad_adv ? "adv" : "dis");
	return -1;
}

const char *
dice_advantage(const char *expr, char *buf, size_t len, char *err, size_t errlen)
{
	struct adv_roll r;
	const char *p = expr, *copied = expr, *d;
	size_t n = 0, piece;
	int nadv = adv_check(expr, err, errlen);

	if (nadv <= 0)
		return nadv < 0 ? NULL : expr;
	/* Each roll ending in adv or dis: its first d20 becomes 2d20kh1 (or
	 * kl1), and the blank and the word go. The rewrite is never longer than
	 * expr. */
	if (len <= strlen(expr))
		return expr;
	while (next_roll(&p, &r)) {
		if (r.word == NULL)
			continue;
		d = first_d20(r.start, r.word);
		piece = (size_t)(d - copied);
		memcpy(buf + n, copied, piece);
		n += piece;
		memcpy(buf + n, r.adv ? "2d20kh1" : "2d20kl1", 7);
		n += 7;
		d += *d == '1' ? 4 : 3;
		piece = (size_t)(r.word - 1 - d);
		memcpy(buf + n, d, piece);
		n += piece;
		copied = r.word + 3;
	}
	piece = strlen(copied);
	memcpy(buf + n, copied, piece + 1);
	return buf;
}

void
dice_advantage_error(const char *expr, char *err, size_t errlen)
{
	char typed[DICE_TEXT_MAX + 1], e[DICE_ERR_MAX];
	struct adv_roll r;
	const char *p = expr;
	size_t len = strlen(expr);

	if (len > DICE_TEXT_MAX)
		return;
	memcpy(typed, expr, len + 1);
	while (next_roll(&p, &r))
		if (r.word != NULL)
			memset(typed + (r.word - expr), ' ', 3);
	if (dice_check(typed, len, e, sizeof(e)) != DICE_OK)
		snprintf(err, errlen, "%s", e);
}
