/*
 * discord_json: JSON into the transport without cJSON's costs per node: a
 * parser for gateway frames that builds a read-only cJSON tree in an arena
 * (the answers' bodies are written by rules/base/json.h).
 *
 * cJSON_Parse allocates every node, key and string on its own and
 * cJSON_Delete frees each again: for an INTERACTION_CREATE (about 60
 * nodes) that was a third of the bot's instructions per interaction. This
 * parser reads the same language as cJSON 1.7 (its quirks included: any
 * byte up to 0x20 is white space, a leading UTF-8 byte order mark is
 * skipped, an invalid \u escape reads as U+0000, nesting stops at 1000)
 * into ordinary struct cJSON nodes, so every reader of the tree
 * (cJSON_GetObjectItemCaseSensitive, cJSON_ArrayForEach, ...) works
 * unchanged; but the nodes and strings live in the arena, and unlike
 * cJSON_ParseWithLength it refuses anything but white space after the
 * value. tests/fuzz/fuzz_json.c holds it to cJSON's trees.
 *
 * Ownership: discord_json_new() returns an arena the caller frees with
 * discord_json_free(). A tree returned by discord_json_parse() belongs to
 * the arena and stays valid until the next discord_json_parse() or
 * discord_json_free(). It is read-only: never pass any of its nodes to
 * cJSON_Delete or to a function that changes or frees a tree. Memory grows
 * with the frame (bounded by the transport's frame limit), and all but the
 * first block is given back at the next parse. Out of memory aborts
 * (rules/base/mem.h).
 */
#ifndef DELVER_DISCORD_JSON_H
#define DELVER_DISCORD_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cJSON;
struct discord_json;

struct discord_json *discord_json_new(void);
void discord_json_free(struct discord_json *a);

/* The value text[0..len) holds, or NULL when it is not one JSON value
 * (with optional white space around it). text need not end in NUL. */
const struct cJSON *discord_json_parse(struct discord_json *a, const char *text, size_t len);

/* Whether s is a snowflake's text, 1 to 20 ASCII decimal digits (leading
 * zeros allowed) whose value fits 64 bits, and nothing else; stores the
 * value in *out when it is. s may be NULL (false). One pass over the
 * digits, with no locale and no errno: Discord's ids are read several
 * times per event. */
bool discord_json_snowflake(const char *s, uint64_t *out);

#endif
