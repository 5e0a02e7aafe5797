/*
 * config_keys: the table of every configuration key, for config.c.
 *
 * Each section kind ([bot], [discord], [irc.<network>], [console]) has an
 * array of struct key saying where a value goes in its struct (config.h),
 * its type and what it allows. Adding a key: a field in config.h, its
 * default in config_defaults() or config_irc_init(), one line in the
 * section's table in config_keys.c, and its documentation in
 * config/delver.conf.example (a unit test holds the example to the table).
 */
#ifndef DELVER_CONFIG_KEYS_H
#define DELVER_CONFIG_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#define CONFIG_KEYS_MAX       40 /* keys of one section kind */
#define CONFIG_SOURCE_ALLOWED "env:NAME, file:PATH or credential:NAME"

enum key_type {
	KEY_STRING, /* text accepted by .valid */
	KEY_INT,    /* from .min to .max, stored in an int */
	KEY_U64,
	KEY_BOOL,
	KEY_CHOICE,   /* one of .choices, stored as its index in an enum */
	KEY_LIST,     /* words accepted by .valid, at most .max in all */
	KEY_SOURCE,   /* a secret source (config_secret.h) */
	KEY_CHANNELS, /* IRC channels, each "#name" or "#name:key"; .count_off and
	                 .max as KEY_LIST, keys at .aux_off */
	KEY_RANGE,    /* "N" or "FIRST-LAST" from .min to .max: ints at .off and
	                 .aux_off; with KEY_OPTIONAL an empty value stores -1, -1 */
};

#define KEY_REQUIRED 0x1u /* a section without it is an error */
#define KEY_OPTIONAL 0x2u /* an empty value leaves it unset (NULL) */
#define KEY_UNQUOTED 0x4u /* a bad value is never quoted (it may hold a secret) */
#define KEY_AUTO     0x8u /* KEY_INT: "auto" is allowed too, stored as 0 */

struct key {
	const char *name;
	enum key_type type;
	size_t off;          /* of the value in the section's struct */
	size_t count_off;    /* KEY_LIST: of its size_t count */
	size_t aux_off;      /* KEY_CHANNELS: of the parallel array of keys */
	long long min, max;  /* KEY_INT bounds; KEY_LIST: max items */
	const char *allowed; /* what is allowed, to end "must be ..." */
	bool (*valid)(const char *);
	const char *const *choices; /* KEY_CHOICE, NULL-terminated */
	unsigned flags;
};

struct section_kind {
	const char *name; /* "bot", "discord", "irc", "store", "console" */
	const struct key *keys;
	size_t nkeys;
};

enum {
	KIND_BOT,
	KIND_DISCORD,
	KIND_IRC,
	KIND_STORE,
	KIND_CONSOLE,
	KIND_COUNT
};

extern const struct section_kind config_kinds[KIND_COUNT];

/* The index of the key named name in kind, or -1. */
int config_keys_find(const struct section_kind *kind, const char *name);

/* Calls fn for every key the parser knows, section by section ("bot",
 * "discord", "irc" for [irc.<network>], "store", "console"), in the order of the
 * example file: the parser's own table, so tests can hold the
 * documentation to it. */
void config_keys_each(void (*fn)(const char *section, const char *key, void *ctx), void *ctx);

#endif
