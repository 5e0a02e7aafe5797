/*
 * discord_gw_payload: the gateway payloads the bot sends (JSON text):
 * IDENTIFY, RESUME and the heartbeat, for discord_gw, which decides when.
 * No I/O, no state; what is returned is the caller's.
 */
#ifndef DELVER_DISCORD_GW_PAYLOAD_H
#define DELVER_DISCORD_GW_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

/* op 2: the token, the intents, the connection's properties and the shard
 * [shard_id, shard_count]; freed with free(). */
char *discord_gw_payload_identify(const char *token, uint64_t intents, int shard_id,
                                  int shard_count);

/* op 6: the token, the session and the last sequence number seen; freed
 * with free(). */
char *discord_gw_payload_resume(const char *token, const char *session_id, int64_t seq);

/* op 1 with the last sequence number seen (seq < 0: none, null) into out
 * (len bytes; 64 hold any). */
void discord_gw_payload_heartbeat(int64_t seq, char *out, size_t len);

#endif
