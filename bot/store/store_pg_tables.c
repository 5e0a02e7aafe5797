/* store_pg_tables: delver's tables in PostgreSQL; see store_pg_tables.h. */
#include "bot/store/store_pg_tables.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bot/store/store_pg.h"
#include "bot/store/store_pg_int.h"
#include "rules/base/mem.h"

/*
 * The writes fail when they touch no row (the generation moved on): the
 * count of rows written divides 1, so a conflict is SQLSTATE 22012
 * (division_by_zero), which aborts the pipeline section and rolls its
 * transaction back; nothing else in these statements divides.
 */
#define CONFLICT_SQLSTATE "22012"
#define WRITTEN_ONCE(W)   "WITH w AS (" W " RETURNING 1) SELECT 1 / count(*) FROM w"
/* T's table; a channel's writes also store its at_start: INS_COL and
 * INS_VAL add it to an insert, UPD_SET to an update. */
#define STMTS(T, INS_COL, INS_VAL, UPD_SET)                                                        \
	{                                                                                          \
		[ST_INSERT] = WRITTEN_ONCE("INSERT INTO " T "(key, last_used, version, rec, "      \
		                           "generation" INS_COL ") VALUES($1, $2, $3, $4, "        \
		                           "1" INS_VAL ") ON CONFLICT (key) DO NOTHING"),          \
		[ST_UPDATE] = WRITTEN_ONCE("UPDATE " T " SET last_used = $2, version = $3, "       \
		                           "rec = $4, generation = generation + 1" UPD_SET         \
		                           " WHERE key = $1 AND generation = $5"),                 \
		[ST_DELETE] =                                                                      \
		    WRITTEN_ONCE("DELETE FROM " T " WHERE key = $1 AND generation = $2"),          \
		[ST_EXISTS] = "SELECT 1 / (1 - count(*)) FROM " T " WHERE key = $1",               \
		[ST_GET] =                                                                         \
		    "SELECT key, last_used, version, rec, generation FROM " T " WHERE key = $1",   \
		[ST_CURRENT] =                                                                     \
		    "SELECT 1 / count(*) FROM " T " WHERE key = $1 AND generation = $2",           \
		[ST_LOG_ADD] = WRITTEN_ONCE("INSERT INTO logs(key, seq, rec) VALUES($1, $2, $3) "  \
		                            "ON CONFLICT DO NOTHING"),                             \
		[ST_LOG_TRIM] = "DELETE FROM logs WHERE key = $1 AND seq <= $2",                   \
		[ST_LOG_CLEAR] = "DELETE FROM logs WHERE key = $1",                                \
		[ST_LOG_GET] = "SELECT c.key, c.last_used, c.version, c.rec, c.generation, "       \
		               "l.seq, l.rec FROM channels c LEFT JOIN logs l ON l.key = c.key "   \
		               "WHERE c.key = $1 ORDER BY l.seq",                                  \
	}
/* The marks of handled events (STORE_HANDLED): written once across every
 * process sharing the tables, so a mark whose key is stored already (the
 * event was handled by another process: two sessions of a fleet got it)
 * is refused and its batch is rolled back (the key's unique index makes a
 * second writer wait for the first one's transaction); $4 is the writer
 * (store_pg.h), and a mark stored under it already reads as written.
 * ST_INSERT does not fail: it answers 0 (written) or 1 (refused: stored
 * under another writer, or none, or not visible yet) and counts the refused in
 * the transaction's setting MARKS_REFUSED, so every mark of a batch is
 * tried and each refused one is known; ST_MARKS_CHECK, sent after them,
 * fails as a conflict when one was refused, which rolls the batch back
 * before its other rows. ST_DELETE expires the marks handled before $1;
 * ST_GET reads one in the tables' row shape. */
#define MARKS_REFUSED                                                                              \
	"coalesce(nullif(current_setting('delver.marks_refused', true), ''), '0')::int"
#define MARK_STMTS                                                                                 \
	{                                                                                          \
		[ST_INSERT] =                                                                      \
		    "WITH w AS (INSERT INTO handled(key, at, answer, writer) "                     \
		    "VALUES($1, $2, $3, $4) ON CONFLICT (key) DO NOTHING RETURNING 1), "           \
		    "s AS (SELECT CASE WHEN EXISTS (SELECT 1 FROM w) OR EXISTS (SELECT 1 "         \
		    "FROM handled WHERE key = $1 AND writer = $4) THEN 0 ELSE 1 END AS refused) "  \
		    "SELECT refused, set_config('delver.marks_refused', "                          \
		    "(" MARKS_REFUSED " + refused)::text, true) FROM s",                           \
		[ST_MARKS_CHECK] = "SELECT 1 / (1 - sign(" MARKS_REFUSED "))",                     \
		[ST_DELETE] = "DELETE FROM handled WHERE at < $1",                                 \
		[ST_GET] = "SELECT key, at, 0::integer, answer, 0::bigint FROM handled "           \
		           "WHERE key = $1",                                                       \
	}
static const char *const stmt_sql[3][ST_COUNT] = {
    [STORE_CHANNEL] = STMTS("channels", ", at_start", ", $5", ", at_start = $6"),
    [STORE_USER] = STMTS("users", "", "", ""),
    [STORE_HANDLED] = MARK_STMTS,
};
#undef STMTS
#undef MARK_STMTS
#undef MARKS_REFUSED

const char *const store_pg_tables_name[3] = {
    [STORE_CHANNEL] = "channels", [STORE_USER] = "users", [STORE_HANDLED] = "handled"};

/* Run in one transaction by open and after every reconnection. */
static const char *const schema_sql[] = {
    "SELECT pg_advisory_xact_lock(7346238117)", /* "delver" schema creation */
    "CREATE TABLE IF NOT EXISTS channels(key text PRIMARY KEY, last_used bigint NOT NULL, "
    "version integer NOT NULL, rec bytea NOT NULL, generation bigint NOT NULL, "
    "at_start boolean)",
    /* A channel's at_start: store_row's, NULL where not known (a row an
     * older delver wrote; load_active stores what its record says). Its
     * tables got it after they were made: added where missing, without
     * taking the table's lock where it is there. */
    "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = "
    "'channels'::regclass AND attname = 'at_start' AND NOT attisdropped) THEN "
    "ALTER TABLE channels ADD COLUMN at_start boolean; END IF; END $$",
    /* The channels wanted at every start or not known yet (few of all):
     * the start reads them through this index alone. Made where missing,
     * again without the table's lock where it is there. */
    "DO $$ BEGIN IF to_regclass('channels_at_start') IS NULL THEN "
    "CREATE INDEX channels_at_start ON channels(key) WHERE at_start IS NOT false; "
    "END IF; END $$",
    "CREATE TABLE IF NOT EXISTS users(key text PRIMARY KEY, last_used bigint NOT NULL, "
    "version integer NOT NULL, rec bytea NOT NULL, generation bigint NOT NULL)",
    "CREATE TABLE IF NOT EXISTS logs(key text NOT NULL, seq bigint NOT NULL, "
    "rec bytea NOT NULL, PRIMARY KEY (key, seq))",
    "CREATE TABLE IF NOT EXISTS handled(key text PRIMARY KEY, at bigint NOT NULL, "
    "answer bytea NOT NULL, writer bigint)",
    /* A mark's writer (store_pg.h), NULL in a mark an older delver
     * stored: added where missing, as at_start. */
    "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = "
    "'handled'::regclass AND attname = 'writer' AND NOT attisdropped) THEN "
    "ALTER TABLE handled ADD COLUMN writer bigint; END IF; END $$",
};
#define NSCHEMA (sizeof(schema_sql) / sizeof(schema_sql[0]))

void
store_pg_tables_stmt_name(char *out, size_t len, enum store_kind k, enum stmt s)
{
	snprintf(out, len, "%c%d", "cuh"[k], (int)s);
}

/* True when r is a write's refusal because the row's generation moved on
 * (see stmt_sql). */
bool
store_pg_tables_conflict(const PGresult *r)
{
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);

	return state != NULL && strcmp(state, CONFLICT_SQLSTATE) == 0;
}

uint64_t
store_pg_tables_uint(const PGresult *r, int row, int col, int len)
{
	const unsigned char *v = (const unsigned char *)PQgetvalue(r, row, col);
	uint64_t x = 0;

	if (PQgetlength(r, row, col) != len)
		return 0;
	for (int i = 0; i < len; i++)
		x = x << 8 | v[i];
	return x;
}

/* Reads row i of a result in binary format (key, last_used, version, rec,
 * generation). Returns 0, or -1 when its shape is not the tables'. */
int
store_pg_tables_row(const PGresult *r, int i, enum store_kind kind, struct store_row *out)
{
	if (PQnfields(r) < 5 || PQgetlength(r, i, 1) != 8 || PQgetlength(r, i, 2) != 4 ||
	    PQgetlength(r, i, 4) != 8)
		return -1;
	memset(out, 0, sizeof(*out));
	out->kind = kind;
	out->key = PQgetvalue(r, i, 0);
	out->last_used = (int64_t)store_pg_tables_uint(r, i, 1, 8);
	out->version = (int)(int32_t)(uint32_t)store_pg_tables_uint(r, i, 2, 4);
	out->rec = PQgetvalue(r, i, 3);
	out->rec_len = (size_t)PQgetlength(r, i, 3);
	out->generation = store_pg_tables_uint(r, i, 4, 8);
	return 0;
}

/* Points row's log at the entries r holds (a channel read with its log:
 * columns 5 and 6 of each row, NULL when it has none), in *log (the caller
 * frees it). Returns 0, or -1 when r's shape is not the tables'. */
int
store_pg_tables_log(const PGresult *r, struct store_row *row, struct store_log_row **log)
{
	int n = PQntuples(r), k = 0;

	*log = NULL;
	row->log = NULL;
	row->nlog = 0;
	if (PQnfields(r) != 7 || PQgetisnull(r, 0, 5))
		return PQnfields(r) == 7 || PQnfields(r) == 5 ? 0 : -1;
	*log = xcalloc((size_t)n, sizeof(**log));
	for (int i = 0; i < n; i++) {
		if (PQgetlength(r, i, 5) != 8)
			return -1;
		(*log)[k].seq = store_pg_tables_uint(r, i, 5, 8);
		(*log)[k].rec = PQgetvalue(r, i, 6);
		(*log)[k].rec_len = (size_t)PQgetlength(r, i, 6);
		k++;
	}
	row->log = *log;
	row->nlog = (size_t)k;
	return 0;
}

/* Sends the statements that set a fresh connection up, as one pipeline
 * section. Returns 0, or -1. */
int
store_pg_tables_send_setup(struct store_pg *p)
{
	struct op *o = xcalloc(1, sizeof(*o));
	char name[16];

	o->kind = OP_SETUP;
	for (size_t i = 0; i < NSCHEMA; i++)
		if (!PQsendQueryParams(p->conn, schema_sql[i], 0, NULL, NULL, NULL, NULL, 0))
			goto fail;
	for (int t = 0; t < 3; t++) {
		for (int s = 0; s < ST_COUNT; s++) {
			if (stmt_sql[t][s] == NULL)
				continue;
			store_pg_tables_stmt_name(name, sizeof(name), (enum store_kind)t,
			                          (enum stmt)s);
			if (!PQsendPrepare(p->conn, name, stmt_sql[t][s], 0, NULL))
				goto fail;
		}
	}
	if (!PQpipelineSync(p->conn))
		goto fail;
	o->sent_ms = store_pg__now_ms(p);
	store_pg__queue_push(&p->sent, o);
	return 0;
fail:
	free(o);
	return -1;
}

int
store_pg_create_tables(struct pg_conn *c, char *why, size_t whylen)
{
	for (size_t i = 0; i < NSCHEMA; i++) {
		PGresult *r = PQexec(c, schema_sql[i]);
		bool ok =
		    PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;

		if (!ok)
			store_pg__first_line(why, whylen, PQresultErrorMessage(r));
		PQclear(r);
		if (!ok)
			return -1;
	}
	return 0;
}

/* The one value of a query of one row and column, into out ("" when it
 * fails). */
static void
query_value(PGconn *c, const char *sql, char *out, size_t len)
{
	PGresult *r = PQexec(c, sql);

	snprintf(out, len, "%s",
	         PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && PQnfields(r) == 1
	             ? PQgetvalue(r, 0, 0)
	             : "");
	PQclear(r);
}

/* Refuses, before anything is set up, a server or role that may not write:
 * every change would otherwise be refused later, one by one. Returns 0, or
 * -1 with one sentence in err. */
int
store_pg_tables_check_writable(PGconn *c, char *err, size_t errlen)
{
	static const char *const privs[] = {"SELECT", "INSERT", "UPDATE", "DELETE"};
	static const char *const tables[] = {"channels", "users"};
	char v[64], sql[160];

	query_value(c, "SELECT current_setting('transaction_read_only')", v, sizeof(v));
	if (strcmp(v, "on") == 0) {
		snprintf(
		    err, errlen,
		    "the PostgreSQL database %s is read-only for delver (transaction_read_only "
		    "is on: a standby server, or default_transaction_read_only set for the "
		    "database or the role %s); delver needs a primary server and a role that "
		    "may write its tables",
		    PQdb(c), PQuser(c));
		return -1;
	}
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		snprintf(sql, sizeof(sql), "SELECT to_regclass('%s') IS NOT NULL", tables[t]);
		query_value(c, sql, v, sizeof(v));
		if (strcmp(v, "t") != 0)
			continue; /* made below, by this role */
		for (size_t i = 0; i < sizeof(privs) / sizeof(privs[0]); i++) {
			snprintf(sql, sizeof(sql), "SELECT has_table_privilege('%s', '%s')",
			         tables[t], privs[i]);
			query_value(c, sql, v, sizeof(v));
			if (strcmp(v, "t") == 0)
				continue;
			snprintf(
			    err, errlen,
			    "the PostgreSQL table %s of database %s is read-only for delver (the "
			    "role %s lacks %s on it); delver needs GRANT SELECT, INSERT, UPDATE, "
			    "DELETE ON channels, users TO %s",
			    tables[t], PQdb(c), PQuser(c), privs[i], PQuser(c));
			return -1;
		}
	}
	return 0;
}

/* Runs the schema in one transaction and prepares the statements, on a
 * blocking connection. Returns 0, or -1 with the reason in why. */
int
store_pg_tables_setup(PGconn *c, char *why, size_t whylen)
{
	PGresult *r = PQexec(c, "BEGIN");
	char name[16];
	bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;

	PQclear(r);
	if (ok)
		ok = store_pg_create_tables(c, why, whylen) == 0;
	if (ok) {
		r = PQexec(c, "COMMIT");
		ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		if (!ok)
			store_pg__first_line(why, whylen, PQresultErrorMessage(r));
		PQclear(r);
	}
	for (int t = 0; ok && t < 3; t++) {
		for (int s = 0; ok && s < ST_COUNT; s++) {
			if (stmt_sql[t][s] == NULL)
				continue;
			store_pg_tables_stmt_name(name, sizeof(name), (enum store_kind)t,
			                          (enum stmt)s);
			r = PQprepare(c, name, stmt_sql[t][s], 0, NULL);
			ok = PQresultStatus(r) == PGRES_COMMAND_OK;
			if (!ok)
				store_pg__first_line(why, whylen, PQresultErrorMessage(r));
			PQclear(r);
		}
	}
	return ok ? 0 : -1;
}
