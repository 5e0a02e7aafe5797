/* discord_gw_payload: the gateway payloads the bot sends; see
 * discord_gw_payload.h. */
#include "bot/discord/discord_gw_payload.h"

#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>

#include "bot/discord/discord_proto.h"
#include "rules/base/json.h"

char *
discord_gw_payload_identify(const char *token, uint64_t intents, int shard_id, int shard_count)
{
	cJSON *root = cJSON_CreateObject(), *d, *props, *shard;
	char *s;

	cJSON_AddNumberToObject(root, "op", DISCORD_OP_IDENTIFY);
	d = cJSON_AddObjectToObject(root, "d");
	cJSON_AddStringToObject(d, "token", token);
	cJSON_AddNumberToObject(d, "intents", (double)intents);
	props = cJSON_AddObjectToObject(d, "properties");
	cJSON_AddStringToObject(props, "os", "linux");
	cJSON_AddStringToObject(props, "browser", "delver");
	cJSON_AddStringToObject(props, "device", "delver");
	shard = cJSON_AddArrayToObject(d, "shard");
	cJSON_AddItemToArray(shard, cJSON_CreateNumber(shard_id));
	cJSON_AddItemToArray(shard, cJSON_CreateNumber(shard_count));
	s = json_print(root);
	cJSON_Delete(root);
	return s;
}

char *
discord_gw_payload_resume(const char *token, const char *session_id, int64_t seq)
{
	cJSON *root = cJSON_CreateObject(), *d;
	char *s;

	cJSON_AddNumberToObject(root, "op", DISCORD_OP_RESUME);
	d = cJSON_AddObjectToObject(root, "d");
	cJSON_AddStringToObject(d, "token", token);
	cJSON_AddStringToObject(d, "session_id", session_id);
	cJSON_AddNumberToObject(d, "seq", (double)seq);
	s = json_print(root);
	cJSON_Delete(root);
	return s;
}

void
discord_gw_payload_heartbeat(int64_t seq, char *out, size_t len)
{
	if (seq >= 0)
		snprintf(out, len, "{\"op\":%d,\"d\":%" PRId64 "}", DISCORD_OP_HEARTBEAT, seq);
	else
		snprintf(out, len, "{\"op\":%d,\"d\":null}", DISCORD_OP_HEARTBEAT);
}
