/*
 * Unit tests for bot/irc/irc_tls: the client against an in-memory OpenSSL
 * server holding a self-signed certificate for irc.test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/pem.h>
#include <openssl/ssl.h>

#include "bot/irc/irc_tls.h"
#include "rules/base/buf.h"

/* openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes
 *   -days 36500 -subj /CN=irc.test -addext subjectAltName=DNS:irc.test */
static const char cert_pem[] = "-----BEGIN CERTIFICATE-----\n"
                               "MIIBkzCCATigAwIBAgIUMM+Q2Pd9znWeYBkiAh/Eo9kjOFMwCgYIKoZIzj0EAwIw\n"
                               "EzERMA8GA1UEAwwIaXJjLnRlc3QwIBcNMjYxMTIxMTUyMTI3WhgPMjEyNjEwMjgx\n"
                               "NTIxMjdaMBMxETAPBgNVBAMMCGlyYy50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0D\n"
                               "AQcDQgAEiFKP0KbuafUpJBUwyHe42jMyD9U2mbUSnp0QRAdaxd9nML2uej/u++zq\n"
                               "KCtKXdN0af6IiXa1CPIMkx0F6C6RJaNoMGYwHQYDVR0OBBYEFBQwNAcDx8QMYZYV\n"
                               "Fnjo5/Vsgxg0MB8GA1UdIwQYMBaAFBQwNAcDx8QMYZYVFnjo5/Vsgxg0MA8GA1Ud\n"
                               "EwEB/wQFMAMBAf8wEwYDVR0RBAwwCoIIaXJjLnRlc3QwCgYIKoZIzj0EAwIDSQAw\n"
                               "RgIhAJ4+HrPbBRJ0WUsPwCA4JFF9XKKwa/gCjXpNe3mVHHOLAiEAoTwHyOab8buF\n"
                               "IvBPxilFiMePr1czdDrACwcCJ1Yl1so=\n"
                               "-----END CERTIFICATE-----\n";
static const char key_pem[] = "-----BEGIN PRIVATE KEY-----\n"
                              "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgUQwetr6+xaVG+Nqo\n"
                              "4vFfZWHYJAH4Udtv48P84pyXEBWhRANCAASIUo/Qpu5p9SkkFTDId7jaMzIP1TaZ\n"
                              "tRKenRBEB1rF32cwva56P+777OooK0pd03Rp/oiJdrUI8gyTHQXoLpEl\n"
                              "-----END PRIVATE KEY-----\n";

struct server {
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *in, *out;
};

static void
server_init(struct server *s)
{
	BIO *b = BIO_new_mem_buf(cert_pem, -1);
	X509 *cert = PEM_read_bio_X509(b, NULL, NULL, NULL);
	EVP_PKEY *key;

	BIO_free(b);
	b = BIO_new_mem_buf(key_pem, -1);
	key = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
	BIO_free(b);
	assert_non_null(cert);
	assert_non_null(key);
	s->ctx = SSL_CTX_new(TLS_server_method());
	assert_int_equal(SSL_CTX_use_certificate(s->ctx, cert), 1);
	assert_int_equal(SSL_CTX_use_PrivateKey(s->ctx, key), 1);
	X509_free(cert);
	EVP_PKEY_free(key);
	s->ssl = SSL_new(s->ctx);
	s->in = BIO_new(BIO_s_mem());
	s->out = BIO_new(BIO_s_mem());
	SSL_set_bio(s->ssl, s->in, s->out);
	SSL_set_accept_state(s->ssl);
}

static void
server_free(struct server *s)
{
	SSL_free(s->ssl);
	SSL_CTX_free(s->ctx);
}

static void
collect(void *ctx, const char *plain, size_t len)
{
	buf_add(ctx, plain, len);
}

/* Moves bytes both ways until neither side has anything to say; the
 * client is fed `step` bytes at a time. Returns the client's verdict. */
static int
pump(struct irc_tls *c, struct server *s, size_t step, struct buf *got, char *err, size_t errlen)
{
	char b[16384];
	int moved;

	do {
		size_t n;

		moved = 0;
		while ((n = irc_tls_output(c, b, sizeof(b))) > 0) {
			BIO_write(s->in, b, (int)n);
			moved = 1;
		}
		(void)SSL_do_handshake(s->ssl);
		while (BIO_ctrl_pending(s->out) > 0) {
			int r = BIO_read(s->out, b, (int)(step < sizeof(b) ? step : sizeof(b)));

			if (irc_tls_input(c, b, (size_t)r, collect, got, err, errlen) < 0)
				return -1;
			moved = 1;
		}
	} while (moved);
	return 0;
}

static const struct irc_tls_opts noverify = {.verify = false};
static const struct irc_tls_opts verify = {.verify = true};

/* The SHA-256 of cert_pem, as the pin would be written. */
static void
cert_digest(unsigned char md[IRC_TLS_SHA256_LEN])
{
	BIO *b = BIO_new_mem_buf(cert_pem, -1);
	X509 *cert = PEM_read_bio_X509(b, NULL, NULL, NULL);
	unsigned int len = 0;

	assert_non_null(cert);
	assert_int_equal(X509_digest(cert, EVP_sha256(), md, &len), 1);
	assert_int_equal(len, IRC_TLS_SHA256_LEN);
	X509_free(cert);
	BIO_free(b);
}

/* A pinned certificate is accepted even self-signed and with verify on;
 * another digest is refused, naming the one the server has. */
static void
test_fingerprint_pin(void **state)
{
	struct server s;
	struct buf got;
	char err[256], hex[3 * IRC_TLS_SHA256_LEN + 1];
	unsigned char md[IRC_TLS_SHA256_LEN], parsed[IRC_TLS_SHA256_LEN];
	struct irc_tls_opts o = {.verify = true, .fingerprint = md};
	struct irc_tls *c;

	(void)state;
	cert_digest(md);
	for (int i = 0; i < IRC_TLS_SHA256_LEN; i++)
		snprintf(hex + 3 * i, sizeof(hex) - 3 * (size_t)i, "%02X:", md[i]);
	hex[3 * IRC_TLS_SHA256_LEN - 1] = '\0';
	assert_int_equal(irc_tls_parse_fingerprint(hex, parsed), 0);
	assert_memory_equal(parsed, md, sizeof(md));
	c = irc_tls_new("irc.test", &o, err, sizeof(err));
	assert_non_null(c);
	server_init(&s);
	buf_init(&got, 4096);
	assert_int_equal(pump(c, &s, 4096, &got, err, sizeof(err)), 0);
	assert_true(irc_tls_ready(c));
	irc_tls_free(c);
	server_free(&s);

	md[0] ^= 1;
	c = irc_tls_new("irc.test", &o, err, sizeof(err));
	server_init(&s);
	assert_int_equal(pump(c, &s, 4096, &got, err, sizeof(err)), -1);
	md[0] ^= 1;
	assert_memory_equal(err,
	                    "the server's certificate does not match tls_fingerprint (its "
	                    "SHA-256 is ",
	                    66);
	assert_non_null(strstr(err, hex));
	assert_false(irc_tls_ready(c));
	irc_tls_free(c);
	server_free(&s);
	buf_free(&got);
	/* Forms the configuration accepts, and not. */
	assert_int_equal(irc_tls_parse_fingerprint("ab", parsed), -1);
	hex[5] = 'g';
	assert_int_equal(irc_tls_parse_fingerprint(hex, parsed), -1);
}

static int
accept_any(int ok, X509_STORE_CTX *x)
{
	(void)ok;
	(void)x;
	return 1;
}

/* tls_cert_file: the client presents that certificate (the server sees
 * its digest); a file without a key is refused when the session is made. */
static void
test_client_certificate(void **state)
{
	char path[] = "/tmp/delver-test-cert-XXXXXX", err[256];
	int fd = mkstemp(path);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct irc_tls_opts o = {.verify = false, .cert_file = path};
	unsigned char md[IRC_TLS_SHA256_LEN], seen[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	struct server s;
	struct buf got;
	struct irc_tls *c;
	X509 *peer;

	(void)state;
	assert_non_null(fp);
	fputs(cert_pem, fp);
	fputs(key_pem, fp);
	fclose(fp);
	server_init(&s);
	SSL_set_verify(s.ssl, SSL_VERIFY_PEER, accept_any);
	c = irc_tls_new("irc.test", &o, err, sizeof(err));
	assert_non_null(c);
	buf_init(&got, 4096);
	assert_int_equal(pump(c, &s, 4096, &got, err, sizeof(err)), 0);
	assert_true(irc_tls_ready(c));
	peer = SSL_get1_peer_certificate(s.ssl);
	assert_non_null(peer);
	assert_int_equal(X509_digest(peer, EVP_sha256(), seen, &len), 1);
	cert_digest(md);
	assert_memory_equal(seen, md, sizeof(md));
	X509_free(peer);
	irc_tls_free(c);
	server_free(&s);
	buf_free(&got);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(cert_pem, fp);
	fclose(fp);
	assert_null(irc_tls_new("irc.test", &o, err, sizeof(err)));
	assert_memory_equal(err,
	                    "TLS cannot be set up: tls_cert_file must hold the client "
	                    "certificate and its private key, in PEM",
	                    96);
	unlink(path);
}

/* tls_ca_file that cannot be read: no session, a sentence naming it. */
static void
test_ca_file_unreadable(void **state)
{
	char err[256];
	struct irc_tls_opts o = {.verify = true, .ca_file = "/nonexistent/ca.pem"};

	(void)state;
	assert_null(irc_tls_new("irc.test", &o, err, sizeof(err)));
	assert_memory_equal(err, "TLS cannot be set up: tls_ca_file cannot be read", 48);
}

static void
test_handshake_and_data(void **state)
{
	struct server s;
	struct buf got;
	char err[256], rx[64];
	struct irc_tls *c = irc_tls_new("irc.test", &noverify, err, sizeof(err));
	int r;

	(void)state;
	assert_non_null(c);
	server_init(&s);
	buf_init(&got, 4096);
	assert_false(irc_tls_ready(c));
	assert_true(irc_tls_pending(c) > 0);           /* the ClientHello */
	assert_int_equal(irc_tls_send(c, "x", 1), -1); /* not before the handshake */
	assert_int_equal(pump(c, &s, 7, &got, err, sizeof(err)), 0);
	assert_true(irc_tls_ready(c));
	assert_false(irc_tls_plain(c)); /* a TLS server's records */
	assert_int_equal(irc_tls_send(c, "NICK delver\r\n", 13), 0);
	assert_int_equal(pump(c, &s, 7, &got, err, sizeof(err)), 0);
	r = SSL_read(s.ssl, rx, sizeof(rx));
	assert_int_equal(r, 13);
	assert_memory_equal(rx, "NICK delver\r\n", 13);
	assert_int_equal(SSL_write(s.ssl, "PING :x\r\n", 9), 9);
	assert_int_equal(pump(c, &s, 1, &got, err, sizeof(err)), 0); /* byte by byte */
	assert_string_equal(buf_str(&got), "PING :x\r\n");
	/* The server ends the session: a clean close is still the end. */
	SSL_shutdown(s.ssl);
	assert_int_equal(pump(c, &s, 4096, &got, err, sizeof(err)), -1);
	assert_string_equal(err, "the server closed the TLS session");
	buf_free(&got);
	irc_tls_free(c);
	server_free(&s);
}

static void
test_verify_refuses_self_signed(void **state)
{
	struct server s;
	struct buf got;
	char err[256];
	struct irc_tls *c = irc_tls_new("irc.test", &verify, err, sizeof(err));

	(void)state;
	assert_non_null(c);
	server_init(&s);
	buf_init(&got, 4096);
	assert_int_equal(pump(c, &s, 4096, &got, err, sizeof(err)), -1);
	assert_string_equal(err,
	                    "the server's certificate does not verify: self-signed certificate");
	assert_false(irc_tls_ready(c));
	buf_free(&got);
	irc_tls_free(c);
	server_free(&s);
}

static void
test_not_tls(void **state)
{
	struct buf got;
	char err[256];
	struct irc_tls *c = irc_tls_new("127.0.0.1", &noverify, err, sizeof(err));
	static const char junk[] = ":irc.test NOTICE * :*** Looking up your hostname\r\n";

	(void)state;
	assert_non_null(c);
	buf_init(&got, 4096);
	assert_int_equal(irc_tls_input(c, junk, strlen(junk), collect, &got, err, sizeof(err)), -1);
	assert_memory_equal(err, "the TLS handshake failed", 24);
	/* an IRC server speaking plain text on that port (recheck9 F15) */
	assert_true(irc_tls_plain(c));
	assert_int_equal(irc_tls_input(c, "x", 1, collect, &got, err, sizeof(err)), -1);
	assert_string_equal(err, "the TLS session already failed");
	assert_int_equal(got.len, 0);
	buf_free(&got);
	irc_tls_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fingerprint_pin),
	    cmocka_unit_test(test_ca_file_unreadable),
	    cmocka_unit_test(test_client_certificate),
	    cmocka_unit_test(test_handshake_and_data),
	    cmocka_unit_test(test_verify_refuses_self_signed),
	    cmocka_unit_test(test_not_tls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
