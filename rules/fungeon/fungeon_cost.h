/*
 * fungeon_cost: Fungeon designs (traps, monsters, treasure) and their point costs
 * (RULES.md section 4, "Costs").
 *
 * A design is written as words, the same on every platform:
 *   trap:     annoy N  pain N  guards  unlimited  universal  continuous  type WORD
 *   monster:  level N, then per special ability: ability NAME  annoy N  pain N
 *             resist N WORD  hold  continuous  universal  type WORD
 *   treasure: mundane|fancy  value N  heal N  annoy N  pain N  universal  type WORD
 * fungeon_cost_parse() reads those words into a struct fungeon_design, fungeon_cost_format()
 * writes the canonical words back (what the channel state saves), and
 * fungeon_cost_price() adds the plain points first, then doubles once per doubling
 * feature, keeping every term so that a reply can show the arithmetic.
 *
 * Ruling (RULES.md): an odd number of Annoy dice costs as the next even
 * number (3 Annoy dice cost 2 points). The same reading prices magic Annoy
 * dice on treasure, which come in pairs: +3 costs as +4 (two doublings).
 *
 * Everything here is pure: no I/O, no allocation, no globals.
 */
#ifndef DELVER_FUNGEON_COST_H
#define DELVER_FUNGEON_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FUNGEON_NAME_CHARS 24                       /* characters of a name */
#define FUNGEON_NAME_MAX   (4 * FUNGEON_NAME_CHARS) /* bytes of a name, without the NUL */
#define FUNGEON_TYPE_CHARS 16                       /* characters of a damage type */
#define FUNGEON_TYPE_MAX   (4 * FUNGEON_TYPE_CHARS) /* bytes of a damage type, without the NUL */
#define FUNGEON_DICE_MAX   100 /* dice of one feature, and of one participant's roll */
#define FUNGEON_LEVEL_MIN  1
/* The highest level, of a Fungeoneer or a monster: the last whose XP need
 * (10 x 2^59 under the table) fits in 64 bits. The text caps none. */
#define FUNGEON_LEVEL_MAX     60
#define FUNGEON_ABILITIES_MAX 4       /* special abilities of one monster */
#define FUNGEON_COST_MAX      1000000 /* the most a design may cost */
#define FUNGEON_SPEC_MAX      400     /* bytes of a design written as words */

enum fungeon_kind {
	FUNGEON_TRAP = 0,
	FUNGEON_MONSTER,
	FUNGEON_TREASURE,
	FUNGEON_KIND_COUNT
};

struct fungeon_ability {
	char name[FUNGEON_NAME_MAX + 1];
	int annoy, pain, resist;
	char resist_type[FUNGEON_TYPE_MAX + 1]; /* what the Resist dice resist */
	char type[FUNGEON_TYPE_MAX + 1];        /* the ability's damage type, "" for none */
	bool hold;                              /* Continuous Hold */
	bool continuous;                        /* Continuous Damage */
	bool universal;                         /* Universal Damage */
};

/*
 * One design. Traps use annoy, pain, type and the four trap flags; monsters
 * use level and abilities; treasure uses fancy, value, heal, annoy and pain
 * (its magic dice), universal (magic of a universal type) and type.
 */
struct fungeon_design {
	enum fungeon_kind kind;
	int annoy, pain;
	char type[FUNGEON_TYPE_MAX + 1];
	bool universal;
	bool guards, unlimited, continuous; /* traps */
	int level;                          /* monsters */
	int nab;
	struct fungeon_ability ab[FUNGEON_ABILITIES_MAX];
	bool fancy; /* treasure */
	int value, heal;
};

#define FUNGEON_TERMS_MAX (4 + FUNGEON_ABILITIES_MAX * 3)
/* A design costs at least 1 plain point, so no design within FUNGEON_COST_MAX
 * doubles more than 20 times. */
#define FUNGEON_DOUBLES_MAX 24

struct fungeon_term {
	char what[64];  /* "annoy 3 as 4", "breath pain 2" */
	int64_t points; /* this term's plain points */
};

struct fungeon_price {
	struct fungeon_term term[FUNGEON_TERMS_MAX];
	int nterms;
	int64_t plain;                     /* the sum of the terms */
	char dbl[FUNGEON_DOUBLES_MAX][48]; /* each doubling, in order */
	int ndoubles;
	int64_t total; /* plain doubled ndoubles times */
};

/* The word of a kind: "trap", "monster", "treasure". */
const char *fungeon_cost_kind_name(enum fungeon_kind k);

/*
 * Reads a design of the given kind from words. Returns 0, or -1 with one
 * sentence in err naming the word that is wrong and what is allowed; out is
 * then unspecified. Numbers are bounded (dice 0..FUNGEON_DICE_MAX, level
 * FUNGEON_LEVEL_MIN..FUNGEON_LEVEL_MAX); the rules a design must follow (a trap needs
 * Annoy dice, only fancy treasure is magic, ...) are fungeon_cost_price()'s.
 */
/* Whether a treasure design's words name its kind, "mundane" or "fancy"
 * (without either it is a mundane item); false for one that does not
 * parse. */
bool fungeon_cost_treasure_kind_named(const char *spec);
int fungeon_cost_parse(enum fungeon_kind kind, const char *spec, struct fungeon_design *out,
                       char *err, size_t errlen);
/* The known word closest to a mistyped one among the n candidates, or
 * NULL when none is a slip away (the caller's; the commands pass theirs). */
typedef const char *(*fungeon_suggest_fn)(const char *typed, const char *const *cands, size_t n);
/* fungeon_cost_parse(), whose error for a word that is no feature of the
 * kind names the feature suggest finds closest ("did you mean annoy?"). */
int fungeon_cost_parse_suggest(enum fungeon_kind kind, const char *spec, struct fungeon_design *out,
                               char *err, size_t errlen, fungeon_suggest_fn suggest);

/* Writes the canonical words of d into out (at most FUNGEON_SPEC_MAX bytes,
 * NUL-terminated); fungeon_cost_parse() of them gives d back. */
void fungeon_cost_format(const struct fungeon_design *d, char *out, size_t outlen);

/*
 * Prices d into p. Returns 0, or -1 with one sentence in err when the design
 * breaks a rule: a trap with no Annoy dice, magic on a mundane item, magic
 * Annoy or Pain dice with neither a type nor a universal type, an ability
 * with nothing in it, or a cost above FUNGEON_COST_MAX.
 */
int fungeon_cost_price(const struct fungeon_design *d, struct fungeon_price *p, char *err,
                       size_t errlen);

/*
 * The rules a design must meet to be made now (RULES.md section 4): every
 * trap and every special ability has a Type, every trap has at least one
 * Pain die (it has Annoy and Pain dice and deals damage of its Type),
 * every special ability has at least one Annoy die, and one with
 * Continuous Damage at least one Pain die (an ability that may harm has
 * Pain dice). Returns 0, or -1 with one sentence in err. Kept
 * apart from fungeon_cost_price() so that a design saved before these rules
 * still loads and keeps its price; only new designs are refused.
 */
int fungeon_cost_check(const struct fungeon_design *d, char *err, size_t errlen);

/* Hits of a monster: 3 x level. */
int fungeon_cost_monster_hits(int level);

/* What one treasure of that cost (>= 0) credits in town: half its points,
 * rounded down (text 000, line 297). */
int64_t fungeon_cost_sell_credit(int64_t cost);

#endif
