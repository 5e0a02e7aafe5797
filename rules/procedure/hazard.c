/* hazard: the hazard die's tables; see hazard.h. */
#include "rules/procedure/hazard.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/base/num.h"
#include "rules/base/rng.h"

static const char encounter_text[] = "Encounter: a wandering monster appears";
static const char nothing_text[] = "Nothing: the turn passes";

static const struct hazard_row exploration_rows[] = {
    {1, 1, HZ_ENCOUNTER, encounter_text},
    {2, 2, HZ_SIGN, "Sign: noise, smell, tracks or a shadow hint at nearby danger"},
    {3, 3, HZ_LIGHT, "Light: a torch sputters out or lantern oil runs low"},
    {4, 4, HZ_FATIGUE_SAVE,
     "Fatigue: rest 1 turn now, or each character makes a CON save DC " FATIGUE_SAVE_DC_TEXT
     "; on a failure gain "
     "1 Fatigue"},
    {5, 6, HZ_NOTHING, nothing_text},
};

static const struct hazard_row delving_rows[] = {
    {1, 1, HZ_ENCOUNTER,
     "Encounter, usually from the dungeon's encounter table (reaction, activity, distance, "
     "surprise are the GM's)"},
    {2, 2, HZ_FATIGUE_DAMAGE,
     "Fatigue: each party member takes 1 damage (more where conditions are harsh) unless the "
     "party rests next turn; ignored while resting"},
    {3, 3, HZ_BURN, "Burn: lit torches burn out (new ones can be lit from the embers)"},
    {4, 4, HZ_SHIFT,
     "Dungeon shift: the environment changes (sounds, temperature, wind, debris, "
     "apparitions, vermin)"},
    {5, 5, HZ_SIGN_CREATURE,
     "Sign: roll an encounter but meet only its sign; the next encounter rolled is that "
     "creature"},
    {6, 6, HZ_NOTHING, "Free: no effect"},
};

static const char *const table_names[HAZARD_TABLE_COUNT] = {
    [HAZARD_EXPLORATION] = "exploration",
    [HAZARD_DELVING] = "delving",
    [HAZARD_CLASSIC] = "classic",
    [HAZARD_CUSTOM] = "custom",
};

static const char *const proc_names[PROC_COUNT] = {
    [PROC_EXPLORATION] = "exploration",
    [PROC_DELVING] = "delving",
};

const char *
hazard_table_name(enum hazard_table t)
{
	return (unsigned)t < HAZARD_TABLE_COUNT ? table_names[t] : "?";
}

int
hazard_table_parse(const char *name)
{
	for (int i = 0; i < HAZARD_TABLE_COUNT; i++)
		if (strcasecmp(name, table_names[i]) == 0)
			return i;
	return -1;
}

const char *
hazard_procedure_name(enum procedure p)
{
	return (unsigned)p < PROC_COUNT ? proc_names[p] : "?";
}

int
hazard_procedure_parse(const char *name)
{
	for (int i = 0; i < PROC_COUNT; i++)
		if (strcasecmp(name, proc_names[i]) == 0)
			return i;
	return -1;
}

static void
copy_rows(struct hazard_view *v, const struct hazard_row *rows, size_t n)
{
	memcpy(v->rows, rows, n * sizeof(rows[0]));
	v->n = n;
	v->die = rows[n - 1].hi;
}

static const struct {
	const char *word;
	enum hazard_effect exploration, delving;
} keywords[] = {
    {"encounter", HZ_ENCOUNTER, HZ_ENCOUNTER},
    {"sign", HZ_SIGN, HZ_SIGN_CREATURE},
    {"light", HZ_LIGHT, HZ_LIGHT},
    {"burn", HZ_BURN, HZ_BURN},
    {"fatigue", HZ_FATIGUE_SAVE, HZ_FATIGUE_DAMAGE},
    {"dungeon shift", HZ_SHIFT, HZ_SHIFT},
    {"shift", HZ_SHIFT, HZ_SHIFT},
    {"nothing", HZ_NOTHING, HZ_NOTHING},
    {"free", HZ_NOTHING, HZ_NOTHING},
};

/* The keyword text starts with, as a whole first word ("Lights out" is not
 * "Light"): its index in keywords, or -1. */
static int
keyword_of(const char *text)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		size_t len = strlen(keywords[i].word);
		char after;

		if (strncasecmp(text, keywords[i].word, len) != 0)
			continue;
		after = text[len]; /* text matched len bytes, so it has them */
		if (after != '\0' && (isalnum((unsigned char)after) || after == '-'))
			continue;
		return (int)i;
	}
	return -1;
}

enum hazard_effect
hazard_keyword(const char *text, enum procedure p)
{
	int k = keyword_of(text);

	if (k < 0)
		return HZ_TEXT;
	return p == PROC_DELVING ? keywords[k].delving : keywords[k].exploration;
}

const char *
hazard_entry_creature(const char *text)
{
	const char *rest;
	int k = keyword_of(text);

	if (k < 0 || keywords[k].exploration != HZ_ENCOUNTER ||
	    strcasecmp(text, encounter_text) == 0 || strcasecmp(text, delving_rows[0].text) == 0)
		return NULL;
	rest = text + strlen(keywords[k].word);
	rest += strspn(rest, " \t:;,.!-");
	return *rest != '\0' ? rest : NULL;
}

int
hazard_view(enum hazard_table t, struct odds chance, const struct roll_table *custom,
            enum procedure p, struct hazard_view *v)
{
	memset(v, 0, sizeof(*v));
	v->table = t;
	switch (t) {
	case HAZARD_EXPLORATION:
		copy_rows(v, exploration_rows,
		          sizeof(exploration_rows) / sizeof(exploration_rows[0]));
		return 0;
	case HAZARD_DELVING:
		copy_rows(v, delving_rows, sizeof(delving_rows) / sizeof(delving_rows[0]));
		return 0;
	case HAZARD_CLASSIC:
		v->die = chance.n;
		v->rows[v->n++] = (struct hazard_row){1, chance.x, HZ_ENCOUNTER, encounter_text};
		if (chance.x < chance.n)
			v->rows[v->n++] =
			    (struct hazard_row){chance.x + 1, chance.n, HZ_NOTHING, nothing_text};
		return 0;
	case HAZARD_CUSTOM:
		if (custom == NULL || custom->n == 0)
			return -1;
		v->die = custom->hi;
		for (size_t i = 0; i < custom->n; i++) {
			const struct roll_table_entry *e = &custom->e[i];

			v->rows[i] =
			    (struct hazard_row){e->lo, e->hi, hazard_keyword(e->text, p), e->text};
		}
		v->n = custom->n;
		return 0;
	default:
		return -1;
	}
}

size_t
hazard_row_of(const struct hazard_view *v, int roll)
{
	for (size_t i = 0; i < v->n; i++)
		if (roll >= v->rows[i].lo && roll <= v->rows[i].hi)
			return i;
	return v->n - 1;
}

int
hazard_roll(struct rng *r, const struct hazard_view *v, size_t *row)
{
	int roll = (int)rng_die(r, v->die);

	*row = hazard_row_of(v, roll);
	return roll;
}

int
hazard_parse_die(const char *s, int *sides, char *err, size_t errlen)
{
	const char *p = s;
	int v = 0;

	if (*p == 'd' || *p == 'D')
		p++;
	if (num_read(&p, &v) < 0 || *p != '\0' || v < 2 || v > ROLL_TABLE_SPAN_MAX) {
		snprintf(err, errlen,
		         "'%.20s' is not a die for a hazard table; give d2 to d%d (e.g. d6 or d8).",
		         s, ROLL_TABLE_SPAN_MAX);
		return -1;
	}
	*sides = v;
	return 0;
}
