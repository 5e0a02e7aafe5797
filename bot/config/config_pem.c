/* config_pem: PEM files named by the configuration; see config_pem.h. */
#include "bot/config/config_pem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

int
config_pem_check(const char *path, enum config_pem kind, char *why, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat sb;
	SSL_CTX *ctx;
	bool ok;

	if (fd < 0) {
		snprintf(why, len, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	ok = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
	close(fd);
	if (!ok) {
		snprintf(why, len, "%s is not a file; it must be a PEM file", path);
		return -1;
	}
	ctx = SSL_CTX_new(TLS_client_method());
	if (ctx == NULL) {
		ERR_clear_error();
		snprintf(why, len, "cannot check %s: OpenSSL is out of memory", path);
		return -1;
	}
	if (kind == CONFIG_PEM_CA)
		ok = SSL_CTX_load_verify_locations(ctx, path, NULL) == 1;
	else
		ok = SSL_CTX_use_certificate_chain_file(ctx, path) == 1 &&
		     SSL_CTX_use_PrivateKey_file(ctx, path, SSL_FILETYPE_PEM) == 1;
	SSL_CTX_free(ctx);
	ERR_clear_error();
	if (ok)
		return 0;
	if (kind == CONFIG_PEM_CA)
		snprintf(why, len,
		         "%s holds no certificate in PEM; it must be a PEM file of CA "
		         "certificates",
		         path);
	else
		snprintf(why, len,
		         "%s must hold the client certificate and its private key, in PEM", path);
	return -1;
}
