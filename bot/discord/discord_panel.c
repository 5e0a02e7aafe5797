/* discord_panel: when live panels are edited; see discord_panel.h. */
#include "bot/discord/discord_panel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "bot/discord/discord_json.h"
#include "bot/discord/discord_proto.h"
#include "rules/base/mem.h"

#undef uthash_fatal
#define uthash_fatal(msg) abort()

/* A panel found gone is remembered this long, so that the changes that
 * still name it (until its record is cleared) do not try it again. */
#define PANEL_FORGET_MS 60000

struct pchan {
	uint64_t chan;
	char msg[PANEL_ID_MAX];  /* the message to edit, "" unknown */
	char gone[PANEL_ID_MAX]; /* a message found gone, "" none */
	/* Changes are numbered across every channel (struct discord_panels'
	 * count), so a number given out stays meaningful when entries come
	 * and go. */
	uint64_t seq;     /* the newest change's number */
	uint64_t shown;   /* the message shows every change up to this number */
	uint64_t taken;   /* the newest number when the refresh on its way was taken */
	uint64_t body;    /* the hash of what the message shows, 0: not known */
	uint64_t pending; /* the hash of what the refresh on its way sends, 0: none */
	/* Writes to the message since it was last known (the refresh's, and
	 * presses' updates), which may land in any order: */
	uint64_t low;    /* the lowest number of those that landed */
	uint64_t wrote;  /* the hash of the one that landed, when one did */
	int landed;      /* how many landed */
	int updates;     /* presses' updates on their way */
	int64_t due;     /* the next refresh, or (nothing stale) when the entry goes; 0: none */
	int64_t paced;   /* no refresh starts before */
	int64_t started; /* when the refresh on its way was taken */
	int fails;       /* refreshes failed in a row */
	bool busy;       /* a refresh is on its way */
	bool check;      /* the next refresh reads the message first */
	bool checking;   /* the refresh on its way does */
	UT_hash_handle hh;
};

struct discord_panels {
	struct pchan *set;
	uint64_t count; /* changes counted: the newest change's number */
};

struct discord_panels *
discord_panels_new(void)
{
	return xcalloc(1, sizeof(struct discord_panels));
}

void
discord_panels_free(struct discord_panels *p)
{
	struct pchan *c, *tmp;

	if (p == NULL)
		return;
	HASH_ITER(hh, p->set, c, tmp)
	{
		HASH_DEL(p->set, c);
		free(c);
	}
	free(p);
}

static struct pchan *
find(const struct discord_panels *p, uint64_t chan)
{
	struct pchan *c;

	HASH_FIND(hh, p->set, &chan, sizeof(chan), c);
	return c;
}

static struct pchan *
get(struct discord_panels *p, uint64_t chan)
{
	struct pchan *c = find(p, chan);

	if (c == NULL) {
		c = xcalloc(1, sizeof(*c));
		c->chan = chan;
		HASH_ADD(hh, p->set, chan, sizeof(c->chan), c);
	}
	return c;
}

static void
drop(struct discord_panels *p, struct pchan *c)
{
	HASH_DEL(p->set, c);
	free(c);
}

static void
copy_id(char *dst, const char *id)
{
	snprintf(dst, PANEL_ID_MAX, "%s", id);
}

static int64_t
later(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* After a refresh ended or the panel was shown: the next refresh when
 * changes are left, else when the entry may go (once paced out, or
 * PANEL_KEEP_MS on when it knows what the message shows). */
static void
plan(struct pchan *c, int64_t now)
{
	c->due = later(c->paced, now);
	if (c->seq <= c->shown && c->body != 0)
		c->due = later(c->due, now + PANEL_KEEP_MS);
}

/* A write to c's message (its refresh's, or a press's update) is over;
 * when it landed, it made the message show every change up to seq, in a
 * body of hash body (0: not known). */
static void
wrote(struct pchan *c, bool landed, uint64_t seq, uint64_t body)
{
	if (!landed)
		return;
	c->low = c->landed == 0 || seq < c->low ? seq : c->low;
	c->wrote = body;
	c->landed++;
}

/* Once no write to c's message is on its way: the message shows what the
 * one that landed wrote; of two or more, which landed last is not known,
 * so it shows every change up to the lowest number of theirs, in a body
 * not known. Then the next refresh is planned. */
static void
settle(struct pchan *c, int64_t now)
{
	if (c->busy || c->updates > 0)
		return;
	if (c->gone[0] != '\0') {
		c->landed = 0; /* forgotten: nothing is planned */
		return;
	}
	if (c->landed > 0) {
		c->shown = c->low;
		c->body = c->landed == 1 ? c->wrote : 0;
	}
	c->landed = 0;
	plan(c, now);
}

/* c has nothing left to do: it goes, or, while presses' updates are on
 * their way, it counts as current until they are over. */
static void
release(struct discord_panels *p, struct pchan *c)
{
	if (c->updates == 0) {
		drop(p, c);
		return;
	}
	c->shown = c->seq;
	c->body = 0;
	c->landed = 0;
	c->fails = 0;
	c->due = 0;
}

void
discord_panels_changed(struct discord_panels *p, uint64_t chan, const char *msg, int64_t now)
{
	struct pchan *c = find(p, chan);

	if (c != NULL && c->gone[0] != '\0' && strcmp(c->gone, msg) == 0)
		return; /* found gone: its record is being cleared */
	c = c != NULL ? c : get(p, chan);
	c->gone[0] = '\0';
	if (!c->busy)
		copy_id(c->msg, msg);
	/* The first change since the panel was current opens the window that
	 * coalesces the burst; later ones join it. A check waiting for its
	 * turn becomes this refresh. */
	if (!c->busy && (c->seq <= c->shown || c->check)) {
		c->due = later(now + PANEL_COALESCE_MS, c->paced);
		c->check = false;
	}
	c->seq = ++p->count;
}

void
discord_panels_check(struct discord_panels *p, uint64_t chan, const char *msg, int64_t due)
{
	struct pchan *c;

	if (find(p, chan) != NULL)
		return;
	c = get(p, chan);
	copy_id(c->msg, msg);
	c->check = true;
	c->due = later(due, 1); /* 0 means none */
	c->seq = ++p->count;
}

bool
discord_panels_checking(const struct discord_panels *p, uint64_t chan)
{
	const struct pchan *c = find(p, chan);

	return c != NULL && c->busy && c->checking;
}

size_t
discord_panels_take_due(struct discord_panels *p, int64_t now, uint64_t *out, size_t max)
{
	struct pchan *c, *tmp;
	size_t n = 0;

	HASH_ITER(hh, p->set, c, tmp)
	{
		if (c->busy || c->updates > 0 || c->due == 0 || c->due > now)
			continue;
		if (c->seq <= c->shown || c->gone[0] != '\0') {
			drop(p, c); /* current, paced out, nothing left to do */
			continue;
		}
		/* The max earliest, in order of due: a later one is dropped
		 * from a full list. */
		if (n == max && (max == 0 || find(p, out[n - 1])->due <= c->due))
			continue;
		size_t i = n < max ? n++ : n - 1;

		while (i > 0 && find(p, out[i - 1])->due > c->due) {
			out[i] = out[i - 1];
			i--;
		}
		out[i] = c->chan;
	}
	for (size_t i = 0; i < n; i++) {
		c = find(p, out[i]);
		c->busy = true;
		c->checking = c->check;
		c->check = false;
		c->taken = c->seq;
		c->started = now;
		c->paced = now + PANEL_EDIT_MS;
		c->due = 0;
	}
	return n;
}

int64_t
discord_panels_next(const struct discord_panels *p)
{
	const struct pchan *c, *tmp;
	int64_t next = INT64_MAX;

	HASH_ITER(hh, p->set, c, tmp)
	{
		if (!c->busy && c->updates == 0 && c->due != 0 && c->due < next)
			next = c->due;
	}
	return next;
}

void
discord_panels_message(struct discord_panels *p, uint64_t chan, const char *msg)
{
	struct pchan *c = find(p, chan);

	if (c != NULL)
		copy_id(c->msg, msg);
}

const char *
discord_panels_message_of(const struct discord_panels *p, uint64_t chan)
{
	const struct pchan *c = find(p, chan);

	return c != NULL ? c->msg : "";
}

void
discord_panels_old(struct discord_panels *p, uint64_t chan)
{
	struct pchan *c = find(p, chan);

	if (c != NULL && c->busy)
		c->paced = later(c->paced, c->started + PANEL_OLD_EDIT_MS);
}

bool
discord_panels_done(struct discord_panels *p, uint64_t chan, enum discord_panel_outcome oc,
                    int64_t now)
{
	struct pchan *c = find(p, chan);

	if (c == NULL || !c->busy)
		return false;
	c->busy = false;
	c->checking = false;
	switch (oc) {
	case PANEL_EDITED:
		c->fails = 0;
		wrote(c, true, c->taken, c->pending);
		c->pending = 0;
		settle(c, now);
		break;
	case PANEL_FAILED:
	case PANEL_UNSURE:
		if (++c->fails >= PANEL_RETRIES) {
			release(p, c); /* the next change makes it anew */
			return true;
		}
		c->pending = 0;
		if (oc == PANEL_UNSURE) /* as if landed: no newer change, a body not known */
			wrote(c, true, c->shown, 0);
		c->paced = later(c->paced, now + ((int64_t)PANEL_RETRY_MS << (c->fails - 1)));
		settle(c, now);
		break;
	case PANEL_GONE:
		copy_id(c->gone, c->msg);
		c->msg[0] = '\0';
		c->shown = c->seq;
		c->due = now + PANEL_FORGET_MS;
		break;
	case PANEL_NONE:
		release(p, c);
		break;
	}
	return false;
}

uint64_t
discord_panels_seq(const struct discord_panels *p)
{
	return p->count;
}

bool
discord_panels_shows(const struct discord_panels *p, uint64_t chan, const char *msg, uint64_t body)
{
	const struct pchan *c = find(p, chan);

	return c != NULL && !c->busy && c->updates == 0 && c->gone[0] == '\0' && body != 0 &&
	       c->body == body && strcmp(c->msg, msg) == 0;
}

bool
discord_panels_same(struct discord_panels *p, uint64_t chan, uint64_t body)
{
	struct pchan *c = find(p, chan);

	if (c == NULL || !c->busy)
		return false;
	c->pending = body;
	return body != 0 && body == c->body;
}

uint64_t
discord_panel_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull; /* FNV-1a */

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h != 0 ? h : 1;
}

void
discord_panels_shown(struct discord_panels *p, uint64_t chan, const char *msg, uint64_t seq,
                     uint64_t body, int64_t now)
{
	struct pchan *c = get(p, chan);

	c->gone[0] = '\0';
	if (!c->busy && c->updates == 0) {
		copy_id(c->msg, msg);
		c->body = body;
	}
	if (seq > c->shown)
		c->shown = seq;
	if (!c->busy && c->updates == 0 && c->seq <= c->shown)
		plan(c, now); /* nothing left: the entry goes once paced out */
}

void
discord_panels_updating(struct discord_panels *p, uint64_t chan, const char *msg)
{
	struct pchan *c = get(p, chan);

	c->gone[0] = '\0';
	if (!c->busy)
		copy_id(c->msg, msg);
	c->updates++;
}

void
discord_panels_updated(struct discord_panels *p, uint64_t chan, uint64_t seq, uint64_t body,
                       bool landed, int64_t now)
{
	struct pchan *c = find(p, chan);

	if (c == NULL || c->updates == 0)
		return;
	c->updates--;
	wrote(c, landed, seq, body);
	settle(c, now);
}

uint64_t
discord_panel_chan(const char *key)
{
	uint64_t id;

	return strncmp(key, "discord:", 8) == 0 && discord_json_snowflake(key + 8, &id) ? id : 0;
}

enum discord_panel_outcome
discord_panel_outcome(long status, int code)
{
	if (status >= 200 && status <= 299)
		return PANEL_EDITED;
	/* Deleted by someone (10008 Unknown Message), the channel gone (10003
	 * Unknown Channel), the bot shut out of it (403: 50001 Missing Access,
	 * 50013 Missing Permissions): no edit will do better. */
	if ((status == 404 &&
	     (code == DISCORD_ERROR_UNKNOWN_MESSAGE || code == DISCORD_ERROR_UNKNOWN_CHANNEL)) ||
	    (status == 403 &&
	     (code == DISCORD_ERROR_MISSING_ACCESS || code == DISCORD_ERROR_MISSING_PERMISSIONS)))
		return PANEL_GONE;
	/* Without an answer, or with a server's error, Discord may have made
	 * the edit all the same. */
	if (status == 0 || status >= 500)
		return PANEL_UNSURE;
	return PANEL_FAILED;
}

size_t
discord_panels_count(const struct discord_panels *p)
{
	return HASH_COUNT(p->set);
}
