/* pgcluster: a throwaway PostgreSQL cluster for a test; see pgcluster.h. */
#include "tests/unit/helpers/pgcluster.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

char pgcluster_dir[] = "/tmp/delver-test-pg-XXXXXX";
char pgcluster_conninfo[600];

int
pgcluster_run(const char *cmd, char *out, size_t outlen)
{
	char line[700];
	FILE *f;

	snprintf(line, sizeof(line), "PG_FSYNC=off sh tests/tools/pg_cluster.sh %s %s", cmd,
	         pgcluster_dir);
	f = popen(line, "r");
	if (f == NULL)
		return -1;
	if (out != NULL && fgets(out, (int)outlen, f) != NULL)
		out[strcspn(out, "\n")] = '\0';
	while (fgets(line, sizeof(line), f) != NULL)
		; /* read to the end: no SIGPIPE for the script */
	return pclose(f);
}

int
pgcluster_setup(const char *prog)
{
	if (mkdtemp(pgcluster_dir) == NULL)
		return -1;
	if (pgcluster_run("start", pgcluster_conninfo, sizeof(pgcluster_conninfo)) != 0) {
		fprintf(stderr, "%s: the PostgreSQL cluster did not start\n", prog);
		return -1;
	}
	return 0;
}

int
pgcluster_teardown(void)
{
	char cmd[200];

	pgcluster_run("stop", NULL, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", pgcluster_dir);
	return system(cmd) == 0 ? 0 : -1;
}

void
pgcluster_exec(const char *sql)
{
	PGconn *c = PQconnectdb(pgcluster_conninfo);
	PGresult *r = PQexec(c, sql);

	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(c));
	PQclear(r);
	PQfinish(c);
}
