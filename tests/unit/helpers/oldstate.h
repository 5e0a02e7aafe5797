/*
 * oldstate: a minimal writer of the journal-and-snapshot format that delver
 * wrote before its SQLite store (bot/store/store_record.h describes the lines), so
 * that the tests of the importer (restore.c, persist's import_old) can make
 * state directories as that code left them. delver itself no longer writes
 * the format. Files are written directly (no temporary file, no fsync): a
 * test's scratch directory needs no durability.
 *
 * Every function fails the running cmocka test when it cannot write.
 */
#ifndef DELVER_TEST_OLDSTATE_H
#define DELVER_TEST_OLDSTATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "commands/core/state.h"

/* Writes DIR/snapshot.dlv holding st as the old store did: its header
 * (taken, next_journal), every channel that is not empty, every user,
 * then the end line counting them. */
void oldstate_snapshot(const char *dir, struct state *st, int64_t taken, uint64_t next_journal);

/* Creates DIR/journal.<seq>.dlv with its header; returns it open for
 * appending (fclose it). */
FILE *oldstate_journal(const char *dir, uint64_t seq);
/* Appends lines (whole "<crc> <json>\n" lines, as store_record_encode makes). */
void oldstate_append(FILE *j, const char *lines, size_t len);
/* Appends the record of a channel or user as one line. */
void oldstate_channel(FILE *j, const struct channel *ch);
void oldstate_user(FILE *j, const struct user *u);

#endif
