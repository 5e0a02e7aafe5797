/* mem: allocation that never returns NULL; see mem.h for why. */
#include "rules/base/mem.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
oom(void)
{
	static const char msg[] = "delver: out of memory\n";
	ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);

	(void)ignored;
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		oom();
	return q;
}

char *
xstrdup(const char *s)
{
	return s ? xstrndup(s, strlen(s)) : NULL;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}
