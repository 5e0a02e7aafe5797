/* Tests for bot/discord/discord_ws: the teardown of the libwebsockets
 * context closes no descriptor that it does not own. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "bot/discord/discord_ws.h"

#define OPENED 16 /* files opened between the two passes */

/* Opens /dev/null OPENED times into fds. */
static void
open_files(int *fds)
{
	for (int i = 0; i < OPENED; i++) {
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		assert_true(fds[i] >= 0);
	}
}

/* Each of fds is still open (fcntl answers for it), then closed here. */
static void
assert_open_and_close(const int *fds)
{
	for (int i = 0; i < OPENED; i++) {
		if (fcntl(fds[i], F_GETFD) < 0)
			fail_msg("descriptor %d, opened after the teardown began, was closed by it",
			         fds[i]);
		assert_int_equal(close(fds[i]), 0);
	}
}

/* A context started on loop (initialised here) that has run once. */
static struct discord_wsctx *
started(uv_loop_t *loop)
{
	struct discord_wsctx *x;

	assert_int_equal(uv_loop_init(loop), 0);
	x = discord_wsctx_new(loop, true);
	assert_non_null(x);
	uv_run(loop, UV_RUN_NOWAIT);
	return x;
}

/* Files opened right after the first pass of the teardown take the lowest
 * free numbers, the ones libwebsockets has just closed among them; the
 * loop iteration that finishes closing its handles must leave them open. */
static void
test_files_opened_during_the_teardown_stay_open(void **state)
{
	uv_loop_t loop;
	struct discord_wsctx *x;
	int fds[OPENED];

	(void)state;
	x = started(&loop);
	discord_wsctx_shutdown(x);
	open_files(fds);
	uv_run(&loop, UV_RUN_DEFAULT); /* libwebsockets' handles finish closing */
	assert_open_and_close(fds);
	discord_wsctx_free(x);
	assert_int_equal(uv_loop_close(&loop), 0);
}

/* Without a first pass while the loop ran (a start that failed), the free
 * makes both, and still closes nothing of anyone else's. */
static void
test_free_alone_makes_both_passes(void **state)
{
	uv_loop_t loop;
	struct discord_wsctx *x;
	int fds[OPENED];

	(void)state;
	x = started(&loop);
	discord_wsctx_free(x);
	open_files(fds);
	assert_open_and_close(fds);
	assert_int_equal(uv_loop_close(&loop), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_files_opened_during_the_teardown_stay_open),
	    cmocka_unit_test(test_free_alone_makes_both_passes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
