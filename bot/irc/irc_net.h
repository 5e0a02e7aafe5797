/*
 * irc_net: the transport of one IRC network: DNS, TCP or TLS, reconnects.
 *
 * Everything runs on the app's libuv loop. The host name is resolved with
 * uv_getaddrinfo (never blocking the loop); each address (IPv6 or IPv4) is
 * tried in turn with a libuv TCP handle, for at most the timing's connect
 * (20 s) each. With TLS, bot/irc/irc_tls runs the session over the TCP bytes
 * (certificate verification unless tls_verify is off; the host name is
 * sent for SNI and checked against the certificate). Bytes are cut into lines for the
 * session (irc_conn), whose queued lines are written one write at a time
 * as the flood bucket allows. One uv timer per network runs the session's
 * timers, the connect and handshake timeouts and the reconnect backoff
 * (bot/backoff). Commands that arrive go to the network's irc_bot.
 *
 * Completions (drained, done) always run from the loop, never before the
 * call that asked for them returns.
 *
 * Ownership: irc_net_new copies nothing: cfg, timing and d must outlive the
 * network. A network is freed by irc_net_stop's completion (done), after
 * which its pointer must not be used.
 */
#ifndef DELVER_IRC_NET_H
#define DELVER_IRC_NET_H

#include <uv.h>

#include "bot/config/config.h"
#include "bot/irc/irc_conn.h"
#include "commands/core/dispatch.h"

struct irc_net;

/* A network, not yet connecting; t NULL means irc_conn_timing_defaults(). */
struct irc_net *irc_net_new(uv_loop_t *loop, struct dispatch *d, const struct config_irc *cfg,
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
 * queued are written or the link is gone, always from the loop (never
 * before returning). */
void irc_net_drain(struct irc_net *n, void (*drained)(void *ctx), void *ctx);
/* Sends QUIT with why as its reason, closes the link (after at most
 * IRC_NET_QUIT_MS), frees the network and then calls done(ctx), always
 * from the loop (never before returning). */
void irc_net_stop(struct irc_net *n, const char *why, void (*done)(void *ctx), void *ctx);

#define IRC_NET_QUIT_MS 2000

#endif
