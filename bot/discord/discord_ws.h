/*
 * discord_ws: the gateway's websocket, on the application's libuv loop.
 *
 * libwebsockets runs on the same uv loop as everything else (its libuv
 * event-loop plugin with a foreign loop). Host names are resolved with
 * uv_getaddrinfo, since libwebsockets 4.1 would call getaddrinfo() inside
 * the loop; the connection is then made to the address, with the host
 * name kept for the Host header, SNI and the certificate check.
 *
 * This module owns the socket and feeds a struct discord_gw (discord_gw): it
 * reports connections, whole messages (reassembled from fragments up to
 * DISCORD_WS_MESSAGE_MAX bytes: a bigger message is dropped and the session told
 * to reconnect and resume) and closes with their code. With compression
 * (compress=zlib-stream) binary messages go through the connection's
 * zlib stream (discord_zlib, reset at each connection; a payload is at most
 * DISCORD_WS_MESSAGE_MAX bytes compressed and inflated) and each whole payload is
 * reported; an over-cap or corrupt payload is logged once and the session
 * told to reconnect and resume; a text message is read as plain JSON. It
 * sends the frames
 * the session releases, one per writeable callback, and runs the session's
 * timer. The gw's connect, close and want_write hooks must call
 * discord_ws_connect(), discord_ws_close() and discord_ws_want_write().
 *
 * Every gateway connection of a process (one per shard) lives in one
 * libwebsockets context (struct discord_wsctx): one TLS setup, one set of
 * loop handles, however many shards.
 *
 * Lifetime: discord_ws_shutdown() of each socket while the loop runs
 * closes its own handles and calls on_down once they are closed; then
 * discord_wsctx_shutdown() starts tearing libwebsockets down, which closes
 * its handles by itself, so the loop then ends. After uv_run() has
 * returned, discord_wsctx_free() makes libwebsockets' second pass (a
 * foreign loop needs two; it makes the first too when it was not made);
 * discord_ws_free() of each socket after it.
 *
 * libwebsockets 4.1 closes its event pipe's descriptor twice in that
 * teardown, a loop iteration apart; discord_wsctx_shutdown() holds the
 * number with a placeholder in between, so the second close cannot hit a
 * file that another part of delver opened meanwhile. Call it when no other
 * thread is opening files (the daemon: after the store has closed).
 */
#ifndef DELVER_DISCORD_WS_H
#define DELVER_DISCORD_WS_H

#include <stdbool.h>
#include <stdint.h>

#include <uv.h>

#define DISCORD_WS_MESSAGE_MAX (8u << 20) /* bytes in one received message */

struct discord_gw;
struct discord_ws;
struct discord_wsctx;

/* Returns NULL (and logs) when libwebsockets cannot start on loop. */
struct discord_wsctx *discord_wsctx_new(uv_loop_t *loop, bool tls_verify);
void discord_wsctx_shutdown(struct discord_wsctx *x);
void discord_wsctx_free(struct discord_wsctx *x);

/* A socket in x. With compress, binary messages are inflated (the gw must
 * ask for compress=zlib-stream: discord_gw_opts.compress). */
struct discord_ws *discord_ws_new(struct discord_wsctx *x, bool compress);
/* The session this socket serves (set once, before it connects). */
void discord_ws_attach(struct discord_ws *w, struct discord_gw *g);

int discord_ws_connect(struct discord_ws *w, const char *url);
void discord_ws_close(struct discord_ws *w, int code);
void discord_ws_want_write(struct discord_ws *w);
/* Re-arms the session's timer; call after driving the gw from outside. */
void discord_ws_rearm(struct discord_ws *w);

/* uv_hrtime() when the message being handled was complete (for latency
 * figures). */
uint64_t discord_ws_rx_ns(const struct discord_ws *w);
/* Whether a connection is open (or being made). */
bool discord_ws_busy(const struct discord_ws *w);

void discord_ws_shutdown(struct discord_ws *w, void (*on_down)(void *ctx), void *ctx);
void discord_ws_free(struct discord_ws *w);

#endif
