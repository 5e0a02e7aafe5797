/* discord_rest_wire: what a REST request carries besides its body; see
 * discord_rest_wire.h. */
#include "bot/discord/discord_rest_wire.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot/log.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

#ifndef DELVER_VERSION /* the fuzzing build does not pass it */
#define DELVER_VERSION "0"
#endif
#define USER_AGENT "DiscordBot (https://github.com/delver-bot/delver, " DELVER_VERSION ")"

/*
 * Routes an interaction's token authorises go without the bot token:
 * Discord does not need it there, and the token then travels only where it
 * must. Bodies under the threshold go without "Expect:": each header costs
 * libcurl work on every request (about 900 instructions for that empty
 * one), and Discord's bodies, a whole command list included, stay far
 * below it.
 */
struct curl_slist *
discord_rest_wire_headers(const char *token, int body)
{
	struct curl_slist *l = NULL;
	struct buf b;

	if (token != NULL) {
		buf_init(&b, 4096);
		buf_addf(&b, "Authorization: Bot %s", token);
		l = curl_slist_append(l, buf_str(&b));
		memset(b.p, 0, b.len); /* the token does not linger in freed memory */
		buf_free(&b);
	}
	/* Here rather than CURLOPT_USERAGENT, which libcurl formats into a
	 * header again for every request. */
	l = curl_slist_append(l, "User-Agent: " USER_AGENT);
	/* No Accept header: libcurl's default accepts anything, which says
	 * nothing (Discord answers JSON), and libcurl 7.88 formats each byte
	 * of a request through its printf, about 100 instructions a byte. */
	l = curl_slist_append(l, "Accept:");
	if (body > 0)
		l = curl_slist_append(l, "Content-Type: application/json");
	if (body > 1)
		l = curl_slist_append(l, "Expect:");
	return l;
}

/* The first of names set and not empty in the environment, or NULL. */
static const char *
env_first(const char *const *names, size_t n, const char **which)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = getenv(names[i]);

		if (v != NULL && v[0] != '\0') {
			*which = names[i];
			return v;
		}
	}
	return NULL;
}

/* Read once, when REST starts: left to libcurl, every request reads the
 * environment again (five getenv calls, about 1,500 instructions). */
void
discord_rest_wire_proxy(const char *scheme, char **proxy_out, char **noproxy_out)
{
	char lower[32], upper[32];
	const char *names[4] = {lower, upper, "all_proxy", "ALL_PROXY"}, *which = NULL;
	const char *no[2] = {"no_proxy", "NO_PROXY"}, *no_which = NULL, *proxy, *exempt;
	size_t i;

	for (i = 0; scheme[i] != '\0' && i + sizeof("_proxy") < sizeof(lower); i++) {
		lower[i] = (char)tolower((unsigned char)scheme[i]);
		upper[i] = (char)toupper((unsigned char)scheme[i]);
	}
	memcpy(lower + i, "_proxy", sizeof("_proxy"));
	memcpy(upper + i, "_PROXY", sizeof("_PROXY"));
	if (strcmp(lower, "http_proxy") == 0)
		names[1] = lower; /* HTTP_PROXY is not read */
	proxy = env_first(names, 4, &which);
	exempt = env_first(no, 2, &no_which);
	*proxy_out = xstrdup(proxy != NULL ? proxy : "");
	*noproxy_out = xstrdup(exempt != NULL ? exempt : "");
	if (proxy != NULL)
		log_info("discord: REST calls go through the proxy named in %s", which);
}

char *
discord_rest_wire_origin(CURLU *base)
{
	CURLU *u = curl_url_dup(base);
	char *url = NULL, *origin;
	size_t n;

	if (u == NULL || curl_url_set(u, CURLUPART_PATH, "/", 0) != CURLUE_OK ||
	    curl_url_set(u, CURLUPART_QUERY, NULL, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_URL, &url, 0) != CURLUE_OK)
		log_fatalx("libcurl cannot copy a URL handle");
	n = strlen(url);
	while (n > 0 && url[n - 1] == '/')
		n--;
	origin = xmalloc(n + 1);
	memcpy(origin, url, n);
	origin[n] = '\0';
	curl_free(url);
	curl_url_cleanup(u);
	return origin;
}

/*
 * For the base URL's handle that every request shares, with the target
 * set by CURLOPT_REQUEST_TARGET: libcurl copies a target into the request
 * as it is, where a URL of its own it would put together, parse and encode
 * again, about 100 instructions a byte for a path with an interaction's
 * token. A plain-HTTP proxy is given the whole URL, which libcurl cuts back
 * to its path for a host no_proxy exempts. Spaces and bytes past ASCII are
 * percent-encoded, as libcurl did.
 */
/* Whether each of the eight bytes at p is printable ASCII but a space
 * (0x21 to 0x7e), as the bytes of a path with an interaction's token are:
 * nothing there to refuse or encode. Each test flags a byte exactly when
 * it is below 0x21, DEL, or past ASCII. */
static bool
word_plain(const char *p)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t w, d;

	memcpy(&w, p, 8);
	d = w ^ (ones * 0x7f);
	return ((w | ((w - ones * 0x21) & ~w) | ((d - ones) & ~d)) & highs) == 0;
}

char *
discord_rest_wire_target(const char *origin, const char *base_path, size_t base_len,
                         const char *path)
{
	size_t olen = origin != NULL ? strlen(origin) : 0, n = strlen(path), extra = 0;
	char *t, *w;

	for (size_t i = 0; i < n;) {
		unsigned char c;

		if (n - i >= 8 && word_plain(path + i)) {
			i += 8;
			continue;
		}
		c = (unsigned char)path[i++];
		if (c < 0x20 || c == 0x7f)
			return NULL;
		if (c == ' ' || c > 0x7f)
			extra += 2;
	}
	t = xmalloc(olen + base_len + n + extra + 1);
	memcpy(t, origin != NULL ? origin : "", olen);
	memcpy(t + olen, base_path, base_len);
	w = t + olen + base_len;
	if (extra == 0) {
		memcpy(w, path, n + 1);
		return t;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)path[i];

		if (c == ' ' || c > 0x7f) {
			*w++ = '%';
			*w++ = "0123456789ABCDEF"[c >> 4];
			*w++ = "0123456789ABCDEF"[c & 15];
		} else {
			*w++ = (char)c;
		}
	}
	*w = '\0';
	return t;
}
