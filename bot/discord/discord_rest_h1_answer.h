/*
 * discord_rest_h1_answer: one HTTP/1.1 answer read by http_parser 2.9.4,
 * for discord_rest_h1: its status, its headers handed line by line to
 * discord_rest_answer_line (as libcurl's header callback is), its body
 * into a capped buffer. A 1xx answer (100 Continue) is skipped: what it
 * said is forgotten when the next begins. An answer that arrives whole in
 * the first bytes read and has the plain shape Discord's answers have is
 * read there without http_parser, to the same result. No I/O.
 *
 * Ownership: the caller owns the struct, the headers' and the body's
 * storage it is given; long_bucket is the struct's until taken.
 */
#ifndef DELVER_DISCORD_REST_H1_ANSWER_H
#define DELVER_DISCORD_REST_H1_ANSWER_H

#include <http_parser.h>
#include <stdbool.h>
#include <stddef.h>

#include "bot/discord/discord_rest_answer.h"
#include "rules/base/buf.h"

struct discord_rest_h1_answer {
	http_parser p;
	struct discord_rest_answer *hd;
	struct buf *body;
	struct buf line;   /* the header line being read: "Name: value" */
	char *long_bucket; /* an X-RateLimit-Bucket too long for hd (malloc'd) */
	long status;
	bool complete, too_big, in_value;
	bool fed;   /* http_parser was given some of the answer */
	bool plain; /* read whole at once, without http_parser (kept alive) */
};

enum discord_rest_h1_read {
	DISCORD_REST_H1_MORE,    /* the answer is not whole yet */
	DISCORD_REST_H1_DONE,    /* whole: status, headers, body */
	DISCORD_REST_H1_BAD,     /* not HTTP, or a header line past 8 KB */
	DISCORD_REST_H1_TOO_BIG, /* the body passed body's cap */
	DISCORD_REST_H1_CUT,     /* the connection ended inside the answer */
};

void discord_rest_h1_answer_init(struct discord_rest_h1_answer *a);
void discord_rest_h1_answer_free(struct discord_rest_h1_answer *a);
/* Ready for a new answer, read into hd and body (both emptied). */
void discord_rest_h1_answer_begin(struct discord_rest_h1_answer *a, struct discord_rest_answer *hd,
                                  struct buf *body);
/* Reads n bytes of it (n == 0: the connection ended); *used: how many of
 * them belonged to the answer. */
enum discord_rest_h1_read discord_rest_h1_answer_read(struct discord_rest_h1_answer *a,
                                                      const char *p, size_t n, size_t *used);
/* Whether the connection may carry another request after a DONE answer. */
bool discord_rest_h1_answer_keep(const struct discord_rest_h1_answer *a);

#endif
