/* roll_table_dice: the dice inside table entries; see roll_table_dice.h. */
#include "rules/tables/roll_table_dice.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/base/utf8.h"
#include "rules/dice/dice.h"

/* Whether the word could be dice at all: it holds a 'd' or 'D' and starts
 * with a digit, 'd' or '('. Keeps ordinary words away from the parser. */
static bool
dicey(const char *w, size_t len)
{
	if (len == 0 || !(isdigit((unsigned char)w[0]) || w[0] == 'd' || w[0] == 'D'))
		return false;
	return memchr(w, 'd', len) != NULL || memchr(w, 'D', len) != NULL;
}

/* The length of the word that starts p[0..len), up to a blank; *core gets
 * the length of what may be dice in it: the whole word when it reads as
 * dice ("3d6!!" explodes: '!' is notation there), else the word without its
 * trailing punctuation ("2d4," in a sentence). */
static size_t
word_at(const char *p, size_t len, size_t *core)
{
	size_t n = 0;
	char why[DICE_ERR_MAX];

	while (n < len && p[n] != ' ' && p[n] != '\t')
		n++;
	*core = n;
	if (dicey(p, n) && dice_check(p, n, why, sizeof(why)) == DICE_OK)
		return n;
	while (*core > 0 && strchr(".,;:!?)", p[*core - 1]) != NULL)
		(*core)--;
	return n;
}

/*
 * After a dice word p[0..n) with nothing trailing, the advantage shorthand
 * as /roll reads it: " adv" or " dis" as the next word (trailing
 * punctuation after it aside). Returns the length of the two words with
 * that punctuation, *core the length through adv or dis; 0 when there is
 * none.
 */
static size_t
adv_at(const char *p, size_t len, size_t n, size_t *core)
{
	size_t k;

	if (n + 4 > len || p[n] != ' ' ||
	    (strncasecmp(p + n + 1, "adv", 3) != 0 && strncasecmp(p + n + 1, "dis", 3) != 0))
		return 0;
	k = n + 4;
	while (k < len && strchr(".,;:!?)", p[k]) != NULL)
		k++;
	if (k < len && p[k] != ' ' && p[k] != '\t')
		return 0;
	*core = n + 4;
	return k;
}

/*
 * The dice expression at p[0..len) that a word starts, as the roll reads
 * it: into expr (DICE_TEXT_MAX + 1 bytes) with adv or dis rewritten as
 * /roll rewrites them. Returns the length consumed (the word, or the word
 * and its adv or dis), *core the typed expression's length, or 0 when the
 * word is no dice; rc gets dice_check's verdict (DICE_OK for none).
 */
static size_t
dice_at(const char *p, size_t len, size_t *core, char *expr, int *rc, char *why, size_t whylen)
{
	size_t n = word_at(p, len, core), a, acore = 0;
	char typed[DICE_TEXT_MAX + 1];

	*rc = DICE_OK;
	if (n == 0 || !dicey(p, *core) || *core > DICE_TEXT_MAX)
		return 0;
	if (*core == n && dice_check(p, n, why, whylen) == DICE_OK &&
	    (a = adv_at(p, len, n, &acore)) > 0 && acore <= DICE_TEXT_MAX) {
		snprintf(typed, sizeof(typed), "%.*s", (int)acore, p);
		if (dice_advantage(typed, expr, DICE_TEXT_MAX + 1, why, whylen) == NULL) {
			*rc = DICE_ESYNTAX;
			*core = acore;
			return a;
		}
		if (expr == typed || strcmp(expr, typed) == 0)
			return 0;
		*core = acore;
		*rc = dice_check(expr, strlen(expr), why, whylen);
		return *rc == DICE_OK || *rc == DICE_ELIMIT ? a : 0;
	}
	snprintf(expr, DICE_TEXT_MAX + 1, "%.*s", (int)*core, p);
	*rc = dice_check(expr, *core, why, whylen);
	return *rc == DICE_OK || *rc == DICE_ELIMIT ? n : 0;
}

int
roll_table_dice_check(const char *text, size_t len, char *err, size_t errlen)
{
	size_t i = 0;
	int words = 0;

	while (i < len) {
		size_t n, core, d;
		char why[DICE_ERR_MAX], expr[DICE_TEXT_MAX + 1];
		int rc;

		while (i < len && (text[i] == ' ' || text[i] == '\t'))
			i++;
		n = word_at(text + i, len - i, &core);
		if ((d = dice_at(text + i, len - i, &core, expr, &rc, why, sizeof(why))) > 0) {
			n = d;
			if (rc == DICE_OK && ++words > ROLL_TABLE_DICE_WORDS_MAX) {
				snprintf(err, errlen,
				         "'%.*s' is dice expression %d; an entry rolls at most %d.",
				         (int)utf8_cut(text + i, core, 40), text + i, words,
				         ROLL_TABLE_DICE_WORDS_MAX);
				return -1;
			}
			if (rc != DICE_OK) {
				size_t wl = strlen(why);

				if (wl > 0 && why[wl - 1] == '.')
					why[wl - 1] = '\0';
				why[0] = (char)tolower((unsigned char)why[0]);
				snprintf(err, errlen, "in '%.*s', %s.",
				         (int)utf8_cut(text + i, core, 40), text + i, why);
				return -1;
			}
		}
		i += n;
	}
	return 0;
}

/* Plurals that do not end in a plain s, and plurals in -ies or -ves whose
 * singular the suffix rules below would get wrong. */
static const char *const irregular[][2] = {
    {"men", "man"},        {"women", "woman"},    {"children", "child"}, {"mice", "mouse"},
    {"lice", "louse"},     {"geese", "goose"},    {"teeth", "tooth"},    {"feet", "foot"},
    {"oxen", "ox"},        {"people", "person"},  {"dice", "die"},       {"wolves", "wolf"},
    {"elves", "elf"},      {"dwarves", "dwarf"},  {"thieves", "thief"},  {"knives", "knife"},
    {"halves", "half"},    {"leaves", "leaf"},    {"lives", "life"},     {"wives", "wife"},
    {"selves", "self"},    {"shelves", "shelf"},  {"calves", "calf"},    {"loaves", "loaf"},
    {"hooves", "hoof"},    {"scarves", "scarf"},  {"zombies", "zombie"}, {"pixies", "pixie"},
    {"hippies", "hippie"}, {"cookies", "cookie"}, {"ties", "tie"},       {"pies", "pie"},
    {"lies", "lie"},       {"movies", "movie"},   {"goalies", "goalie"}, {"beasties", "beastie"},
};

static bool
ends_with(const char *w, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	return n > t && strncasecmp(w + n - t, tail, t) == 0;
}

/*
 * Appends the singular of the English plural w[0..n) to out, keeping its
 * first letter's case; a word that is not a plural it knows is appended as
 * it is ("undead", "boss"). Ordinary words only: it is for the noun after a
 * count that came out as 1.
 */
static void
add_singular(struct buf *out, const char *w, size_t n)
{
	for (size_t i = 0; i < sizeof(irregular) / sizeof(irregular[0]); i++) {
		const char *pl = irregular[i][0], *sg = irregular[i][1];

		if (strlen(pl) == n && strncasecmp(w, pl, n) == 0) {
			buf_addf(out, "%c%s", isupper((unsigned char)w[0]) ? toupper(sg[0]) : sg[0],
			         sg + 1);
			return;
		}
	}
	if (ends_with(w, n, "men")) /* lizardmen, swordsmen */
		buf_addf(out, "%.*sman", (int)(n - 3), w);
	else if (ends_with(w, n, "ies"))
		buf_addf(out, "%.*sy", (int)(n - 3), w);
	else if (ends_with(w, n, "sses") || ends_with(w, n, "shes") || ends_with(w, n, "ches") ||
	         ends_with(w, n, "xes") || ends_with(w, n, "zes"))
		buf_add(out, w, n - 2);
	else if (ends_with(w, n, "s") && !ends_with(w, n, "ss") && !ends_with(w, n, "us") &&
	         !ends_with(w, n, "is"))
		buf_add(out, w, n - 1);
	else
		buf_add(out, w, n);
}

/* Appends "3+2" (or "4") for the counted dice of one rolled expression. */
static void
dice_list(const struct dice_result *res, struct buf *out)
{
	const struct dice_expr *e = dice_result_expr(res, 0);
	bool first = true;

	for (size_t i = 0; i < e->repeats[0].nitems; i++) {
		const struct dice_group *g = e->repeats[0].items[i].group;

		if (g == NULL)
			continue;
		for (size_t k = 0; k < g->ndice; k++) {
			if (g->dice[k].flags & (DICE_DROPPED | DICE_REROLLED))
				continue;
			buf_addf(out, "%s%lld", first ? "" : "+", (long long)g->dice[k].value);
			first = false;
		}
	}
}

/* How many dice one rolled command rolled, dropped and rerolled ones too. */
static int64_t
dice_count(const struct dice_result *res)
{
	int64_t n = 0;

	for (size_t x = 0; x < dice_result_nexprs(res); x++) {
		const struct dice_expr *e = dice_result_expr(res, x);

		for (size_t r = 0; r < e->nrepeats; r++)
			for (size_t i = 0; i < e->repeats[r].nitems; i++)
				if (e->repeats[r].items[i].group != NULL)
					n += (int64_t)e->repeats[r].items[i].group->ndice;
	}
	return n;
}

int
roll_table_dice_roll_part(const char *text, size_t tlen, struct rng *rng, int64_t *dice_left,
                          int *words_left, struct buf *out, struct buf *notes)
{
	const char *p = text, *end = text + tlen;
	int rolled = 0;
	bool one = false; /* the word before was a count of exactly 1 */

	while (p < end) {
		size_t sp = 0, len, core, d, dcore;
		struct dice_result *res = NULL;
		char err[DICE_ERR_MAX], expr[DICE_TEXT_MAX + 1];
		int rc;

		while (p + sp < end && (p[sp] == ' ' || p[sp] == '\t'))
			sp++;
		buf_add(out, p, sp);
		p += sp;
		len = word_at(p, (size_t)(end - p), &core);
		if (len == 0)
			break;
		d = dice_at(p, (size_t)(end - p), &dcore, expr, &rc, err, sizeof(err));
		if (d > 0 && rc == DICE_OK && *words_left <= 0) {
			/* an entry saved before the limit was checked at set */
			buf_add(out, p, d);
			if (*words_left == 0)
				buf_addf(out,
				         " (not rolled, nor any dice after it: an entry rolls at "
				         "most %d dice expressions)",
				         ROLL_TABLE_DICE_WORDS_MAX);
			*words_left = -1;
			one = false;
			p += d;
			continue;
		}
		if (d > 0 && rc == DICE_OK &&
		    dice_roll(expr, strlen(expr), rng, &res, err, sizeof(err)) == DICE_OK) {
			if (dice_count(res) > *dice_left) {
				/* past what one command may roll: left as written, and said
				 * there (the notes may be cut) */
				buf_add(out, p, d);
				if (*dice_left >= 0)
					buf_addf(out,
					         " (not rolled, nor any dice after it: one roll "
					         "rolls at most %d dice)",
					         DICE_ROLLED_MAX);
				*dice_left = -1;
				dice_result_free(res);
				one = false;
				p += d;
				continue;
			}
			if (dice_result_nexprs(res) == 1 &&
			    dice_result_expr(res, 0)->nrepeats == 1 &&
			    dice_result_label(res) == NULL) {
				int64_t total = dice_result_expr(res, 0)->repeats[0].total;

				*dice_left -= dice_count(res);
				(*words_left)--;
				buf_addf(out, "%lld", (long long)total);
				buf_add(out, p + dcore, d - dcore);
				buf_addf(notes, "%s%.*s: ", notes->len > 0 ? "; " : "", (int)dcore,
				         p);
				dice_list(res, notes);
				rolled++;
				dice_result_free(res);
				one = total == 1 && dcore == d;
				p += d;
				continue;
			}
			buf_add(out, p, len);
			dice_result_free(res);
		} else if (one) {
			add_singular(out, p, core);
			buf_add(out, p + core, len - core);
		} else {
			buf_add(out, p, len);
		}
		one = false;
		p += len;
	}
	return rolled;
}

void
roll_table_dice_notes(const struct buf *notes, struct buf *out)
{
	if (notes->len > 0)
		buf_addf(out, " (%s%s)", buf_str(notes), notes->toobig ? " …" : "");
}

int
roll_table_dice_roll_text(const char *text, struct rng *rng, struct buf *out)
{
	struct buf notes;
	int rolled;

	int64_t left = DICE_ROLLED_MAX;
	int words = ROLL_TABLE_DICE_WORDS_MAX;

	buf_init(&notes, ROLL_TABLE_NOTES_MAX);
	rolled = roll_table_dice_roll_part(text, strlen(text), rng, &left, &words, out, &notes);
	roll_table_dice_notes(&notes, out);
	buf_free(&notes);
	return rolled;
}
