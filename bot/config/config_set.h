/*
 * config_set: one value of the configuration file stored in its key, for
 * config.c: read by the key's type (struct key, config_keys.h), checked
 * against what the key allows, and put where the key says in the current
 * section's struct. A bad value gets one message naming the section, the
 * key and what is allowed, with the value quoted (cut short, and never for
 * a key whose value may be a secret).
 */
#ifndef DELVER_CONFIG_SET_H
#define DELVER_CONFIG_SET_H

#include "bot/config/config_keys.h"

struct parser;

/* Stores v in key k of the parser's current section. Returns 0, or -1
 * after config__fail(). */
int config_set_value(struct parser *p, const struct key *k, const char *v);

#endif
