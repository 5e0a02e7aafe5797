/* roll_table: tables of entries over a die's results; see roll_table.h. */
#include "rules/tables/roll_table.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/base/num.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"
#include "rules/tables/roll_table_dice.h"
#include "rules/tables/roll_table_name.h"

/* The dice a ranged table's largest number may name. */
static const int dice[] = {4, 6, 8, 10, 12, 20, ROLL_TABLE_D66, 100};

/* A middle dot between spaces: IRC joins a reply's lines with it. */
#define DOT_SEP " \xc2\xb7 "

enum mode {
	SPAN, /* ranges over a span the caller gives */
	DIE,  /* ranges whose largest number names the die, or weights */
};

/* An entry as parsed, before the table is checked whole. */
struct raw {
	int lo, hi, weight;
	size_t idx;  /* its place as written, from 1 */
	bool zeroes; /* its hi was written "00" */
	char text[ROLL_TABLE_TEXT_MAX];
};

static void
trim(const char **s, size_t *len)
{
	while (*len > 0 && isspace((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* The length of a "[[name]]" at s (which starts with "[["), or 0 when the
 * brackets do not close on a name; the canonical name goes to canon. */
static size_t
ref_at(const char *s, size_t len, char *canon)
{
	size_t n = 2;

	while (n < len && n < 2 + 4 * ROLL_TABLE_NAME_MAX && s[n] != ']' && s[n] != '[' &&
	       !isspace((unsigned char)s[n]))
		n++;
	if (n + 1 >= len || s[n] != ']' || s[n + 1] != ']')
		return 0;
	if (roll_table_name(s + 2, n - 2, canon) < 0)
		return 0;
	return n + 2;
}

int
roll_table_each_ref(const char *text, int (*fn)(const char *name, void *ctx), void *ctx)
{
	size_t len = strlen(text);

	for (size_t i = 0; i + 1 < len; i++) {
		char name[ROLL_TABLE_NAME_MAX];
		size_t n;
		int rc;

		if (text[i] != '[' || text[i + 1] != '[' ||
		    (n = ref_at(text + i, len - i, name)) == 0)
			continue;
		if ((rc = fn(name, ctx)) != 0)
			return rc;
		i += n - 1;
	}
	return 0;
}

/*
 * Makes an entry's text what is kept: valid UTF-8 without controls, made
 * safe (textsafe), each [[reference]] naming a table by its canonical name,
 * at most ROLL_TABLE_TEXT_MAX - 1 bytes. A table being set (saved false)
 * also keeps the limits of what an entry may ask for: references that
 * name a table, at most ROLL_TABLE_REFS_MAX of them, dice that can be
 * rolled (roll_table_dice_check). Saved text is read without those, so
 * that an entry kept before a limit came still loads: a [[...]] that names
 * no table stays text, and the roll leaves what it cannot roll as written.
 */
static int
entry_text(const char *p, size_t tl, size_t idx, bool saved, char *out, char *err, size_t errlen)
{
	struct buf safe, b;
	int refs = 0, rc = -1;
	char why[160];

	for (size_t i = 0; i < tl; i++) {
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f) {
			snprintf(err, errlen, "entry %zu contains a control character.", idx);
			return -1;
		}
	}
	if (!utf8_valid(p, tl)) {
		snprintf(err, errlen, "entry %zu is not valid UTF-8 text.", idx);
		return -1;
	}
	buf_init(&safe, ROLL_TABLE_INPUT_MAX);
	buf_init(&b, ROLL_TABLE_INPUT_MAX);
	textsafe_clean(&safe, p, tl);
	while (safe.len > 0 && isspace((unsigned char)safe.p[safe.len - 1]))
		safe.p[--safe.len] = '\0';
	for (size_t i = 0; i < safe.len; i++) {
		if (b.len == 0 && isspace((unsigned char)safe.p[i]))
			continue;
		char name[ROLL_TABLE_NAME_MAX];
		size_t n;

		if (safe.p[i] != '[' || i + 1 >= safe.len || safe.p[i + 1] != '[') {
			buf_addc(&b, safe.p[i]);
			continue;
		}
		if ((n = ref_at(safe.p + i, safe.len - i, name)) == 0 && saved) {
			buf_addc(&b, safe.p[i]);
			continue;
		}
		if (n == 0) {
			snprintf(err, errlen,
			         "entry %zu: '%.*s' is not a reference to a table; write [[name]], "
			         "a name of letters, digits, - and _.",
			         idx, (int)utf8_cut(safe.p + i, safe.len - i, 40), safe.p + i);
			goto done;
		}
		if (++refs > ROLL_TABLE_REFS_MAX && !saved) {
			snprintf(err, errlen,
			         "entry %zu names more than %d tables; an entry may roll at "
			         "most %d.",
			         idx, ROLL_TABLE_REFS_MAX, ROLL_TABLE_REFS_MAX);
			goto done;
		}
		buf_addf(&b, "[[%s]]", name);
		i += n - 1;
	}
	if (b.len == 0) {
		snprintf(err, errlen, "entry %zu has a range but no text.", idx);
		goto done;
	}
	/* The entries were split where the text made safe shows " · " (split),
	 * so none holds one; but text that starts with "· " ("1-4:· a") is
	 * shown after "1-4: ", where the two read back as two entries: refused,
	 * so what /table show writes reads back as the same table. */
	if (!saved && strncmp(buf_str(&b), &DOT_SEP[1], 3) == 0) {
		snprintf(err, errlen,
		         "entry %zu starts with '\xc2\xb7' and a space, which would part it from "
		         "its range when the table is shown; leave out the space after the dot.",
		         idx);
		goto done;
	}
	if (b.len >= ROLL_TABLE_TEXT_MAX) {
		snprintf(err, errlen, "entry %zu is %zu bytes long; an entry may be at most %d.",
		         idx, b.len, ROLL_TABLE_TEXT_MAX - 1);
		goto done;
	}
	if (!saved && roll_table_dice_check(b.p, b.len, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "entry %zu: %s", idx, why);
		goto done;
	}
	memcpy(out, b.p, b.len + 1);
	rc = 0;
done:
	buf_free(&safe);
	buf_free(&b);
	return rc;
}

/* Reads a number of 1 to 3 digits at *p; *zeroes tells it was "00". */
static int
number(const char **p, const char *end, int *v, bool *zeroes)
{
	const char *start = *p;

	if (*p >= end || !isdigit((unsigned char)**p) || num_read(p, v) < 0)
		return -1;
	*zeroes = *p - start == 2 && *v == 0;
	return 0;
}

/* Skips a range's dash: '-', '.' (as in "5..8") or an en dash. */
static bool
dash(const char **p, const char *end)
{
	bool seen = false;

	for (;;) {
		if (*p < end && (**p == '-' || **p == '.')) {
			(*p)++;
		} else if (end - *p >= 3 && memcmp(*p, "\xe2\x80\x93", 3) == 0) {
			*p += 3;
		} else {
			return seen;
		}
		seen = true;
	}
}

/*
 * Reads the end of a range after its first number at *p: "-8" (or "..8",
 * "–8"). With spaced (a table being set, typed by hand), spaces may stand
 * around the dash ("5 - 8", "5- 8"); a dash after spaces with no number
 * after it is then the text's ("5 - a rat"). Returns 1 with *p past the
 * number, 0 when no range end follows (*p unchanged), or -1 when a dash
 * right after the number is followed by no number.
 */
static int
range_end(const char **p, const char *end, bool spaced, int *hi, bool *zeroes)
{
	const char *q = *p;
	bool apart;

	while (spaced && q < end && *q == ' ')
		q++;
	apart = q != *p;
	if (!dash(&q, end))
		return 0;
	while (spaced && q < end && *q == ' ')
		q++;
	if (number(&q, end, hi, zeroes) < 0)
		return apart ? 0 : -1;
	*p = q;
	return 1;
}

/* Says that entry idx (len bytes at s) does not start with a range,
 * quoting its start cut after a whole word when it is long. */
static void
not_a_range(const char *s, size_t len, size_t idx, char *err, size_t errlen)
{
	size_t q = utf8_cut_text(s, len, 24), w = q;
	bool cut = q < len;

	while (cut && w > 0 && s[w - 1] != ' ')
		w--;
	while (cut && w > 0 && s[w - 1] == ' ')
		w--;
	if (cut && w > 0)
		q = w;
	snprintf(err, errlen,
	         "entry %zu: '%.*s%s' does not start with a range like 5 or 5-8 followed by "
	         "text.",
	         idx, (int)q, s, cut ? "…" : "");
}

/* Parses one entry of len bytes: "N text", "N-M: text" or "3x text". A
 * table being set (saved false) may have spaces in its ranges and before
 * their colon ("1 - 3 : a"); saved text is read as it was written. */
static int
entry(const char *s, size_t len, size_t idx, bool saved, struct raw *e, char *err, size_t errlen)
{
	const char *p = s, *end = s + len;
	bool z = false;

	memset(e, 0, sizeof(*e));
	e->idx = idx;
	if (number(&p, end, &e->lo, &z) < 0)
		goto bad;
	if (p < end &&
	    (*p == 'x' || *p == 'X' || (end - p >= 2 && memcmp(p, "\xc3\x97", 2) == 0)) && !z) {
		/* "3x text", "3× text" */
		p += *p == 'x' || *p == 'X' ? 1 : 2;
		if (p < end && *p == ':')
			p++;
		if (p < end && !isspace((unsigned char)*p))
			goto bad;
		if (e->lo < 1 || e->lo > ROLL_TABLE_WEIGHT_MAX) {
			snprintf(err, errlen, "entry %zu: a weight must be from 1 to %d, not %d.",
			         idx, ROLL_TABLE_WEIGHT_MAX, e->lo);
			return -1;
		}
		e->weight = e->lo;
		e->lo = e->hi = 0;
	} else {
		/* "00" is 100, alone ("00: text") or at either end of a range */
		if (z && e->lo == 0)
			e->lo = 100;
		e->hi = e->lo;
		if (range_end(&p, end, !saved, &e->hi, &e->zeroes) < 0)
			goto bad;
		if (!saved) {
			const char *q = p;

			while (q < end && *q == ' ')
				q++;
			if (q < end && *q == ':')
				p = q;
		}
		if (p < end && *p == ':')
			p++; /* the text may follow the colon at once: "1-3:a" */
		else if (p < end && !isspace((unsigned char)*p))
			goto bad;
		if (e->zeroes)
			e->hi = 100;
		if (e->hi < e->lo) {
			snprintf(err, errlen,
			         "entry %zu: range %d-%d is reversed; write it low-high.", idx,
			         e->lo, e->hi);
			return -1;
		}
	}
	while (p < end && isspace((unsigned char)*p))
		p++;
	return entry_text(p, (size_t)(end - p), idx, saved, e->text, err, errlen);
bad:
	not_a_range(s, len, idx, err, errlen);
	return -1;
}

bool
roll_table_result_ok(const struct roll_table *t, int value)
{
	if (value < t->lo || value > t->hi)
		return false;
	return t->die != ROLL_TABLE_D66 || (value % 10 >= 1 && value % 10 <= 6);
}

/* The next result of t's die after v (d66: 16 is followed by 21). */
static int
next_result(const struct roll_table *t, int v)
{
	v++;
	while (v <= t->hi && !roll_table_result_ok(t, v))
		v++;
	return v;
}

/* "result 5 is" or "results 5-8 are", for coverage errors. */
static void
span_text(int lo, int hi, char *buf, size_t len)
{
	if (lo == hi)
		snprintf(buf, len, "result %d is", lo);
	else
		snprintf(buf, len, "results %d-%d are", lo, hi);
}

static int
by_lo(const void *a, const void *b)
{
	const struct raw *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The d66 endpoints of each entry are d66 results. */
static int
d66_ends(const struct roll_table *t, const struct raw *r, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		int bad = !roll_table_result_ok(t, r[i].lo) ? r[i].lo : r[i].hi;

		if (roll_table_result_ok(t, r[i].lo) && roll_table_result_ok(t, r[i].hi))
			continue;
		snprintf(err, errlen,
		         "entry %zu: %d is not a d66 result; a d66 reads two d6 as tens and units, "
		         "11 to 66.",
		         r[i].idx, bad);
		return -1;
	}
	return 0;
}

/* Sorts the ranged entries r and checks that they cover t's results
 * exactly once, naming the numbers of a gap or an overlap. Returns 0, -2
 * for a gap (entries added could fill it), -1 for any other fault. */
static int
cover(const struct roll_table *t, struct raw *r, size_t n, char *err, size_t errlen)
{
	int next = t->lo;
	char what[40];

	qsort(r, n, sizeof(*r), by_lo);
	for (size_t i = 0; i < n; i++) {
		if (r[i].lo < t->lo || r[i].hi > t->hi) {
			if (r[i].lo == r[i].hi)
				snprintf(err, errlen, "entry %zu: result %d is outside %d-%d.",
				         r[i].idx, r[i].lo, t->lo, t->hi);
			else
				snprintf(err, errlen, "entry %zu: range %d-%d is outside %d-%d.",
				         r[i].idx, r[i].lo, r[i].hi, t->lo, t->hi);
			return -1;
		}
	}
	if (t->die == ROLL_TABLE_D66 && d66_ends(t, r, n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && r[i].lo <= r[i - 1].hi) {
			int to = r[i].hi < r[i - 1].hi ? r[i].hi : r[i - 1].hi;

			span_text(r[i].lo, to, what, sizeof(what));
			snprintf(err, errlen,
			         "entry %zu: range %d-%d overlaps entry %zu (%d-%d): %s in both.",
			         r[i].idx, r[i].lo, r[i].hi, r[i - 1].idx, r[i - 1].lo, r[i - 1].hi,
			         what);
			return -1;
		}
		if (r[i].lo > next) {
			int last = next;

			while (next_result(t, last) < r[i].lo)
				last = next_result(t, last);
			span_text(next, last, what, sizeof(what));
			snprintf(err, errlen, "entry %zu: %s not covered by any entry.", r[i].idx,
			         what);
			return -2;
		}
		next = next_result(t, r[i].hi);
	}
	if (next <= t->hi) {
		span_text(next, t->hi, what, sizeof(what));
		snprintf(err, errlen, "%s not covered; the entries must reach %d.", what, t->hi);
		return -2;
	}
	return 0;
}

/* The die a ranged table's largest number names. Returns 0, -2 when none
 * does but a larger one would (an entry added could end at a die), -1 when
 * the number is past every die. */
static int
ranged_die(struct roll_table *t, const struct raw *r, size_t n, char *err, size_t errlen)
{
	int top = 0;

	for (size_t i = 0; i < n; i++)
		if (r[i].hi > top)
			top = r[i].hi;
	for (size_t i = 0; i < sizeof(dice) / sizeof(dice[0]); i++) {
		if (dice[i] == top) {
			t->die = top;
			t->lo = top == ROLL_TABLE_D66 ? 11 : 1;
			t->hi = top;
			return 0;
		}
	}
	snprintf(err, errlen,
	         "the highest result is %d, which no die gives: the ranges end at 4, 6, 8, 10, "
	         "12, 20, 66 (d66, numbered 11-66) or 100, or every entry is weighted (3x text).",
	         top);
	return top < dice[sizeof(dice) / sizeof(dice[0]) - 1] ? -2 : -1;
}

/*
 * Where the entries start after the heading /table show writes above them
 * ("Table loot: d6, 2 entries; struck: 3", on IRC in bold and followed by
 * " · "), so that what is shown is taken back whole; text itself when it
 * starts with no such heading. An entry starts with a digit, so the
 * heading is never an entry.
 */
static const char *
past_heading(const char *text)
{
	const char *p = text, *dot;
	size_t n;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\x02')
		p++;
	if (strncmp(p, "Table ", 6) != 0)
		return text;
	p += 6;
	n = strcspn(p, ": \n");
	if (n == 0 || p[n] != ':')
		return text;
	p += n + 1;
	if (strncmp(p, " d", 2) != 0 && strncmp(p, " weighted d", 11) != 0)
		return text;
	n = strcspn(p, "\n");
	dot = strstr(p, DOT_SEP);
	if (dot != NULL && (size_t)(dot - p) < n)
		return dot + strlen(DOT_SEP);
	return p + n;
}

/*
 * Appends text to out made safe as an entry's kept text is (textsafe), run
 * by run between the ASCII separators and controls, which are kept as they
 * are: ';' and line breaks part entries, and any other control is refused
 * in the entry that holds it. A run that is not valid UTF-8 is kept as it
 * is (its entry is refused). Nothing grows: out needs no more room than
 * text.
 */
static void
made_safe(const char *text, struct buf *out)
{
	const char *p = text;

	while (*p != '\0') {
		size_t n = 0;

		while (p[n] != '\0' && p[n] != ';' && (unsigned char)p[n] >= 0x20 && p[n] != 0x7f)
			n++;
		if (utf8_valid(p, n))
			textsafe_clean(out, p, n);
		else
			buf_add(out, p, n);
		p += n;
		if (*p != '\0')
			buf_addc(out, *p++);
	}
}

/*
 * Splits text into entries and parses each into r; *n gets how many. The
 * entries are found in the text made safe (made_safe), the text that is
 * kept and shown: what textsafe removes or turns into a space cannot hide
 * a " · " that parts entries, nor make one that the table shows but its
 * entries do not.
 */
static int
split(const char *text, enum mode m, bool saved, struct raw *r, size_t *n, char *err, size_t errlen)
{
	struct buf safe;
	const char *s;
	int rc = -1;

	*n = 0;
	if (strlen(text) > ROLL_TABLE_INPUT_MAX) {
		snprintf(err, errlen, "the table's text is %zu bytes long; at most %d are read.",
		         strlen(text), ROLL_TABLE_INPUT_MAX);
		return -1;
	}
	buf_init(&safe, ROLL_TABLE_INPUT_MAX + 1);
	made_safe(text, &safe);
	s = buf_str(&safe);
	if (m == DIE)
		s = past_heading(s);
	while (*s != '\0') {
		size_t len = strcspn(s, ";\n");
		const char *dot = strstr(s, DOT_SEP), *e = s;
		size_t elen;

		/* " · " parts entries too: the form IRC shows a table in (never
		 * saved so: saved text keeps a " · " an entry held before it did) */
		if (!saved && dot != NULL && (size_t)(dot - s) < len) {
			len = (size_t)(dot - s);
			elen = len;
			s += len + strlen(DOT_SEP);
		} else {
			elen = len;
			s += len;
			if (*s != '\0')
				s++;
		}
		trim(&e, &elen);
		if (elen == 0)
			continue;
		if (*n == ROLL_TABLE_ENTRIES_MAX) {
			snprintf(err, errlen, "a table may have at most %d entries.",
			         ROLL_TABLE_ENTRIES_MAX);
			goto done;
		}
		if (entry(e, elen, *n + 1, saved, &r[*n], err, errlen) < 0)
			goto done;
		(*n)++;
	}
	if (*n == 0) {
		snprintf(err, errlen,
		         "the table is empty; give entries like '1-4: text; 5-8: text'.");
		goto done;
	}
	rc = 0;
done:
	buf_free(&safe);
	return rc;
}

/* Whether the entries are all weighted or all ranged; refuses a mix. */
static int
one_form(const struct raw *r, size_t n, bool *weighted, char *err, size_t errlen)
{
	*weighted = r[0].weight > 0;
	for (size_t i = 1; i < n; i++) {
		if ((r[i].weight > 0) != *weighted) {
			snprintf(
			    err, errlen,
			    "entry %zu is %s but entry 1 is %s; write every entry with a range "
			    "(5-8: text) or every one with a weight (3x text).",
			    i + 1, r[i].weight > 0 ? "weighted" : "a range",
			    *weighted ? "weighted" : "a range");
			return -1;
		}
	}
	return 0;
}

static int
parse(const char *text, enum mode m, bool saved, int lo, int hi, struct roll_table *out, char *err,
      size_t errlen)
{
	/* On the stack (about 36 KB), not the heap: a channel's tables are
	 * loaded again at each command that reads its state, and two blocks
	 * of this size taken and zeroed each time cost more than the parse.
	 * entry() sets each r[i] it is given before anything reads it. */
	struct raw r[ROLL_TABLE_ENTRIES_MAX];
	struct roll_table table, *t = &table;
	size_t n;
	int rc = -1;

	memset(&table, 0, sizeof(table)); /* padding too: *out as calloc left it */
	if (split(text, m, saved, r, &n, err, errlen) < 0 ||
	    one_form(r, n, &t->weighted, err, errlen) < 0)
		goto done;
	if (t->weighted && m == SPAN) {
		snprintf(err, errlen,
		         "entry 1 is weighted; this table's entries are ranges over %d-%d.", lo,
		         hi);
		goto done;
	}
	if (t->weighted) {
		int sum = 0;

		for (size_t i = 0; i < n; i++) {
			r[i].lo = sum + 1;
			sum += r[i].weight;
			r[i].hi = sum;
		}
		t->lo = 1;
		t->hi = t->die = sum;
	} else if (m == SPAN) {
		t->lo = lo;
		t->hi = t->die = hi;
	} else if ((rc = ranged_die(t, r, n, err, errlen)) < 0) {
		goto done;
	}
	if (!t->weighted && (rc = cover(t, r, n, err, errlen)) < 0)
		goto done;
	t->n = n;
	for (size_t i = 0; i < n; i++) {
		t->e[i].lo = r[i].lo;
		t->e[i].hi = r[i].hi;
		t->e[i].weight = r[i].weight;
		memcpy(t->e[i].text, r[i].text, sizeof(t->e[i].text));
	}
	memcpy(out, t, sizeof(*t));
	rc = 0;
done:
	return rc;
}

int
roll_table_parse(const char *text, int lo, int hi, struct roll_table *out, char *err, size_t errlen)
{
	return parse(text, SPAN, false, lo, hi, out, err, errlen);
}

int
roll_table_parse_die(const char *text, struct roll_table *out, char *err, size_t errlen)
{
	return parse(text, DIE, false, 0, 0, out, err, errlen);
}

int
roll_table_load(const char *text, int lo, int hi, struct roll_table *out, char *err, size_t errlen)
{
	return parse(text, SPAN, true, lo, hi, out, err, errlen);
}

int
roll_table_load_die(const char *text, struct roll_table *out, char *err, size_t errlen)
{
	return parse(text, DIE, true, 0, 0, out, err, errlen);
}

const struct roll_table_entry *
roll_table_lookup(const struct roll_table *t, int value)
{
	if (t->n == 0)
		return NULL;
	if (value < t->lo)
		value = t->lo;
	if (value > t->hi)
		value = t->hi;
	for (size_t i = 0; i < t->n; i++)
		if (value >= t->e[i].lo && value <= t->e[i].hi)
			return roll_table_result_ok(t, value) ? &t->e[i] : NULL;
	return NULL;
}

int
roll_table_find(const struct roll_table *t, const char *what)
{
	const char *p = what;
	int lo, hi, found = -1;

	if (num_read(&p, &lo) == 0) {
		hi = lo;
		if (*p == '-') {
			p++;
			if (num_read(&p, &hi) < 0)
				hi = -1;
		}
		if (*p == '\0') {
			for (size_t i = 0; i < t->n; i++) {
				if (hi == lo && lo >= t->e[i].lo && lo <= t->e[i].hi)
					return (int)i;
				if (lo == t->e[i].lo && hi == t->e[i].hi)
					return (int)i;
			}
			return -1;
		}
	}
	for (size_t i = 0; i < t->n; i++)
		if (strcasecmp(t->e[i].text, what) == 0)
			return (int)i;
	for (size_t i = 0; i < t->n; i++) {
		if (strcasestr(t->e[i].text, what) != NULL) {
			if (found >= 0)
				return -2;
			found = (int)i;
		}
	}
	return found;
}

/* The range text of e at out (room for 2 * NUM_TEXT_MAX bytes); returns
 * its length. By hand: a saved table is written entry by entry, and
 * printf costs a thousand instructions an entry. */
static size_t
range_text(const struct roll_table_entry *e, char *out)
{
	size_t n;

	if (e->weight > 0) {
		n = num_text(e->weight, out);
		out[n++] = 'x';
		out[n] = '\0';
		return n;
	}
	n = num_text(e->lo, out);
	if (e->lo != e->hi) {
		out[n++] = '-';
		n += num_text(e->hi, out + n);
	}
	return n;
}

void
roll_table_range_text(const struct roll_table_entry *e, char *buf, size_t len)
{
	char r[2 * NUM_TEXT_MAX];
	size_t n = range_text(e, r);

	if (len == 0)
		return;
	if (n >= len)
		n = len - 1; /* cut as snprintf cuts */
	memcpy(buf, r, n);
	buf[n] = '\0';
}

void
roll_table_die_text(const struct roll_table *t, char *buf, size_t len)
{
	if (t->weighted)
		snprintf(buf, len, "weighted d%d", t->die);
	else
		snprintf(buf, len, "d%d", t->die);
}

void
roll_table_format(const struct roll_table *t, struct buf *out)
{
	for (size_t i = 0; i < t->n; i++) {
		char r[2 * NUM_TEXT_MAX];
		size_t n = range_text(&t->e[i], r);

		if (i > 0)
			buf_add(out, "; ", 2);
		buf_add(out, r, n);
		buf_addc(out, ' ');
		buf_adds(out, t->e[i].text);
	}
}

void
roll_table_write(const struct roll_table *t, struct buf *out)
{
	for (size_t i = 0; i < t->n; i++) {
		char r[16];

		roll_table_range_text(&t->e[i], r, sizeof(r));
		buf_addf(out, "%s%s%s %s", i ? "\n" : "", r, t->weighted ? "" : ":", t->e[i].text);
	}
}
