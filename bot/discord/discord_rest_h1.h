/*
 * discord_rest_h1: the road of what an interaction's token authorises,
 * for discord_rest: callbacks, follow-ups and edits (POST and PATCH with a
 * JSON body on /interactions/... and /webhooks/{id}/{token}...).
 *
 * POST /interactions/{id}/{token}/callback is what every interaction
 * waits on. Through libcurl 7.88 one costs about 78,000 instructions
 * (curl_multi_socket_action 66,000: see discord_rest_curl.c); here about
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
 * A request other than a callback (REST_CALLBACK) that finds none free
 * goes through libcurl at once. A callback that finds them all busy or
 * still connecting waits, in order
 * of arrival, for the next one free (a burst faster than TLS handshakes
 * would otherwise have libcurl make connections of its own: more
 * handshakes, more CPU). It goes through libcurl instead, and nothing is
 * lost, when:
 * - its connection could not be made (then every request waiting goes
 *   too when it was refused: the road cannot connect now; when it timed
 *   out, stalled, those waiting go on other connections);
 * - its connection is still connecting (a TCP or TLS handshake stalled)
 *   DISCORD_REST_H1_SLOW_MS after it took it, or when its deadline is
 *   DISCORD_REST_H1_WAIT_MS away, if sooner: the connection goes on
 *   connecting, for the requests after it;
 * - it has waited DISCORD_REST_H1_WAIT_MS;
 * - its deadline (discord_rest_call_until) is less than twice
 *   DISCORD_REST_H1_WAIT_MS away when it comes: it does not wait at all,
 *   so one that waits still has DISCORD_REST_H1_WAIT_MS when it leaves;
 * - DISCORD_REST_H1_WAITERS wait already.
 * A callback's deadline is Discord's 3 s less discord_shed's margin for
 * the trip (SHED_MARGIN_MS); DISCORD_REST_H1_WAIT_MS is a TLS handshake's
 * few round trips many times over, and leaves a spilled callback time for
 * one more handshake of libcurl's. Every answer ends in
 * discord_rest__finish, as libcurl's do (429, 5xx, retries, buckets).
 * A kept connection the server closed before any byte of the answer came
 * is not a failed try: the request goes once more on a fresh one, unless
 * its deadline passed meanwhile (then it completes expired, unsent).
 * An idle connection is watched: the server closing it closes it here;
 * readable without application data (TLS 1.3 session tickets) is nothing.
 */
#ifndef DELVER_DISCORD_REST_H1_H
#define DELVER_DISCORD_REST_H1_H

#include <stdbool.h>

#define DISCORD_REST_H1_CONNS   16
#define DISCORD_REST_H1_WAIT_MS 250 /* the longest a request waits for a connection */
#define DISCORD_REST_H1_WAITERS 64  /* requests waiting at most */
/* The longest a request waits on a connection still connecting. */
#define DISCORD_REST_H1_SLOW_MS 1000

struct rest;
struct req;
struct h1;

/* The road for r, with at most conns connections (0: none, NULL). */
struct h1 *discord_rest_h1_new(struct rest *r, int conns);
/* Whether q is a request this road carries (see above). */
bool discord_rest_h1_wants(const struct rest *r, const struct req *q);
/* Takes q (counted active already; never completes it here), on a
 * connection or to wait for one: false when it cannot (see above), and q
 * goes through libcurl. */
bool discord_rest_h1_send(struct h1 *h, struct req *q);
/* Closes every connection; the requests on them and those waiting are
 * left in r's active list, for discord_rest_close to complete. Frees h once its handles
 * closed (counted in r's open handles). */
void discord_rest_h1_close(struct h1 *h);
/* The requests waiting for a connection of h's now. */
int discord_rest_h1_waiting(const struct h1 *h);

#endif
