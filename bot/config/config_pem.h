/*
 * config_pem: checks, as the configuration is read, that a key naming a
 * PEM file names one delver can use: a file it can read, holding what the
 * key needs. A wrong path is refused there (exit status 3, with the file,
 * line and key) instead of failing every connection later.
 */
#ifndef DELVER_CONFIG_PEM_H
#define DELVER_CONFIG_PEM_H

#include <stddef.h>

enum config_pem {
	CONFIG_PEM_CA,       /* one or more CA certificates (tls_ca_file) */
	CONFIG_PEM_CERT_KEY, /* a certificate and its private key (tls_cert_file) */
};

/* Checks that path is a file delver may read holding what kind needs, as
 * OpenSSL loads it. Returns 0, or -1 with the end of a sentence in why that
 * follows "<key>: " ("cannot read /x.pem: No such file or directory"). */
int config_pem_check(const char *path, enum config_pem kind, char *why, size_t len);

#endif
