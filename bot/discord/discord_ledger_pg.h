/*
 * discord_ledger_pg: the identify ledger (discord_ledger.h) of a fleet, in
 * the PostgreSQL database its shard processes share ([store] backend =
 * postgresql), so that processes on several machines space their
 * IDENTIFYs and count the daily budget together.
 *
 * Tables (created when missing): discord_identify(bucket, last_ms,
 * lease_until_ms, owner), one row per bucket, and discord_budget (one row:
 * total, remaining, reset_at_ms and the last refused count). Each operation
 * is one transaction under an advisory lock (pg_advisory_xact_lock), read,
 * changed by discord_ledger_apply at the server's clock (clock_timestamp(),
 * so machines whose clocks differ agree) and written back.
 *
 * exec runs on a worker thread with a blocking connection of its own
 * (application_name delver-identify), made for each operation: they are
 * few, a handful per session started. The password is given to libpq apart
 * from the conninfo and never logged.
 */
#ifndef DELVER_DISCORD_LEDGER_PG_H
#define DELVER_DISCORD_LEDGER_PG_H

#include "bot/discord/discord_ledger.h"

/* Both strings are copied; password may be NULL (libpq's own). */
struct ledger_backend *discord_ledger_pg(const char *conninfo, const char *password);

#endif
