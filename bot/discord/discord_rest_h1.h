/*
 * discord_rest_h1: the road of interaction callbacks, for discord_rest.
 *
 * POST /interactions/{id}/{token}/callback is what every interaction
 * waits on. Through libcurl 7.88 one costs about 78,000 instructions
 * (curl_multi_socket_action 66,000: see discord_rest.c); here about
 * 10,000: libcurl only makes the connections (TLS with the verify
 * options, the proxy, HTTP/1.1 by ALPN), with CURLOPT_CONNECT_ONLY in a
 * multi handle of their own (r->connect_io: connect-only handles among
 * the transfers kept those under CURLOPT_PIPEWAIT waiting for ever), and
 * the request is written here, sent and read with curl_easy_send and
 * curl_easy_recv (through libcurl's TLS), its answer read by http_parser.
 * In the daemon (bench_discord at 25/s under callgrind, plain HTTP to the
 * fake): /tension show 158,610 -> 103,723 instructions an interaction,
 * /roll 219,378 -> 170,667.
 *
 * Up to DISCORD_REST_H1_CONNS connections, one request at a time each.
 * A request no connection can take (all busy, or its connection could
 * not be made) goes through libcurl: nothing is lost. Every answer ends
 * in discord_rest__done, as libcurl's do (429, 5xx, retries, buckets).
 * A kept connection the server closed before any byte of the answer came
 * is not a failed try: the request goes once more on a fresh one.
 * An idle connection is watched: the server closing it closes it here;
 * readable without application data (TLS 1.3 session tickets) is nothing.
 */
#ifndef DELVER_DISCORD_REST_H1_H
#define DELVER_DISCORD_REST_H1_H

#include <stdbool.h>

#define DISCORD_REST_H1_CONNS 16

struct rest;
struct req;
struct h1;

/* The road for r, with at most conns connections (0: none, NULL). */
struct h1 *discord_rest_h1_new(struct rest *r, int conns);
/* Whether q is an interaction callback this road carries. */
bool discord_rest_h1_wants(const struct rest *r, const struct req *q);
/* Takes q (counted active already; never completes it here): false when
 * no connection can, and q goes through libcurl. */
bool discord_rest_h1_send(struct h1 *h, struct req *q);
/* Closes every connection; the requests on them are left in r's active
 * list, for discord_rest_close to complete. Frees h once its handles
 * closed (counted in r's open handles). */
void discord_rest_h1_close(struct h1 *h);
/* The connections made so far (for tests). */
unsigned discord_rest_h1_connects(const struct h1 *h);

#endif
