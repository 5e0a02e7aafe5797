/*
 * discord_register: keeps the application's slash commands as this version
 * declares them (discord_cmds). At READY it reads what Discord holds for
 * the scope (the dev guild, or global) and registers the table unless
 * Discord holds exactly it; with a dev guild, commands left registered
 * globally are removed. A local file (discord-commands.hash in the state
 * directory) remembers the last table registered and Discord's answer, so
 * an unchanged start skips the comparison's work, never the GET.
 *
 * Ownership: works on the transport's struct discord (discord_int.h); the
 * requests in flight own their registration.
 */
#ifndef DELVER_DISCORD_REGISTER_H
#define DELVER_DISCORD_REGISTER_H

struct discord;

/* Reads the hash file from state_dir (or $STATE_DIRECTORY); with neither,
 * nothing is remembered between starts. */
void discord_register_read_hash(struct discord *dc, const char *state_dir);
/* Compares and, when needed, registers the command table (at most one run
 * at a time). */
void discord_register_commands(struct discord *dc);

#endif
