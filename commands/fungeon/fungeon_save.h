/*
 * fungeon_save: the Fungeon channel module (CHANMOD_FUNGEON): creation, the
 * JSON form of the state and the players' keys and names kept current
 * (rekey, names_now), listed in chanmod_table (commands/core/commands.c).
 * The module is static data; the state it creates belongs to the channel.
 */
#ifndef DELVER_FUNGEON_SAVE_H
#define DELVER_FUNGEON_SAVE_H

#include "commands/core/channel.h"
#include "commands/fungeon/fungeon.h"
#include "commands/fungeon/fungeon_json.h"

extern const struct chanmod fungeon_mod;

/* The readers of the parts today's form shares with the form before the
 * room model (fungeon_save_old.c): a party member (without its style;
 * `old`: as that form wrote it), the fallen players' keys, the XP rule.
 * Each returns 0, or -1 with err. */
int fungeon_save_member(struct fungeon_json *r, const struct cJSON *o, bool old,
                        struct fungeon_member *m);
int fungeon_save_keys(struct fungeon_json *r, const struct cJSON *o, struct fungeon_channel *c);
int fungeon_save_rule(struct fungeon_json *r, const struct cJSON *o, struct fungeon_channel *c);

#endif
