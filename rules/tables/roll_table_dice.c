/* roll_table_dice: the dice inside table entries; see roll_table_dice.h. */
#include "rules/tables/roll_table_dice.h"

#include <ctype.h>
#include <string.h>

#include "rules/dice/dice.h"

/* Bytes of the "(2d4: 3+2)" notes; a longer list ends in " …". */
#define ROLL_TABLE_NOTES_MAX 1024
/* Dice words in one entry that are rolled; more are copied as text. */
#define ROLLED_WORDS_MAX 8

/* Whether the word could be dice at all: it holds a 'd' or 'D' and starts
 * with a digit, 'd' or '('. Keeps ordinary words away from the parser. */
static bool
dicey(const char *w, size_t len)
{
	if (len == 0 || !(isdigit((unsigned char)w[0]) || w[0] == 'd' || w[0] == 'D'))
		return false;
	return memchr(w, 'd', len) != NULL || memchr(w, 'D', len) != NULL;
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

int
roll_table_dice_roll_text(const char *text, struct rng *rng, struct buf *out)
{
	struct buf notes;
	const char *p = text;
	int rolled = 0;

	buf_init(&notes, ROLL_TABLE_NOTES_MAX);
	while (*p != '\0') {
		size_t sp = strspn(p, " \t"), len, core;
		struct dice_result *res = NULL;
		char err[DICE_ERR_MAX];

		buf_add(out, p, sp);
		p += sp;
		len = strcspn(p, " \t");
		core = len;
		while (core > 0 && strchr(".,;:!?)", p[core - 1]) != NULL)
			core--;
		if (rolled < ROLLED_WORDS_MAX && dicey(p, core) &&
		    dice_roll(p, core, rng, &res, err, sizeof(err)) == DICE_OK) {
			if (dice_result_nexprs(res) == 1 &&
			    dice_result_expr(res, 0)->nrepeats == 1 &&
			    dice_result_label(res) == NULL) {
				buf_addf(out, "%lld",
				         (long long)dice_result_expr(res, 0)->repeats[0].total);
				buf_add(out, p + core, len - core);
				buf_addf(&notes, "%s%.*s: ", rolled ? "; " : "", (int)core, p);
				dice_list(res, &notes);
				rolled++;
			} else {
				buf_add(out, p, len);
			}
			dice_result_free(res);
		} else {
			buf_add(out, p, len);
		}
		p += len;
	}
	if (rolled > 0)
		buf_addf(out, " (%s%s)", buf_str(&notes), notes.toobig ? " …" : "");
	buf_free(&notes);
	return rolled;
}
