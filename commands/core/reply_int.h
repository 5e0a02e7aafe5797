/*
 * reply_int: the inside of struct reply, shared by reply.c (the arena, the
 * messages, their lines, tables and buttons), reply_fmt.c (text made safe
 * and formatted into the arena) and reply_ref.c (command references).
 * Nothing else includes it: everyone else sees the opaque struct of reply.h.
 */
#ifndef DELVER_REPLY_INT_H
#define DELVER_REPLY_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/core/reply.h"

/* One span's text may not exceed this; longer text is cut with an ellipsis
 * by the command that builds it, never by the renderer. */
#define SPAN_MAX 8192

/* Every string and array of a reply comes from its arena: a reply lives
 * for one command, so it is freed in one go instead of piece by piece. */
struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct reply {
	struct chunk *arena;
	struct reply_msg msg[REPLY_AUDIENCES];
	size_t cap_blocks[REPLY_AUDIENCES]; /* allocated blocks per message */
	enum reply_audience cur;
	bool line_open[REPLY_AUDIENCES];
	char *gm_key, *gm_name; /* the GM message's recipient, in the arena */
	char *gm_fallback;      /* where it goes when it cannot, in the arena */
	char *gm_aside;         /* what it is, when an aside (reply_gm_aside), in the arena */
	bool error;
	char *error_text;
	char *panel; /* reply_panel's message id ("" none), in the arena; NULL: not a panel */
	struct reply_ask ask; /* its strings in the arena; line NULL: none */
	bool ask_given;       /* reply_ask_given */
};

#define CHUNK_SIZE 4096

/* n bytes aligned for any struct, from the reply's arena (freed with it). */
void *reply__alloc(struct reply *r, size_t n);
/* A NUL-terminated copy of s[0..n) in the arena, as it is. */
char *reply__copy(struct reply *r, const char *s, size_t n);
/* A new span on the current message's open line (a line is started when
 * none is open), in style and, when us is not NULL, in that player's style;
 * the caller sets its text and len. */
struct reply_span *reply__push_span(struct reply *r, unsigned style,
                                    const struct thwacko_style *us);
/* After reply_error, spans added to the error's line (a command
 * reference, the end of the sentence) extend the error's text. */
void reply__error_extend(struct reply *r);

#endif
