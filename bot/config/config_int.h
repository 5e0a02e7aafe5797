/*
 * config_int: the parser's state, shared by config.c (the file read, its
 * sections and keys, the checks after) and config_set.c (one value stored
 * in its key). Nothing else includes it.
 */
#ifndef DELVER_CONFIG_INT_H
#define DELVER_CONFIG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bot/config/config.h"
#include "bot/config/config_keys.h"

#define SECTS_MAX (4 + CONFIG_IRC_MAX)

/* One section of the file being read. */
struct sect {
	const struct section_kind *kind;
	void *base;    /* the struct its keys fill */
	char name[64]; /* as written, without brackets: "bot", "irc.libera" */
	int line;      /* of its header */
	int key_line[CONFIG_KEYS_MAX];
};

struct parser {
	struct config *c;
	FILE *f;
	const char *name; /* the file, in messages */
	int line;         /* the line last read */
	bool have_key;    /* a key was read in the current section */
	bool continued;   /* the line continues that key's value (it is indented) */
	struct sect sects[SECTS_MAX];
	size_t nsects;
	struct sect *cur;
	char *err;
	size_t errlen;
	int err_line;      /* 0 while no error */
	int shard_id_line; /* [discord] shards was written shard_id, its older name, here */
};

/* A bad value (or a name) as a message quotes it, quotes included, in out
 * (CONFIG_SHOWN_MAX bytes): cut at SHOW_BYTES bytes on a character, with
 * an invisible or bidi character named, never written (a U+202E would turn
 * the rest of the line around on a terminal), as textsafe_quote() quotes;
 * "bytes that are not UTF-8" for such. Returns out or that text. */
#define SHOW_BYTES       80
#define CONFIG_SHOWN_MAX (SHOW_BYTES + 80)
const char *config__shown(const char *v, char *out, size_t outlen);

/* Records the first error, at line, with the file's name in front. */
void config__fail(struct parser *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
