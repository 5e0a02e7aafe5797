/*
 * fungeon_save: the Fungeon channel module (CHANMOD_FUNGEON): creation and
 * the JSON form of the state, listed in chanmod_table (commands/core/commands.c).
 * The module is static data; the state it creates belongs to the channel.
 */
#ifndef DELVER_FUNGEON_SAVE_H
#define DELVER_FUNGEON_SAVE_H

#include "commands/core/channel.h"

extern const struct chanmod fungeon_mod;

#endif
