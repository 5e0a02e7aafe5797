/*
 * discord_count: how many shards this process runs, and starting them.
 *
 * At start, and whenever the identify budget's reset has come, the bot
 * asks Discord for its numbers (GET /gateway/bot, retried with a doubling
 * wait up to a minute): the gateway URL (unless configured), the shard
 * count Discord recommends, and the session start limits, which go to the
 * identify coordinator (discord_idq_limits). Once the coordinator's ledger
 * answers, the count is settled: [discord] shard_count when set, else
 * Discord's. A count Discord refused before (close code 4010 or 4011,
 * kept in the ledger) is not tried again, without an IDENTIFY, when
 * Discord's numbers say it would be refused again: the bot stops with a
 * sentence saying what to set. Otherwise the
 * shards of this process (shard_first..shard_last, or all) are made and
 * started, once. Every struct discord it reads and writes is discord.c's
 * (discord_int.h).
 */
#ifndef DELVER_DISCORD_COUNT_H
#define DELVER_DISCORD_COUNT_H

#include <stddef.h>

struct discord;

/* Asks Discord for its numbers (GET /gateway/bot); nothing while the
 * transport stops. */
void discord_count_fetch(struct discord *dc);

/* The identify coordinator's refetch hook (discord_idq_opts): ctx is the
 * struct discord; asks again as discord_count_fetch does. */
void discord_count_refetch(void *ctx);

/* The sentence for Discord's refusal of this process's count (code 4010
 * or 4011) into out (len bytes). */
void discord_count_refusal(const struct discord *dc, int code, char *out, size_t len);

#endif
