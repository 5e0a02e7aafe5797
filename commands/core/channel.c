/* channel: a channel record's accessors; see channel.h. */
#include "commands/core/channel.h"

#include <stdlib.h>
#include <string.h>

#include "commands/core/state_int.h"
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
	return ch->mods[id];
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
	if (ch->mods[id] != NULL)
		chanmod_table[id]->destroy(ch->mods[id]);
	ch->mods[id] = mod;
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
