/*
 * unit_filter: runs a command under the system call filter of the shipped
 * unit (systemd/delver.service), as systemd would load it, so that the
 * benchmarks meet what delver meets in production.
 *
 * unit_filter [--quiet] COMMAND [ARG...]
 *
 * The list of allowed calls is generated at build time from the unit's
 * SystemCallFilter= lines by tests/tools/unit_filter_syscalls.sh (see its
 * comment for the rules it follows); every other call of the native
 * architecture fails with the unit's SystemCallErrorNumber= (EPERM), and a
 * call of another architecture kills the process, as with
 * SystemCallArchitectures=native. The filter is inherited by COMMAND and
 * every process it starts, and cannot be lifted. Unless --quiet, one line on
 * standard error says which filter applies. Exits 125 when the filter cannot
 * be loaded and 127 when COMMAND cannot be run.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit_filter_syscalls.h"

enum {
	UNIT_FILTER_EXIT_FILTER = 125,
	UNIT_FILTER_EXIT_EXEC = 127
};

/* Loads the filter into this process. Returns 0, or -1 with a sentence in
 * err. *allowed receives the number of calls this architecture knows among
 * the unit's list (names of other architectures' calls are skipped, as
 * systemd skips them). */
static int
unit_filter_load(size_t *allowed, char *err, size_t errlen)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(UNIT_FILTER_ERRNO));
	size_t n = sizeof(unit_filter_allowed) / sizeof(unit_filter_allowed[0]);
	int rc;

	*allowed = 0;
	if (ctx == NULL) {
		snprintf(err, errlen, "libseccomp could not create a filter (out of memory).");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		int nr = seccomp_syscall_resolve_name(unit_filter_allowed[i]);

		if (nr < 0)
			continue;
		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
		if (rc < 0) {
			snprintf(err, errlen, "libseccomp refused to allow %s: %s.",
			         unit_filter_allowed[i], strerror(-rc));
			seccomp_release(ctx);
			return -1;
		}
		(*allowed)++;
	}
	rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc < 0) {
		snprintf(err, errlen, "the kernel refused the seccomp filter: %s.", strerror(-rc));
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char err[256];
	size_t allowed;
	int first = 1, quiet = 0;

	if (argc > 1 && strcmp(argv[1], "--quiet") == 0) {
		quiet = 1;
		first = 2;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: unit_filter [--quiet] COMMAND [ARG...]\n");
		return 2;
	}
	if (unit_filter_load(&allowed, err, sizeof(err)) < 0) {
		fprintf(stderr, "unit_filter: %s\n", err);
		return UNIT_FILTER_EXIT_FILTER;
	}
	if (!quiet)
		fprintf(stderr, "unit_filter: %zu system calls allowed, others fail (%s)\n",
		        allowed, UNIT_FILTER_SOURCE);
	execvp(argv[first], argv + first);
	fprintf(stderr, "unit_filter: cannot run '%s': %s.\n", argv[first], strerror(errno));
	return UNIT_FILTER_EXIT_EXEC;
}
