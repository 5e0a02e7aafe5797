/*
 * journal: one append-only journal file, DIR/journal.<seq>.dlv.
 *
 * A journal starts with a header line (record.h) and holds one record line
 * per change, in the order the changes were made. Files are numbered: a
 * snapshot records the first number it does not hold, so restore replays
 * the journals from that number up, in order.
 *
 * An append is whole or absent: when a write fails part-way the file is cut
 * back to where it was, and when even that fails the journal is marked
 * broken (persistence then starts a new file). A journal is reference
 * counted so that a background fsync can outlive its rotation; it is closed
 * when the last reference is released.
 */
#ifndef DELVER_JOURNAL_H
#define DELVER_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct journal;

/* Writes DIR/journal.<seq>.dlv (8 or more digits) into out. Returns 0, or
 * -1 when it does not fit. */
int journal_path(char *out, size_t size, const char *dir, uint64_t seq);
/* True when name is a journal file name; *seq is then its number. */
bool journal_parse_name(const char *name, uint64_t *seq);

/* Creates the file (it must not exist) with mode 0600, writes its header
 * and fsyncs it and the directory. Returns the journal (one reference), or
 * NULL with err, leaving no file behind. */
struct journal *journal_create(const char *dir, uint64_t seq, char *err, size_t errlen);

/* Appends one whole line (with its newline). Returns 0, or -1 with errno
 * set and the file as it was (or the journal marked broken). */
int journal_append(struct journal *j, const char *line, size_t len);
/* fsync(2) now. Returns 0, or -1 with errno set (the journal is then
 * marked broken: what the kernel kept is unknown). */
int journal_sync(struct journal *j);

int journal_fd(const struct journal *j);
uint64_t journal_seq(const struct journal *j);
/* Bytes written so far, and bytes known to be on disk. */
uint64_t journal_size(const struct journal *j);
uint64_t journal_synced(const struct journal *j);
/* Records that a background fsync begun at size bytes has succeeded. */
void journal_set_synced(struct journal *j, uint64_t size);
bool journal_broken(const struct journal *j);
/* True while nothing was appended after the header. */
bool journal_empty(const struct journal *j);
void journal_set_broken(struct journal *j);

void journal_hold(struct journal *j);
/* Drops a reference; the last one closes the file and frees j. */
void journal_release(struct journal *j);

#endif
