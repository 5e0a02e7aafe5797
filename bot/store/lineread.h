/*
 * lineread: reads a state file of the old format line by line (restore.h,
 * for the import), with pread(2). Each line comes with its byte offset and
 * number.
 */
#ifndef DELVER_LINEREAD_H
#define DELVER_LINEREAD_H

#include <stddef.h>
#include <stdint.h>

enum lineread_status {
	LINEREAD_TOOLONG = -2, /* a line longer than max bytes */
	LINEREAD_ERROR = -1,   /* read(2) failed: errno is set */
	LINEREAD_END = 0,      /* no more bytes */
	LINEREAD_LINE = 1,     /* a whole line (its newline is not included) */
	LINEREAD_TORN = 2,     /* the last bytes of the file, with no newline */
};

struct lineread {
	int fd;
	char *buf;
	size_t cap, start, end; /* buf[start, end) holds bytes not yet returned */
	uint64_t off;           /* file offset of buf[0] */
	size_t chunk;           /* bytes asked of each pread */
	size_t max;             /* longest line, with its newline */
	int eof;
	unsigned long lineno; /* of the line last returned, from 1 */
};

/* Reads fd from offset from, in reads of chunk bytes, lines up to max
 * bytes. The fd stays the caller's; lineread_free frees the buffer. */
void lineread_init(struct lineread *lr, int fd, uint64_t from, size_t chunk, size_t max);
void lineread_free(struct lineread *lr);

/* The next line: *line and *len point into the reader's buffer (valid until
 * the next call), *at is its file offset. */
enum lineread_status lineread_next(struct lineread *lr, const char **line, size_t *len,
                                   uint64_t *at);

#endif
