/*
 * irc_tls: the client side of TLS over any byte stream, with OpenSSL
 * memory BIOs: ciphertext goes in and out as bytes, so the IRC link is a
 * plain libuv TCP handle (bot/irc/irc_net) whose reads feed irc_tls_input and
 * whose writes take irc_tls_output.
 *
 * Certificates are verified against the system's trust store (or only the
 * CA certificates of ca_file) and the server's host name (SNI is sent for a
 * name, not for an IP address) unless verify is false, which is for test
 * servers with self-signed certificates. With a fingerprint pinned, the
 * server's certificate must have that SHA-256 digest instead: the pin
 * replaces the trust store and the name check (a self-signed server may be
 * pinned). TLS 1.2 is the oldest version accepted.
 *
 * Ownership: irc_tls_new copies host. Nothing here blocks or reads a clock.
 */
#ifndef DELVER_IRC_TLS_H
#define DELVER_IRC_TLS_H

#include <stdbool.h>
#include <stddef.h>

struct irc_tls;

#define IRC_TLS_SHA256_LEN 32

struct irc_tls_opts {
	bool verify;
	const char *ca_file;              /* NULL: the system's trust store */
	const unsigned char *fingerprint; /* IRC_TLS_SHA256_LEN bytes, or NULL */
	const char *cert_file;            /* the client certificate and its key (PEM), or NULL */
};

/* A client session for host; NULL with one sentence in err when OpenSSL
 * cannot set one up (a ca_file it cannot read, say). The ClientHello is
 * waiting in irc_tls_output(). */
struct irc_tls *irc_tls_new(const char *host, const struct irc_tls_opts *o, char *err,
                            size_t errlen);

/* Parses a SHA-256 fingerprint written as 64 hex digits, in pairs that may
 * be separated by ':' ("AB:CD:..."), into out. Returns 0, or -1. */
int irc_tls_parse_fingerprint(const char *s, unsigned char out[IRC_TLS_SHA256_LEN]);
void irc_tls_free(struct irc_tls *t);

/*
 * Takes n bytes from the network and advances the handshake or decrypts:
 * each piece of plaintext is passed to deliver. Returns 0, or -1 with one
 * sentence in err (a failed handshake, a certificate that does not verify,
 * a corrupt record); the session is then unusable. The server closing TLS
 * cleanly also returns -1 ("the server closed the TLS session").
 */
int irc_tls_input(struct irc_tls *t, const void *p, size_t n,
                  void (*deliver)(void *ctx, const char *plain, size_t len), void *ctx, char *err,
                  size_t errlen);

/* Whether the server answered the handshake in plain text (its first byte
 * printable, no TLS record): a port that speaks IRC without TLS. */
bool irc_tls_plain(const struct irc_tls *t);

/* Whether the handshake is done (plaintext may be sent). */
bool irc_tls_ready(const struct irc_tls *t);

/* Encrypts n bytes of plaintext (only once ready). Returns 0, or -1. */
int irc_tls_send(struct irc_tls *t, const void *p, size_t n);

/* Moves up to n bytes of ciphertext waiting for the network into buf;
 * returns how many. */
size_t irc_tls_output(struct irc_tls *t, void *buf, size_t n);
/* Bytes of ciphertext waiting. */
size_t irc_tls_pending(const struct irc_tls *t);

#endif
