/* stderrcap: stderr captured for a test; see stderrcap.h. */
#include "tests/unit/helpers/stderrcap.h"

#include <unistd.h>

int
stderrcap_begin(struct stderrcap *c)
{
	c->out[0] = '\0';
	c->f = tmpfile();
	if (c->f == NULL)
		return -1;
	fflush(stderr);
	c->saved = dup(2);
	dup2(fileno(c->f), 2);
	return 0;
}

const char *
stderrcap_end(struct stderrcap *c)
{
	size_t n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	rewind(c->f);
	n = fread(c->out, 1, sizeof(c->out) - 1, c->f);
	c->out[n] = '\0';
	fclose(c->f);
	return c->out;
}
