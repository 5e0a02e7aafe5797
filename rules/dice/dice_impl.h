/*
 * dice_impl.h: what the dice engine's files share and nobody else sees.
 *
 * dice_parse.c turns text into a struct dice_cmd (an AST whose nodes live
 * in an arena), reading numbers, labels and modifiers through dice_mods.c;
 * dice_check.c holds the limits knowable before rolling and the entry
 * points that only parse, dice_text.c the arena, error messages and
 * canonical printing, and dice_eval.c rolls a dice_cmd into a struct
 * dice_result.
 * Internal names use the dice__ prefix.
 */
#ifndef DELVER_DICE_IMPL_H
#define DELVER_DICE_IMPL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/dice/dice.h"

/*
 * A bump allocator: the first block is supplied by the owner (inside the
 * result, or on the stack), further blocks are xmalloc'd (rules/mem.h: they
 * never fail) and chained. Memory is released all at once by
 * dice__arena_release(). What one command needs is bounded by the limits
 * of dice.h (under 2 MB for the worst command found).
 */
struct dice_block {
	struct dice_block *next;
	size_t size;
	/* max_align_t aligned data follows */
};

struct dice_arena {
	unsigned char *cur;
	unsigned char *end;
	struct dice_block *blocks; /* xmalloc'd blocks, newest first */
	size_t total;              /* bytes xmalloc'd so far */
};

#define DICE_ALIGN _Alignof(max_align_t)

void dice__arena_init(struct dice_arena *a, void *buf, size_t len);
void *dice__arena_grow(struct dice_arena *a, size_t n);
char *dice__arena_strdup(struct dice_arena *a, const char *s, size_t n);
void dice__arena_release(struct dice_arena *a);

/* Returns n bytes aligned for any type; never NULL. */
static inline void *
dice__arena_alloc(struct dice_arena *a, size_t n)
{
	size_t r = (n + DICE_ALIGN - 1) & ~(size_t)(DICE_ALIGN - 1);
	void *p = a->cur;

	if (n == 0 || a->cur == NULL || (size_t)(a->end - a->cur) < r)
		return dice__arena_grow(a, n);
	a->cur += r;
	return p;
}
/* Where an error message goes; code is the first error reported. */
struct dice_errbuf {
	char *buf;
	size_t len;
	int code;
};

/* Records code and the formatted message (only the first error counts);
 * returns code so callers can write "return dice__fail(...)". */
int dice__fail(struct dice_errbuf *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The 1-based column (in UTF-8 code points) of byte offset off of s. */
int dice__column(const char *s, size_t off);

/* Names the character at s[off] as a user would into buf (DICE_QUOTE_MAX
 * bytes): "'@'", "'é'", "a space", "a tab", "a line break", "a control
 * character", "an invisible character U+200B" for one that would show as
 * nothing quoted (textsafe_invisible_at), or "byte 0xC3" for a byte that
 * starts no UTF-8 character;
 * without the article ("space") when article is false. */
#define DICE_QUOTE_MAX 32
void dice__quote(const char *s, size_t len, size_t off, bool article, char *buf, size_t buflen);

enum dice_cmpop {
	CMP_NONE, /* not given: the modifier's default applies */
	CMP_EQ,
	CMP_NE,
	CMP_LT,
	CMP_LE,
	CMP_GT,
	CMP_GE,
};

struct dice_cmp {
	uint8_t op; /* enum dice_cmpop */
	bool bare;  /* written as a bare number */
	int64_t n;
};

enum {
	EXP_NONE,
	EXP_EXPLODE,
	EXP_COMPOUND,
	EXP_PENETRATE,
	EXP_COMPOUND_PEN
};
enum {
	RR_NONE,
	RR_ALL,
	RR_ONCE
};
enum {
	SORT_NONE,
	SORT_ASC,
	SORT_DESC
};

/* Modifiers present on a term (struct dice_spec.have). */
#define MOD_MIN     0x001u
#define MOD_MAX     0x002u
#define MOD_EXPLODE 0x004u
#define MOD_REROLL  0x008u
#define MOD_KEEP    0x010u /* kh (k) */
#define MOD_DROP    0x020u /* dl (d) */
#define MOD_SUCCESS 0x040u
#define MOD_FAILURE 0x080u
#define MOD_CRIT    0x100u
#define MOD_FUMBLE  0x200u
#define MOD_SORT    0x400u
#define MOD_KEEPL   0x800u  /* kl */
#define MOD_DROPH   0x1000u /* dh */

struct dice_node;

/* A dice term: its count, sides and modifiers. */
struct dice_spec {
	struct dice_node *count_expr; /* NULL: count is literal */
	struct dice_node *sides_expr; /* NULL: sides is literal */
	int64_t count;
	int64_t sides; /* 3 for fate dice */
	bool fate;
	unsigned int have; /* MOD_* */
	int64_t min, max;
	uint8_t explode; /* EXP_* */
	uint8_t reroll;  /* RR_* */
	uint8_t sort;    /* SORT_* */
	/* Keep highest/lowest, drop lowest/highest: one of each end, each
	 * applied to the whole pool (MOD_KEEP, MOD_KEEPL, MOD_DROP,
	 * MOD_DROPH say which are present). */
	int64_t keep_n, keepl_n, drop_n, droph_n;
	struct dice_cmp explode_cp, reroll_cp, success, failure, crit, fumble;
};

enum dice_kind {
	NODE_NUM,
	NODE_DICE,
	NODE_PAREN,
	NODE_NEG,
	NODE_SUM,
	NODE_PROD,
	NODE_FUNC
};

/* The functions of NOTATION.md (struct dice_node.fn), Roll20's. */
enum dice_fn {
	FN_FLOOR,
	FN_CEIL,
	FN_ROUND,
	FN_ABS
};

/*
 * An AST node. SUM and PROD hold two or more children in kid/next order,
 * each child but the first carrying the operator before it in op. NEG
 * negates its child nneg times (a run of unary minus signs). FUNC applies
 * function fn to its child, a PAREN; text is the function's name.
 */
struct dice_node {
	uint8_t kind;   /* enum dice_kind */
	uint8_t fn;     /* FUNC: enum dice_fn */
	char op;        /* '+', '-', '*', '/' or 0 */
	uint32_t pos;   /* byte offset of the node's token */
	uint32_t oppos; /* byte offset of op */
	uint32_t nneg;
	uint32_t nitems;  /* display items emitted at top level */
	uint32_t ngroups; /* dice terms in this subtree */
	uint32_t sdice;   /* dice known before rolling */
	struct dice_node *kid;
	struct dice_node *next;
	int64_t v;              /* NUM */
	struct dice_spec *spec; /* DICE */
	const char *text;       /* NUM: digits; DICE: term; NEG: its signs; FUNC: "floor"... */
	const char *label;      /* "[label]" text or NULL */
};

struct dice_stmt {
	struct dice_node *root;
	int64_t repeat; /* 1 when no "Nx" was given */
	bool has_repeat;
	const char *source; /* canonical text without "Nx " */
};

struct dice_cmd {
	struct dice_stmt stmt[DICE_EXPRS_MAX];
	size_t nstmt;
	const char *label; /* "# label" text or NULL */
	uint64_t sdice;    /* dice known before rolling, repeats in */
};

/*
 * The parser's cursor over a byte string that need not be NUL-terminated.
 * dice_parse.c holds the grammar (terms, operators, parentheses, "Nx",
 * ';' and "# label"); dice_mods.c what it reads through: numbers, compare
 * points, labels and a dice term's modifiers. Every reader advances i past
 * what it read and returns 0, or records an error in e and returns its
 * code.
 */
struct dice_parser {
	const char *s;
	size_t len;
	size_t i;
	int depth;      /* open parentheses */
	bool last_dice; /* the last atom was a dice term */
	struct dice_arena *a;
	struct dice_errbuf *e;
};

/* The byte at off, or -1 past the end. */
static inline int
dice__at(const struct dice_parser *p, size_t off)
{
	return off < p->len ? (unsigned char)p->s[off] : -1;
}

/* ASCII lower case (notation letters are case-insensitive). */
static inline int
dice__lc(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static inline bool
dice__isdig(int c)
{
	return c >= '0' && c <= '9';
}

/* The whitespace that may separate the parts of a command. */
static inline bool
dice__isws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Narrows s[*start, *end) to a label's text: the whitespace around it left
 * out (dice_label.c). */
void dice__label_trim(const char *s, size_t *start, size_t *end);

/* The ']' that closes the term's "[label]" whose '[' is at open, or NULL
 * when none does (the label holds the rest of the NUL-terminated text):
 * how dice__stop_find(), and through it dice_label_find(), and the
 * advantage shorthand read a [label] (dice_label.c). */
const char *dice__label_close(const char *open);

/* The first '#' of text (NUL-terminated), or its first ';' too when
 * at_semicolon, that stands outside a term's "[label]" (an unclosed '['
 * holds the rest of the text); its terminating NUL when there is none.
 * dice_label_find() and the advantage shorthand's split into rolls read
 * text alike through it (dice_label.c). */
const char *dice__stop_find(const char *text, bool at_semicolon);

/* The 1-based column of byte offset off, for messages. */
static inline int
dice__col(const struct dice_parser *p, size_t off)
{
	return dice__column(p->s, off);
}

/* Fills buf with ", not 'c'" naming the byte at p->i, or "" at the end. */
void dice__found(const struct dice_parser *p, char *buf, size_t len);
/* Reads the digits at p->i into *v (0 when there are none). */
int dice__parse_uint(struct dice_parser *p, int64_t *v);
/* Reads the digits at p->i into *v without failing: returns true, *v
 * INT64_MAX, when they do not fit in 64 bits. */
bool dice__scan_uint(struct dice_parser *p, int64_t *v);
/* Checks the n label bytes at start (length, UTF-8, no control
 * characters); where is the column messages name. */
int dice__check_label(struct dice_parser *p, size_t start, size_t n, size_t where);
/* Reads "[label]" at p->i into *out, copied into the arena (NULL when
 * empty). */
int dice__parse_bracket_label(struct dice_parser *p, const char **out);
/* Reads the modifiers after a term's sides into sp, and a trailing
 * "[label]" into *label. */
int dice__parse_mods(struct dice_parser *p, struct dice_spec *sp, const char **label);

/* Parses text into cmd, every node in a; checks every static limit.
 * dice__parse() tries dice__parse_plain() first, then the grammar. */
int dice__parse(const char *text, size_t len, struct dice_arena *a, struct dice_cmd *cmd,
                struct dice_errbuf *e);
int dice__parse_grammar(const char *text, size_t len, struct dice_arena *a, struct dice_cmd *cmd,
                        struct dice_errbuf *e);
/* The fast path for the commonest commands ("4d6kh3", "1d20+5"): returns
 * true having filled cmd as dice__parse_grammar() would (cmd->label
 * aside), or false having changed nothing. Tests check the two agree. */
bool dice__parse_plain(const char *text, size_t len, struct dice_arena *a, struct dice_cmd *cmd);

/*
 * Check a term's count (1..DICE_TERM_DICE_MAX), sides (1..DICE_SIDES_MAX)
 * and its explode and reroll points against the faces it can show; col is
 * the term's column, which every message names. The
 * parser checks literals as it meets them; dice__check_term() checks all
 * three once sub-expressions are evaluated.
 */
int dice__check_count(int64_t count, int col, struct dice_errbuf *e);
int dice__check_sides(int64_t sides, int col, struct dice_errbuf *e);
int dice__check_faces(const struct dice_spec *sp, int64_t sides, int col, struct dice_errbuf *e);
int dice__check_term(const struct dice_spec *sp, int64_t count, int64_t sides, int col,
                     struct dice_errbuf *e);
/* The same limits for a literal too large for 64 bits (ndigits digits). */
int dice__count_huge(size_t ndigits, int col, struct dice_errbuf *e);
int dice__sides_huge(size_t ndigits, int col, struct dice_errbuf *e);

/* Whether value v matches compare point c (CMP_NONE matches nothing). */
static inline bool
dice__cmp_match(const struct dice_cmp *c, int64_t v)
{
	switch (c->op) {
	case CMP_EQ:
		return v == c->n;
	case CMP_NE:
		return v != c->n;
	case CMP_LT:
		return v < c->n;
	case CMP_LE:
		return v <= c->n;
	case CMP_GT:
		return v > c->n;
	case CMP_GE:
		return v >= c->n;
	default:
		return false;
	}
}

/*
 * A value while an expression is rolled: n/d with d > 0, in lowest terms.
 * Outside a function every value is whole (d is 1) and '/' rounds down;
 * inside one (dice_arith.c), '/' is exact and the function rounds.
 */
struct dice_q {
	int64_t n, d;
};

enum {
	DICE_Q_OK,
	DICE_Q_OVERFLOW, /* the result's numerator or denominator needs more than 64 bits */
	DICE_Q_DIVZERO,
};

/* Applies op ('+', '-', '*', '/') to a and b into *v: exactly when exact
 * is true, else with '/' rounding down whole numbers. */
int dice__q_apply(char op, struct dice_q a, struct dice_q b, bool exact, struct dice_q *v);
/* Applies function fn (enum dice_fn) to a into *v: floor, ceil and round
 * (half up) give whole numbers, abs keeps a fraction. */
int dice__q_fn(uint8_t fn, struct dice_q a, struct dice_q *v);
/* a rounded down to a whole number. */
int64_t dice__q_floor(struct dice_q a);

/* Canonical printing into a bounded buffer. */
struct dice_out {
	char *buf;
	size_t len;
	size_t used;
	bool overflow;
};

void dice__out_str(struct dice_out *o, const char *s);
void dice__out_i64(struct dice_out *o, int64_t v);
void dice__print_cmp(struct dice_out *o, const struct dice_cmp *c, bool bare);
void dice__print_node(struct dice_out *o, const struct dice_node *n);
void dice__print_term(struct dice_out *o, const struct dice_node *n);
void dice__print_cmd(struct dice_out *o, const struct dice_cmd *cmd);

#endif
