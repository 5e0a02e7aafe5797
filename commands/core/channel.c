/* channel: a channel record's accessors; see channel.h. */
#include "commands/core/channel.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "commands/core/state_int.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/mem.h"

const char *
channel_key(const struct channel *ch)
{
	return ch->key;
}

const char *
channel_gm(const struct channel *ch)
{
	return ch->gm;
}

const char *
channel_gm_name(const struct channel *ch)
{
	return ch->gm != NULL ? ch->gm + strlen(ch->gm) + 1 : NULL;
}

void
channel_set_gm(struct channel *ch, const char *user_key, const char *name)
{
	size_t kl = strlen(user_key), nl = strlen(name);
	char *gm;

	if (kl >= KEY_MAX)
		kl = KEY_MAX - 1;
	if (nl >= NAME_MAX_LEN)
		nl = NAME_MAX_LEN - 1;
	gm = xmalloc(kl + nl + 2);
	memcpy(gm, user_key, kl);
	gm[kl] = '\0';
	memcpy(gm + kl + 1, name, nl);
	gm[kl + 1 + nl] = '\0';
	free(ch->gm);
	ch->gm = gm;
}

void
channel_clear_gm(struct channel *ch)
{
	free(ch->gm);
	ch->gm = NULL;
}

void *
channel_mod(struct channel *ch, enum chanmod_id id)
{
	if (ch->mods[id] == NULL)
		ch->mods[id] = chanmod_table[id]->create();
	return ch->mods[id];
}

void *
channel_mod_peek(const struct channel *ch, enum chanmod_id id)
{
	return ch != NULL ? ch->mods[id] : NULL;
}

bool
channel_at_start(const struct channel *ch)
{
	for (int id = 0; id < CHANMOD_COUNT; id++) {
		const struct chanmod *m = chanmod_table[id];

		if (ch->mods[id] != NULL && m != NULL && m->at_start != NULL &&
		    m->at_start(ch->mods[id]))
			return true;
	}
	return false;
}

void
channel_mod_set(struct channel *ch, enum chanmod_id id, void *mod)
{
	if (ch->texts != NULL) {
		free(ch->texts->text[id]);
		ch->texts->text[id] = NULL;
	}
	if (ch->mods[id] != NULL)
		chanmod_table[id]->destroy(ch->mods[id]);
	ch->mods[id] = mod;
}

#ifdef DELVER_DEBUG
/* A text the bot writes it must read back, or the next start finds damage
 * (a limit the commands allow that the loader refuses): in a DELVER_DEBUG
 * build each text chanmod_write() makes is loaded into a fresh state, and a
 * refusal aborts. */
static void
check_loads(const struct chanmod *m, const char *text, size_t len)
{
	cJSON *o = cJSON_ParseWithLength(text, len);
	void *fresh = m->create();
	char err[256] = "not JSON";

	if (o == NULL || m->load(fresh, o, err, sizeof(err)) < 0) {
		fprintf(stderr, "the %s state's text (%zu bytes) does not load back: %s\n%.*s\n",
		        m->name, len, err, (int)(len < 4096 ? len : 4096), text);
		abort();
	}
	cJSON_Delete(o);
	m->destroy(fresh);
}
#endif

int
chanmod_write(const struct chanmod *m, const void *state, struct buf *out)
{
	size_t from = out->len;
	int rc;

	if (m->write != NULL) {
		rc = m->write(state, out);
	} else {
		cJSON *o;

		json_scratch_begin(); /* the tree lives for this call (json.h) */
		o = m->save(state);
		rc = o != NULL ? json_write(o, out) : -1;
		cJSON_Delete(o);
		json_scratch_end();
	}
#ifdef DELVER_DEBUG
	if (rc == 0)
		check_loads(m, out->p + from, out->len - from);
#else
	(void)from;
#endif
	return rc;
}

#ifdef DELVER_DEBUG
/* A kept text is a cache of chanmod_write()'s text of the module's state:
 * in a build with DELVER_DEBUG (the Makefile's SANITIZE builds, which the
 * unit suite runs under ASan; never the default build) each use of one
 * encodes the state afresh and stops the program when the two differ (a
 * state changed without channel_touch(), or a text kept that is not its
 * state's), where a release build would store or undo from the stale
 * text. It names the channel, the module and the first differing byte,
 * not the texts (a state may hold what is behind the GM's screen). */
static void
check_kept(const struct channel *ch, enum chanmod_id id)
{
	const char *kept = ch->texts->text[id];
	size_t len = ch->texts->len[id], at = 0;
	struct buf b;

	buf_init(&b, SIZE_MAX);
	if (chanmod_write(chanmod_table[id], ch->mods[id], &b) < 0) {
		fprintf(stderr, "channel %s: the %s state cannot be encoded\n", ch->key,
		        chanmod_table[id]->name);
		abort();
	}
	while (at < len && at < b.len && kept[at] == b.p[at])
		at++;
	if (at < len || at < b.len) {
		fprintf(stderr,
		        "channel %s: the kept %s text (%zu bytes) is stale: the state's "
		        "encoding (%zu bytes) differs from byte %zu\n",
		        ch->key, chanmod_table[id]->name, len, b.len, at);
		abort();
	}
	buf_free(&b);
}
#endif

const char *
channel_kept_text(const struct channel *ch, enum chanmod_id id, size_t *len)
{
	if (ch->texts == NULL || ch->texts->text[id] == NULL)
		return NULL;
#ifdef DELVER_DEBUG
	check_kept(ch, id);
#endif
	*len = ch->texts->len[id];
	return ch->texts->text[id];
}

char *
channel_take_text(struct channel *ch, enum chanmod_id id, size_t *len)
{
	char *t;

	if (ch->texts == NULL || ch->texts->text[id] == NULL)
		return NULL;
#ifdef DELVER_DEBUG
	check_kept(ch, id);
#endif
	t = ch->texts->text[id];
	*len = ch->texts->len[id];
	ch->texts->text[id] = NULL;
	return t;
}

void
channel_keep_text(struct channel *ch, enum chanmod_id id, char *text, size_t len)
{
	if (text == NULL)
		return;
	if (ch->mods[id] == NULL || len > CHANNEL_TEXT_MAX) {
		free(text);
		return;
	}
	if (ch->texts == NULL)
		ch->texts = xcalloc(1, sizeof(*ch->texts));
	free(ch->texts->text[id]);
	ch->texts->text[id] = text;
	ch->texts->len[id] = len;
}

void
channel_drop_texts(struct channel *ch)
{
	if (ch->texts == NULL)
		return;
	for (int i = 0; i < CHANMOD_COUNT; i++)
		free(ch->texts->text[i]);
	free(ch->texts);
	ch->texts = NULL;
}

/* Puts ch on its state's list of touched channels (state_flush). */
static void
mark(struct channel *ch)
{
	if (ch->touched)
		return;
	ch->touched = true;
	ch->next_touched = ch->owner->touched_channels;
	ch->owner->touched_channels = ch;
}

void
channel_touch(struct channel *ch)
{
	ch->changes++;
	channel_drop_texts(ch);
	mark(ch);
}

void
channel_append(struct channel *ch)
{
	mark(ch);
}

bool
channel_record_saved(const struct channel *ch)
{
	return ch->changes == ch->changes_saved;
}

uint32_t
channel_changes(const struct channel *ch)
{
	return ch->changes;
}

void
channel_set_changes_saved(struct channel *ch, uint32_t changes)
{
	ch->changes_saved = changes;
	channel_drop_texts(ch); /* kept for the record, which is stored now */
}

uint64_t
channel_log_saved(const struct channel *ch)
{
	return ch->log_saved;
}

void
channel_set_log_saved(struct channel *ch, uint64_t seq)
{
	ch->log_saved = seq;
}

bool
channel_touched(const struct channel *ch)
{
	return ch->touched;
}

int64_t
channel_last_used(const struct channel *ch)
{
	return ch->last_used;
}

void
channel_set_last_used(struct channel *ch, int64_t when)
{
	ch->last_used = when;
}

uint64_t
channel_generation(const struct channel *ch)
{
	return ch->generation;
}

void
channel_set_generation(struct channel *ch, uint64_t generation)
{
	ch->generation = generation;
}
