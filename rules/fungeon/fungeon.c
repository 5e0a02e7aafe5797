/* fungeon: Fungeoneers, party math, XP and hits; see fungeon.h. */
#include "rules/fungeon/fungeon.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules/base/mem.h"
#include "rules/base/num.h"
#include "rules/base/utf8.h"

#include <utf8proc.h>

static const int64_t xp_table[] = {0, 10, 40, 80, 160, 320, 640, 1280, 2560, 5120};

int
fungeon_class_bonus(int level)
{
	return level / 2;
}

int
fungeon_max_hits(int level)
{
	return 5 * level;
}

/* Party Min/Max/Total over the living of m[0..n), those waiting to join
 * (fresh) only when fresh_too. */
static void
party_of(const struct fungeon_member *m, int n, bool fresh_too, struct fungeon_party *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < n; i++) {
		if (m[i].dead || (m[i].fresh && !fresh_too))
			continue;
		if (out->n == 0 || m[i].level < out->min)
			out->min = m[i].level;
		if (out->n == 0 || m[i].level > out->max)
			out->max = m[i].level;
		out->total += m[i].level;
		out->n++;
	}
}

void
fungeon_party_math(const struct fungeon_member *m, int n, struct fungeon_party *out)
{
	party_of(m, n, true, out);
}

void
fungeon_party_in_play(const struct fungeon_member *m, int n, struct fungeon_party *out)
{
	party_of(m, n, false, out);
}

int
fungeon_floor(int floor_set, const struct fungeon_party *p)
{
	if (floor_set > 0)
		return floor_set;
	return p->min > 0 ? p->min : 1;
}

void
fungeon_budgets(const struct fungeon_party *p, int floor, struct fungeon_budgets *out)
{
	out->traps = (int64_t)p->max + floor;
	out->monsters = (int64_t)p->total + floor;
	out->treasure = (int64_t)p->min + floor;
}

int
fungeon_replacement_level(int floor)
{
	int l = floor - 1;

	if (l < FUNGEON_LEVEL_MIN)
		l = FUNGEON_LEVEL_MIN;
	if (l > FUNGEON_LEVEL_MAX)
		l = FUNGEON_LEVEL_MAX;
	return l;
}

/* Whether s reads as a number in the digits 0 to 9 ("2.5", "-1", "3,"). */
static bool
looks_numeric(const char *s)
{
	bool digit = false;

	if (*s == '+' || *s == '-')
		s++;
	for (; *s; s++) {
		if (isdigit((unsigned char)*s))
			digit = true;
		else if (*s != '.' && *s != ',')
			return false;
	}
	return digit;
}

/* Whether cp is one of the CJK numerals, which Unicode files as letters
 * (三 is "Lo"): 零 一 二 三 四 五 六 七 八 九 十 百 千 and 两 兩 (〇 is a
 * numeral to Unicode already). */
static bool
cjk_numeral(uint32_t cp)
{
	static const uint32_t cjk[] = {0x96F6, 0x4E00, 0x4E8C, 0x4E09, 0x56DB,
	                               0x4E94, 0x516D, 0x4E03, 0x516B, 0x4E5D,
	                               0x5341, 0x767E, 0x5343, 0x4E24, 0x5169};

	for (size_t i = 0; i < sizeof(cjk) / sizeof(cjk[0]); i++)
		if (cp == cjk[i])
			return true;
	return false;
}

/* Whether cp is a numeral of any kind: a decimal digit of any script, a
 * letter-like numeral ("Ⅲ"), another number sign ("³", "③", "½") or a
 * CJK numeral ("三"). */
static bool
is_numeral(uint32_t cp)
{
	utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)cp);

	return cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL ||
	       cat == UTF8PROC_CATEGORY_NO || cjk_numeral(cp);
}

/* Whether s is made of numerals (is_numeral()) at least one of which is
 * not one of the digits 0 to 9. */
static bool
other_digits(const char *s)
{
	size_t len = strlen(s);
	bool other = false;

	while (len > 0) {
		uint32_t cp;
		size_t k = utf8_decode(s, len, &cp);

		if (k == 0 || !is_numeral(cp))
			return false;
		other |= cp > 0x7f;
		s += k;
		len -= k;
	}
	return other;
}

/* The number 2..39 that s writes as a Roman numeral, or -1: one of the
 * characters Ⅰ..Ⅻ or ⅰ..ⅻ (U+2160.., U+2170..) alone (1..12), or two
 * letters or more of I, V and X in the strict order of the numerals, case
 * folded ("III", "xiv"; a letter alone, "x", is a word too). */
static int
roman(const char *s)
{
	static const char *const ones[] = {"",  "i",  "ii",  "iii",  "iv",
	                                   "v", "vi", "vii", "viii", "ix"};
	static const char *const tens[] = {"", "x", "xx", "xxx"};
	size_t len = strlen(s);
	uint32_t cp;
	char w[16];

	if (len > 0 && utf8_decode(s, len, &cp) == len) {
		if (cp >= 0x2160 && cp <= 0x216B)
			return (int)(cp - 0x2160 + 1);
		if (cp >= 0x2170 && cp <= 0x217B)
			return (int)(cp - 0x2170 + 1);
	}
	if (len < 2 || len >= sizeof(w))
		return -1;
	for (int n = 1; n < 40; n++) {
		snprintf(w, sizeof(w), "%s%s", tens[n / 10], ones[n % 10]);
		if (utf8_casecmp(s, w) == 0)
			return n;
	}
	return -1;
}

/* Whether s is a level's label (L, Lv, Lvl, Level, case folded) with, after
 * it and perhaps one of . - _, a number in decimal digits of any script,
 * or (all but L) with nothing after it. Sets *n to the number, or to -1
 * when there is none or it is not in the digits 0 to 9. */
static bool
labelled(const char *s, int *n)
{
	static const char *const labels[] = {"level", "lvl", "lv", "l"};

	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		size_t k = strlen(labels[i]);
		const char *p = s + k;
		bool ascii = true;
		int v = 0;

		if (strncasecmp(s, labels[i], k) != 0)
			continue;
		if (*p == '.' || *p == '-' || *p == '_')
			p++;
		if (*p == '\0' && k > 1) {
			*n = -1;
			return true;
		}
		if (*p == '\0')
			return false;
		for (size_t len = strlen(p); len > 0;) {
			uint32_t cp;
			size_t d = utf8_decode(p, len, &cp);

			if (d == 0 ||
			    utf8proc_category((utf8proc_int32_t)cp) != UTF8PROC_CATEGORY_ND)
				return false;
			ascii &= cp <= 0x7f;
			if (ascii && v <= FUNGEON_LEVEL_MAX)
				v = v * 10 + (int)(cp - '0');
			p += d;
			len -= d;
		}
		*n = ascii ? v : -1;
		return true;
	}
	return false;
}

/* Whether s is numerals (is_numeral()) with a CJK level's label before
 * or after them: 第 (the ordinal, "第三"), 級 级 等級 等级 after ("三級",
 * "3级"), レベル 等級 等级 before or after ("レベル3"). Sets *n to the
 * number when written in the digits 0 to 9, else to -1. */
static bool
cjk_labelled(const char *s, int *n)
{
	static const char *const before[] = {"第", "レベル", "等級", "等级"};
	static const char *const after[] = {"級", "级", "レベル", "等級", "等级"};
	size_t len = strlen(s), from = 0;
	bool label = false;
	char body[64];

	for (size_t i = 0; i < sizeof(before) / sizeof(before[0]) && !label; i++) {
		size_t k = strlen(before[i]);

		if (len > k && strncmp(s, before[i], k) == 0) {
			from = k;
			label = true;
		}
	}
	for (size_t i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
		size_t k = strlen(after[i]);

		if (len >= from + k + 1 && strcmp(s + len - k, after[i]) == 0) {
			len -= k;
			label = true;
			break;
		}
	}
	if (!label || len <= from || len - from >= sizeof(body))
		return false;
	memcpy(body, s + from, len - from);
	body[len - from] = '\0';
	for (size_t rest = strlen(body), at = 0; rest > 0;) {
		uint32_t cp;
		size_t k = utf8_decode(body + at, rest, &cp);

		if (k == 0 || !is_numeral(cp))
			return false;
		at += k;
		rest -= k;
	}
	*n = -1;
	if (looks_numeric(body) && strlen(body) <= 2 && isdigit((unsigned char)body[0]) &&
	    isdigit((unsigned char)body[strlen(body) - 1]))
		*n = atoi(body);
	return true;
}

bool
fungeon_level_label(const char *s)
{
	static const char *const labels[] = {"level", "lvl", "lv"};
	static const char *const cjk[] = {"レベル", "等級", "等级"};

	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		size_t k = strlen(labels[i]);

		if (strncasecmp(s, labels[i], k) == 0 &&
		    (s[k] == '\0' || (strchr(".-_", s[k]) != NULL && s[k + 1] == '\0')))
			return true;
	}
	for (size_t i = 0; i < sizeof(cjk) / sizeof(cjk[0]); i++)
		if (strcmp(s, cjk[i]) == 0)
			return true;
	return false;
}

enum fungeon_level_form
fungeon_level_typed(const char *s, int *level)
{
	enum fungeon_level_form form = FUNGEON_LEVEL_NONE;
	int n = num_word(s, true);

	if (n >= 0) {
		form = FUNGEON_LEVEL_WORDS;
	} else if (looks_numeric(s)) {
		form = FUNGEON_LEVEL_DIGITS;
		n = 0;
		for (const char *p = s; *p != '\0'; p++) {
			if (!isdigit((unsigned char)*p) || n > FUNGEON_LEVEL_MAX) {
				n = -1;
				break;
			}
			n = n * 10 + (*p - '0');
		}
	} else if ((n = roman(s)) > 0) {
		form = FUNGEON_LEVEL_ROMAN;
	} else if (labelled(s, &n) || cjk_labelled(s, &n)) {
		form = FUNGEON_LEVEL_LABELLED;
	} else if (fungeon_level_label(s)) {
		form = FUNGEON_LEVEL_LABELLED;
		n = -1;
	} else if (other_digits(s)) {
		form = FUNGEON_LEVEL_OTHER_DIGITS;
		n = -1;
	}
	*level = n >= FUNGEON_LEVEL_MIN && n <= FUNGEON_LEVEL_MAX ? n : -1;
	return form;
}

int64_t
fungeon_xp_needed(enum fungeon_xp_rule rule, int level)
{
	if (level <= 1)
		return 0;
	if (level > FUNGEON_LEVEL_MAX)
		return -1;
	if (rule == FUNGEON_XP_FORMULA)
		return (int64_t)10 << (level - 2); /* 10 x 2^(previous level - 1) */
	if (level <= 10)
		return xp_table[level - 1];
	return (int64_t)10 << (level - 1); /* the table continued */
}

int
fungeon_level_for_xp(enum fungeon_xp_rule rule, int64_t xp)
{
	int level = FUNGEON_LEVEL_MIN;

	while (level < FUNGEON_LEVEL_MAX && xp >= fungeon_xp_needed(rule, level + 1))
		level++;
	return level;
}

static void
copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

void
fungeon_member_init(struct fungeon_member *m, const char *user_key, const char *player,
                    const char *name, const char *cls, int level)
{
	memset(m, 0, sizeof(*m));
	copy(m->user_key, sizeof(m->user_key), user_key);
	copy(m->player, sizeof(m->player), player);
	copy(m->name, sizeof(m->name), name);
	copy(m->cls, sizeof(m->cls), cls);
	m->level = level;
	m->hits = fungeon_max_hits(level);
	m->xp = 0; /* whatever its level: "None of us have any" */
}

bool
fungeon_level_up(struct fungeon_member *m, enum fungeon_xp_rule rule, struct fungeon_levelup *up)
{
	int to = fungeon_level_for_xp(rule, m->xp);
	struct fungeon_levelup u;

	if (m->dead || to <= m->level)
		return false;
	u.from = m->level;
	u.to = to;
	u.hits_before = m->hits;
	u.max_before = fungeon_max_hits(m->level);
	u.bonus_before = fungeon_class_bonus(m->level);
	m->level = to;
	m->hits += 5 * (to - u.from);
	if (m->hits > fungeon_max_hits(to))
		m->hits = fungeon_max_hits(to);
	u.hits_after = m->hits;
	u.max_after = fungeon_max_hits(to);
	u.bonus_after = fungeon_class_bonus(to);
	if (up != NULL)
		*up = u;
	return true;
}

int
fungeon_add_wanderer(struct fungeon_member *m, int64_t points)
{
	if (m->nwander == FUNGEON_WANDERERS_MAX)
		return -1;
	m->wanderer[m->nwander++] = points;
	return 0;
}

void
fungeon_wanderer_remove(struct fungeon_member *m, int i)
{
	if (i < 0 || i >= m->nwander)
		return;
	memmove(&m->wanderer[i], &m->wanderer[i + 1],
	        (size_t)(m->nwander - i - 1) * sizeof(m->wanderer[0]));
	m->nwander--;
}

int
fungeon_plunder(struct fungeon_member *from, int i, struct fungeon_member *to)
{
	struct fungeon_item *it;

	if (!from->dead || to->dead || i < 0 || i >= from->nitems)
		return -1;
	it = fungeon_item_add(to);
	if (it == NULL)
		return -1;
	*it = from->items[i];
	fungeon_item_remove(from, i);
	return 0;
}

int
fungeon_item_find(const struct fungeon_member *m, const char *name)
{
	for (int i = 0; i < m->nitems; i++)
		if (utf8_casecmp(m->items[i].name, name) == 0)
			return i;
	return -1;
}

void
fungeon_numbered_name(const char *base, int k, char *out)
{
	char num[12];
	int nl = snprintf(num, sizeof(num), "%d", k);
	size_t keep = strlen(base), chars = utf8_len(base);

	while (keep > 0 &&
	       (chars + (size_t)nl > FUNGEON_NAME_CHARS || keep + (size_t)nl > FUNGEON_NAME_MAX)) {
		keep = utf8_cut(base, keep, keep - 1); /* one character less */
		chars--;
	}
	snprintf(out, FUNGEON_NAME_MAX + 1, "%.*s%s", (int)keep, base, num);
}

int64_t
fungeon_sell(struct fungeon_member *m, int64_t cost)
{
	int64_t got;

	if (cost < 0 || cost > FUNGEON_POINTS_MAX * 2 || m->sold > FUNGEON_SOLD_MAX - cost)
		return -1;
	got = fungeon_sale_gain(m, cost);
	if (m->credit + got > FUNGEON_POINTS_MAX)
		return -1;
	m->sold += cost;
	m->credit += got;
	return got;
}

int64_t
fungeon_sale_gain(const struct fungeon_member *m, int64_t cost)
{
	return fungeon_cost_sell_credit(m->sold + cost) - fungeon_cost_sell_credit(m->sold);
}

void
fungeon_town_leave(struct fungeon_member *m, int n)
{
	for (int i = 0; i < n; i++)
		m[i].sold = 0;
}

int
fungeon_magic_cure(struct fungeon_member *m)
{
	int n = 0;

	for (int i = 0; i < m->neffects;) {
		if (m->effects[i].kind == FUNGEON_EFFECT_DAMAGE) {
			fungeon_effect_remove(m, i);
			n++;
			continue;
		}
		i++;
	}
	return n;
}

bool
fungeon_damage(struct fungeon_member *m, int n)
{
	if (m->dead || n <= 0)
		return false;
	m->hits = n >= m->hits ? 0 : m->hits - n;
	if (m->hits == 0) {
		m->dead = true;
		free(m->effects);
		m->effects = NULL;
		m->neffects = 0;
		return true;
	}
	return false;
}

int
fungeon_heal(struct fungeon_member *m, int n)
{
	int before = m->hits;

	if (m->dead || n <= 0)
		return 0;
	m->hits =
	    n >= fungeon_max_hits(m->level) - m->hits ? fungeon_max_hits(m->level) : m->hits + n;
	return m->hits - before;
}

int
fungeon_heal_new_session(struct fungeon_member *m)
{
	return fungeon_heal(m, fungeon_max_hits(m->level));
}

int
fungeon_add_xp(struct fungeon_member *m, int64_t n)
{
	if (n <= 0)
		return 0;
	if (m->xp > FUNGEON_XP_MAX - n) {
		m->xp = FUNGEON_XP_MAX;
		return -1;
	}
	m->xp += n;
	return 0;
}

bool
fungeon_item_matches(const struct fungeon_design *item, const char *type)
{
	if (item->kind != FUNGEON_TREASURE || !item->fancy)
		return false;
	if (item->universal)
		return true;
	return item->type[0] != '\0' && type[0] != '\0' && utf8_casecmp(item->type, type) == 0;
}

bool
fungeon_class_fits(const struct fungeon_member *m, const char *type)
{
	return m->ctype[0] != '\0' && type[0] != '\0' && utf8_casecmp(m->ctype, type) == 0;
}

bool
fungeon_has_type(const struct fungeon_member *m, const char *type)
{
	if (fungeon_class_fits(m, type))
		return true;
	for (int i = 0; i < m->nitems; i++) {
		const struct fungeon_design *d = &m->items[i].d;

		if ((d->annoy > 0 || d->pain > 0) && fungeon_item_matches(d, type))
			return true;
	}
	return false;
}

static int
magic_dice(const struct fungeon_member *m, const char *type, bool pain)
{
	int n = 0;

	for (int i = 0; i < m->nitems; i++)
		if (fungeon_item_matches(&m->items[i].d, type))
			n += pain ? m->items[i].d.pain : m->items[i].d.annoy;
	return n;
}

int
fungeon_annoy_dice(const struct fungeon_member *m, bool bonus, const char *type, bool universal,
                   int *magic)
{
	int mg = universal ? 0 : magic_dice(m, type, false);

	if (magic != NULL)
		*magic = mg;
	return m->level + (bonus && !universal ? fungeon_class_bonus(m->level) : 0) + mg;
}

int
fungeon_pain_dice(const struct fungeon_member *m, bool bonus, const char *type, bool universal,
                  int *magic)
{
	int mg = universal ? 0 : magic_dice(m, type, true);

	if (magic != NULL)
		*magic = mg;
	return m->level + (bonus && !universal ? fungeon_class_bonus(m->level) : 0) + mg;
}

int
fungeon_effect_add(struct fungeon_member *m, const struct fungeon_effect *e)
{
	for (int i = 0; i < m->neffects; i++) {
		if (m->effects[i].kind == e->kind && strcmp(m->effects[i].source, e->source) == 0) {
			m->effects[i] = *e;
			return 0;
		}
	}
	if (m->neffects == FUNGEON_EFFECTS_MAX)
		return -1;
	m->effects = fungeon_array_grow(m->effects, m->neffects, sizeof(*m->effects));
	m->effects[m->neffects++] = *e;
	return 0;
}

void
fungeon_effect_remove(struct fungeon_member *m, int i)
{
	if (i < 0 || i >= m->neffects)
		return;
	m->effects = fungeon_array_drop(m->effects, m->neffects, i, sizeof(*m->effects));
	m->neffects--;
}

void *
fungeon_array_grow(void *p, int n, size_t size)
{
	unsigned char *a = xrealloc(p, (size_t)(n + 1) * size);

	memset(a + (size_t)n * size, 0, size);
	return a;
}

void *
fungeon_array_drop(void *p, int n, int i, size_t size)
{
	unsigned char *a = p;

	if (n <= 1) {
		free(p);
		return NULL;
	}
	memmove(a + (size_t)i * size, a + (size_t)(i + 1) * size, (size_t)(n - i - 1) * size);
	return xrealloc(a, (size_t)(n - 1) * size);
}

void
fungeon_member_free(struct fungeon_member *m)
{
	free(m->items);
	free(m->effects);
	m->items = NULL;
	m->effects = NULL;
	m->nitems = m->neffects = 0;
}

struct fungeon_item *
fungeon_item_add(struct fungeon_member *m)
{
	if (m->nitems >= FUNGEON_ITEMS_MAX)
		return NULL;
	m->items = fungeon_array_grow(m->items, m->nitems, sizeof(*m->items));
	return &m->items[m->nitems++];
}

void
fungeon_item_remove(struct fungeon_member *m, int i)
{
	if (i < 0 || i >= m->nitems)
		return;
	m->items = fungeon_array_drop(m->items, m->nitems, i, sizeof(*m->items));
	m->nitems--;
}
