/* store_pg_sql: helpers for blocking libpq connections; see store_pg_sql.h. */
#include "bot/store/store_pg_sql.h"

#include <stdio.h>
#include <string.h>

#include "bot/log.h"

void
store_pg_sql_first_line(char *out, size_t outlen, const char *msg)
{
	if (msg == NULL || *msg == '\0')
		msg = "no message from libpq";
	snprintf(out, outlen, "%.*s", (int)strcspn(msg, "\n"), msg);
}

bool
store_pg_sql_exec(PGconn *c, const char *sql, char *why, size_t whylen)
{
	PGresult *r = PQexec(c, sql);
	bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;

	if (!ok)
		store_pg_sql_first_line(why, whylen, PQresultErrorMessage(r));
	PQclear(r);
	return ok;
}

static void
quiet_notice(void *arg, const char *message)
{
	(void)arg;
	log_debug("store: PostgreSQL says: %.*s", (int)strcspn(message, "\n"), message);
}

void
store_pg_sql_quiet_notices(PGconn *c)
{
	PQsetNoticeProcessor(c, quiet_notice, NULL);
}
