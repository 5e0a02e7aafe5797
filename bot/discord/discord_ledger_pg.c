/* discord_ledger_pg: the identify ledger in PostgreSQL; see discord_ledger_pg.h. */
#include "bot/discord/discord_ledger_pg.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bot/log.h"
#include "bot/store/store_pg_sql.h"
#include "rules/base/mem.h"

/* pg_advisory_xact_lock's key, delver's own: held while one operation runs. */
#define LOCK_KEY "7234023758377452665"

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS discord_identify (bucket integer PRIMARY KEY, "
    "last_ms bigint NOT NULL DEFAULT 0, lease_until_ms bigint NOT NULL DEFAULT 0, "
    "owner text NOT NULL DEFAULT '');"
    "CREATE TABLE IF NOT EXISTS discord_budget (id integer PRIMARY KEY CHECK (id = 1), "
    "total integer NOT NULL, remaining integer NOT NULL, reset_at_ms bigint NOT NULL, "
    "refused_count integer NOT NULL DEFAULT 0, refused_code integer NOT NULL DEFAULT 0, "
    "refused_recommended integer NOT NULL DEFAULT 0, refused_at_ms bigint NOT NULL DEFAULT 0)";

struct ledger_pg {
	struct ledger_backend base;
	char *conninfo, *password;
	PGconn *c;
	bool have_tables;      /* created (or found) by an earlier operation */
	struct ledger_rec rec; /* read, changed and written back each operation */
};

/* Runs sql (no parameters, or n text parameters); true when its status is
 * want. The result goes to *out when out is not NULL. */
static bool
run(struct ledger_pg *p, const char *sql, int n, const char *const *params, ExecStatusType want,
    PGresult **out, char *err, size_t errlen)
{
	/* Without parameters, the simple protocol, which takes several
	 * statements (the schema). */
	PGresult *r = params == NULL ? PQexec(p->c, sql)
	                             : PQexecParams(p->c, sql, n, NULL, params, NULL, NULL, 0);
	bool ok = PQresultStatus(r) == want;

	if (!ok) {
		const char *why = PQresultErrorMessage(r);

		snprintf(err, errlen, "%.*s", (int)strcspn(why, "\n"), why);
	}
	if (out != NULL && ok)
		*out = r;
	else
		PQclear(r);
	return ok;
}

static bool
connect_pg(struct ledger_pg *p, char *err, size_t errlen)
{
	/* Named apart from the store's connections (after dbname, so it wins
	 * over a conninfo's application_name); a connect_timeout the conninfo
	 * gives wins over ours (before dbname), which keeps an unreachable
	 * server from holding this worker thread for minutes. */
	static const char *const kw[] = {"connect_timeout", "dbname", "application_name",
	                                 "password", NULL};
	const char *values[] = {"10", p->conninfo, "delver-identify", p->password, NULL};

	if (p->c != NULL && PQstatus(p->c) == CONNECTION_OK)
		return true;
	PQfinish(p->c);
	p->c = PQconnectdbParams(kw, values, 1);
	if (PQstatus(p->c) != CONNECTION_OK) {
		const char *why = PQerrorMessage(p->c);

		snprintf(err, errlen, "cannot connect to PostgreSQL: %.*s", (int)strcspn(why, "\n"),
		         why);
		PQfinish(p->c);
		p->c = NULL;
		return false;
	}
	store_pg_sql_quiet_notices(p->c);
	if (p->have_tables)
		return true;
	if (!run(p, "BEGIN", 0, NULL, PGRES_COMMAND_OK, NULL, err, errlen) ||
	    !run(p, "SELECT pg_advisory_xact_lock(" LOCK_KEY ")", 0, NULL, PGRES_TUPLES_OK, NULL,
	         err, errlen) ||
	    !run(p, schema, 0, NULL, PGRES_COMMAND_OK, NULL, err, errlen) ||
	    !run(p, "COMMIT", 0, NULL, PGRES_COMMAND_OK, NULL, err, errlen)) {
		PQfinish(p->c);
		p->c = NULL;
		return false;
	}
	p->have_tables = true;
	return true;
}

static int64_t
num(const PGresult *r, int row, int col)
{
	return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

/* Reads the record and the server's clock, in the open transaction. */
static bool
read_rec(struct ledger_pg *p, int64_t *now, char *err, size_t errlen)
{
	struct ledger_rec *r = &p->rec;
	PGresult *res;

	memset(r, 0, sizeof(*r));
	if (!run(p,
	         "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint, total, "
	         "remaining, reset_at_ms, refused_count, refused_code, refused_recommended, "
	         "refused_at_ms FROM (SELECT 1) one LEFT JOIN discord_budget ON id = 1",
	         0, NULL, PGRES_TUPLES_OK, &res, err, errlen))
		return false;
	*now = num(res, 0, 0);
	if (!PQgetisnull(res, 0, 1)) {
		r->total = (int)num(res, 0, 1);
		r->remaining = (int)num(res, 0, 2);
		r->reset_at = num(res, 0, 3);
		r->refused_count = (int)num(res, 0, 4);
		r->refused_code = (int)num(res, 0, 5);
		r->refused_recommended = (int)num(res, 0, 6);
		r->refused_at = num(res, 0, 7);
	}
	PQclear(res);
	if (!run(p,
	         "SELECT bucket, last_ms, lease_until_ms, owner FROM discord_identify ORDER BY "
	         "bucket LIMIT 256",
	         0, NULL, PGRES_TUPLES_OK, &res, err, errlen))
		return false;
	for (int i = 0; i < PQntuples(res) && r->nb < LEDGER_BUCKETS_MAX; i++) {
		struct ledger_bucket *b = &r->b[r->nb++];

		b->id = (int)num(res, i, 0);
		b->last = num(res, i, 1);
		b->lease_until = num(res, i, 2);
		snprintf(b->owner, sizeof(b->owner), "%s", PQgetvalue(res, i, 3));
	}
	PQclear(res);
	return true;
}

static bool
write_rec(struct ledger_pg *p, char *err, size_t errlen)
{
	const struct ledger_rec *r = &p->rec;
	char v[8][24];
	const char *params[8];

	snprintf(v[0], sizeof(v[0]), "%d", r->total);
	snprintf(v[1], sizeof(v[1]), "%d", r->remaining);
	snprintf(v[2], sizeof(v[2]), "%" PRId64, r->reset_at);
	snprintf(v[3], sizeof(v[3]), "%d", r->refused_count);
	snprintf(v[4], sizeof(v[4]), "%d", r->refused_code);
	snprintf(v[5], sizeof(v[5]), "%d", r->refused_recommended);
	snprintf(v[6], sizeof(v[6]), "%" PRId64, r->refused_at);
	for (int i = 0; i < 7; i++)
		params[i] = v[i];
	if (!run(p,
	         "INSERT INTO discord_budget VALUES (1, $1, $2, $3, $4, $5, $6, $7) ON CONFLICT "
	         "(id) DO UPDATE SET total = $1, remaining = $2, reset_at_ms = $3, "
	         "refused_count = $4, refused_code = $5, refused_recommended = $6, "
	         "refused_at_ms = $7",
	         7, params, PGRES_COMMAND_OK, NULL, err, errlen))
		return false;
	for (int i = 0; i < r->nb; i++) {
		snprintf(v[0], sizeof(v[0]), "%d", r->b[i].id);
		snprintf(v[1], sizeof(v[1]), "%" PRId64, r->b[i].last);
		snprintf(v[2], sizeof(v[2]), "%" PRId64, r->b[i].lease_until);
		params[0] = v[0];
		params[1] = v[1];
		params[2] = v[2];
		params[3] = r->b[i].owner;
		if (!run(
		        p,
		        "INSERT INTO discord_identify VALUES ($1, $2, $3, $4) ON CONFLICT (bucket) "
		        "DO UPDATE SET last_ms = $2, lease_until_ms = $3, owner = $4",
		        4, params, PGRES_COMMAND_OK, NULL, err, errlen))
			return false;
	}
	return true;
}

static int
pg_exec(struct ledger_backend *base, const struct ledger_op *op, struct ledger_result *res)
{
	struct ledger_pg *p = (struct ledger_pg *)base;
	char err[256] = "";
	int64_t now = 0;
	bool ok = connect_pg(p, err, sizeof(err)) &&
	          run(p, "BEGIN", 0, NULL, PGRES_COMMAND_OK, NULL, err, sizeof(err)) &&
	          run(p, "SELECT pg_advisory_xact_lock(" LOCK_KEY ")", 0, NULL, PGRES_TUPLES_OK,
	              NULL, err, sizeof(err)) &&
	          read_rec(p, &now, err, sizeof(err));

	if (ok) {
		discord_ledger_apply(&p->rec, op, now, res);
		ok = write_rec(p, err, sizeof(err)) &&
		     run(p, "COMMIT", 0, NULL, PGRES_COMMAND_OK, NULL, err, sizeof(err));
	}
	/* Operations are rare (a few per session started): no connection is
	 * kept idle between them. */
	PQfinish(p->c);
	p->c = NULL;
	if (!ok) {
		memset(res, 0, sizeof(*res));
		res->status = -1;
		snprintf(res->err, sizeof(res->err), "%s", err);
		return -1;
	}
	return 0;
}

static void
pg_close(struct ledger_backend *base)
{
	struct ledger_pg *p = (struct ledger_pg *)base;

	PQfinish(p->c);
	free(p->conninfo);
	if (p->password != NULL) {
		explicit_bzero(p->password, strlen(p->password));
		free(p->password);
	}
	free(p);
}

struct ledger_backend *
discord_ledger_pg(const char *conninfo, const char *password)
{
	struct ledger_pg *p = xcalloc(1, sizeof(*p));

	p->base.exec = pg_exec;
	p->base.close = pg_close;
	p->base.where = "PostgreSQL";
	p->conninfo = xstrdup(conninfo);
	if (password != NULL) {
		p->password = xstrdup(password);
		log_secret(p->password);
	}
	return &p->base;
}
