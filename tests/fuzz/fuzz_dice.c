/*
 * libFuzzer target for the dice engine: rolls the input with a fixed seed,
 * walks the whole result and checks the contract's invariants; also
 * checks that dice_check() agrees with dice_roll(), that the parser's
 * fast path agrees with its grammar, that dice_normalize() is
 * idempotent, that dice_label_find() finds the label the parser keeps and
 * that the advantage shorthand's rewrite is never longer than its text and
 * its errors are sentences. Any violation aborts, which libFuzzer reports with
 * the input.
 *
 * clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Irules \
 *     rules/rng.c rules/dice*.c tests/fuzz/fuzz_dice.c -o fuzz_dice
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/dice/dice.h"
#include "rules/base/rng.h"
/* The fuzz build links one source per target, so the unit tests' helper
 * comes in whole. */
#include "tests/unit/helpers/dicesame.c"

#define ALL_FLAGS 0x1fffu

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "fuzz_dice: %s:%d: %s\n", __FILE__, __LINE__, #c);         \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* A message must fit DICE_ERR_MAX and be printable UTF-8 text. */
static void
check_message(const char *err)
{
	size_t n = strlen(err);

	CHECK(n > 0 && n < DICE_ERR_MAX);
	for (size_t i = 0; i < n; i++)
		CHECK((unsigned char)err[i] >= 0x20 && err[i] != 0x7f);
}

static void
append(char *buf, size_t *used, size_t len, const char *s)
{
	size_t n = strlen(s);

	CHECK(*used + n < len);
	memcpy(buf + *used, s, n + 1);
	*used += n;
}

static void
append_label(char *buf, size_t *used, size_t len, const char *label)
{
	if (label != NULL) {
		CHECK(strlen(label) > 0 && strlen(label) <= DICE_LABEL_MAX);
		append(buf, used, len, "[");
		append(buf, used, len, label);
		append(buf, used, len, "]");
	}
}

static size_t
walk_group(const struct dice_group *g)
{
	int64_t sum = 0, succ = 0, fail = 0;
	bool capped = false;

	CHECK(g->notation != NULL && strlen(g->notation) > 0);
	CHECK(g->count >= 1 && g->count <= DICE_TERM_DICE_MAX);
	CHECK(g->fate ? g->sides == 3 : g->sides >= 1 && g->sides <= DICE_SIDES_MAX);
	CHECK(g->ndice >= (size_t)g->count && g->ndice <= DICE_ROLLED_MAX);
	for (size_t i = 0; i < g->ndice; i++) {
		const struct dice_die *d = &g->dice[i];

		CHECK((d->flags & ~ALL_FLAGS) == 0);
		capped |= (d->flags & DICE_CAPPED) != 0;
		if (d->flags & DICE_REROLLED) {
			CHECK(i + 1 < g->ndice);
			continue;
		}
		if (d->flags & DICE_DROPPED) {
			CHECK(!(d->flags & (DICE_SUCCESS | DICE_FAILURE)));
			continue;
		}
		CHECK(!((d->flags & DICE_SUCCESS) && (d->flags & DICE_FAILURE)));
		succ += (d->flags & DICE_SUCCESS) != 0;
		fail += (d->flags & DICE_FAILURE) != 0;
		if (!g->successes_counted)
			CHECK(!__builtin_add_overflow(sum, d->value, &sum));
	}
	CHECK(capped == g->capped);
	if (g->successes_counted) {
		CHECK(succ == g->successes && fail == g->failures);
		CHECK(g->value == succ - fail);
	} else {
		CHECK(succ == 0 && fail == 0 && g->value == sum);
	}
	return g->ndice;
}

/* Walks every expression, repeat, item, group and die. */
static void
walk(const struct dice_result *res)
{
	static char buf[8192];
	size_t n = dice_result_nexprs(res), dice = 0;
	const char *label = dice_result_label(res);

	CHECK(n >= 1 && n <= DICE_EXPRS_MAX);
	CHECK(dice_result_expr(res, n) == NULL);
	if (label != NULL)
		CHECK(strlen(label) > 0 && strlen(label) <= DICE_LABEL_MAX);
	for (size_t i = 0; i < n; i++) {
		const struct dice_expr *x = dice_result_expr(res, i);

		CHECK(x != NULL && x->source != NULL);
		CHECK(x->nrepeats >= 1 && x->nrepeats <= DICE_REPEAT_MAX);
		for (size_t r = 0; r < x->nrepeats; r++) {
			const struct dice_repeat *rp = &x->repeats[r];
			size_t used = 0;

			buf[0] = '\0';
			for (size_t k = 0; k < rp->nitems; k++) {
				const struct dice_item *it = &rp->items[k];

				if (it->kind == DICE_ITEM_TEXT) {
					CHECK(it->group == NULL);
					append(buf, &used, sizeof(buf), it->text);
					append_label(buf, &used, sizeof(buf), it->label);
					continue;
				}
				CHECK(it->kind == DICE_ITEM_GROUP);
				dice += walk_group(it->group);
				if (it->group->operand)
					continue;
				append(buf, &used, sizeof(buf), it->group->notation);
				append_label(buf, &used, sizeof(buf), it->group->label);
			}
			CHECK(strcmp(buf, x->source) == 0);
		}
	}
	/* Every die shown was rolled; compounding shows fewer. */
	CHECK(dice <= dice_result_rolled(res));
	CHECK(dice_result_rolled(res) <= DICE_ROLLED_MAX);
}

/* dice_advantage() on the text up to its first NUL. */
static void
advantage(const char *data, size_t size)
{
	static char text[DICE_TEXT_MAX + 1], buf[DICE_TEXT_MAX + 1], err[DICE_ERR_MAX];
	const char *r;
	size_t n = strnlen(data, size < DICE_TEXT_MAX ? size : DICE_TEXT_MAX);

	memcpy(text, data, n);
	text[n] = '\0';
	err[0] = '\0';
	r = dice_advantage(text, buf, sizeof(buf), err, sizeof(err));
	if (r == NULL) {
		check_message(err);
		return;
	}
	CHECK(r == text || r == buf);
	CHECK(strlen(r) <= n);
	if (r == buf && dice_check(buf, strlen(buf), err, sizeof(err)) != 0) {
		dice_advantage_error(text, err, sizeof(err));
		check_message(err);
	}
}

/* Where a rolled text holding no NUL has its label, dice_label_find()
 * finds the same text before parsing; where it has none, at most a blank
 * one. */
static void
label_found(const char *data, size_t size, const struct dice_result *res)
{
	static char text[DICE_TEXT_MAX + 1];
	const char *want = dice_result_label(res), *label;
	size_t n;

	if (size > DICE_TEXT_MAX || memchr(data, '\0', size) != NULL)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	if (dice_label_find(text, &label, &n) == NULL)
		CHECK(want == NULL);
	else if (want == NULL)
		CHECK(n == 0);
	else
		CHECK(n == strlen(want) && memcmp(label, want, n) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rng *rng;
	static char err[4096], cerr[4096], canon[DICE_CANON_MAX], again[DICE_CANON_MAX];
	const char *text = (const char *)data;
	struct dice_result *res = NULL;
	int rc, crc, nrc;

	if (rng == NULL && (rng = rng_new_seeded(1)) == NULL)
		abort();
	rng_seed(rng, 0x5eed);
	rc = dice_roll(text, size, rng, &res, err, sizeof(err));
	crc = dice_check(text, size, cerr, sizeof(cerr));
	if (rc == 0) {
		CHECK(res != NULL);
		CHECK(crc == 0);
		walk(res);
		label_found(text, size, res);
		dice_result_free(res);
	} else {
		CHECK(res == NULL && rc < 0 && rc >= DICE_EINVAL);
		check_message(err);
		/* A parse error is the same whether or not we roll. */
		if (crc != 0)
			CHECK(crc == rc && strcmp(err, cerr) == 0);
	}
	/* The parser's fast path builds what the grammar builds. */
	CHECK(dicesame(text, size, NULL, cerr, sizeof(cerr)));
	nrc = dice_normalize(text, size, canon, sizeof(canon), cerr, sizeof(cerr));
	CHECK(nrc == crc);
	if (nrc == 0 && strlen(canon) <= DICE_TEXT_MAX) {
		CHECK(dice_normalize(canon, strlen(canon), again, sizeof(again), cerr,
		                     sizeof(cerr)) == 0);
		CHECK(strcmp(canon, again) == 0);
	}
	advantage(text, size);
	return 0;
}
