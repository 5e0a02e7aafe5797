/*
 * dice_text: the dice engine's arena, error messages and canonical
 * printing. See dice_impl.h.
 */
#include "rules/dice/dice_impl.h"
#include "rules/base/mem.h"
#include "rules/base/num.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN      DICE_ALIGN
#define ROUNDUP(n) (((n) + ALIGN - 1) & ~(size_t)(ALIGN - 1))
#define BLOCK_HDR  ROUNDUP(sizeof(struct dice_block))
#define BLOCK_MIN  4096

void
dice__arena_init(struct dice_arena *a, void *buf, size_t len)
{
	uintptr_t p = (uintptr_t)buf, q;

	q = (p + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1);
	if (buf == NULL || len < q - p) {
		a->cur = a->end = NULL;
	} else {
		a->cur = (unsigned char *)q;
		a->end = (unsigned char *)buf + len;
	}
	a->blocks = NULL;
	a->total = 0;
}

/*
 * The slow path of dice__arena_alloc(): a new block. Blocks grow
 * geometrically, so a command makes a handful of allocations at most, and
 * usually none.
 */
void *
dice__arena_grow(struct dice_arena *a, size_t n)
{
	struct dice_block *b;
	size_t want, size;
	void *p;

	n = ROUNDUP(n == 0 ? 1 : n);
	if (a->cur != NULL && (size_t)(a->end - a->cur) >= n) {
		p = a->cur;
		a->cur += n;
		return p;
	}
	want = BLOCK_HDR + n;
	size = a->total > BLOCK_MIN ? a->total : BLOCK_MIN;
	if (size < want)
		size = want;
	b = xmalloc(size);
	b->next = a->blocks;
	b->size = size;
	a->blocks = b;
	a->total += size;
	p = (unsigned char *)b + BLOCK_HDR;
	a->cur = (unsigned char *)p + n;
	a->end = (unsigned char *)b + size;
	return p;
}

/* Copies n bytes of s and a NUL into the arena. */
char *
dice__arena_strdup(struct dice_arena *a, const char *s, size_t n)
{
	char *p = dice__arena_alloc(a, n + 1);

	if (n > 0)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
dice__arena_release(struct dice_arena *a)
{
	struct dice_block *b, *next;

	for (b = a->blocks; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	a->blocks = NULL;
	a->cur = a->end = NULL;
	a->total = 0;
}

int
dice__fail(struct dice_errbuf *e, int code, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (e->code != 0)
		return e->code;
	e->code = code;
	if (e->buf == NULL || e->len == 0)
		return code;
	va_start(ap, fmt);
	r = vsnprintf(e->buf, e->len, fmt, ap);
	va_end(ap);
	if (r < 0)
		e->buf[0] = '\0';
	/* A message cut short by a small buffer is still NUL-terminated;
	 * DICE_ERR_MAX bytes always hold it whole. */
	return code;
}

int
dice__column(const char *s, size_t off)
{
	return 1 + (int)utf8_count(s, off);
}

void
dice__quote(const char *s, size_t len, size_t off, bool article, char *buf, size_t buflen)
{
	unsigned char c = (unsigned char)s[off];
	const char *name = NULL;
	char inv[TEXTSAFE_NAME_MAX];
	uint32_t cp;
	size_t n;
	int r;

	if (c == ' ')
		name = "a space";
	else if (c == '\t')
		name = "a tab";
	else if (c == '\n' || c == '\r')
		name = "a line break";
	else if (c < 0x20 || c == 0x7f)
		name = "a control character";
	if (name != NULL)
		r = snprintf(buf, buflen, "%s", article ? name : name + 2);
	else if (c < 0x7f)
		r = snprintf(buf, buflen, "'%c'", c);
	else if (utf8_seq_len(s + off, len - off) > 1 &&
	         textsafe_invisible_at(s + off, len - off, &cp)) {
		textsafe_invisible_name(inv, sizeof(inv), cp, article);
		r = snprintf(buf, buflen, "%s", inv);
	} else if ((n = utf8_seq_len(s + off, len - off)) > 1)
		r = snprintf(buf, buflen, "'%.*s'", (int)n, s + off);
	else
		r = snprintf(buf, buflen, "byte 0x%02X", c);
	if (r < 0 || (size_t)r >= buflen)
		buf[0] = '\0'; /* callers pass DICE_QUOTE_MAX bytes: never happens */
}

void
dice__out_str(struct dice_out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->overflow || o->len == 0 || n >= o->len - o->used) {
		o->overflow = true;
		return;
	}
	memcpy(o->buf + o->used, s, n + 1);
	o->used += n;
}

static inline void
out_mem(struct dice_out *o, const char *s, size_t n)
{
	if (o->overflow || o->len == 0 || n >= o->len - o->used) {
		o->overflow = true;
		return;
	}
	memcpy(o->buf + o->used, s, n);
	o->used += n;
	o->buf[o->used] = '\0';
}

/* Appends a string literal: its length is known when compiling, so the
 * copy is a store or two rather than strlen and memcpy calls. */
#define OUT_LIT(o, lit) out_mem((o), (lit), sizeof(lit) - 1)

/* Formats by hand: snprintf was a third of the cost of a short roll. A
 * number goes straight into the buffer when it has room for any number;
 * a single digit, the commonest case in dice notation, is one store. */
void
dice__out_i64(struct dice_out *o, int64_t v)
{
	char tmp[NUM_TEXT_MAX];

	if (o->overflow || o->len == 0 || o->len - o->used <= NUM_TEXT_MAX) {
		out_mem(o, tmp, num_text(v, tmp));
		return;
	}
	if (v >= 0 && v < 10) {
		o->buf[o->used++] = (char)('0' + v);
		o->buf[o->used] = '\0';
		return;
	}
	o->used += num_text(v, o->buf + o->used);
}

/* Prints a compare point; bare is allowed where the modifier takes an
 * optional point, and prints "=N" (N >= 0) as plain N. */
void
dice__print_cmp(struct dice_out *o, const struct dice_cmp *c, bool bare)
{
	static const char *const ops[] = {"", "=", "<>", "<", "<=", ">", ">="};

	if (c->op == CMP_NONE)
		return;
	if (!(bare && c->op == CMP_EQ && c->n >= 0))
		dice__out_str(o, ops[c->op]);
	dice__out_i64(o, c->n);
}

static void
print_label(struct dice_out *o, const char *label)
{
	if (label != NULL) {
		OUT_LIT(o, "[");
		dice__out_str(o, label);
		OUT_LIT(o, "]");
	}
}

/*
 * Prints a dice term's canonical notation, label excluded. Modifiers come
 * in application order, except that the success compare point comes right
 * after min/max: printed after a bare "!" it would read as the explode
 * point ("4d6>4!" is not "4d6!>4").
 */
void
dice__print_term(struct dice_out *o, const struct dice_node *n)
{
	static const char *const expl[] = {"", "!", "!!", "!p", "!!p"};
	const struct dice_spec *sp = n->spec;

	if (sp->count_expr != NULL)
		dice__print_node(o, sp->count_expr);
	else
		dice__out_i64(o, sp->count);
	OUT_LIT(o, "d");
	if (sp->sides_expr != NULL)
		dice__print_node(o, sp->sides_expr);
	else if (sp->fate)
		OUT_LIT(o, "F");
	else
		dice__out_i64(o, sp->sides);
	if (sp->have & MOD_MIN) {
		OUT_LIT(o, "min");
		dice__out_i64(o, sp->min);
	}
	if (sp->have & MOD_MAX) {
		OUT_LIT(o, "max");
		dice__out_i64(o, sp->max);
	}
	if (sp->have & MOD_SUCCESS)
		dice__print_cmp(o, &sp->success, false);
	if (sp->have & MOD_EXPLODE) {
		dice__out_str(o, expl[sp->explode]);
		dice__print_cmp(o, &sp->explode_cp, true);
	}
	if (sp->have & MOD_REROLL) {
		dice__out_str(o, sp->reroll == RR_ONCE ? "ro" : "r");
		dice__print_cmp(o, &sp->reroll_cp, true);
	}
	if (sp->have & MOD_KEEP) {
		OUT_LIT(o, "kh");
		dice__out_i64(o, sp->keep_n);
	}
	if (sp->have & MOD_KEEPL) {
		OUT_LIT(o, "kl");
		dice__out_i64(o, sp->keepl_n);
	}
	if (sp->have & MOD_DROPH) {
		OUT_LIT(o, "dh");
		dice__out_i64(o, sp->droph_n);
	}
	if (sp->have & MOD_DROP) {
		OUT_LIT(o, "dl");
		dice__out_i64(o, sp->drop_n);
	}
	if (sp->have & MOD_FAILURE) {
		OUT_LIT(o, "f");
		dice__print_cmp(o, &sp->failure, true);
	}
	if (sp->have & MOD_CRIT) {
		OUT_LIT(o, "cs");
		dice__print_cmp(o, &sp->crit, true);
	}
	if (sp->have & MOD_FUMBLE) {
		OUT_LIT(o, "cf");
		dice__print_cmp(o, &sp->fumble, true);
	}
	if (sp->have & MOD_SORT)
		dice__out_str(o, sp->sort == SORT_DESC ? "sd" : "s");
}

/* Prints a subtree in canonical form, labels included. The recursion is
 * bounded by DICE_NEST_MAX: each level of parentheses adds four frames. */
void
dice__print_node(struct dice_out *o, const struct dice_node *n)
{
	const struct dice_node *k;
	char op[4] = {' ', 0, ' ', 0};

	switch (n->kind) {
	case NODE_NUM:
		dice__out_str(o, n->text);
		print_label(o, n->label);
		break;
	case NODE_DICE:
		if (n->text != NULL)
			dice__out_str(o, n->text);
		else
			dice__print_term(o, n);
		print_label(o, n->label);
		break;
	case NODE_PAREN:
		OUT_LIT(o, "(");
		dice__print_node(o, n->kid);
		OUT_LIT(o, ")");
		break;
	case NODE_FUNC:
		dice__out_str(o, n->text);
		dice__print_node(o, n->kid);
		break;
	case NODE_NEG:
		for (uint32_t i = 0; i < n->nneg; i++)
			OUT_LIT(o, "-");
		dice__print_node(o, n->kid);
		break;
	case NODE_SUM:
	case NODE_PROD:
		for (k = n->kid; k != NULL; k = k->next) {
			if (k != n->kid) {
				op[1] = k->op;
				dice__out_str(o, op);
			}
			dice__print_node(o, k);
		}
		break;
	}
}

void
dice__print_cmd(struct dice_out *o, const struct dice_cmd *cmd)
{
	for (size_t i = 0; i < cmd->nstmt; i++) {
		if (i > 0)
			OUT_LIT(o, "; ");
		if (cmd->stmt[i].has_repeat) {
			dice__out_i64(o, cmd->stmt[i].repeat);
			OUT_LIT(o, "x ");
		}
		dice__print_node(o, cmd->stmt[i].root);
	}
	if (cmd->label != NULL) {
		OUT_LIT(o, " # ");
		dice__out_str(o, cmd->label);
	}
}
