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
 * into autocomplete) and string length limits.
 *
 * A top-level command only GMs may use (GM-only itself, or every leaf
 * beneath it GM-only) carries default_member_permissions "16" (Manage
 * Channels), so that Discord shows it to members with that permission
 * alone; server admins may widen that in Server Settings > Integrations
 * (for the GM role, or a claimed GM). Discord can hide only a whole
 * top-level command, so a GM-only subcommand beside others (/tension raise
 * beside /tension show) stays visible and is refused to others when run.
 *
 * Where the commands may be used: a global registration names
 * integration_types (0, installed to a server; with user installs also 1,
 * installed to a user) and contexts (0 servers, 1 the DM with the bot;
 * with user installs also 2, group DMs and DMs between users, which only a
 * user install reaches). A guild's own commands (dev_guild) take neither:
 * Discord ignores them there.
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

/* Where a registration offers the commands. */
enum discord_cmds_reach {
	DISCORD_REACH_GUILD,  /* a guild's own commands: no contexts */
	DISCORD_REACH_SERVER, /* global, installed to servers: [0], contexts [0, 1] */
	DISCORD_REACH_USER,   /* global, to servers and users: [0, 1], contexts [0, 1, 2] */
};

/* The JSON array for a bulk overwrite of table (NULL: command_table). The
 * caller owns it (cJSON_Delete). */
struct cJSON *discord_cmds_json(const struct command *const *table, enum discord_cmds_reach reach);

/* The same, printed without spaces; the caller frees it. */
char *discord_cmds_body(const struct command *const *table, enum discord_cmds_reach reach);

/*
 * Whether have (the array GET .../commands answers) holds exactly the
 * commands of want (discord_cmds_json's output): the same names, and for
 * each every field and option that want has, equal, in the same order for
 * options and choices (contexts and integration_types are sets: any order).
 * Fields Discord adds (ids, version, application_id, contexts when want has
 * none, ...) and fields at their default (null, false, an empty list) are
 * ignored; any other extra field, or an extra command, is a difference.
 */
bool discord_cmds_same(const struct cJSON *want, const struct cJSON *have);

/* FNV-1a 64 of a registration body and the scope it goes to (the PUT
 * path), as 16 hexadecimal digits and a NUL in out[17]. */
void discord_cmds_hash(const char *body, const char *scope, char out[17]);

#endif
