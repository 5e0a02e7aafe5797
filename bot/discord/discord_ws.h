/*
 * discord_ws: the gateway's websocket, on the application's libuv loop.
 *
 * libwebsockets runs on the same uv loop as everything else (its libuv
 * event-loop plugin with a foreign loop). Host names are resolved with
 * uv_getaddrinfo, since libwebsockets 4.1 would call getaddrinfo() inside
 * the loop; the connection is then made to the address, with the host
 * name kept for the Host header, SNI and the certificate check.
 *
 * This module owns the socket and feeds a struct gw (discord_gw): it
 * reports connections, whole messages (reassembled from fragments up to
 * DWS_MESSAGE_MAX bytes: a bigger message is dropped and the session told
 * to reconnect and resume) and closes with their code. With compression
 * (compress=zlib-stream) binary messages go through the connection's
 * zlib stream (discord_zlib, reset at each connection; a payload is at most
 * DWS_MESSAGE_MAX bytes compressed and inflated) and each whole payload is
 * reported; an over-cap or corrupt payload is logged once and the session
 * told to reconnect and resume; a text message is read as plain JSON. It
 * sends the frames
 * the session releases, one per writeable callback, and runs the session's
 * timer. The gw's connect, close and want_write hooks must call
 * dws_connect(), dws_close() and dws_want_write().
 *
 * Lifetime: dws_shutdown() while the loop runs starts tearing
 * libwebsockets down and calls on_down once this module's own handle is
 * closed; libwebsockets closes its handles by itself, so the loop then ends.
 * After uv_run() has returned, dws_free() makes libwebsockets' second pass
 * (a foreign loop needs two) and frees everything.
 */
#ifndef DELVER_DISCORD_WS_H
#define DELVER_DISCORD_WS_H

#include <stdbool.h>
#include <stdint.h>

#include <uv.h>

#define DWS_MESSAGE_MAX (8u << 20) /* bytes in one received message */

struct gw;
struct dws;

/* Returns NULL (and logs) when libwebsockets cannot start on loop. With
 * compress, binary messages are inflated (the gw must ask for
 * compress=zlib-stream: gw_opts.compress). */
struct dws *dws_new(uv_loop_t *loop, bool tls_verify, bool compress);
/* The session this socket serves (set once, before it connects). */
void dws_attach(struct dws *w, struct gw *g);

int dws_connect(struct dws *w, const char *url);
void dws_close(struct dws *w, int code);
void dws_want_write(struct dws *w);
/* Re-arms the session's timer; call after driving the gw from outside. */
void dws_rearm(struct dws *w);

/* uv_hrtime() when the message being handled was complete (for latency
 * figures). */
uint64_t dws_rx_ns(const struct dws *w);
/* Whether a connection is open (or being made). */
bool dws_busy(const struct dws *w);

void dws_shutdown(struct dws *w, void (*on_down)(void *ctx), void *ctx);
void dws_free(struct dws *w);

#endif
