/*
 * fungeon_save_old: the Fungeon module's reader of the form written before
 * the room model (a state without "v"), for fungeon_save.c.
 */
#ifndef DELVER_FUNGEON_SAVE_OLD_H
#define DELVER_FUNGEON_SAVE_OLD_H

#include <stddef.h>

#include "commands/fungeon/fungeon.h"

struct cJSON;

/* Fills the fresh state c from o, an old-form state. Returns 0, or -1 with
 * one sentence in err (c may then be partly filled: the caller destroys
 * it). */
int fungeon_save_old_load(struct fungeon_channel *c, const struct cJSON *o, char *err,
                          size_t errlen);

#endif
