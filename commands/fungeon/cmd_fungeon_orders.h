/*
 * cmd_fungeon_orders: /fungeon orders, the standing orders of a room's
 * fights (whom a Fungeoneer's or monster's won ranks hurt, which special
 * ability a monster uses), each given by whoever
 * decides for that Fungeoneer or monster (fungeon_rights_may_direct());
 * handlers of the /fungeon table in cmd_fungeon.c. Orders last for the
 * room; /fungeon combat follows them unless its own options say otherwise
 * for what the one typing it decides.
 */
#ifndef DELVER_CMD_FUNGEON_ORDERS_H
#define DELVER_CMD_FUNGEON_ORDERS_H

#include "commands/core/registry.h"

/* With neither option, lists the room's orders. */
void cmd_fungeon_orders(struct invocation *inv, struct reply *out);

#endif
