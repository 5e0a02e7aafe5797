/*
 * discord_dm: the direct-message channels the bot opened, by user.
 *
 * A secret roll's result goes to the GM by direct message, which needs the
 * id of the DM channel with the GM: POST /users/@me/channels answers it
 * (the same channel each time). Asking once per user instead of once per
 * roll saves a REST call per secret roll: this is a small LRU map of user
 * id -> DM channel id, at most max entries (the least recently used one
 * is forgotten first). An entry is dropped when Discord says its channel
 * is unknown (404, code 10003), and the channel is then opened again.
 *
 * A user who takes no direct messages from the bot (Discord answers 403,
 * code 50007) is marked for a while (DISCORD_DM_REFUSED_MS): asking again
 * at every secret roll would only add invalid requests, which Discord
 * counts toward an hour's ban of the bot's address (discord_rest.h).
 *
 * Ids are Discord snowflakes: decimal digits, at most 20. Pure: no I/O.
 */
#ifndef DELVER_DISCORD_DM_H
#define DELVER_DISCORD_DM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISCORD_DM_MAX        256              /* entries kept by the transport */
#define DISCORD_DM_ID         24               /* room for a snowflake and its NUL */
#define DISCORD_DM_REFUSED_MS (10 * 60 * 1000) /* a refusal is believed this long */

struct discord_dm;

/* A map holding at most max (>= 1) entries. Owned by the caller:
 * discord_dm_free(). */
struct discord_dm *discord_dm_new(size_t max);
void discord_dm_free(struct discord_dm *dm);

/* Copies the DM channel id kept for user into chan (DISCORD_DM_ID bytes)
 * and makes it the most recently used; false when none is kept. */
bool discord_dm_find(struct discord_dm *dm, const char *user, char chan[DISCORD_DM_ID]);

/* Keeps user -> chan (replacing what was kept for user), forgetting the
 * least recently used entry when full. Ids that are not snowflakes are
 * not kept. */
void discord_dm_put(struct discord_dm *dm, const char *user, const char *chan);

/* Forgets user's entry when it is chan (another channel kept meanwhile
 * stays). */
void discord_dm_drop(struct discord_dm *dm, const char *user, const char *chan);

/* user refused chan's message at now_ms: no message is tried for
 * DISCORD_DM_REFUSED_MS (nothing happens when user's entry is not chan). */
void discord_dm_refuse(struct discord_dm *dm, const char *user, const char *chan, int64_t now_ms);
/* Whether user refused a message less than DISCORD_DM_REFUSED_MS before
 * now_ms. */
bool discord_dm_refused(struct discord_dm *dm, const char *user, int64_t now_ms);

/* How many entries are kept. */
size_t discord_dm_count(const struct discord_dm *dm);

/* Whether s is a snowflake: 1 to 20 decimal digits. */
bool discord_dm_snowflake(const char *s);

#endif
