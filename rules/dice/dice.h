/*
 * dice: the chat dice engine (parse, check limits, roll, describe).
 *
 * The notation is shared/NOTATION.md; this header states the contract and
 * every ruling the notation leaves open. A command is
 *
 *	[Nx] expr [; [Nx] expr ...] [# label]
 *
 * expr	 := sum of products of unary-minus atoms, with + - * / and ( )
 * atom	 := number [ '[' label ']' ]
 *	  | [count] 'd' sides modifiers [ '[' label ']' ]
 * count := digits | '(' expr ')'
 * sides := digits | '%' | 'F' | '(' expr ')'
 *
 * Rulings (documented for the help text):
 * - Letters are case-insensitive everywhere (D, F, KH, X, MIN...).
 * - Whitespace (space, tab, CR, LF, VT, FF) may separate numbers, terms,
 *   operators and parentheses, but never sits inside a dice term:
 *   "4d6kh3" is one term, "4d6 kh3" is a syntax error.
 * - "Nx" repeats the one expression it prefixes (1..20 times); in
 *   "6x 4d6kh3; d20" the d20 is rolled once.
 * - The command label starts at the first '#' met where an operator, ';'
 *   or the end could come; spaces around it are optional and are trimmed
 *   from the label. Any other text after an expression is a syntax error:
 *   "d20 @everyone" fails with "unexpected '@' at column 5: ...", so text
 *   meant for humans must follow '#'. Labels are never parsed as dice.
 * - Labels ('#' and '[...]') are stored verbatim, at most DICE_LABEL_MAX
 *   bytes each, must be valid UTF-8 and hold no control characters. They
 *   may hold '@' or '<@id>': a renderer must neutralise mentions itself.
 * - A bare number where a modifier takes an optional compare point means
 *   "=N" (3d6!5 explodes on 5); bare numbers are never negative, so
 *   "1d6r-1" is "(1d6r) - 1". Write "r=-1" for a negative point.
 * - "!=" right after a dice term is explode-on-equal ("3d6!=3"), so a
 *   not-equal success target is written "<>N". "!!" is compound before
 *   anything else, and "!!p" (compounding penetration) is accepted.
 * - Defaults: explode on the die's maximum face; reroll, and "cf", on its
 *   minimum face (1, or -1 for fate dice); "cs" on its maximum face.
 * - k/kh/kl/d/dl/dh need their count; each kind of modifier may appear
 *   once per term, keep and drop once per end (kh, kl, dl and dh may all
 *   be given: "4d10dh1dl2"); "f" needs a success compare point on the same term,
 *   except that a term whose explosion has a compare point counts
 *   successes at that point ("10d10!>8f1": above 8 explodes and succeeds,
 *   1 fails; the canonical text shows it as "10d10>8!>8f1"); a
 *   die that matches both the success and the failure point is a success.
 * - min/max clamp every die rolled, explosion and reroll dice included,
 *   and compare points (explode, reroll, success...) see clamped values.
 *   A penetrating die counts one less than its face; its own explosion
 *   and reroll tests use the face.
 * - Dice are processed die by die in the fixed order of NOTATION.md: an
 *   explosion chain first, then rerolls of each die of the chain (so a
 *   rerolled die does not explode again), then keep, drop, successes,
 *   criticals and sorting over the whole term.
 * - Keep/drop rank dice by value, ties broken by position (earlier is
 *   lower), so kh3 of four dice drops exactly the die dl1 drops. As in
 *   rpg-dice-roller, each of kh, kl, dl, dh applies to the whole pool and
 *   a die is dropped when any of them drops it: "4d6kh3dl1" is 4d6kh3,
 *   "3d10kh1dl1" keeps the highest die, "3d10kh1dh1" keeps none.
 * - A modifier that would match every face the die can show (after
 *   min/max) is rejected before rolling: "d1!", "d6!>0", "d6r<7",
 *   "d6!!<=6", "d6min6!". "ro" on every face is allowed: it rerolls once.
 *   Criticals and fumbles are display marks and may match every face.
 * - Counts and sides given as sub-expressions ("(1d4)d6", "2d(3*2)") are
 *   evaluated first, then checked against the same limits; the dice of
 *   those sub-expressions are shown as groups of their own.
 * - Limits apply to the whole command: the dice of every expression and
 *   every repeat count against DICE_ROLLED_MAX; it is checked before any
 *   roll from the literal counts, and again while rolling.
 * - Arithmetic is on signed 64-bit integers; '/' rounds toward negative
 *   infinity; any overflow (sums of dice included) and division by zero
 *   are errors. 1000d1000000*1000000000000 overflows for every roll whose
 *   dice sum exceeds 9223372 (all but astronomically unlikely ones).
 *
 * Memory: everything a successful dice_roll() returns lives in one
 * struct dice_result that owns it (a few blocks, not one allocation per
 * die); every pointer reached from it stays valid until
 * dice_result_free(). Allocation follows rules/mem.h: running out of
 * memory ends the process, so no call here fails for want of memory; what
 * a command needs is bounded by the limits below. The engine has no
 * global state and does no I/O.
 */
#ifndef DELVER_DICE_H
#define DELVER_DICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rng;

/* Limits (NOTATION.md). */
#define DICE_TEXT_MAX      500     /* bytes of command text */
#define DICE_NEST_MAX      32      /* levels of parentheses */
#define DICE_EXPRS_MAX     10      /* expressions separated by ';' */
#define DICE_REPEAT_MAX    20      /* the N of "Nx" */
#define DICE_TERM_DICE_MAX 1000    /* dice asked for by one term */
#define DICE_SIDES_MAX     1000000 /* faces of one die */
#define DICE_ROLLED_MAX    10000   /* dice rolled by one command */
#define DICE_CHAIN_MAX     100     /* extra rolls of one die's chain */
#define DICE_LABEL_MAX     200     /* bytes of one label */

/* A buffer this large always holds an error message whole. */
#define DICE_ERR_MAX 256
/* A buffer this large always holds dice_normalize()'s output. */
#define DICE_CANON_MAX 2048

enum dice_err {
	DICE_OK = 0,
	DICE_ESYNTAX = -1, /* the text is not dice notation */
	DICE_ELIMIT = -2,  /* a limit of NOTATION.md would be broken */
	DICE_EMATH = -3,   /* division by zero or 64-bit overflow */
	/* -4 was "out of memory": allocation failure now ends the process. */
	DICE_EINVAL = -5, /* a NULL argument or too small a buffer */
};

/* Die flags (struct dice_die.flags). */
#define DICE_DROPPED    0x0001u /* not counted: dropped by keep/drop */
#define DICE_EXPLODED   0x0002u /* this die triggered an explosion */
#define DICE_ADDED      0x0004u /* added by an explosion or penetration */
#define DICE_COMPOUNDED 0x0008u /* holds the sum of a compounded chain */
#define DICE_PENETRATED 0x0010u /* counts one less than its face */
#define DICE_REROLLED   0x0020u /* replaced by the die after it */
#define DICE_SUCCESS    0x0040u /* matched the success compare point */
#define DICE_FAILURE    0x0080u /* matched the failure compare point */
#define DICE_CRIT       0x0100u /* marked critical (display only) */
#define DICE_FUMBLE     0x0200u /* marked fumble (display only) */
#define DICE_CAPPED     0x0400u /* its chain stopped at DICE_CHAIN_MAX */
#define DICE_MIN        0x0800u /* raised by min */
#define DICE_MAX        0x1000u /* lowered by max */

/*
 * One die as shown. A die counts toward its group unless it is
 * DICE_DROPPED or DICE_REROLLED. A DICE_REROLLED die is immediately
 * followed by the die that replaced it (itself possibly rerolled again),
 * and sorting keeps such a run together. Dice added by an explosion follow
 * the die that exploded, unless the group was sorted.
 */
struct dice_die {
	int64_t value;      /* as counted; fate dice are -1, 0 or +1 */
	unsigned int flags; /* DICE_DROPPED ... DICE_MAX */
};

/* One dice term as rolled. */
struct dice_group {
	const char *notation;   /* canonical term: "4d6kh3", "(1d4)d6" */
	const char *label;      /* its "[label]" text, or NULL */
	int64_t count;          /* dice asked for, sub-expressions resolved */
	int64_t sides;          /* faces; 3 for fate dice */
	bool fate;              /* fate dice: faces -1, 0, +1 */
	bool operand;           /* feeds the count or sides of a later group */
	bool successes_counted; /* value = successes - failures */
	bool capped;            /* some die here is DICE_CAPPED */
	int64_t value;          /* sum of counted dice, or successes - failures */
	int64_t successes;
	int64_t failures;
	size_t ndice;
	const struct dice_die *dice; /* ndice dice in display order */
};

enum dice_item_kind {
	DICE_ITEM_TEXT,  /* literal text: a number, operator or parenthesis */
	DICE_ITEM_GROUP, /* a dice group */
};

/*
 * One display item. Concatenating, in order, the text of every TEXT item
 * and the notation of every group that is not an operand reproduces the
 * expression's canonical source (struct dice_expr.source), labels aside.
 * Operand groups (the dice of a count or sides sub-expression such as the
 * 1d4 of "(1d4)d6") come just before the group they feed and are shown
 * for their dice only.
 */
struct dice_item {
	enum dice_item_kind kind;
	const char *text;               /* TEXT: "5", " + ", " * ", "-", "(", ")" */
	const char *label;              /* TEXT: a number's "[label]", or NULL */
	const struct dice_group *group; /* GROUP: the group; TEXT: NULL */
};

/* One roll of an expression ("6x" makes six). */
struct dice_repeat {
	int64_t total;
	size_t nitems;
	const struct dice_item *items;
};

/* One expression of the command (the text between ';'). */
struct dice_expr {
	const char *source; /* canonical text, without "Nx " */
	size_t nrepeats;    /* N of "Nx", or 1 */
	const struct dice_repeat *repeats;
};

/* Owns every struct above that it hands out; opaque. */
struct dice_result;

/*
 * Parses the command text (len bytes, need not be NUL-terminated, may hold
 * any bytes), checks every limit that is knowable before rolling, then
 * rolls every expression with rng, which is the only source of randomness
 * (each die is one rng_die() or, for fate dice, one rng_below(3) call).
 * Returns DICE_OK and sets *out to a result the caller frees with
 * dice_result_free(). Otherwise returns a negative enum dice_err, sets
 * *out to NULL and writes one English sentence naming what is wrong and
 * what is allowed into err (errlen bytes, always NUL-terminated when
 * errlen > 0; whole when errlen >= DICE_ERR_MAX). Columns in messages
 * are 1-based and count characters (UTF-8 code points) of text. A message
 * never repeats label text: of the user's text it quotes one character at
 * most, besides numbers and canonical dice notation. No input makes it
 * abort (see Memory above); work per call is bounded by the limits (about
 * 2 ms at worst).
 */
int dice_roll(const char *text, size_t len, struct rng *rng, struct dice_result **out, char *err,
              size_t errlen);

/* Frees a result and everything it owns; NULL is allowed. */
void dice_result_free(struct dice_result *res);

/* Parses and checks text as dice_roll() would, without rolling. Returns
 * DICE_OK or the error dice_roll() would give before its first roll. */
int dice_check(const char *text, size_t len, char *err, size_t errlen);

/*
 * Writes the canonical form of the whole command into out (outlen bytes,
 * NUL-terminated): "1d20" for "d20", "4d6kh3" for "4d6k3", modifiers in
 * their fixed order, spaces around binary operators, "6x " and " # label"
 * kept. Equal canonical text means equal behaviour. Returns DICE_OK, a
 * parse error as dice_check() would (with err set), or DICE_EINVAL when
 * out is too small (DICE_CANON_MAX bytes are always enough).
 */
int dice_normalize(const char *text, size_t len, char *out, size_t outlen, char *err,
                   size_t errlen);

/*
 * The advantage shorthand: a roll of the command (the text between ';'s,
 * before any "# label") whose last word is adv or dis doubles its first
 * plain d20 and keeps the better or the worse: "1d20+5 adv" is
 * "2d20kh1+5", "d20 dis # save" is "2d20kl1 # save", "1d20 adv; 1d20 dis"
 * is "2d20kh1; 2d20kl1". Writes the rewrite into buf (len bytes; it is
 * never longer than expr) and returns buf; returns expr itself when no
 * roll ends in either word, or when buf is shorter than expr. Returns NULL
 * with one sentence in err (errlen bytes) when such a roll has no plain
 * d20, or when adv or dis stands anywhere but last in its roll. Allocates
 * nothing.
 */
const char *dice_advantage(const char *expr, char *buf, size_t len, char *err, size_t errlen);

/*
 * The error of a rewritten command given as typed: when expr (as given to
 * dice_advantage()) with its adv and dis words blanked out does not parse,
 * err (errlen bytes) gets that error, whose columns are those typed;
 * otherwise err is left as it is (the rewrite's own error).
 */
void dice_advantage_error(const char *expr, char *err, size_t errlen);

/*
 * The first of dice_advantage()'s checks alone: each adv or dis word of
 * expr is the last word of its roll, with no invisible character after
 * it. Returns 0, or -1 with dice_advantage()'s error for the first that
 * is not (its column counts in expr), in err (errlen bytes).
 */
int dice_advantage_words(const char *expr, char *err, size_t errlen);

/*
 * The command's "# label" in text (NUL-terminated) as typed, found without
 * parsing it, so also in text that is not dice yet (a saved roll's name,
 * adv, an option's word): its '#' is the first one outside a term's
 * "[label]" (an unclosed '[' holds the rest of the text), where dice_roll()
 * starts the label of text it reads. Returns that '#', or NULL when there
 * is none. When label is not NULL, *label and *len get the label's text,
 * the whitespace around it left out as dice_result_label() has it (*len
 * is 0 for a blank label). Allocates nothing.
 */
const char *dice_label_find(const char *text, const char **label, size_t *len);

/* The walking API: read-only views into res, valid until it is freed. */

/* How many expressions the command had (1..DICE_EXPRS_MAX). */
size_t dice_result_nexprs(const struct dice_result *res);

/* The i-th expression (i < dice_result_nexprs()), or NULL. */
const struct dice_expr *dice_result_expr(const struct dice_result *res, size_t i);

/* The command's "# label" text, or NULL when there was none. */
const char *dice_result_label(const struct dice_result *res);

/* How many dice were rolled, counting explosions and rerolls. */
size_t dice_result_rolled(const struct dice_result *res);

/* Whether any die's chain stopped at DICE_CHAIN_MAX (output must say so). */
bool dice_result_capped(const struct dice_result *res);

#endif
