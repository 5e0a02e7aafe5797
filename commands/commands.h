/*
 * commands: the command families. Each family is one file in commands/ that
 * defines one top-level struct command; commands.c lists them in
 * command_table (the order /help shows) and the channel state modules in
 * chanmod_table.
 */
#ifndef DELVER_COMMANDS_H
#define DELVER_COMMANDS_H

#include "commands/registry.h"

extern const struct command cmd_roll;
extern const struct command cmd_gmroll;

/* "1d20+5 adv" as "2d20kh1+5" (dis: kl1), written into buf (len bytes,
 * DICE_TEXT_MAX + 8 is enough); expr itself when it ends in neither word;
 * NULL with *err set (a sentence) when it has no plain d20 (cmd_roll.c). */
const char *cmd_roll_advantage(const char *expr, char *buf, size_t len, const char **err);

/* The roll saved as name (ASCII case ignored) for the invoker: their own
 * (in their user record, or kept in this channel by an older version,
 * moved to the record first) before the channel's. Returns its text, or
 * NULL; *canon gets the saved name, *mine whether it is the invoker's
 * (cmd_save.c). */
const char *cmd_save_find(struct invocation *inv, const char *name, const char **canon, bool *mine);
extern const struct command cmd_help;
extern const struct command cmd_log;
extern const struct command cmd_save;
extern const struct command cmd_saved;
extern const struct command cmd_settings;
extern const struct command cmd_gm;
extern const struct command cmd_tension;
extern const struct command cmd_hazard;
extern const struct command cmd_turn;
extern const struct command cmd_light;
extern const struct command cmd_rest;
extern const struct command cmd_wander;
extern const struct command cmd_surprise;
extern const struct command cmd_procedure;
extern const struct command cmd_safe;
extern const struct command cmd_vendor;
extern const struct command cmd_bargain;
extern const struct command cmd_encumbrance;
extern const struct command cmd_fungeon;
extern const struct command cmd_thwacko;
extern const struct command cmd_xp;

extern const struct chanmod fungeon_mod;

#endif
