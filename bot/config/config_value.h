/*
 * config_value: the syntax of single configuration values (numbers, yes/no,
 * choices, IRC nicks and channels, Discord ids, URLs, names), for config.c.
 *
 * Every function is pure: it reads the string it is given and writes only
 * through its out pointer. Validators return true when s is acceptable.
 */
#ifndef DELVER_CONFIG_VALUE_H
#define DELVER_CONFIG_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A decimal whole number from min to max (no sign for non-negative
 * ranges, no spaces, no leading '+'). Returns 0, or -1. */
int config_value_int(const char *s, long long min, long long max, long long *out);
/* "N" or "FIRST-LAST": whole numbers from min to max, FIRST <= LAST (a
 * single N gives FIRST = LAST = N). Returns 0, or -1. */
int config_value_range(const char *s, long long min, long long max, int *first, int *last);
/* A decimal whole number from 0 to UINT64_MAX. Returns 0, or -1. */
int config_value_u64(const char *s, uint64_t *out);
/* yes/no, true/false, on/off, 1/0. Returns 0, or -1. */
int config_value_bool(const char *s, bool *out);
/* The index of s in the NULL-terminated choices, or -1. */
int config_value_choice(const char *s, const char *const *choices);

/* Splits s at commas and blanks into words. Returns the number of words
 * stored in words[] (each a pointer into copy, which must hold strlen(s)+1
 * bytes and is overwritten), or -1 when there are more than max. */
int config_value_split(const char *s, char *copy, char **words, size_t max);

bool config_value_text(const char *s);      /* 1-200 bytes of UTF-8, no control characters */
bool config_value_word(const char *s);      /* 1-64 bytes, printable, no blanks */
bool config_value_name(const char *s);      /* console names: 1-63 bytes, no blanks, no ':' */
bool config_value_nick(const char *s);      /* an IRC nick (RFC 2812, 1-30 bytes) */
bool config_value_channel(const char *s);   /* an IRC channel: #, &, + or ! then 1-49 bytes */
bool config_value_chankey(const char *s);   /* a channel key: 1-23 of ASCII '!'-'~' but ',' ':' */
bool config_value_host(const char *s);      /* a host name or IP address, 1-253 bytes */
bool config_value_sha256(const char *s);    /* 64 hex digits, pairs optionally ':'-separated */
bool config_value_snowflake(const char *s); /* a Discord id: 1-20 digits */
bool config_value_ws_url(const char *s);    /* ws:// or wss:// URL */
bool config_value_http_url(const char *s);  /* http:// or https:// URL */
/* A libpq connection string (key=value pairs or a postgresql:// URI) of 1
 * to 900 bytes without control characters, that libpq parses and that
 * holds no password. */
bool config_value_conninfo(const char *s);
bool config_value_prefix(const char *s);  /* a command prefix: 1-4 bytes, printable, no blanks */
bool config_value_network(const char *s); /* [irc.<network>]: 1-32 letters, digits, '-', '_' */

#endif
