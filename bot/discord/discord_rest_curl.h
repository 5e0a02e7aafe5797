/*
 * discord_rest_curl: the requests discord_rest hands to libcurl, and the
 * connections of discord_rest_h1's road, which libcurl makes.
 *
 * Easy handles carry the options every request shares and are kept for
 * reuse (POOL_MAX); a request sets only its own. The multi handles run on
 * the loop through discord_rest_io. Every transfer libcurl finishes ends
 * in discord_rest__finish (discord_rest_int.h), as discord_rest_h1's
 * answers do.
 */
#ifndef DELVER_DISCORD_REST_CURL_H
#define DELVER_DISCORD_REST_CURL_H

#include <curl/curl.h>
#include <stdbool.h>

struct rest;
struct req;
struct curlio;

/* Sets the options every connection shares (TLS, proxy, timeouts) on e,
 * whose sockets io watches. */
void discord_rest_curl_conn_opts(struct rest *r, CURL *e, struct curlio *io);
/* q, counted active, goes to libcurl (r->io): on the wire at the next
 * discord_rest_curl_kick. */
void discord_rest_curl_start(struct rest *r, struct req *q);
/*
 * Hands libcurl the requests discord_rest_curl_start just added, in this
 * turn of the loop. A transfer over already (its answer read at once, or
 * dropped past its deadline) is taken before the loop next waits
 * (r->ended): no callback of a request runs inside the discord_rest_call
 * that made it.
 */
void discord_rest_curl_kick(struct rest *r);
/* q, counted active already, goes through libcurl (discord_rest_h1 could
 * not take it); sent in this turn. */
void discord_rest_curl_spill(struct rest *r, struct req *q);
/* Takes the transfers libcurl has finished (their answers, retries and
 * callbacks), then sends what may go now. */
void discord_rest_curl_check(struct rest *r);
/* io becomes a multi handle on r's loop; check takes what it finished.
 * keep_idle: see struct curlio. Its timer counts among r's open handles. */
void discord_rest_curl_io_init(struct rest *r, struct curlio *io, bool keep_idle,
                               void (*check)(struct rest *));
/* Closes io's multi handle and its loop handles (none made: nothing). */
void discord_rest_curl_io_close(struct curlio *io);

#endif
