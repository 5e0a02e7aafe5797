/*
 * cmd_light: the /light command (the party's light sources). The command
 * is static data, listed in command_table (commands/core/commands.c).
 */
#ifndef DELVER_CMD_LIGHT_H
#define DELVER_CMD_LIGHT_H

#include "commands/core/registry.h"

extern const struct command cmd_light;

/* A non-magical light source fails (a tension roll's dungeon event 6, the
 * GM's /light fail): the hazard die's Light result, turn_light_fails(), on
 * the channel's lights, with its line, and the darkness when it put the
 * last light out. */
void cmd_light_fails(struct invocation *inv, struct reply *out);

#endif
