/*
 * walcheck: reads an SQLite write-ahead log (the delver.db-wal beside the
 * database) before SQLite opens the database, to find the frames SQLite's
 * recovery would silently drop.
 *
 * The format is SQLite's (https://www.sqlite.org/fileformat2.html#walformat):
 * a 32-byte header (magic, format version, page size, checkpoint sequence,
 * two salts, a checksum of the first 24 bytes), then frames of a 24-byte
 * header (page number, database size after a commit or 0, the two salts, a
 * cumulative checksum) and one page. Recovery reads frames from the first
 * on and stops at the first one whose salts differ from the header's, whose
 * page number is 0 or whose cumulative checksum fails; what follows the
 * last commit before it is dropped. Frames of an older generation (other
 * salts) after the current one are normal: a log restarted by a checkpoint
 * is written over from its start and not cut.
 *
 * A log is damaged when recovery would stop before frames of the current
 * generation: at a frame with the current salts that fails its checksum (or
 * has page number 0), or at a frame with other salts that has frames with
 * the current salts after it. A header that fails its checks makes SQLite
 * ignore the whole log, which is damage when whole frames follow. A frame
 * cut short at the end of the file (a write the process did not finish) is
 * not counted: SQLite never acknowledged it.
 */
#ifndef DELVER_WALCHECK_H
#define DELVER_WALCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The WAL header and frame header sizes. */
#define WALCHECK_HDR       32
#define WALCHECK_FRAME_HDR 24

struct walcheck {
	uint32_t page_size; /* 0 when the header fails its checks */
	long frames;        /* whole frames in the log */
	long readable;      /* frames recovery reads (to the first bad one) */
	long commits;       /* commit frames among them */
	long first_bad;     /* the first frame recovery stops at before current ones, or -1 */
	long lost_frames;   /* frames with the current salts from first_bad on */
	long lost_commits;  /* commit frames among them */
	bool bad_header;    /* the header fails its checks and whole frames follow */
	bool damaged;       /* bad_header or first_bad >= 0 */
};

/*
 * Reads the n bytes of a log at p into *out. Returns out->damaged. Any
 * bytes are accepted; nothing is read past p + n.
 */
bool walcheck_scan(const unsigned char *p, size_t n, struct walcheck *out);

/*
 * Checks the log db_path + "-wal" when there is one. When it is damaged,
 * copies it byte for byte to db_path + "-wal.damaged-" + the UTC time now
 * (YYYYMMDDTHHMMSSZ), with ".1", ".2", ... added when that name is taken (an
 * earlier copy is never overwritten), made durable, and puts one sentence
 * into msg naming the log, what cannot be read and where the copy is (or why
 * none could be made). Returns 1 when damaged (msg filled), 0 when there is
 * no log or it is whole, -1 when it cannot be read (msg filled). The log
 * itself is only read.
 */
int walcheck_keep(const char *db_path, time_t now, char *msg, size_t msglen);

#endif
