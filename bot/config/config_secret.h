/*
 * config_secret: reads the secrets a configuration names (the Discord token,
 * IRC passwords), for config.c. A source is one of
 *   env:NAME         the environment variable NAME
 *   file:PATH        the file at the absolute PATH, refused when any group or
 *                    other permission bit is set (chmod 600 fixes it)
 *   credential:NAME  $CREDENTIALS_DIRECTORY/NAME, which systemd fills from
 *                    LoadCredential=NAME (the shipped units) or
 *                    LoadCredential=NAME:PATH; delver --credentials-dir sets
 *                    it for a check by hand
 * A secret is one line of 1 to SECRET_MAX bytes without control characters;
 * one trailing newline (LF or CRLF) in a file is dropped.
 *
 * No message written into err ever contains the secret, nor a source that
 * failed to parse (it might be a secret pasted in by mistake).
 */
#ifndef DELVER_CONFIG_SECRET_H
#define DELVER_CONFIG_SECRET_H

#include <stddef.h>

#define SECRET_MAX 4096

/* Checks the form of source. Returns 0, or -1 with the end of a sentence in
 * err that follows the key's name ("must be env:NAME, ..."). */
int config_secret_check(const char *source, char *err, size_t errlen);

/* Reads the secret source names (source must have passed config_secret_check).
 * Returns the secret, which the caller frees with config_secret_free(), or NULL
 * with the end of a sentence in err that follows "<key>: " ("the environment
 * variable X is not set"). */
char *config_secret_read(const char *source, char *err, size_t errlen);

/* Overwrites a secret's bytes and frees it (NULL is allowed). */
void config_secret_free(char *secret);

#endif
