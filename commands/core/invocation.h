/*
 * invocation: what a handler asks of its parsed command (struct invocation
 * in registry.h): option values by name, the GM check, and the clean-up.
 *
 * Ownership: string values belong to the invocation until
 * invocation_clear().
 */
#ifndef DELVER_INVOCATION_H
#define DELVER_INVOCATION_H

#include <stdbool.h>
#include <stdint.h>

struct invocation;
struct reply;

/* Frees the option values (the invocation may then be parsed again). */
void invocation_clear(struct invocation *inv);

/* Values by option name; a name the command lacks is a programmer error. */
bool invocation_has(const struct invocation *inv, const char *name);
const char *invocation_str(const struct invocation *inv, const char *name);
int64_t invocation_int(const struct invocation *inv, const char *name, int64_t dflt);
bool invocation_bool(const struct invocation *inv, const char *name, bool dflt);

/* Writes the refusal for a non-GM and returns false, or returns true. */
bool invocation_require_gm(struct invocation *inv, struct reply *out);

#endif
