/* dispatch: from a command line to a durable reply; see dispatch.h. */
#include "commands/core/dispatch.h"

#include <string.h>

#include <stdlib.h>

#include <uthash.h>

#include "commands/core/undo.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort() /* out of memory, like xmalloc */

#define MAY_BE_LOST                                                                                \
	"Warning: this change could not be saved to disk and may be lost if the bot restarts."
#define DISK_FULL                                                                                  \
	"This change was not made: the disk holding the bot's saved state is full; try again "     \
	"once space is freed (nothing saved before is affected)."
#define NOT_KEPT                                                                                   \
	"This change was not kept: another delver process saved a change to the same state "       \
	"first; "                                                                                  \
	"run the command again."
#define CHAN_UNREADABLE                                                                            \
	"This channel's saved state cannot be read right now (the error is logged); try again in " \
	"a minute."
#define USER_UNREADABLE                                                                            \
	"Your saved settings cannot be read right now (the error is logged); try again in a "      \
	"minute."
#define TOO_MANY_WAITING                                                                           \
	"The bot is busy reading saved state for too many commands at once (%d wait); try again "  \
	"in a minute."

/* A reply held until the store has committed its command's records. */
struct held {
	struct reply *out;
	dispatch_done_fn done;
	void *ctx;
};

/* The commands waiting under one key: a channel's, oldest first (only the
 * oldest may run: commands of a channel run in order), or how many of a
 * user's wait. Keyed by the channel or user key; freed when none waits. */
struct dispatch_waiting {
	char key[KEY_MAX];
	struct dispatch_parked *head, *tail; /* a channel's commands, oldest first */
	size_t n;                            /* commands waiting under the key */
	UT_hash_handle hh;
};

/* A command waiting for its records to be read (dispatch_resume). */
struct dispatch_parked {
	struct dispatch_parked *prev, *next; /* every waiting command, oldest first */
	struct dispatch_parked *chan_next;   /* the next one of its channel */
	struct dispatch_waiting *chan, *user;
	struct origin o;
	struct invocation inv; /* its option values moved here */
	char *line;            /* the typed line it points to (owned), or NULL */
	int64_t now;
	struct reply *out;
	dispatch_done_fn done;
	void *ctx;
};

static int
persist_channel(struct channel *ch, void *ctx)
{
	struct dispatch *d = ctx;

	return d->persist_channel ? d->persist_channel(ch, d->persist_ctx) : 0;
}

static int
persist_user(struct user *u, void *ctx)
{
	struct dispatch *d = ctx;

	return d->persist_user ? d->persist_user(u, d->persist_ctx) : 0;
}

/*
 * Runs the handler. Game state that a command creates but does not change
 * (a read-only /tension or /fungeon party in a channel that never played)
 * is dropped again, so memory tracks channels that hold state, not every
 * channel that was ever asked something. A command that changed game state
 * leaves a step /undo can take back (commands/core/undo.h).
 */
static void
run_handler(struct invocation *inv, struct reply *out)
{
	bool had[CHANMOD_COUNT + 1];
	struct undo_snap snap;

	for (int i = 0; i < CHANMOD_COUNT; i++)
		had[i] = channel_mod_peek(inv->chan, (enum chanmod_id)i) != NULL;
	undo_before(inv, &snap);
	inv->cmd->fn(inv, out);
	undo_after(inv, &snap);
	if (channel_touched(inv->chan))
		return;
	for (int i = 0; i < CHANMOD_COUNT; i++)
		if (!had[i] && channel_mod_peek(inv->chan, (enum chanmod_id)i) != NULL)
			channel_mod_set(inv->chan, (enum chanmod_id)i, NULL);
}

/* What the store said of a command's records: lost > 0, not durable (kept
 * in memory, retried: the reply warns); lost < 0, refused (they left memory
 * and read back as last saved: the reply must not say it was done): the
 * disk is full, or another process saved the same records first. */
static void
mark_lost(struct reply *out, int lost)
{
	if (lost == DISPATCH_NOT_KEPT) {
		reply_clear(out);
		reply_error(out, NOT_KEPT);
	} else if (lost < 0) {
		reply_clear(out);
		reply_error(out, DISK_FULL);
	} else if (lost > 0 && !reply_is_error(out)) {
		reply_to(out, REPLY_CHANNEL);
		reply_line(out, RS_BAD, MAY_BE_LOST);
	}
}

static void
held_done(void *ctx, int lost)
{
	struct held *h = ctx;

	mark_lost(h->out, lost);
	h->done(h->ctx, h->out);
	free(h);
}

/* Makes the touched records durable, or hands them to the store's next
 * commit and holds the reply (done set). Returns true when out is complete
 * now, false when done will be called with it. */
static bool
finish(struct dispatch *d, const struct origin *o, struct reply *out, dispatch_done_fn done,
       void *ctx)
{
	if (d->persist_defer != NULL) {
		struct held *h = NULL;

		if (done != NULL) {
			h = xcalloc(1, sizeof(*h));
			h->out = out;
			h->done = done;
			h->ctx = ctx;
		}
		if (d->persist_defer(d->persist_ctx, o->chan_key, h != NULL ? held_done : NULL,
		                     h) == 1)
			return false;
		free(h);
		return true;
	}
	mark_lost(out, d->persist_flush != NULL
	                   ? d->persist_flush(d->persist_ctx)
	                   : state_flush(d->state, persist_channel, persist_user, d));
	return true;
}

/* The waiting commands under key in table, or NULL when none waits. */
static struct dispatch_waiting *
waiting_find(struct dispatch_waiting *table, const char *key)
{
	struct dispatch_waiting *k = NULL;

	HASH_FIND_STR(table, key, k);
	return k;
}

/* The entry for key in *table, created when none waits there yet. */
static struct dispatch_waiting *
waiting_get(struct dispatch_waiting **table, const char *key)
{
	struct dispatch_waiting *k = waiting_find(*table, key);

	if (k == NULL) {
		k = xcalloc(1, sizeof(*k));
		memcpy(k->key, key, strnlen(key, KEY_MAX - 1));
		HASH_ADD_STR(*table, key, k);
	}
	return k;
}

/* One command less waits under k; k is freed when it was the last. */
static void
waiting_drop(struct dispatch_waiting **table, struct dispatch_waiting *k)
{
	if (--k->n == 0) {
		HASH_DEL(*table, k);
		free(k);
	}
}

/* True when a command of chan_key waits. */
static bool
parked_in(const struct dispatch *d, const char *chan_key)
{
	return waiting_find(d->parked_chans, chan_key) != NULL;
}

/* True when a waiting command is user_key's. */
static bool
user_parked(const struct dispatch *d, const char *user_key)
{
	return waiting_find(d->parked_users, user_key) != NULL;
}

/* Runs a command whose records are in memory (or read at once). */
static bool
run_now(struct dispatch *d, const struct origin *o, struct invocation *inv, int64_t now,
        struct reply *out, dispatch_done_fn done, void *ctx)
{
	bool ready;
	const char *gm;

	inv->from = o;
	inv->state = d->state;
	inv->rng = d->rng;
	inv->now = now;
	inv->chan = state_channel(d->state, o->chan_key);
	if (inv->chan == NULL) {
		reply_error(out, CHAN_UNREADABLE);
		invocation_clear(inv);
		return true;
	}
	if (o->legacy_user_key[0] != '\0') {
		int moved = state_adopt(d->state, inv->chan, o->legacy_user_key, o->user_key);

		if (moved > 0 && d->adopted != NULL)
			d->adopted(o->chan_key, moved);
	}
	inv->user = state_user(d->state, o->user_key);
	if (inv->user == NULL) {
		reply_error(out, USER_UNREADABLE);
		invocation_clear(inv);
		return true;
	}
	if (strcmp(user_name(inv->user), o->user_name) != 0)
		user_set_name(inv->user, o->user_name);
	user_set_last_used(inv->user, now);
	channel_set_last_used(inv->chan, now);
	invocation_seat(inv);
	gm = channel_gm(inv->chan);
	/* The GM seat keeps the name its holder last used here, which is
	 * where a secret roll is sent on IRC (a NOTICE to that nick). */
	if (gm != NULL && strcmp(gm, o->user_key) == 0 &&
	    strcmp(channel_gm_name(inv->chan), o->user_name) != 0) {
		channel_set_gm(inv->chan, o->user_key, o->user_name);
		channel_touch(inv->chan);
		gm = channel_gm(inv->chan);
	}

	for (size_t i = 0; i < 3 && inv->path[i] != NULL; i++) {
		if (inv->path[i]->role == ROLE_GM && !invocation_require_gm(inv, out))
			goto done;
	}
	run_handler(inv, out);
done:
	ready = finish(d, o, out, done, ctx);
	/* A user with nothing to keep and no stored row is not kept in memory
	 * either (one whose row must be deleted first leaves at persist's sweep),
	 * unless a waiting command of theirs would read it again. */
	if (inv->user != NULL && !user_parked(d, o->user_key) &&
	    state_release_user(d->state, inv->user))
		inv->user = NULL;
	/* So is a private conversation with nothing to keep: strangers who
	 * write to the bot once each leave nothing behind. */
	if (o->direct && inv->chan != NULL && !parked_in(d, o->chan_key) &&
	    state_release_channel(d->state, inv->chan))
		inv->chan = NULL;
	invocation_clear(inv);
	return ready;
}

/* The refusal for persist_want's failure r; returns true (out complete). */
static bool
refuse_unread(struct reply *out, int r)
{
	reply_error(out, r == DISPATCH_WANT_USER ? USER_UNREADABLE : CHAN_UNREADABLE);
	return true;
}

/* Parks a command until its records are read: a copy of what it needs. */
static void
park(struct dispatch *d, const struct origin *o, struct invocation *inv, int64_t now,
     struct reply *out, dispatch_done_fn done, void *ctx)
{
	struct dispatch_parked *w = xcalloc(1, sizeof(*w));

	w->o = *o;
	w->inv = *inv;
	/* The option values are the parked copy's now. */
	memset(inv->args, 0, sizeof(inv->args));
	if (inv->line != NULL) {
		w->line = xmalloc(inv->line_len + 1);
		memcpy(w->line, inv->line, inv->line_len);
		w->line[inv->line_len] = '\0';
		w->inv.line = w->line;
	}
	w->now = now;
	w->out = out;
	w->done = done;
	w->ctx = ctx;
	w->prev = d->parked_tail;
	if (d->parked_tail != NULL)
		d->parked_tail->next = w;
	else
		d->parked_head = w;
	d->parked_tail = w;
	d->nparked++;
	w->chan = waiting_get(&d->parked_chans, o->chan_key);
	if (w->chan->tail != NULL)
		w->chan->tail->chan_next = w;
	else
		w->chan->head = w;
	w->chan->tail = w;
	w->chan->n++;
	w->user = waiting_get(&d->parked_users, o->user_key);
	w->user->n++;
}

/* Takes w, the oldest waiting command of its channel, off the lists. */
static void
unpark(struct dispatch *d, struct dispatch_parked *w)
{
	if (w->prev != NULL)
		w->prev->next = w->next;
	else
		d->parked_head = w->next;
	if (w->next != NULL)
		w->next->prev = w->prev;
	else
		d->parked_tail = w->prev;
	d->nparked--;
	w->chan->head = w->chan_next;
	if (w->chan->head == NULL)
		w->chan->tail = NULL;
	waiting_drop(&d->parked_chans, w->chan);
	waiting_drop(&d->parked_users, w->user);
}

/* persist_want for o's records, and a thread's parent channel too (for its
 * GM seat): 1 while one is being read; a failed read of the parent only
 * leaves its seat unknown (invocation_seat), it refuses nothing. */
static int
want(struct dispatch *d, const struct origin *o, bool restart)
{
	int r =
	    d->persist_want(d->persist_ctx, o->chan_key, o->user_key, o->legacy_user_key, restart);

	if (r >= 0 && o->parent_key[0] != '\0' &&
	    d->persist_want(d->persist_ctx, o->parent_key, o->user_key, "", restart) == 1)
		r = 1;
	return r;
}

bool
dispatch_invocation_async(struct dispatch *d, const struct origin *o, struct invocation *inv,
                          int64_t now, struct reply *out, dispatch_done_fn done, void *ctx)
{
	int r;

	/* Only a command whose reply may wait can wait for a read. */
	if (d->persist_want == NULL || done == NULL)
		return run_now(d, o, inv, now, out, done, ctx);
	r = want(d, o, true);
	if (r == 0 && !parked_in(d, o->chan_key))
		return run_now(d, o, inv, now, out, done, ctx);
	if (r < 0 && !parked_in(d, o->chan_key)) {
		invocation_clear(inv);
		return refuse_unread(out, r);
	}
	if (d->nparked >= DISPATCH_PARKED_MAX) {
		invocation_clear(inv);
		reply_error(out, TOO_MANY_WAITING, DISPATCH_PARKED_MAX);
		return true;
	}
	park(d, o, inv, now, out, done, ctx);
	return false;
}

/*
 * One pass over the waiting commands in the order they came in. Only the
 * oldest of each channel may run, and one that does makes the next of its
 * channel the oldest, which comes later in the pass; so every command whose
 * records are in memory runs in this pass, in arrival order, and the
 * records of each channel are asked for once (not once per command before
 * it). Nothing but this function takes commands off the lists, and a
 * command started by done is added at the end, where the pass reaches it.
 */
void
dispatch_resume(struct dispatch *d)
{
	struct dispatch_parked *w = d->parked_head;

	while (w != NULL) {
		struct dispatch_parked *before = w->prev;
		int r;
		bool ready;

		if (w != w->chan->head) { /* an earlier command of its channel waits */
			w = w->next;
			continue;
		}
		r = want(d, &w->o, false);
		if (r == 1) {
			w = w->next;
			continue;
		}
		unpark(d, w);
		if (r < 0) {
			invocation_clear(&w->inv);
			ready = refuse_unread(w->out, r);
		} else {
			ready = run_now(d, &w->o, &w->inv, w->now, w->out, w->done, w->ctx);
		}
		if (ready)
			w->done(w->ctx, w->out);
		free(w->line);
		free(w);
		w = before != NULL ? before->next : d->parked_head;
	}
}

void
dispatch_invocation(struct dispatch *d, const struct origin *o, struct invocation *inv, int64_t now,
                    struct reply *out)
{
	dispatch_invocation_async(d, o, inv, now, out, NULL, NULL);
}

void
dispatch_line(struct dispatch *d, const struct origin *o, const char *line, size_t len, int64_t now,
              struct reply *out)
{
	dispatch_line_async(d, o, line, len, now, out, NULL, NULL);
}

/* A reply that needs nothing committed; held all the same while an earlier
 * reply of its channel is (replies leave in order). */
static bool
early(struct dispatch *d, const struct origin *o, struct reply *out, dispatch_done_fn done,
      void *ctx)
{
	return d->persist_defer == NULL || done == NULL || finish(d, o, out, done, ctx);
}

bool
dispatch_line_async(struct dispatch *d, const struct origin *o, const char *line, size_t len,
                    int64_t now, struct reply *out, dispatch_done_fn done, void *ctx)
{
	struct invocation inv;

	memset(&inv, 0, sizeof(inv));
	if (len > CMD_LINE_MAX) {
		reply_error(out,
		            "That message is %zu bytes long; a command may be at most %d bytes.",
		            len, CMD_LINE_MAX);
		return early(d, o, out, done, ctx);
	}
	if (memchr(line, '\0', len) != NULL) {
		reply_error(out, "That message contains a NUL byte; send plain text.");
		return early(d, o, out, done, ctx);
	}
	if (!utf8_valid(line, len)) {
		reply_error(out, "That message is not valid UTF-8 text; send plain text.");
		return early(d, o, out, done, ctx);
	}
	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (len > 0 && *line == '/') {
		line++;
		len--;
	}
	if (registry_parse_in(d->commands ? d->commands : command_table, line, len, &inv, out) < 0)
		return early(d, o, out, done, ctx);
	inv.line = line;
	inv.line_len = len;
	return dispatch_invocation_async(d, o, &inv, now, out, done, ctx);
}
