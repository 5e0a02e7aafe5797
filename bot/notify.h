/*
 * notify: what delver tells systemd (its readiness, reloads, stopping and
 * watchdog pings), spoken directly: systemd documents the notification
 * protocol as a stable interface that a service may implement itself
 * (sd_notify(3)), and doing so spares the process libsystemd and the
 * compression and cryptography libraries it pulls in.
 *
 * - notify_send(state): one datagram holding state ("READY=1\nSTATUS=..."),
 *   sent to the AF_UNIX socket named by $NOTIFY_SOCKET: a path, or an
 *   abstract name when it starts with '@'. Without the variable (delver not
 *   started by systemd) nothing is sent.
 * - notify_watchdog_usec(): the watchdog interval systemd expects pings
 *   within ($WATCHDOG_USEC), when it is meant for this process
 *   ($WATCHDOG_PID unset or this process's id).
 *
 * Nothing here allocates; both read the environment at each call.
 */
#ifndef DELVER_NOTIFY_H
#define DELVER_NOTIFY_H

#include <stdint.h>

/* Sends state. Returns 1 when sent, 0 when $NOTIFY_SOCKET is unset, or -1
 * with errno when it names no usable socket (too long, not a path or an
 * abstract name: EINVAL) or the send failed. */
int notify_send(const char *state);

/* The watchdog interval in microseconds, or 0 when systemd expects no
 * pings from this process (unset, not a whole number above 0, or meant for
 * another process). */
uint64_t notify_watchdog_usec(void);

#endif
