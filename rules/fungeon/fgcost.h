/*
 * fgcost: Fungeon designs (traps, monsters, treasure) and their point costs
 * (RULES.md section 4, "Costs").
 *
 * A design is written as words, the same on every platform:
 *   trap:     annoy N  pain N  guards  unlimited  universal  continuous  type WORD
 *   monster:  level N, then per special ability: ability NAME  annoy N  pain N
 *             resist N WORD  hold  continuous  universal  type WORD
 *   treasure: mundane|fancy  value N  heal N  annoy N  pain N  universal  type WORD
 * fgcost_parse() reads those words into a struct fg_design, fgcost_format()
 * writes the canonical words back (what the channel state saves), and
 * fgcost_price() adds the plain points first, then doubles once per doubling
 * feature, keeping every term so that a reply can show the arithmetic.
 *
 * Ruling (RULES.md): an odd number of Annoy dice costs as the next even
 * number (3 Annoy dice cost 2 points). The same reading prices magic Annoy
 * dice on treasure, which come in pairs: +3 costs as +4 (two doublings).
 *
 * Everything here is pure: no I/O, no allocation, no globals.
 */
#ifndef DELVER_FGCOST_H
#define DELVER_FGCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FG_NAME_MAX      24  /* bytes of a name, without the NUL */
#define FG_TYPE_MAX      16  /* bytes of a damage type, without the NUL */
#define FG_DICE_MAX      100 /* dice of one feature, and of one participant's roll */
#define FG_LEVEL_MIN     1
#define FG_LEVEL_MAX     20
#define FG_ABILITIES_MAX 4       /* special abilities of one monster */
#define FG_COST_MAX      1000000 /* the most a design may cost */
#define FG_SPEC_MAX      400     /* bytes of a design written as words */

enum fg_kind {
	FG_TRAP = 0,
	FG_MONSTER,
	FG_TREASURE,
	FG_KIND_COUNT
};

struct fg_ability {
	char name[FG_NAME_MAX + 1];
	int annoy, pain, resist;
	char resist_type[FG_TYPE_MAX + 1]; /* what the Resist dice resist */
	char type[FG_TYPE_MAX + 1];        /* the ability's damage type, "" for none */
	bool hold;                         /* Continuous Hold */
	bool continuous;                   /* Continuous Damage */
	bool universal;                    /* Universal Damage */
};

/*
 * One design. Traps use annoy, pain, type and the four trap flags; monsters
 * use level and abilities; treasure uses fancy, value, heal, annoy and pain
 * (its magic dice), universal (magic of a universal type) and type.
 */
struct fg_design {
	enum fg_kind kind;
	int annoy, pain;
	char type[FG_TYPE_MAX + 1];
	bool universal;
	bool guards, unlimited, continuous; /* traps */
	int level;                          /* monsters */
	int nab;
	struct fg_ability ab[FG_ABILITIES_MAX];
	bool fancy; /* treasure */
	int value, heal;
};

#define FG_TERMS_MAX (4 + FG_ABILITIES_MAX * 3)
/* A design costs at least 1 plain point, so no design within FG_COST_MAX
 * doubles more than 20 times. */
#define FG_DOUBLES_MAX 24

struct fg_term {
	char what[64];  /* "annoy 3 as 4", "breath pain 2" */
	int64_t points; /* this term's plain points */
};

struct fg_price {
	struct fg_term term[FG_TERMS_MAX];
	int nterms;
	int64_t plain;                /* the sum of the terms */
	char dbl[FG_DOUBLES_MAX][48]; /* each doubling, in order */
	int ndoubles;
	int64_t total; /* plain doubled ndoubles times */
};

/* Whether s is a valid name for a Fungeoneer, a design or an ability:
 * 1..FG_NAME_MAX bytes of UTF-8 with no whitespace, no control character
 * and none of : , > / " # (which the commands use as separators). */
bool fg_name_valid(const char *s);

/* The word of a kind: "trap", "monster", "treasure". */
const char *fg_kind_name(enum fg_kind k);

/*
 * Reads a design of the given kind from words. Returns 0, or -1 with one
 * sentence in err naming the word that is wrong and what is allowed; out is
 * then unspecified. Numbers are bounded (dice 0..FG_DICE_MAX, level
 * FG_LEVEL_MIN..FG_LEVEL_MAX); the rules a design must follow (a trap needs
 * Annoy dice, only fancy treasure is magic, ...) are fgcost_price()'s.
 */
int fgcost_parse(enum fg_kind kind, const char *spec, struct fg_design *out, char *err,
                 size_t errlen);

/* Writes the canonical words of d into out (at most FG_SPEC_MAX bytes,
 * NUL-terminated); fgcost_parse() of them gives d back. */
void fgcost_format(const struct fg_design *d, char *out, size_t outlen);

/*
 * Prices d into p. Returns 0, or -1 with one sentence in err when the design
 * breaks a rule: a trap with no Annoy dice, magic on a mundane item, magic
 * Annoy or Pain dice with neither a type nor a universal type, an ability
 * with nothing in it, or a cost above FG_COST_MAX.
 */
int fgcost_price(const struct fg_design *d, struct fg_price *p, char *err, size_t errlen);

/*
 * The rules a design must meet to be made now (RULES.md section 4): every
 * trap and every special ability has a Type, and every special ability has
 * at least one Annoy die. Returns 0, or -1 with one sentence in err. Kept
 * apart from fgcost_price() so that a design saved before these rules
 * still loads and keeps its price; only new designs are refused.
 */
int fgcost_check(const struct fg_design *d, char *err, size_t errlen);

/* Hits of a monster: 3 x level. */
int fg_monster_hits(int level);

/* What treasure of that cost sells for in town: half, rounded down. */
int64_t fg_sell_value(int64_t cost);

#endif
