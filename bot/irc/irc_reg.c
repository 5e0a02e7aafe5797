/* irc_reg: IRC registration: CAP negotiation, SASL PLAIN, nick fallback. */
#include "bot/irc/irc_conn_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "bot/log.h"
#include "rules/base/mem.h"

#define NICK_SUFFIXES 4   /* "nick_" .. "nick____" after the alternates */
#define SASL_CHUNK    400 /* bytes of base64 per AUTHENTICATE line */

static bool
nick_candidate(const struct irc_conn *c, int i, char *out, size_t size)
{
	const struct config_irc *cfg = c->cfg;
	int k;

	if (i == 0) {
		snprintf(out, size, "%s", cfg->nick);
		return true;
	}
	if ((size_t)(i - 1) < cfg->nalt_nicks) {
		snprintf(out, size, "%s", cfg->alt_nicks[i - 1]);
		return true;
	}
	k = i - (int)cfg->nalt_nicks;
	if (k > NICK_SUFFIXES)
		return false;
	snprintf(out, size, "%s%.*s", cfg->nick, k, "____");
	return true;
}

static void
cap_end(struct irc_conn *c)
{
	if (c->cap_ended)
		return;
	c->cap_ended = true;
	SEND(c, true, "CAP", "END");
}

static bool
sasl_wanted(const struct irc_conn *c)
{
	return c->cfg->sasl_external || (c->cfg->sasl_user != NULL && c->cfg->password != NULL);
}

static const char *
mechanism(const struct irc_conn *c)
{
	return c->cfg->sasl_external ? "EXTERNAL" : "PLAIN";
}

static void
add_word(char *list, size_t size, const char *word, size_t n)
{
	size_t len = strlen(list);

	if (len + (len > 0) + n + 1 > size)
		return;
	if (len > 0)
		list[len++] = ' ';
	memcpy(list + len, word, n);
	list[len + n] = '\0';
}

/* Whether an offered capability (name, value) is one delver asks for. */
static bool
cap_wanted(const struct irc_conn *c, const char *name, size_t n, const char *value, size_t vn)
{
	static const char *const wanted[] = {"account-tag", "message-tags", "server-time",
	                                     "multi-prefix"};

	if (n == 4 && strncmp(name, "sasl", 4) == 0) {
		/* sasl=PLAIN,EXTERNAL: ours must be listed, when anything is */
		const char *mech = mechanism(c);
		size_t ml = strlen(mech);

		if (!sasl_wanted(c))
			return false;
		if (vn == 0)
			return true;
		for (size_t i = 0; i + ml <= vn; i++)
			if (strncmp(value + i, mech, ml) == 0 && (i == 0 || value[i - 1] == ',') &&
			    (i + ml == vn || value[i + ml] == ','))
				return true;
		return false;
	}
	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
		if (strlen(wanted[i]) == n && strncmp(wanted[i], name, n) == 0)
			return true;
	return false;
}

static void
cap_ls(struct irc_conn *c, const struct irc_msg *m)
{
	bool more = m->nparams >= 4 && strcmp(m->params[2], "*") == 0;
	const char *p = m->params[m->nparams - 1];

	while (*p != '\0') {
		size_t n = strcspn(p, " ");
		const char *eq = memchr(p, '=', n);
		size_t nl = eq != NULL ? (size_t)(eq - p) : n;

		if (n > 0 && cap_wanted(c, p, nl, eq != NULL ? eq + 1 : "", eq ? n - nl - 1 : 0))
			add_word(c->want, sizeof(c->want), p, nl);
		p += n;
		while (*p == ' ')
			p++;
	}
	if (more)
		return;
	if (sasl_wanted(c) && strstr(c->want, "sasl") == NULL) {
		irc_conn__recycle(c,
		                  "the server does not offer SASL %s, which this network's "
		                  "configuration requires",
		                  mechanism(c));
		return;
	}
	if (c->want[0] == '\0')
		cap_end(c);
	else
		SEND(c, true, "CAP", "REQ", c->want);
}

/* Encodes n bytes into out (4 * ((n + 2) / 3) + 1 bytes), NUL-terminated. */
static void
base64(const unsigned char *in, size_t n, char *out)
{
	EVP_EncodeBlock((unsigned char *)out, in, (int)n);
}

/* AUTHENTICATE with base64("user\0user\0password") in 400-byte lines; an
 * exact multiple of 400 is followed by "AUTHENTICATE +". */
static void
sasl_send(struct irc_conn *c)
{
	const char *u = c->cfg->sasl_user, *pw = c->cfg->password;
	size_t ul = strlen(u), pl = strlen(pw), n = 2 * ul + 2 + pl, len;
	unsigned char *raw;
	char *enc;

	if (ul > 255 || pl > 1024) {
		irc_conn__recycle(c, "the SASL user name or password is too long");
		return;
	}
	raw = xmalloc(n);
	enc = xmalloc(4 * (n / 3 + 1) + 1);
	memcpy(raw, u, ul);
	raw[ul] = '\0';
	memcpy(raw + ul + 1, u, ul);
	raw[2 * ul + 1] = '\0';
	memcpy(raw + 2 * ul + 2, pw, pl);
	base64(raw, n, enc);
	len = strlen(enc);
	for (size_t off = 0; off < len; off += SASL_CHUNK) {
		char chunk[SASL_CHUNK + 1];
		size_t k = len - off > SASL_CHUNK ? SASL_CHUNK : len - off;

		memcpy(chunk, enc + off, k);
		chunk[k] = '\0';
		SEND(c, true, "AUTHENTICATE", chunk);
	}
	if (len % SASL_CHUNK == 0)
		SEND(c, true, "AUTHENTICATE", "+");
	memset(raw, 0, n);
	memset(enc, 0, strlen(enc));
	free(raw);
	free(enc);
}

/* c->caps is " a b c ": each name between spaces, for irc_conn_has_cap. */
static void
caps_add(struct irc_conn *c, const char *name, size_t n)
{
	size_t len = strlen(c->caps);

	if (len == 0)
		c->caps[len++] = ' ';
	if (len + n + 2 > sizeof(c->caps))
		return;
	memcpy(c->caps + len, name, n);
	c->caps[len + n] = ' ';
	c->caps[len + n + 1] = '\0';
}

static void
cap_ack(struct irc_conn *c, const struct irc_msg *m)
{
	const char *p = m->params[m->nparams - 1];

	while (*p != '\0') {
		size_t n = strcspn(p, " ");

		if (n > 0 && *p != '-')
			caps_add(c, p, n);
		p += n;
		while (*p == ' ')
			p++;
	}
	log_info("irc %s: capabilities enabled: %.*s", irc_conn__net(c),
	         (int)(strlen(c->caps) > 2 ? strlen(c->caps) - 2 : 0), c->caps + 1);
	if (sasl_wanted(c) && irc_conn_has_cap(c, "sasl") && !c->sasl_pending) {
		c->sasl_pending = true;
		SEND(c, true, "AUTHENTICATE", mechanism(c));
		return;
	}
	if (!c->sasl_pending)
		cap_end(c);
}

void
irc_reg_cap(struct irc_conn *c, const struct irc_msg *m)
{
	const char *sub = irc_line_param(m, 1);

	if (m->nparams < 3 || c->st != ST_REG)
		return;
	if (strcmp(sub, "LS") == 0) {
		cap_ls(c, m);
	} else if (strcmp(sub, "ACK") == 0) {
		cap_ack(c, m);
	} else if (strcmp(sub, "NAK") == 0) {
		log_warnx("irc %s: the server refused the capabilities %s", irc_conn__net(c),
		          irc_line_param(m, 2));
		if (sasl_wanted(c))
			irc_conn__recycle(c, "the server refused SASL");
		else
			cap_end(c);
	}
}

void
irc_reg_sasl_numeric(struct irc_conn *c, int num, const struct irc_msg *m)
{
	switch (num) {
	case 900:
		log_info("irc %s: logged in as %s", irc_conn__net(c), irc_line_param(m, 2));
		break;
	case 903:
	case 907:
		c->sasl_pending = false;
		cap_end(c);
		break;
	case 902:
	case 904:
	case 905:
	case 906:
		c->sasl_pending = false;
		if (c->cfg->sasl_external)
			irc_conn__recycle(c, "SASL EXTERNAL authentication failed (%d: %s)", num,
			                  irc_line_param(m, m->nparams - 1));
		else
			irc_conn__recycle(c, "SASL authentication as %s failed (%d: %s)",
			                  c->cfg->sasl_user, num,
			                  irc_line_param(m, m->nparams - 1));
		break;
	default:
		break;
	}
}

void
irc_reg_nick_refused(struct irc_conn *c, int num, const struct irc_msg *m)
{
	char next[IRC_NICK_MAX];

	if (c->st != ST_REG) {
		log_debug("irc %s: nick %s still unavailable (%d)", irc_conn__net(c),
		          irc_line_param(m, 1), num);
		return;
	}
	if (!nick_candidate(c, ++c->nick_try, next, sizeof(next))) {
		irc_conn__recycle(c, "every configured nick is in use or refused");
		return;
	}
	log_warnx("irc %s: nick %s is unavailable (%d); trying %s", irc_conn__net(c), c->nick, num,
	          next);
	snprintf(c->nick, sizeof(c->nick), "%s", next);
	SEND(c, true, "NICK", next);
}

void
irc_reg_start(struct irc_conn *c)
{
	const struct config_irc *cfg = c->cfg;
	const char *user = cfg->username != NULL ? cfg->username : cfg->nick;
	const char *real = cfg->realname != NULL ? cfg->realname : "delver dice bot";

	if (cfg->password != NULL && cfg->sasl_user == NULL)
		SEND(c, true, "PASS", cfg->password);
	SEND(c, true, "CAP", "LS", "302");
	SEND(c, true, "NICK", c->nick);
	SEND(c, true, "USER", user, "0", "*", real);
}

void
irc_reg_authenticate(struct irc_conn *c, const struct irc_msg *m)
{
	if (!c->sasl_pending || strcmp(irc_line_param(m, 0), "+") != 0)
		return;
	if (c->cfg->sasl_external)
		SEND(c, true, "AUTHENTICATE", "+"); /* the certificate says who: no authzid */
	else
		sasl_send(c);
}
