/* roll_table: ranged tables; see roll_table.h. */
#include "rules/tables/roll_table.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/base/num.h"
#include "rules/base/utf8.h"
#include "rules/tables/roll_table_dice.h"

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

/* Parses one entry "N text" or "N-M text" of len bytes. */
static int
entry(const char *s, size_t len, size_t idx, struct roll_table_entry *e, char *err, size_t errlen)
{
	const char *p = s, *end = s + len;
	char word[24];
	size_t tl;

	if (num_read(&p, &e->lo) < 0)
		goto badrange;
	e->hi = e->lo;
	if (p < end && (*p == '-' || *p == '.')) {
		while (p < end && (*p == '-' || *p == '.'))
			p++;
		if (num_read(&p, &e->hi) < 0)
			goto badrange;
	}
	if (p < end && !isspace((unsigned char)*p))
		goto badrange;
	if (e->hi < e->lo) {
		snprintf(err, errlen, "entry %zu: range %d-%d is reversed; write it low-high.", idx,
		         e->lo, e->hi);
		return -1;
	}
	while (p < end && isspace((unsigned char)*p))
		p++;
	tl = (size_t)(end - p);
	if (tl == 0) {
		snprintf(err, errlen, "entry %zu has a range but no text.", idx);
		return -1;
	}
	if (tl >= ROLL_TABLE_TEXT_MAX) {
		snprintf(err, errlen, "entry %zu is %zu bytes long; an entry may be at most %d.",
		         idx, tl, ROLL_TABLE_TEXT_MAX - 1);
		return -1;
	}
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
	{
		char why[160];

		if (roll_table_dice_check(p, tl, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "entry %zu: %s", idx, why);
			return -1;
		}
	}
	memcpy(e->text, p, tl);
	e->text[tl] = '\0';
	e->struck = false;
	return 0;
badrange:
	tl = len < 12 ? len : 12;
	memcpy(word, s, tl);
	word[tl] = '\0';
	snprintf(err, errlen,
	         "entry %zu: '%s' does not start with a range like 5 or 5-8 followed by text.", idx,
	         word);
	return -1;
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

int
roll_table_parse(const char *text, int lo, int hi, struct roll_table *out, char *err, size_t errlen)
{
	struct roll_table t;
	const char *s = text;
	int next = lo;

	memset(&t, 0, sizeof(t));
	t.lo = lo;
	t.hi = hi;
	while (*s != '\0') {
		size_t len = strcspn(s, ";\n");
		const char *e = s;
		size_t elen = len;

		s += len;
		if (*s != '\0')
			s++;
		trim(&e, &elen);
		if (elen == 0)
			continue;
		if (t.n == ROLL_TABLE_ENTRIES_MAX) {
			snprintf(err, errlen, "a table may have at most %d entries.",
			         ROLL_TABLE_ENTRIES_MAX);
			return -1;
		}
		if (entry(e, elen, t.n + 1, &t.e[t.n], err, errlen) < 0)
			return -1;
		if (t.e[t.n].lo < lo || t.e[t.n].hi > hi) {
			snprintf(err, errlen, "entry %zu: range %d-%d is outside %d-%d.", t.n + 1,
			         t.e[t.n].lo, t.e[t.n].hi, lo, hi);
			return -1;
		}
		if (t.e[t.n].lo < next) {
			snprintf(err, errlen,
			         "entry %zu: range %d-%d overlaps the entry before it.", t.n + 1,
			         t.e[t.n].lo, t.e[t.n].hi);
			return -1;
		}
		if (t.e[t.n].lo > next) {
			char what[40];

			span_text(next, t.e[t.n].lo - 1, what, sizeof(what));
			snprintf(err, errlen, "entry %zu: %s not covered by any entry.", t.n + 1,
			         what);
			return -1;
		}
		next = t.e[t.n].hi + 1;
		t.n++;
	}
	if (t.n == 0) {
		snprintf(err, errlen,
		         "the table is empty; give entries like '1-4 text; 5-8 text'.");
		return -1;
	}
	if (next <= hi) {
		char what[40];

		span_text(next, hi, what, sizeof(what));
		snprintf(err, errlen, "%s not covered; the entries must reach %d.", what, hi);
		return -1;
	}
	*out = t;
	return 0;
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
			return &t->e[i];
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

void
roll_table_range_text(const struct roll_table_entry *e, char *buf, size_t len)
{
	if (e->lo == e->hi)
		snprintf(buf, len, "%d", e->lo);
	else
		snprintf(buf, len, "%d-%d", e->lo, e->hi);
}

void
roll_table_format(const struct roll_table *t, struct buf *out)
{
	for (size_t i = 0; i < t->n; i++) {
		char r[16];

		roll_table_range_text(&t->e[i], r, sizeof(r));
		buf_addf(out, "%s%s %s", i ? "; " : "", r, t->e[i].text);
	}
}
