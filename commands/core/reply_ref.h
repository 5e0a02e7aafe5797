/*
 * reply_ref: command references in a reply (struct reply_cmdref), the
 * spans of reply_cmd, reply_usage and reply_text (reply.h), whose text is
 * the command as typed on the console.
 */
#ifndef DELVER_REPLY_REF_H
#define DELVER_REPLY_REF_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/core/reply.h"

/* One option of a reference being built: pieces of the caller's text. */
struct reply_ref_opt {
	const char *name, *value;
	size_t nlen, vlen;
	bool named;
};

/* A reference holds at most this many options; more are dropped. */
#define REPLY_REF_OPTS_MAX 16

/* Appends a command reference span (path[0..plen), then n options) to the
 * current line. */
void reply_ref_add(struct reply *r, unsigned style, const char *path, size_t plen,
                   const struct reply_ref_opt *in, size_t n);

#endif
