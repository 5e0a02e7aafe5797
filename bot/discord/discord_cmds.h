/*
 * discord_cmds: the command table as Discord application commands.
 *
 * Every top-level command becomes a CHAT_INPUT command; a command with
 * subcommands exposes them as SUB_COMMAND options (SUB_COMMAND_GROUP for a
 * subcommand that has its own), since Discord forbids mixing subcommands
 * and plain options: a command whose default_sub runs when no subcommand is
 * typed (text platforms) is reached on Discord by naming that subcommand,
 * which is always among them. Options keep their types (string, integer
 * with min/max, boolean, user), required ones listed first as Discord
 * demands, choices (at most 25; a longer list, or OPT_AUTOCOMPLETE, turns
 * into autocomplete) and string length limits. A GM-only top-level command
 * carries default_member_permissions "16" (Manage Channels), which server
 * admins may widen in Server Settings > Integrations.
 *
 * The body is deterministic, so its hash tells whether the registered set
 * changed since the last registration. What Discord holds is compared with
 * it at every start (discord_cmds_same), since another deployment or a
 * hand-made change may have altered it: the hash only saves that work.
 */
#ifndef DELVER_DISCORD_CMDS_H
#define DELVER_DISCORD_CMDS_H

#include <stdbool.h>
#include <stdint.h>

#include "commands/core/registry.h"

#define DISCORD_GM_PERMISSIONS "16" /* DISCORD_PERM_MANAGE_CHANNELS, as Discord writes it */

struct cJSON;

/* The JSON array for a bulk overwrite of table (NULL: command_table). The
 * caller owns it (cJSON_Delete). */
struct cJSON *discord_cmds_json(const struct command *const *table);

/* The same, printed without spaces; the caller frees it. */
char *discord_cmds_body(const struct command *const *table);

/*
 * Whether have (the array GET .../commands answers) holds exactly the
 * commands of want (discord_cmds_json's output): the same names, and for
 * each every field and option that want has, equal, in the same order for
 * options and choices. Fields Discord adds (ids, version, application_id,
 * contexts, ...) and fields at their default (null, false, an empty list)
 * are ignored; any other extra field, or an extra command, is a difference.
 */
bool discord_cmds_same(const struct cJSON *want, const struct cJSON *have);

/* FNV-1a 64 of a registration body and the scope it goes to (the PUT
 * path), as 16 hexadecimal digits and a NUL in out[17]. */
void discord_cmds_hash(const char *body, const char *scope, char out[17]);

#endif
