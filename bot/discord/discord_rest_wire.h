/*
 * discord_rest_wire: what a REST request carries besides its body, for
 * discord_rest: its headers, its request target, and the proxy the
 * environment names. No I/O, no state; libcurl 7.88's costs that shaped
 * these choices are told in discord_rest_curl.c.
 *
 * Ownership: every function returns memory the caller owns (a header
 * list for curl_slist_free_all(), strings for free()). Out of memory
 * aborts (rules/base/mem.h).
 */
#ifndef DELVER_DISCORD_REST_WIRE_H
#define DELVER_DISCORD_REST_WIRE_H

#include <curl/curl.h>
#include <stddef.h>

/* libcurl 7.88 asks for "100-continue" before a body larger than this
 * (its EXPECT_100_THRESHOLD), unless an "Expect:" header says no. */
#define DISCORD_REST_WIRE_EXPECT_THRESHOLD (1024u * 1024u)

/*
 * The headers of every request of a kind: the bot's Authorization when
 * token is not NULL (routes an interaction's token authorises go without
 * it); body is 0 (no body), 1 (a JSON body) or 2 (a JSON body larger than
 * DISCORD_REST_WIRE_EXPECT_THRESHOLD, with "Expect:" so that libcurl does
 * not wait for a "100 Continue"). The token's copy is wiped from the
 * memory it was formatted in.
 */
struct curl_slist *discord_rest_wire_headers(const char *token, int body);

/*
 * The proxy and the hosts exempt from it that libcurl would find in the
 * environment for a URL of this scheme, by libcurl's rules: <scheme>_proxy,
 * then the same name in capitals (never HTTP_PROXY, which a CGI client
 * could set), then all_proxy and ALL_PROXY; no_proxy or NO_PROXY; an empty
 * variable does not count. Both are "" when none is named. Only the
 * variable's name is logged: a proxy URL may hold a password.
 */
void discord_rest_wire_proxy(const char *scheme, char **proxy, char **noproxy);

/* "scheme://host[:port]" of base, without a trailing '/'. */
char *discord_rest_wire_origin(CURLU *base);

/*
 * The request target for path (a path under the base URL, with an optional
 * query): base_path (base_len bytes) and path, after origin when origin is
 * not NULL (a plain-HTTP proxy is told the whole URL). Spaces and bytes
 * past ASCII are percent-encoded; NULL when path holds another control
 * character, which no request line may carry.
 */
char *discord_rest_wire_target(const char *origin, const char *base_path, size_t base_len,
                               const char *path);

#endif
