/* config_set: one value stored in its key; see config_set.h. */
#include "bot/config/config_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/config/config_int.h"
#include "bot/config/config_secret.h"
#include "bot/config/config_value.h"
#include "commands/core/reply.h"
#include "rules/base/mem.h"
#include "rules/base/textsafe.h"
#include "rules/base/utf8.h"

const char *
config__shown(const char *v, char *out, size_t outlen)
{
	char cut[SHOW_BYTES + 4];
	size_t n = strlen(v);

	if (!utf8_valid(v, n))
		return "bytes that are not UTF-8";
	if (n > SHOW_BYTES) {
		snprintf(cut, sizeof(cut), "%.*s...", (int)utf8_cut(v, n, SHOW_BYTES), v);
		v = cut;
		n = strlen(cut);
	}
	return textsafe_quoted(out, outlen, v, n, n);
}

/* "a, b or c" from a NULL-terminated list. */
static void
join_choices(const char *const *choices, char *out, size_t outlen)
{
	size_t n = 0, used = 0;

	while (choices[n] != NULL)
		n++;
	out[0] = '\0';
	for (size_t i = 0; i < n && used < outlen; i++) {
		int r = snprintf(out + used, outlen - used, "%s%s", reply_list_sep(i, n, " or "),
		                 choices[i]);

		if (r < 0)
			return;
		used += (size_t)r;
	}
}

static char **
str_at(void *base, const struct key *k)
{
	return (char **)((char *)base + k->off);
}

static void
set_str(void *base, const struct key *k, const char *v)
{
	char **dst = str_at(base, k);

	free(*dst);
	*dst = xstrdup(v);
}

static int
set_list(struct parser *p, void *base, const struct key *k, const char *v)
{
	char **items = str_at(base, k);
	size_t *count = (size_t *)((char *)base + k->count_off);
	char *copy = xmalloc(strlen(v) + 1), *words[CONFIG_CHANNELS_MAX + 1],
	     show[CONFIG_SHOWN_MAX];
	int n = config_value_split(v, copy, words, (size_t)k->max + 1);

	for (int i = 0; i < n; i++) {
		if (!k->valid(words[i])) {
			config__fail(p, p->line, "[%s] %s must be %s (got %s)", p->cur->name,
			             k->name, k->allowed,
			             config__shown(words[i], show, sizeof(show)));
			free(copy);
			return -1;
		}
	}
	if (n < 0 || *count + (size_t)n > (size_t)k->max) {
		config__fail(p, p->line, "[%s] %s may list at most %lld", p->cur->name, k->name,
		             k->max);
		free(copy);
		return -1;
	}
	for (int i = 0; i < n; i++)
		items[(*count)++] = xstrdup(words[i]);
	free(copy);
	return 0;
}

/* Whether name is among the n names (ASCII letters in any case). */
static bool
listed(char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(names[i], name) == 0)
			return true;
	return false;
}

/*
 * Channels: words "#name" or "#name:key" (':' cannot be part of a channel
 * name, RFC 2812 1.3). The names go to the list, the keys (or NULL) to the
 * parallel array at k->aux_off. A key is never quoted in a message.
 */
static int
set_channels(struct parser *p, void *base, const struct key *k, const char *v)
{
	char **names = str_at(base, k);
	char **keys = (char **)((char *)base + k->aux_off);
	size_t *count = (size_t *)((char *)base + k->count_off);
	char *copy = xmalloc(strlen(v) + 1), *words[CONFIG_CHANNELS_MAX + 1],
	     *key[CONFIG_CHANNELS_MAX + 1];
	char show[CONFIG_SHOWN_MAX];
	int n = config_value_split(v, copy, words, (size_t)k->max + 1), r = -1;

	for (int i = 0; i < n; i++) {
		char *colon = strchr(words[i], ':');

		key[i] = NULL;
		if (colon != NULL) {
			*colon = '\0';
			key[i] = colon + 1;
		}
		if (!k->valid(words[i])) {
			config__fail(p, p->line, "[%s] %s must be %s (got %s)", p->cur->name,
			             k->name, k->allowed,
			             config__shown(words[i], show, sizeof(show)));
			goto out;
		}
		if (key[i] != NULL && !config_value_chankey(key[i])) {
			config__fail(
			    p, p->line,
			    "[%s] %s: the key of %s must be 1 to %d printable ASCII characters "
			    "other "
			    "than ',' and ':' (the key is not shown)",
			    p->cur->name, k->name, words[i], CONFIG_CHANKEY_MAX);
			goto out;
		}
		if (listed(names, *count, words[i]) || listed(words, (size_t)i, words[i])) {
			config__fail(p, p->line, "[%s] %s lists %s twice", p->cur->name, k->name,
			             words[i]);
			goto out;
		}
	}
	if (n < 0 || *count + (size_t)n > (size_t)k->max) {
		config__fail(p, p->line, "[%s] %s may list at most %lld", p->cur->name, k->name,
		             k->max);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		keys[*count] = key[i] != NULL ? xstrdup(key[i]) : NULL;
		names[(*count)++] = xstrdup(words[i]);
	}
	r = 0;
out:
	explicit_bzero(copy, strlen(v) + 1); /* it held the keys */
	free(copy);
	return r;
}

/* Stores v in key k of the current section. Returns 0, or -1 after config__fail(). */
int
config_set_value(struct parser *p, const struct key *k, const char *v)
{
	void *base = p->cur->base;
	char what[160], show[CONFIG_SHOWN_MAX];
	long long i;
	bool b;
	int c;

	if ((k->flags & KEY_OPTIONAL) && *v == '\0' && k->type == KEY_RANGE) {
		*(int *)((char *)base + k->off) = -1;
		*(int *)((char *)base + k->aux_off) = -1;
		return 0;
	}
	if ((k->flags & KEY_OPTIONAL) && *v == '\0') {
		free(*str_at(base, k));
		*str_at(base, k) = NULL;
		return 0;
	}
	switch (k->type) {
	case KEY_STRING:
		if (!k->valid(v))
			break;
		set_str(base, k, v);
		return 0;
	case KEY_INT:
		if ((k->flags & KEY_AUTO) && strcmp(v, "auto") == 0) {
			*(int *)((char *)base + k->off) = 0;
			return 0;
		}
		if (config_value_int(v, k->min, k->max, &i) < 0) {
			config__fail(p, p->line, "[%s] %s must be %s from %lld to %lld (got %s)",
			             p->cur->name, k->name, k->allowed, k->min, k->max,
			             config__shown(v, show, sizeof(show)));
			return -1;
		}
		*(int *)((char *)base + k->off) = (int)i;
		return 0;
	case KEY_U64:
		if (config_value_u64(v, (uint64_t *)((char *)base + k->off)) < 0)
			break;
		return 0;
	case KEY_BOOL:
		if (config_value_bool(v, &b) < 0) {
			config__fail(p, p->line, "[%s] %s must be yes or no (got %s)", p->cur->name,
			             k->name, config__shown(v, show, sizeof(show)));
			return -1;
		}
		*(bool *)((char *)base + k->off) = b;
		return 0;
	case KEY_CHOICE:
		c = config_value_choice(v, k->choices);
		if (c < 0) {
			join_choices(k->choices, what, sizeof(what));
			config__fail(p, p->line, "[%s] %s must be %s (got %s)", p->cur->name,
			             k->name, what, config__shown(v, show, sizeof(show)));
			return -1;
		}
		*(int *)((char *)base + k->off) = c;
		return 0;
	case KEY_LIST:
		return set_list(p, base, k, v);
	case KEY_CHANNELS:
		return set_channels(p, base, k, v);
	case KEY_RANGE:
		if (config_value_range(v, k->min, k->max, (int *)((char *)base + k->off),
		                       (int *)((char *)base + k->aux_off)) < 0) {
			config__fail(p, p->line, "[%s] %s must be %s, from %lld to %lld (got %s)",
			             p->cur->name, k->name, k->allowed, k->min, k->max,
			             config__shown(v, show, sizeof(show)));
			return -1;
		}
		return 0;
	case KEY_SOURCE:
		/* Never quoted: a source that does not parse may be a secret. */
		if (config_secret_check(v, what, sizeof(what)) < 0) {
			config__fail(p, p->line, "[%s] %s %s", p->cur->name, k->name, what);
			return -1;
		}
		set_str(base, k, v);
		return 0;
	}
	if (k->flags & KEY_UNQUOTED)
		config__fail(p, p->line, "[%s] %s must be %s (the value is not shown)",
		             p->cur->name, k->name, k->allowed);
	else
		config__fail(p, p->line, "[%s] %s must be %s (got %s)", p->cur->name, k->name,
		             k->allowed, config__shown(v, show, sizeof(show)));
	return -1;
}
