/* Unit tests for bot/store/keyset.c: a set of record ids by hash. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>

#include "bot/store/keyset.h"

/* Members come and go in any order, through growth and the backward shift
 * of deletions, and the set answers exactly as a plain list would. */
static void
agrees_with_a_list(void **state)
{
	enum {
		N = 5000
	};
	static bool in[N];
	struct keyset *s = keyset_new();
	char key[32];
	uint64_t h[N];
	size_t n = 0;

	for (int i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "discord:%d", i * 7919);
		h[i] = keyset_hash('c', key);
	}
	/* Every third in, then every other out, then some back. */
	for (int i = 0; i < N; i += 3) {
		keyset_add(s, h[i]);
		in[i] = true;
		n++;
	}
	keyset_add(s, h[0]); /* twice is once */
	for (int i = 0; i < N; i += 2) {
		keyset_remove(s, h[i]);
		n -= in[i];
		in[i] = false;
	}
	for (int i = 0; i < N; i += 5) {
		keyset_add(s, h[i]);
		n += !in[i];
		in[i] = true;
	}
	for (int i = 0; i < N; i++)
		assert_int_equal(keyset_has(s, h[i]), in[i]);
	assert_int_equal(keyset_count(s), n);
	keyset_free(s);
}

/* The kind is part of the id: a channel and a user of one key differ. */
static void
kinds_differ(void **state)
{
	struct keyset *s = keyset_new();

	keyset_add(s, keyset_hash('c', "console:ann"));
	assert_true(keyset_has(s, keyset_hash('c', "console:ann")));
	assert_false(keyset_has(s, keyset_hash('u', "console:ann")));
	assert_int_not_equal(keyset_hash('c', "a"), keyset_hash('c', "b"));
	keyset_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(agrees_with_a_list),
	    cmocka_unit_test(kinds_differ),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
