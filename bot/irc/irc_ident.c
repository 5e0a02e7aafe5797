/* irc_ident: where an IRC identity can be reached now; see irc_ident.h. */
#include "bot/irc/irc_ident.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/irc/irc_conn.h"
#include "commands/core/state.h"
#include "rules/base/mem.h"

struct bound {
	char key[KEY_MAX]; /* "" for a free slot */
	char nick[IRC_NICK_MAX];
	char fold[IRC_NICK_MAX];
	uint64_t link;
};

struct irc_ident {
	struct bound *v; /* IRC_IDENT_MAX, used as a ring */
	size_t next;     /* the slot the next new identity takes */
};

struct irc_ident *
irc_ident_new(void)
{
	struct irc_ident *t = xcalloc(1, sizeof(*t));

	t->v = xcalloc(IRC_IDENT_MAX, sizeof(*t->v));
	return t;
}

void
irc_ident_free(struct irc_ident *t)
{
	if (t == NULL)
		return;
	free(t->v);
	free(t);
}

static void
forget_nick(struct irc_ident *t, const char *fold)
{
	for (size_t i = 0; i < IRC_IDENT_MAX; i++)
		if (t->v[i].key[0] != '\0' && strcmp(t->v[i].fold, fold) == 0)
			t->v[i].key[0] = '\0';
}

void
irc_ident_seen(struct irc_ident *t, const char *key, const char *nick, const char *fold,
               uint64_t link)
{
	struct bound *b = NULL;

	if (strlen(key) >= KEY_MAX || strlen(nick) >= IRC_NICK_MAX || strlen(fold) >= IRC_NICK_MAX)
		return;
	for (size_t i = 0; i < IRC_IDENT_MAX; i++) {
		if (t->v[i].key[0] == '\0')
			continue;
		if (strcmp(t->v[i].key, key) == 0)
			b = &t->v[i];
		else if (strcmp(t->v[i].fold, fold) == 0)
			t->v[i].key[0] = '\0'; /* that nick is someone else's now */
	}
	if (b == NULL) {
		b = &t->v[t->next];
		t->next = (t->next + 1) % IRC_IDENT_MAX;
		snprintf(b->key, sizeof(b->key), "%s", key);
	}
	snprintf(b->nick, sizeof(b->nick), "%s", nick);
	snprintf(b->fold, sizeof(b->fold), "%s", fold);
	b->link = link;
}

void
irc_ident_nick(struct irc_ident *t, const char *fold, const char *nick, const char *to_fold)
{
	if (strlen(nick) >= IRC_NICK_MAX || strlen(to_fold) >= IRC_NICK_MAX) {
		forget_nick(t, fold);
		return;
	}
	for (size_t i = 0; i < IRC_IDENT_MAX; i++) {
		if (t->v[i].key[0] == '\0' || strcmp(t->v[i].fold, fold) != 0)
			continue;
		snprintf(t->v[i].nick, sizeof(t->v[i].nick), "%s", nick);
		snprintf(t->v[i].fold, sizeof(t->v[i].fold), "%s", to_fold);
	}
}

void
irc_ident_quit(struct irc_ident *t, const char *fold)
{
	forget_nick(t, fold);
}

const char *
irc_ident_find(const struct irc_ident *t, const char *key, uint64_t link)
{
	for (size_t i = 0; i < IRC_IDENT_MAX; i++)
		if (t->v[i].key[0] != '\0' && strcmp(t->v[i].key, key) == 0)
			return t->v[i].link == link ? t->v[i].nick : NULL;
	return NULL;
}
