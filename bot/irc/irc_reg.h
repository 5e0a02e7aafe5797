/*
 * irc_reg: registration of an IRC session: CAP negotiation (the
 * capabilities delver uses), SASL PLAIN or EXTERNAL, and the fallback
 * nicks when the configured one is taken. Called by irc_conn as the
 * server's lines arrive; it writes through irc_conn's queue.
 *
 * Ownership: nothing is allocated here; c and m belong to the caller.
 */
#ifndef DELVER_IRC_REG_H
#define DELVER_IRC_REG_H

struct irc_conn;
struct irc_msg;

/* The link is up: asks for the capabilities and sends NICK and USER. */
void irc_reg_start(struct irc_conn *c);
/* A CAP line (LS, ACK, NAK). */
void irc_reg_cap(struct irc_conn *c, const struct irc_msg *m);
/* The server's AUTHENTICATE challenge: sends the credentials. */
void irc_reg_authenticate(struct irc_conn *c, const struct irc_msg *m);
/* A SASL numeric (902-907): done, or refused. */
void irc_reg_sasl_numeric(struct irc_conn *c, int num, const struct irc_msg *m);
/* 432/433/436/437: the nick was refused; tries the next candidate. */
void irc_reg_nick_refused(struct irc_conn *c, int num, const struct irc_msg *m);

#endif
