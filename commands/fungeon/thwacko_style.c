/* thwacko_style: Thwack-O styles, defaults and validation; see
 * thwacko_style.h. */
#include "commands/fungeon/thwacko_style.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <utf8proc.h>

#include "rules/base/utf8.h"

const char *const thwacko_style_marks[THWACKO_STYLE_NMARKS] = {"◆", "●", "▲", "■",
                                                               "★", "✚", "♣", "♥"};

const char *const thwacko_style_colour_names[] = {"gray", "red",  "green", "yellow", "blue",
                                                  "pink", "cyan", "white", NULL};

/* The order defaults walk: every colour but gray, then gray. */
static const enum ucolour walk[UC_COUNT] = {UC_RED,  UC_GREEN, UC_YELLOW, UC_BLUE,
                                            UC_PINK, UC_CYAN,  UC_WHITE,  UC_GRAY};

const char *
thwacko_style_colour_name(enum ucolour c)
{
	return (int)c >= 0 && c < UC_COUNT ? thwacko_style_colour_names[c] : "gray";
}

int
thwacko_style_colour_parse(const char *name)
{
	for (int i = 0; i < UC_COUNT; i++)
		if (strcasecmp(name, thwacko_style_colour_names[i]) == 0)
			return i;
	if (strcasecmp(name, "grey") == 0)
		return UC_GRAY;
	return -1;
}

/* FNV-1a: stable across runs and platforms. */
static uint64_t
hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int
mark_index(const char *mark)
{
	for (int i = 0; i < THWACKO_STYLE_NMARKS; i++)
		if (strcmp(mark, thwacko_style_marks[i]) == 0)
			return i;
	return -1;
}

void
thwacko_style_default(const char *user_key, struct thwacko_style *out)
{
	uint64_t h = hash(user_key);

	memset(out, 0, sizeof(*out));
	out->colour = walk[h % (UC_COUNT - 1)];
	snprintf(out->mark, sizeof(out->mark), "%s",
	         thwacko_style_marks[(h >> 32) % THWACKO_STYLE_NMARKS]);
}

void
thwacko_style_distinct(const char *user_key, const struct thwacko_style *taken, int n,
                       struct thwacko_style *out)
{
	bool used_c[UC_COUNT] = {false}, used_m[THWACKO_STYLE_NMARKS] = {false};
	uint64_t h = hash(user_key);
	int c0 = (int)(h % (UC_COUNT - 1)), m0 = (int)((h >> 32) % THWACKO_STYLE_NMARKS);

	for (int i = 0; i < n; i++) {
		if ((int)taken[i].colour >= 0 && taken[i].colour < UC_COUNT)
			used_c[taken[i].colour] = true;
		if (mark_index(taken[i].mark) >= 0)
			used_m[mark_index(taken[i].mark)] = true;
	}
	thwacko_style_default(user_key, out);
	for (int k = 0; k < UC_COUNT; k++) {
		/* the 7 colours from the hashed one, gray last */
		enum ucolour c = k < UC_COUNT - 1 ? walk[(c0 + k) % (UC_COUNT - 1)] : UC_GRAY;

		if (!used_c[c]) {
			out->colour = c;
			break;
		}
	}
	for (int k = 0; k < THWACKO_STYLE_NMARKS; k++) {
		int m = (m0 + k) % THWACKO_STYLE_NMARKS;

		if (!used_m[m]) {
			snprintf(out->mark, sizeof(out->mark), "%s", thwacko_style_marks[m]);
			break;
		}
	}
}

void
thwacko_style_party(const char *const *keys, const struct thwacko_style *const *chosen, int n,
                    struct thwacko_style *out)
{
	struct thwacko_style taken[2 * THWACKO_STYLE_PARTY_MAX];
	int nt = 0;

	if (n > THWACKO_STYLE_PARTY_MAX)
		n = THWACKO_STYLE_PARTY_MAX;
	for (int i = 0; i < n; i++)
		if (chosen[i] != NULL)
			taken[nt++] = *chosen[i];
	for (int i = 0; i < n; i++) {
		if (chosen[i] != NULL) {
			out[i] = *chosen[i];
			continue;
		}
		thwacko_style_distinct(keys[i], taken, nt, &out[i]);
		taken[nt++] = out[i];
	}
}

/* Spaces, controls and characters that draw nothing on their own. */
static bool
invisible(uint32_t cp)
{
	return cp <= 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0xAD || cp == 0x1680 ||
	       (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) ||
	       (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0xFEFF;
}

static const char mark_rule[] =
    "a mark is 1 or 2 symbols or emoji, or up to 4 letters (of any alphabet)";

int
thwacko_style_mark_check(const char *mark, char *err, size_t errlen)
{
	size_t len = strlen(mark), ncp = 0, letters = 0;
	bool word = true, after_letter = false;

	if (len == 0 || !utf8_valid(mark, len)) {
		snprintf(err, errlen,
		         "A mark is 1 or 2 symbols or emoji, or up to 4 letters (of "
		         "any alphabet).");
		return -1;
	}
	for (size_t i = 0, n; i < len; i += n) {
		uint32_t cp = 0;

		n = utf8_decode(mark + i, len - i, &cp);
		if (invisible(cp)) {
			snprintf(err, errlen,
			         "A mark may not contain spaces or invisible characters; pick 1 or "
			         "2 symbols or emoji, or up to 4 letters.");
			return -1;
		}
		ncp++;
		if (after_letter && utf8_is_accent(cp))
			continue;
		/* ASCII's visible characters count as letters too */
		after_letter = cp < 0x80 || utf8_is_letter(cp);
		if (after_letter)
			letters++;
		else
			word = false;
	}
	if (word ? letters > 4 : ncp > 2) {
		snprintf(err, errlen, "'%s' is too long: %s.", mark, mark_rule);
		return -1;
	}
	if (len >= THWACKO_STYLE_MARK_MAX) {
		snprintf(err, errlen, "'%s' is too long: a mark is at most %d bytes.", mark,
		         THWACKO_STYLE_MARK_MAX - 1);
		return -1;
	}
	return 0;
}

int
thwacko_style_mark_reads(const char *mark, char *err, size_t errlen)
{
	for (const char *p = mark; *p != '\0';) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)p, -1, &cp);
		utf8proc_category_t cat;

		if (k <= 0)
			break;
		cat = utf8proc_category(cp);
		if (cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL ||
		    cat == UTF8PROC_CATEGORY_NO || (cp < 0x80 && strchr("+-.,~*_`|\\", (int)cp))) {
			snprintf(
			    err, errlen,
			    "A mark may not hold digits, number signs (+ - . ,) or the "
			    "formatting characters ~ * _ ` | \\, which would read as part of the "
			    "die; pick 1 or 2 symbols or emoji, or up to 4 letters.");
			return -1;
		}
		p += k;
	}
	return 0;
}
