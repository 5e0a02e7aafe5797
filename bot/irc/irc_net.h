/*
 * irc_net: the transport of one IRC network: DNS, TCP or TLS, reconnects.
 *
 * Everything runs on the app's libuv loop. The host name is resolved with
 * uv_getaddrinfo (never blocking the loop); each address is tried in turn
 * with a libwebsockets raw client (TLS with certificate verification unless
 * tls_verify is off; the host name is sent for SNI and checked against the
 * certificate). Bytes are cut into lines for the session (irc_conn), whose
 * queued lines are written when libwebsockets says the socket is writable
 * and the flood bucket allows. One uv timer per network runs the session's
 * timers and the reconnect backoff (exponential, with jitter). Commands
 * that arrive go to the network's irc_bot.
 *
 * All networks share one libwebsockets context on the loop (struct
 * irc_lws), created with the libuv event library on the app's loop as a
 * foreign loop.
 *
 * Ownership: irc_net_new copies nothing: cfg, timing and d must outlive the
 * network. A network is freed by irc_net_stop's completion (done), after
 * which its pointer must not be used; the shared context is destroyed by
 * irc_lws_destroy once every network using it is done.
 */
#ifndef DELVER_IRC_NET_H
#define DELVER_IRC_NET_H

#include <uv.h>

#include "bot/config/config.h"
#include "bot/irc/irc_conn.h"
#include "commands/dispatch.h"

struct irc_lws;
struct irc_net;

struct app;

/* A libwebsockets context on loop; NULL (logged) when it cannot be made. */
struct irc_lws *irc_lws_new(uv_loop_t *loop);
/* Destroys the context; the loop keeps running (for at most 4 s) until
 * libwebsockets has closed all its handles, then x is freed. */
void irc_lws_destroy(struct irc_lws *x);

/* A network, not yet connecting. */
struct irc_net *irc_net_new(struct irc_lws *x, struct dispatch *d, const struct config_irc *cfg,
                            const struct irc_timing *t);
/* Starts resolving and connecting. */
void irc_net_start(struct irc_net *n);
/* Makes cfg (and t, unless NULL) the network's configuration for what
 * applies on the live link: the prefix, max_lines, the flood rate, the
 * ping timings and the channels with their keys (see irc_conn_reconfigure).
 * cfg must outlive the network or the next call; the old one may be freed
 * once this returns. */
void irc_net_reconfigure(struct irc_net *n, const struct config_irc *cfg,
                         const struct irc_timing *t);
/* Stops taking commands; calls drained(ctx) once the replies already
 * queued are written or the link is gone (maybe before returning). */
void irc_net_drain(struct irc_net *n, void (*drained)(void *ctx), void *ctx);
/* Sends QUIT with why as its reason, closes the link (after at most
 * IRC_NET_QUIT_MS), frees the network and then calls done(ctx), always
 * from the loop (never before returning). */
void irc_net_stop(struct irc_net *n, const char *why, void (*done)(void *ctx), void *ctx);

#define IRC_NET_QUIT_MS 2000

#endif
