/* fungeon_cost: Fungeon designs as words and their point costs; see fungeon_cost.h. */
#include "rules/fungeon/fungeon_cost.h"

#include <ctype.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/base/utf8.h"
#include "rules/fungeon/fungeon_name.h"

#define WORD_MAX (FUNGEON_NAME_MAX + 1)

static void seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

const char *
fungeon_cost_kind_name(enum fungeon_kind k)
{
	static const char *const names[] = {"trap", "monster", "treasure"};

	return (int)k >= 0 && k < FUNGEON_KIND_COUNT ? names[k] : "design";
}

int
fungeon_cost_monster_hits(int level)
{
	return 3 * level;
}

int64_t
fungeon_cost_sell_credit(int64_t cost)
{
	return cost / 2;
}

/* Copies the next whitespace-separated word of *p into w. Returns its
 * length, 0 at the end, or -1 when it is longer than WORD_MAX - 1. */
static int
next_word(const char **p, char *w)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	while (s[n] != '\0' && s[n] != ' ' && s[n] != '\t')
		n++;
	*p = s + n;
	if (n >= WORD_MAX) {
		memcpy(w, s, WORD_MAX - 1);
		w[utf8_cut(w, WORD_MAX - 1, 20)] = '\0';
		return -1;
	}
	memcpy(w, s, n);
	w[n] = '\0';
	return (int)n;
}

struct parser {
	const char *p;
	char *err;
	size_t errlen;
	const char *kind;
	enum fungeon_kind k;
	fungeon_suggest_fn suggest; /* NULL: no "did you mean" */
};

/* Reads the number after the word `what`, lo..hi. */
static int
read_number(struct parser *ps, const char *what, int lo, int hi, int *out)
{
	char w[WORD_MAX];
	int n = next_word(&ps->p, w);
	long v = 0;

	if (n <= 0) {
		seterr(ps->err, ps->errlen, "'%s' needs a number from %d to %d after it.", what, lo,
		       hi);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)w[i]) || v > 100000) {
			seterr(ps->err, ps->errlen,
			       "'%s' needs a number from %d to %d after it (got '%s').", what, lo,
			       hi, w);
			return -1;
		}
		v = v * 10 + (w[i] - '0');
	}
	if (v < lo || v > hi) {
		seterr(ps->err, ps->errlen,
		       "'%s' needs a number from %d to %d after it (got '%s').", what, lo, hi,
		       w); /* quoted as every other "got" is */
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* Reads the name or type word after `what` into out (size max + 1). */
static int
read_name(struct parser *ps, const char *what, size_t max, char *out)
{
	char w[WORD_MAX], quoted[4 * FUNGEON_NAME_CHARS + 4];
	int n = next_word(&ps->p, w);

	if (n < 0 || (n > 0 && utf8_valid(w, (size_t)n) && utf8_len(w) > max)) {
		if (n < 0) /* w holds its start */
			snprintf(quoted, sizeof(quoted), "%s…", w);
		else
			snprintf(quoted, sizeof(quoted), "%.*s…",
			         (int)utf8_cut_text(w, (size_t)n, utf8_prefix(w, (size_t)n, max)),
			         w);
		seterr(ps->err, ps->errlen,
		       "'%s' is too long: the word after '%s' is 1 to %zu characters with no "
		       "spaces or : , > / \" #.",
		       quoted, what, max);
		return -1;
	}
	if (n == 0 || !fungeon_name_word_valid(w, max)) {
		seterr(ps->err, ps->errlen,
		       "'%s' needs a word after it: 1 to %zu characters with no spaces or "
		       ": , > / \" #.",
		       what, max);
		return -1;
	}
	memcpy(out, w, (size_t)n + 1);
	return 0;
}

/* What follows a design word. */
enum wkind {
	WK_FLAG,     /* nothing: sets a bool */
	WK_NUM,      /* a number: sets an int */
	WK_NAME,     /* a type word: sets a string of FUNGEON_TYPE_MAX */
	WK_NUM_TYPE, /* a number, then a type word (resist N WORD) */
	WK_NONE,     /* nothing: sets nothing (mundane) */
};

struct word {
	const char *w;
	enum wkind k;
	size_t off, off2; /* where the values go in the struct parsed */
	int lo, hi;
};

#define D(f) offsetof(struct fungeon_design, f)
#define A(f) offsetof(struct fungeon_ability, f)
#define NUM(w, off)                                                                                \
	{                                                                                          \
		w, WK_NUM, off, 0, 0, FUNGEON_DICE_MAX                                             \
	}
#define FLAG(w, off)                                                                               \
	{                                                                                          \
		w, WK_FLAG, off, 0, 0, 0                                                           \
	}
#define NAME(w, off)                                                                               \
	{                                                                                          \
		w, WK_NAME, off, 0, 0, 0                                                           \
	}
#define END                                                                                        \
	{                                                                                          \
		NULL, WK_NONE, 0, 0, 0, 0                                                          \
	}

static const struct word trap_words[] = {
    NUM("annoy", D(annoy)),          NUM("pain", D(pain)),
    FLAG("guards", D(guards)),       FLAG("unlimited", D(unlimited)),
    FLAG("universal", D(universal)), FLAG("continuous", D(continuous)),
    NAME("type", D(type)),           END,
};

static const struct word treasure_words[] = {
    FLAG("fancy", D(fancy)),
    {"mundane", WK_NONE, 0, 0, 0, 0},
    NUM("value", D(value)),
    NUM("heal", D(heal)),
    NUM("annoy", D(annoy)),
    NUM("pain", D(pain)),
    FLAG("universal", D(universal)),
    NAME("type", D(type)),
    END,
};

static const struct word monster_words[] = {
    {"level", WK_NUM, D(level), 0, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX},
    END,
};

static const struct word ability_words[] = {
    NUM("annoy", A(annoy)),
    NUM("pain", A(pain)),
    {"resist", WK_NUM_TYPE, A(resist), A(resist_type), 0, FUNGEON_DICE_MAX},
    FLAG("hold", A(hold)),
    FLAG("continuous", A(continuous)),
    FLAG("universal", A(universal)),
    NAME("type", A(type)),
    END,
};

static const struct word *
find_word(const struct word *tab, const char *w, int *index)
{
	for (int i = 0; tab[i].w != NULL; i++) {
		if (!strcasecmp(tab[i].w, w)) {
			*index = i;
			return &tab[i];
		}
	}
	return NULL;
}

/* Appends tab's words to cands (at most max in all); returns how many. */
static size_t
words_of(const struct word *tab, const char **cands, size_t n, size_t max)
{
	for (int i = 0; tab[i].w != NULL && n < max; i++)
		cands[n++] = tab[i].w;
	return n;
}

static int
unknown(struct parser *ps, const char *w, const char *allowed)
{
	const char *cands[32], *near = NULL;
	size_t n = 0;

	if (ps->suggest != NULL) {
		if (ps->k == FUNGEON_TRAP)
			n = words_of(trap_words, cands, n, 32);
		else if (ps->k == FUNGEON_TREASURE)
			n = words_of(treasure_words, cands, n, 32);
		else {
			n = words_of(monster_words, cands, n, 32);
			n = words_of(ability_words, cands, n, 32);
			cands[n++] = "ability";
		}
		near = ps->suggest(w, cands, n);
	}
	if (near != NULL)
		seterr(ps->err, ps->errlen,
		       "'%s' is not a %s feature (did you mean %s?); the words are %s.", w,
		       ps->kind, near, allowed);
	else
		seterr(ps->err, ps->errlen, "'%s' is not a %s feature; the words are %s.", w,
		       ps->kind, allowed);
	return -1;
}

/*
 * Reads the value of word w from table tab into obj. *seen has one bit per
 * table entry, so a word given twice in one scope is refused. Returns 0,
 * 1 when w is not in tab, or -1 with the error set.
 */
static int
read_word(struct parser *ps, const struct word *tab, const char *w, void *obj, unsigned *seen)
{
	int i = 0;
	const struct word *d = find_word(tab, w, &i);
	char *base = obj;

	if (d == NULL)
		return 1;
	if (*seen & (1u << i)) {
		seterr(ps->err, ps->errlen, "'%s' is given twice; give each feature once.", w);
		return -1;
	}
	*seen |= 1u << i;
	switch (d->k) {
	case WK_FLAG:
		*(bool *)(base + d->off) = true;
		return 0;
	case WK_NUM:
		return read_number(ps, d->w, d->lo, d->hi, (int *)(base + d->off));
	case WK_NAME:
		return read_name(ps, d->w, FUNGEON_TYPE_CHARS, base + d->off);
	case WK_NUM_TYPE:
		if (read_number(ps, d->w, d->lo, d->hi, (int *)(base + d->off)) < 0)
			return -1;
		return read_name(ps, "resist N", FUNGEON_TYPE_CHARS, base + d->off2);
	case WK_NONE:
		return 0;
	}
	return 1;
}

/* Reads every word of the spec against one table (traps, treasure); *seen
 * receives the table entries given. */
static int
parse_flat(struct parser *ps, const struct word *tab, const char *allowed, struct fungeon_design *d,
           unsigned *seen)
{
	char w[WORD_MAX];
	int n, r;

	*seen = 0;
	while ((n = next_word(&ps->p, w)) != 0) {
		r = n < 0 ? 1 : read_word(ps, tab, w, d, seen);
		if (r < 0)
			return -1;
		if (r > 0)
			return unknown(ps, w, allowed);
	}
	return 0;
}

static int
start_ability(struct parser *ps, struct fungeon_design *d)
{
	struct fungeon_ability *a = &d->ab[d->nab];

	if (d->nab == FUNGEON_ABILITIES_MAX) {
		seterr(ps->err, ps->errlen, "A monster may have at most %d special abilities.",
		       FUNGEON_ABILITIES_MAX);
		return -1;
	}
	if (read_name(ps, "ability", FUNGEON_NAME_CHARS, a->name) < 0)
		return -1;
	for (int i = 0; i < d->nab; i++) {
		if (!utf8_casecmp(d->ab[i].name, a->name)) {
			seterr(ps->err, ps->errlen,
			       "The ability '%s' is given twice; give each ability a different "
			       "name.",
			       a->name);
			return -1;
		}
	}
	d->nab++;
	return 0;
}

/* Whether an ability's name is one of a monster's feature words (a name
 * left out: "ability annoy 2" names the ability annoy). */
static bool
named_as_feature(const char *name)
{
	int i;

	return !strcasecmp(name, "ability") || find_word(monster_words, name, &i) != NULL ||
	       find_word(ability_words, name, &i) != NULL;
}

static int
parse_monster(struct parser *ps, struct fungeon_design *d)
{
	static const char allowed[] =
	    "level N, then for each ability: ability NAME, annoy N, pain N, resist N WORD, "
	    "hold, continuous, universal, type WORD";
	char w[WORD_MAX];
	unsigned seen = 0, aseen = 0;
	int n, r, i;

	while ((n = next_word(&ps->p, w)) != 0) {
		if (n < 0)
			return unknown(ps, w, allowed);
		if (!strcasecmp(w, "ability")) {
			if (start_ability(ps, d) < 0)
				return -1;
			aseen = 0;
			continue;
		}
		r = read_word(ps, monster_words, w, d, &seen);
		if (r > 0 && d->nab > 0) {
			r = read_word(ps, ability_words, w, &d->ab[d->nab - 1], &aseen);
		} else if (r > 0 && find_word(ability_words, w, &i) != NULL) {
			seterr(ps->err, ps->errlen,
			       "'%s' belongs to a special ability: write 'ability NAME' before it.",
			       w);
			return -1;
		}
		if (r < 0)
			return -1;
		if (r > 0 && d->nab > 0 && aseen == 0 && named_as_feature(d->ab[d->nab - 1].name)) {
			seterr(ps->err, ps->errlen,
			       "'%s' is left over: '%s' was taken as the ability's name, since the "
			       "word after ability names it; name it first (ability breath %s %s).",
			       w, d->ab[d->nab - 1].name, d->ab[d->nab - 1].name, w);
			return -1;
		}
		if (r > 0)
			return unknown(ps, w, allowed);
	}
	if (d->level == 0) {
		seterr(ps->err, ps->errlen, "A monster needs its level: level N, from %d to %d.",
		       FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
		return -1;
	}
	for (int k = 0; k < d->nab; k++) /* zero Resist dice resist nothing */
		if (d->ab[k].resist == 0)
			memset(d->ab[k].resist_type, 0, sizeof(d->ab[k].resist_type));
	return 0;
}

static int
parse_treasure(struct parser *ps, struct fungeon_design *d)
{
	static const char allowed[] = "mundane or fancy, value N, heal N, annoy N, pain N, "
	                              "universal, type WORD";
	unsigned seen;

	if (parse_flat(ps, treasure_words, allowed, d, &seen) < 0)
		return -1;
	if ((seen & 3u) == 3u) { /* entries 0 and 1: fancy and mundane */
		seterr(ps->err, ps->errlen, "An item is either mundane or fancy, not both.");
		return -1;
	}
	return 0;
}

bool
fungeon_cost_treasure_kind_named(const char *spec)
{
	char err[200];
	struct parser ps = {.p = spec, .err = err, .errlen = sizeof(err), .kind = "treasure"};
	struct fungeon_design d;
	unsigned seen;

	memset(&d, 0, sizeof(d));
	if (strlen(spec) > FUNGEON_SPEC_MAX || parse_flat(&ps, treasure_words, "", &d, &seen) < 0)
		return false;
	return (seen & 3u) != 0; /* entries 0 and 1: fancy and mundane */
}

int
fungeon_cost_parse(enum fungeon_kind kind, const char *spec, struct fungeon_design *out, char *err,
                   size_t errlen)
{
	return fungeon_cost_parse_suggest(kind, spec, out, err, errlen, NULL);
}

int
fungeon_cost_parse_suggest(enum fungeon_kind kind, const char *spec, struct fungeon_design *out,
                           char *err, size_t errlen, fungeon_suggest_fn suggest)
{
	struct parser ps = {.p = spec,
	                    .err = err,
	                    .errlen = errlen,
	                    .kind = fungeon_cost_kind_name(kind),
	                    .k = kind,
	                    .suggest = suggest};
	size_t len = strlen(spec);
	unsigned seen;

	memset(out, 0, sizeof(*out));
	out->kind = kind;
	if (len > FUNGEON_SPEC_MAX) {
		seterr(err, errlen, "A design may be at most %d bytes long (got %zu).",
		       FUNGEON_SPEC_MAX, len);
		return -1;
	}
	switch (kind) {
	case FUNGEON_TRAP:
		return parse_flat(&ps, trap_words,
		                  "annoy N, pain N, guards, unlimited, universal, continuous, "
		                  "type WORD",
		                  out, &seen);
	case FUNGEON_MONSTER:
		return parse_monster(&ps, out);
	case FUNGEON_TREASURE:
		return parse_treasure(&ps, out);
	default:
		seterr(err, errlen, "A design is a trap, a monster or a treasure.");
		return -1;
	}
}

struct out {
	char *p;
	size_t len, used;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (o->used + 1 >= o->len)
		return;
	if (o->used > 0)
		o->p[o->used++] = ' ';
	va_start(ap, fmt);
	r = vsnprintf(o->p + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= o->len - o->used)
		o->used = o->len - 1;
	else
		o->used += (size_t)r;
	o->p[o->used] = '\0';
}

void
fungeon_cost_format(const struct fungeon_design *d, char *buf, size_t len)
{
	struct out o = {.p = buf, .len = len, .used = 0};

	if (len == 0)
		return;
	buf[0] = '\0';
	if (d->kind == FUNGEON_MONSTER) {
		put(&o, "level %d", d->level);
		for (int i = 0; i < d->nab; i++) {
			const struct fungeon_ability *a = &d->ab[i];

			put(&o, "ability %s", a->name);
			if (a->annoy)
				put(&o, "annoy %d", a->annoy);
			if (a->pain)
				put(&o, "pain %d", a->pain);
			if (a->resist)
				put(&o, "resist %d %s", a->resist, a->resist_type);
			if (a->hold)
				put(&o, "hold");
			if (a->continuous)
				put(&o, "continuous");
			if (a->universal)
				put(&o, "universal");
			if (a->type[0])
				put(&o, "type %s", a->type);
		}
		return;
	}
	if (d->kind == FUNGEON_TREASURE) {
		put(&o, "%s", d->fancy ? "fancy" : "mundane");
		if (d->value)
			put(&o, "value %d", d->value);
		if (d->heal)
			put(&o, "heal %d", d->heal);
	}
	if (d->annoy)
		put(&o, "annoy %d", d->annoy);
	if (d->pain)
		put(&o, "pain %d", d->pain);
	if (d->guards)
		put(&o, "guards");
	if (d->unlimited)
		put(&o, "unlimited");
	if (d->universal)
		put(&o, "universal");
	if (d->continuous)
		put(&o, "continuous");
	if (d->type[0])
		put(&o, "type %s", d->type);
}

static void term(struct fungeon_price *p, int64_t points, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
term(struct fungeon_price *p, int64_t points, const char *fmt, ...)
{
	va_list ap;

	if (p->nterms == FUNGEON_TERMS_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(p->term[p->nterms].what, sizeof(p->term[0].what), fmt, ap);
	va_end(ap);
	p->term[p->nterms++].points = points;
	p->plain += points;
}

/* Records one doubling; returns -1 once the total passes FUNGEON_COST_MAX. */
static int
dbl(struct fungeon_price *p, const char *what, char *err, size_t errlen)
{
	if (p->total * 2 > FUNGEON_COST_MAX || p->ndoubles == FUNGEON_DOUBLES_MAX) {
		seterr(err, errlen, "That design would cost more than %d points; make it smaller.",
		       FUNGEON_COST_MAX);
		return -1;
	}
	snprintf(p->dbl[p->ndoubles++], sizeof(p->dbl[0]), "%s", what);
	p->total *= 2;
	return 0;
}

/* Annoy dice cost 1 point per 2 dice; an odd count costs as the next even
 * one (Ruling). */
static void
annoy_term(struct fungeon_price *p, const char *who, int annoy)
{
	int64_t pts = (annoy + 1) / 2;

	if (annoy % 2)
		term(p, pts, "%s%sannoy %d as %d", who, who[0] ? " " : "", annoy, annoy + 1);
	else
		term(p, pts, "%s%sannoy %d", who, who[0] ? " " : "", annoy);
}

static int
price_trap(const struct fungeon_design *d, struct fungeon_price *p, char *err, size_t errlen)
{
	if (d->annoy < 1) {
		seterr(err, errlen,
		       "A trap needs at least 1 point on Annoy: give it annoy N "
		       "(1 point per 2 dice).");
		return -1;
	}
	annoy_term(p, "", d->annoy);
	if (d->pain)
		term(p, d->pain, "pain %d", d->pain);
	if (d->guards)
		term(p, 1, "guards treasure");
	p->total = p->plain;
	if ((d->unlimited && dbl(p, "unlimited use", err, errlen)) ||
	    (d->universal && dbl(p, "universal damage", err, errlen)) ||
	    (d->continuous && dbl(p, "continuous damage", err, errlen)))
		return -1;
	return 0;
}

static int
price_monster(const struct fungeon_design *d, struct fungeon_price *p, char *err, size_t errlen)
{
	char what[48];

	term(p, d->level, "level %d", d->level);
	for (int i = 0; i < d->nab; i++) {
		const struct fungeon_ability *a = &d->ab[i];

		if (a->annoy == 0 && a->pain == 0 && a->resist == 0) {
			seterr(err, errlen,
			       "The ability '%s' has no dice: give it annoy N, pain N or "
			       "resist N TYPE.",
			       a->name);
			return -1;
		}
		if (a->annoy)
			annoy_term(p, a->name, a->annoy);
		if (a->pain)
			term(p, a->pain, "%s pain %d", a->name, a->pain);
		if (a->resist)
			term(p, a->resist, "%s resist %d %s", a->name, a->resist, a->resist_type);
	}
	p->total = p->plain;
	for (int i = 0; i < d->nab; i++) {
		const struct fungeon_ability *a = &d->ab[i];
		static const char *const what_of[] = {"continuous hold", "continuous damage",
		                                      "universal damage"};
		const bool on[] = {a->hold, a->continuous, a->universal};

		for (int k = 0; k < 3; k++) {
			if (!on[k])
				continue;
			snprintf(what, sizeof(what), "%s %s", a->name, what_of[k]);
			if (dbl(p, what, err, errlen) < 0)
				return -1;
		}
	}
	return 0;
}

static int
price_treasure(const struct fungeon_design *d, struct fungeon_price *p, char *err, size_t errlen)
{
	bool magic = d->heal || d->annoy || d->pain || d->universal;

	if (magic && !d->fancy) {
		seterr(err, errlen,
		       "Only fancy items may be magic (heal, annoy, pain, universal): "
		       "add 'fancy'.");
		return -1;
	}
	if ((d->annoy || d->pain) && !d->universal && d->type[0] == '\0') {
		seterr(err, errlen,
		       "Magic Annoy or Pain dice need a type ('type fire') or a "
		       "universal type ('universal').");
		return -1;
	}
	term(p, d->fancy ? 2 : 1, "%s item", d->fancy ? "fancy" : "mundane");
	if (d->value)
		term(p, d->value, "value +%d", d->value);
	if (d->heal)
		term(p, d->heal, "magic heal %d", d->heal);
	p->total = p->plain;
	for (int i = 0; i < (d->annoy + 1) / 2; i++)
		if (dbl(p, "magic +2 annoy", err, errlen) < 0)
			return -1;
	for (int i = 0; i < d->pain; i++)
		if (dbl(p, "magic +1 pain", err, errlen) < 0)
			return -1;
	if (d->universal && dbl(p, "magic universal type", err, errlen) < 0)
		return -1;
	return 0;
}

int
fungeon_cost_price(const struct fungeon_design *d, struct fungeon_price *p, char *err,
                   size_t errlen)
{
	memset(p, 0, sizeof(*p));
	switch (d->kind) {
	case FUNGEON_TRAP:
		return price_trap(d, p, err, errlen);
	case FUNGEON_MONSTER:
		return price_monster(d, p, err, errlen);
	case FUNGEON_TREASURE:
		return price_treasure(d, p, err, errlen);
	default:
		seterr(err, errlen, "A design is a trap, a monster or a treasure.");
		return -1;
	}
}

/* What a trap or an ability lacks, appended to msg (size bytes) at *n:
 * annoy_hint and type_hint say what the rule is and what to write. */
static void
lacks(char *msg, size_t size, size_t *n, bool annoy, const char *annoy_hint, bool type,
      const char *type_hint)
{
	int r =
	    snprintf(msg + *n, size - *n, "%s%s%s%s%s", annoy ? "at least 1 point on Annoy (" : "",
	             annoy ? annoy_hint : "", annoy && type ? " and " : "", type ? "a Type (" : "",
	             type ? type_hint : "");

	*n = r < 0 || (size_t)r >= size - *n ? size - 1 : *n + (size_t)r;
}

int
fungeon_cost_check(const struct fungeon_design *d, char *err, size_t errlen)
{
	char msg[600];
	size_t n = 0;
	int r;

	msg[0] = '\0';
	if (d->kind == FUNGEON_TRAP && (d->annoy < 1 || d->type[0] == '\0')) {
		r = snprintf(msg, sizeof(msg), "A trap needs ");
		n = r > 0 ? (size_t)r : 0;
		lacks(msg, sizeof(msg), &n, d->annoy < 1, "annoy N, 1 point per 2 dice)",
		      d->type[0] == '\0', "fire, poison, arrows...: type WORD)");
	}
	if (d->kind == FUNGEON_TRAP && d->pain < 1) {
		seterr(err, errlen,
		       "A trap has Pain dice as well as Annoy dice and deals damage of its Type: "
		       "add pain N (1 point a die).");
		return -1;
	}
	for (int i = 0; d->kind == FUNGEON_MONSTER && i < d->nab; i++) {
		const struct fungeon_ability *a = &d->ab[i];

		if (a->annoy >= 1 && a->type[0] != '\0')
			continue;
		r = snprintf(msg + n, sizeof(msg) - n, "%s ability '%s' needs ",
		             n > 0 ? "; the" : "The", a->name);
		n = r < 0 || (size_t)r >= sizeof(msg) - n ? sizeof(msg) - 1 : n + (size_t)r;
		lacks(msg, sizeof(msg), &n, a->annoy < 1,
		      "every special ability spends one: annoy N, 1 point per 2 dice)",
		      a->type[0] == '\0', "fire, poison, claws...: type WORD after it)");
	}
	for (int i = 0; n == 0 && d->kind == FUNGEON_MONSTER && i < d->nab; i++) {
		if (!d->ab[i].continuous || d->ab[i].pain >= 1)
			continue;
		seterr(err, errlen,
		       "The ability '%s' has Continuous Damage, so it may harm the Fungeoneers, "
		       "and an ability that may harm them has Pain dice: add pain N (1 point a "
		       "die).",
		       d->ab[i].name);
		return -1;
	}
	if (n == 0)
		return 0;
	seterr(err, errlen, "%s.", msg);
	return -1;
}
