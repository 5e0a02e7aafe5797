/*
 * discord_roles: which roles make a Discord member a GM.
 *
 * The config names a GM role ([bot] gm_role). Interactions carry a member's
 * role ids, not names, so the ids of the roles with that name (compared
 * without regard to ASCII case) are learnt per guild from GUILD_CREATE,
 * GUILD_UPDATE and GUILD_ROLE_CREATE/UPDATE/DELETE events, which the GUILDS
 * intent delivers. A configured value made only of digits is taken as a
 * role id and matched directly. Only guilds that have such a role take
 * memory (at most 8 role ids each).
 */
#ifndef DELVER_DISCORD_ROLES_H
#define DELVER_DISCORD_ROLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cJSON;
struct roles;

/* gm_role may be NULL or "" (no GM role). The string is copied. */
struct roles *discord_roles_new(const char *gm_role);
void discord_roles_free(struct roles *r);

/* Learns from one gateway event; other events are ignored. */
void discord_roles_event(struct roles *r, const char *t, const struct cJSON *d);

/* The learnt role ids as JSON text in out (cap bytes): {"name": the GM
 * role's name, "guilds": {guild id: [role ids]}}, as many guilds as fit.
 * Returns 0, or -1 (out "") when the GM role is not given by name. */
int discord_roles_export(const struct roles *r, char *out, size_t cap);
/* Learns the ids of discord_roles_export() text, for guilds not known yet, when
 * its name is this GM role's (compared as names are); anything else in it
 * is ignored. */
void discord_roles_import(struct roles *r, const struct cJSON *saved);

/* Whether a member of guild with these role ids (a JSON array of id
 * strings, or NULL) holds the GM role. */
bool discord_roles_member_is_gm(const struct roles *r, uint64_t guild,
                                const struct cJSON *member_roles);

#endif
