/* irc_tls: client TLS over memory BIOs with OpenSSL; see irc_tls.h. */
#include "bot/irc/irc_tls.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "rules/base/mem.h"

struct irc_tls {
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *in;         /* ciphertext from the network, read by OpenSSL */
	BIO *out;        /* ciphertext OpenSSL wrote, for the network */
	bool bios_owned; /* by ssl, since SSL_set_bio */
	bool ready;
	bool failed;
	bool pinned;
	bool heard; /* the server has sent a byte */
	bool plain; /* its first byte was text, not a TLS record */
	unsigned char pin[IRC_TLS_SHA256_LEN];
};

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
irc_tls_parse_fingerprint(const char *s, unsigned char out[IRC_TLS_SHA256_LEN])
{
	for (size_t i = 0; i < IRC_TLS_SHA256_LEN; i++) {
		int hi, lo;

		if (i > 0 && *s == ':')
			s++;
		hi = hexval(s[0]);
		lo = hi < 0 ? -1 : hexval(s[1]);
		if (lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
		s += 2;
	}
	return *s == '\0' ? 0 : -1;
}

static bool
is_ip(const char *host)
{
	unsigned char addr[16];

	return inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1;
}

/* The oldest OpenSSL error as one phrase, or what. */
static void
describe(char *err, size_t errlen, const char *what)
{
	unsigned long e = ERR_get_error();
	const char *reason = e != 0 ? ERR_reason_error_string(e) : NULL;

	snprintf(err, errlen, "%s%s%s", what, reason != NULL ? ": " : "",
	         reason != NULL ? reason : "");
	ERR_clear_error();
}

struct irc_tls *
irc_tls_new(const char *host, const struct irc_tls_opts *o, char *err, size_t errlen)
{
	struct irc_tls *t = xcalloc(1, sizeof(*t));
	bool verify = o->verify && o->fingerprint == NULL;

	ERR_clear_error();
	if (o->fingerprint != NULL) {
		t->pinned = true;
		memcpy(t->pin, o->fingerprint, sizeof(t->pin));
	}
	t->ctx = SSL_CTX_new(TLS_client_method());
	if (t->ctx == NULL)
		goto fail;
	SSL_CTX_set_min_proto_version(t->ctx, TLS1_2_VERSION);
	if (verify) {
		SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER, NULL);
		if (o->ca_file != NULL) {
			if (SSL_CTX_load_verify_locations(t->ctx, o->ca_file, NULL) != 1) {
				describe(err, errlen,
				         "TLS cannot be set up: tls_ca_file cannot be read");
				irc_tls_free(t);
				return NULL;
			}
		} else if (SSL_CTX_set_default_verify_paths(t->ctx) != 1) {
			goto fail;
		}
	} else {
		SSL_CTX_set_verify(t->ctx, SSL_VERIFY_NONE, NULL);
	}
	if (o->cert_file != NULL &&
	    (SSL_CTX_use_certificate_chain_file(t->ctx, o->cert_file) != 1 ||
	     SSL_CTX_use_PrivateKey_file(t->ctx, o->cert_file, SSL_FILETYPE_PEM) != 1)) {
		describe(err, errlen,
		         "TLS cannot be set up: tls_cert_file must hold the client certificate and "
		         "its private key, in PEM");
		irc_tls_free(t);
		return NULL;
	}
	t->ssl = SSL_new(t->ctx);
	t->in = BIO_new(BIO_s_mem());
	t->out = BIO_new(BIO_s_mem());
	if (t->ssl == NULL || t->in == NULL || t->out == NULL)
		goto fail;
	BIO_set_mem_eof_return(t->in, -1); /* empty means "more to come" */
	SSL_set_bio(t->ssl, t->in, t->out);
	t->bios_owned = true;
	if (!is_ip(host) && SSL_set_tlsext_host_name(t->ssl, host) != 1)
		goto fail;
	if (verify) {
		SSL_set_hostflags(t->ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
		if (SSL_set1_host(t->ssl, host) != 1)
			goto fail;
	}
	SSL_set_connect_state(t->ssl);
	(void)SSL_do_handshake(t->ssl); /* writes the ClientHello */
	return t;
fail:
	describe(err, errlen, "TLS cannot be set up");
	if (!t->bios_owned) {
		BIO_free(t->in);
		BIO_free(t->out);
	}
	irc_tls_free(t);
	return NULL;
}

void
irc_tls_free(struct irc_tls *t)
{
	if (t == NULL)
		return;
	SSL_free(t->ssl); /* frees both BIOs */
	SSL_CTX_free(t->ctx);
	free(t);
}

/* After a failed SSL call: -1 with the reason, or 0 when it only wants
 * more input. */
static int
check(struct irc_tls *t, int r, char *err, size_t errlen)
{
	int e = SSL_get_error(t->ssl, r);
	long v;

	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return 0;
	t->failed = true;
	if (e == SSL_ERROR_ZERO_RETURN) {
		snprintf(err, errlen, "the server closed the TLS session");
		return -1;
	}
	v = SSL_get_verify_result(t->ssl);
	if (!t->ready && v != X509_V_OK) {
		snprintf(err, errlen, "the server's certificate does not verify: %s",
		         X509_verify_cert_error_string(v));
		ERR_clear_error();
		return -1;
	}
	describe(err, errlen, t->ready ? "TLS failed" : "the TLS handshake failed");
	return -1;
}

/* Whether the server's certificate has the pinned digest; -1 with the
 * digest it has in err when not. */
static int
check_pin(struct irc_tls *t, char *err, size_t errlen)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	X509 *cert = SSL_get1_peer_certificate(t->ssl);
	char hex[3 * IRC_TLS_SHA256_LEN + 1] = "";
	size_t pos = 0;
	int ok = cert != NULL && X509_digest(cert, EVP_sha256(), md, &len) == 1 &&
	         len == IRC_TLS_SHA256_LEN;

	X509_free(cert);
	if (ok && memcmp(md, t->pin, IRC_TLS_SHA256_LEN) == 0)
		return 0;
	for (unsigned int i = 0; ok && i < len; i++)
		pos += (size_t)snprintf(hex + pos, sizeof(hex) - pos, "%s%02X", i > 0 ? ":" : "",
		                        md[i]);
	t->failed = true;
	snprintf(err, errlen,
	         "the server's certificate does not match tls_fingerprint (its SHA-256 "
	         "is %s)",
	         ok ? hex : "unknown");
	ERR_clear_error();
	return -1;
}

int
irc_tls_input(struct irc_tls *t, const void *p, size_t n,
              void (*deliver)(void *ctx, const char *plain, size_t len), void *ctx, char *err,
              size_t errlen)
{
	char plain[4096];
	int r;

	if (t->failed) {
		snprintf(err, errlen, "the TLS session already failed");
		return -1;
	}
	ERR_clear_error();
	if (!t->heard && n > 0) {
		unsigned char b = *(const unsigned char *)p;

		/* a TLS record starts with its type, 20 to 23; an IRC server
		 * speaking plain text starts with ':' or a command's letter */
		t->heard = true;
		t->plain = b >= 0x20 && b < 0x7f;
	}
	if (n > 0 && BIO_write(t->in, p, (int)n) != (int)n) {
		snprintf(err, errlen, "TLS input could not be buffered");
		t->failed = true;
		return -1;
	}
	if (!t->ready) {
		r = SSL_do_handshake(t->ssl);
		if (r != 1)
			return check(t, r, err, errlen);
		if (t->pinned && check_pin(t, err, errlen) < 0)
			return -1;
		t->ready = true;
	}
	while ((r = SSL_read(t->ssl, plain, sizeof(plain))) > 0)
		deliver(ctx, plain, (size_t)r);
	return check(t, r, err, errlen);
}

bool
irc_tls_plain(const struct irc_tls *t)
{
	return !t->ready && t->plain;
}

bool
irc_tls_ready(const struct irc_tls *t)
{
	return t->ready && !t->failed;
}

int
irc_tls_send(struct irc_tls *t, const void *p, size_t n)
{
	if (!irc_tls_ready(t))
		return -1;
	return n == 0 || SSL_write(t->ssl, p, (int)n) == (int)n ? 0 : -1;
}

size_t
irc_tls_output(struct irc_tls *t, void *buf, size_t n)
{
	int r = BIO_read(t->out, buf, (int)n);

	return r > 0 ? (size_t)r : 0;
}

size_t
irc_tls_pending(const struct irc_tls *t)
{
	return BIO_ctrl_pending(t->out);
}
