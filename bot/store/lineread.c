/* lineread: pread-based line reading; see lineread.h. */
#include "bot/store/lineread.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules/base/mem.h"

void
lineread_init(struct lineread *lr, int fd, uint64_t from, size_t chunk, size_t max)
{
	memset(lr, 0, sizeof(*lr));
	lr->fd = fd;
	lr->off = from;
	lr->chunk = chunk;
	lr->max = max;
}

void
lineread_free(struct lineread *lr)
{
	free(lr->buf);
	lr->buf = NULL;
}

/* Moves the unread bytes to the front and reads one more chunk. Returns
 * the bytes read, 0 at end of file, -1 on error. */
static ssize_t
fill(struct lineread *lr)
{
	ssize_t n;

	if (lr->start > 0) {
		memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
		lr->off += lr->start;
		lr->end -= lr->start;
		lr->start = 0;
	}
	if (lr->cap - lr->end < lr->chunk) {
		lr->cap = lr->end + lr->chunk;
		lr->buf = xrealloc(lr->buf, lr->cap);
	}
	do
		n = pread(lr->fd, lr->buf + lr->end, lr->chunk, (off_t)(lr->off + lr->end));
	while (n < 0 && errno == EINTR);
	if (n > 0)
		lr->end += (size_t)n;
	return n;
}

enum lineread_status
lineread_next(struct lineread *lr, const char **line, size_t *len, uint64_t *at)
{
	size_t scanned = 0;

	for (;;) {
		char *p = lr->buf == NULL ? NULL
		                          : memchr(lr->buf + lr->start + scanned, '\n',
		                                   lr->end - lr->start - scanned);
		ssize_t n;

		if (p != NULL) {
			*line = lr->buf + lr->start;
			*len = (size_t)(p - *line);
			*at = lr->off + lr->start;
			lr->start += *len + 1;
			lr->lineno++;
			return *len + 1 > lr->max ? LINEREAD_TOOLONG : LINEREAD_LINE;
		}
		scanned = lr->end - lr->start;
		if (scanned >= lr->max) {
			lr->lineno++;
			*at = lr->off + lr->start;
			return LINEREAD_TOOLONG;
		}
		if (lr->eof || (n = fill(lr)) == 0) {
			lr->eof = 1;
			if (lr->end == lr->start)
				return LINEREAD_END;
			*line = lr->buf + lr->start;
			*len = lr->end - lr->start;
			*at = lr->off + lr->start;
			lr->start = lr->end;
			lr->lineno++;
			return LINEREAD_TORN;
		}
		if (n < 0)
			return LINEREAD_ERROR;
	}
}
