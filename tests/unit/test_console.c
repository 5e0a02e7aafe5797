/*
 * bot/console on a real loop: stdin as a pipe and as a file, read to EOF,
 * stopped and freed. Under ASan the leak checker sees every path that
 * frees a console (the handle's close callback, the file read's callback).
 */
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

#include "bot/console/console.h"
#include "commands/dispatch.h"
#include "rules/base/rng.h"

struct run {
	struct console *c;
	int eofs;
};

static void
on_eof(void *ctx)
{
	struct run *r = ctx;

	r->eofs++;
	console_stop(r->c);
}

/* Runs a console whose stdin is fd until EOF; returns what it printed. */
static char *
run_console(int fd)
{
	struct dispatch d = {.state = state_new(), .rng = rng_new_seeded(1)};
	struct console_opts o = {.user = "gm", .channel = "t", .ansi = false};
	char out_path[] = "/tmp/delver-console-XXXXXX";
	int saved_in = dup(STDIN_FILENO), saved_out = dup(STDOUT_FILENO);
	int out = mkstemp(out_path);
	struct run r = {0};
	uv_loop_t loop;
	char *text = calloc(1, 4096);

	assert_true(out >= 0 && text != NULL);
	assert_int_equal(uv_loop_init(&loop), 0);
	fflush(stdout);
	assert_true(dup2(fd, STDIN_FILENO) >= 0 && dup2(out, STDOUT_FILENO) >= 0);
	close(fd);
	r.c = console_start(&loop, &d, &o, on_eof, &r);
	assert_non_null(r.c);
	uv_run(&loop, UV_RUN_DEFAULT);
	fflush(stdout);
	assert_true(dup2(saved_in, STDIN_FILENO) >= 0 && dup2(saved_out, STDOUT_FILENO) >= 0);
	close(saved_in);
	close(saved_out);
	assert_int_equal(r.eofs, 1);
	assert_int_equal(uv_loop_close(&loop), 0);
	assert_true(pread(out, text, 4095, 0) > 0);
	close(out);
	unlink(out_path);
	state_free(d.state);
	rng_free(d.rng);
	return text;
}

static const char input[] = "/roll 1d6\n/gm claim\n";

static void
pipe_stdin(void **unused)
{
	int p[2];
	char *text;

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], input, strlen(input)), (ssize_t)strlen(input));
	close(p[1]);
	text = run_console(p[0]);
	assert_non_null(strstr(text, "gm rolls"));
	assert_non_null(strstr(text, "gm is now the GM"));
	free(text);
}

static void
file_stdin(void **unused)
{
	char path[] = "/tmp/delver-console-in-XXXXXX";
	int fd = mkstemp(path);
	char *text;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, input, strlen(input)), (ssize_t)strlen(input));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	unlink(path);
	text = run_console(fd);
	assert_non_null(strstr(text, "gm rolls"));
	assert_non_null(strstr(text, "gm is now the GM"));
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(pipe_stdin),
	    cmocka_unit_test(file_stdin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
