/*
 * pgcluster: a throwaway PostgreSQL cluster for one test program, run by
 * tests/tools/pg_cluster.sh (initdb in a temporary directory, a unix socket,
 * started and stopped by PID).
 *
 * Ownership: the directory and conninfo are this module's, valid between
 * pgcluster_setup() and pgcluster_teardown().
 */
#ifndef DELVER_PGCLUSTER_H
#define DELVER_PGCLUSTER_H

#include <stddef.h>

extern char pgcluster_dir[];      /* the cluster's directory (tests may put files there) */
extern char pgcluster_conninfo[]; /* libpq conninfo of its database */

/* Runs pg_cluster.sh cmd ("start", "stop") on the cluster; returns its exit
 * status, with its first output line in out (when out is not NULL). */
int pgcluster_run(const char *cmd, char *out, size_t outlen);
/* Makes the directory and starts the cluster. Returns 0, or -1 with a line
 * on stderr naming prog. */
int pgcluster_setup(const char *prog);
/* Stops the cluster and removes its directory. Returns 0, or -1. */
int pgcluster_teardown(void);
/* Runs one SQL command on the cluster's database; the test fails when it
 * does not complete. */
void pgcluster_exec(const char *sql);

#endif
