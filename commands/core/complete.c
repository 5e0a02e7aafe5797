/* complete: autocomplete for the families' options; see complete.h. */
#include "commands/core/complete.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/tables/tables_use.h"
#include "commands/tension/tension_state.h"
#include "rules/tension/tension.h"
#include "rules/base/utf8.h"

#define VALUE_MAX 100 /* bytes of a suggestion Discord takes */

/* Offers prefix + value when value contains word (ignoring case) and,
 * on the first pass, starts with it. Long values are cut at a character
 * boundary: a part of an entry's text still names it. */
static void
offer(struct completions *out, const char *prefix, const char *value, const char *word,
      bool first_pass)
{
	const char *hit = strcasestr(value, word);
	char v[VALUE_MAX + 1];
	size_t pl = strlen(prefix), n;

	if (hit == NULL || (hit == value) != first_pass || pl >= VALUE_MAX)
		return;
	n = utf8_cut(value, strlen(value), VALUE_MAX - pl);
	snprintf(v, sizeof(v), "%s%.*s", prefix, (int)n, value);
	completions_add(out, v);
}

/* Splits a list being typed: *word is its last word, prefix the rest. */
static const char *
last_word(const char *partial, char *prefix, size_t len)
{
	const char *w = partial + strlen(partial);

	while (w > partial && w[-1] != ' ' && w[-1] != ',')
		w--;
	snprintf(prefix, len, "%.*s", (int)(w - partial), partial);
	return w;
}

static const struct fungeon_channel *
fg(const struct invocation *inv)
{
	return inv->chan != NULL ? fungeon_channel_peek(inv->chan) : NULL;
}

void
complete_fg_who(struct invocation *inv, const char *partial, struct completions *out)
{
	const struct fungeon_channel *c = fg(inv);
	char prefix[VALUE_MAX + 1];
	const char *word = last_word(partial, prefix, sizeof(prefix));

	for (int pass = 0; c != NULL && pass < 2; pass++)
		for (int i = 0; i < c->n; i++)
			offer(out, prefix, c->m[i].name, word, pass == 0);
}

static void
designs(const struct fungeon_channel *c, enum fungeon_kind k, const char *prefix, const char *word,
        bool abilities, struct completions *out)
{
	for (int pass = 0; c != NULL && pass < 2; pass++) {
		for (int i = 0; i < c->d.room.n[k]; i++) {
			const struct fungeon_piece *s = &c->d.room.p[k][i];

			if (!abilities) {
				offer(out, prefix, s->name, word, pass == 0);
				continue;
			}
			for (int a = 0; a < s->d.nab; a++) {
				char v[2 * FUNGEON_NAME_MAX + 2];

				snprintf(v, sizeof(v), "%s/%s", s->name, s->d.ab[a].name);
				offer(out, prefix, v, word, pass == 0);
			}
		}
	}
}

void
complete_fg_abilities(struct invocation *inv, const char *partial, struct completions *out)
{
	char prefix[VALUE_MAX + 1];
	const char *word = last_word(partial, prefix, sizeof(prefix));

	designs(fg(inv), FUNGEON_MONSTER, prefix, word, true, out);
}

void
complete_fg_trap(struct invocation *inv, const char *partial, struct completions *out)
{
	designs(fg(inv), FUNGEON_TRAP, "", partial, false, out);
}

void
complete_fg_monster(struct invocation *inv, const char *partial, struct completions *out)
{
	designs(fg(inv), FUNGEON_MONSTER, "", partial, false, out);
}

void
complete_fg_treasure(struct invocation *inv, const char *partial, struct completions *out)
{
	designs(fg(inv), FUNGEON_TREASURE, "", partial, false, out);
}

void
complete_fg_monsters(struct invocation *inv, const char *partial, struct completions *out)
{
	char prefix[VALUE_MAX + 1];
	const char *word = last_word(partial, prefix, sizeof(prefix));

	designs(fg(inv), FUNGEON_MONSTER, prefix, word, false, out);
}

static void
entries(struct invocation *inv, const char *partial, bool struck, struct completions *out)
{
	const char *kind = invocation_str(inv, "table");
	int k = kind != NULL ? tension_table_find(kind) : TENSION_TABLE_ENCOUNTER;
	struct roll_table t;
	char own[ROLL_TABLE_NAME_MAX];

	if (k < 0)
		return;
	/* the table the channel's rolls use: its own of that kind, or Tension's */
	if (inv->chan != NULL &&
	    !tables_use_kind(inv->chan, tension_table_name((enum tension_table)k), &t, own))
		tension_state_table(inv->chan, (enum tension_table)k, &t);
	else if (inv->chan == NULL)
		tension_table_default((enum tension_table)k, &t);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < t.n; i++)
			if (t.e[i].struck == struck)
				offer(out, "", t.e[i].text, partial, pass == 0);
}

void
complete_tension_entry(struct invocation *inv, const char *partial, struct completions *out)
{
	entries(inv, partial, false, out);
}

void
complete_tension_struck(struct invocation *inv, const char *partial, struct completions *out)
{
	entries(inv, partial, true, out);
}

/* The option's fixed choices: those starting with the text, then those
 * containing it. */
static void
choices(const struct cmd_opt *opt, const char *partial, struct completions *out)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; opt->choices[i] != NULL; i++) {
			const char *hit = strcasestr(opt->choices[i], partial);

			if (hit != NULL && (hit == opt->choices[i]) == (pass == 0))
				completions_add(out, opt->choices[i]);
		}
}

void
complete_invocation(struct dispatch *d, const struct origin *o, struct invocation *inv,
                    const char *option, const char *partial, int64_t now, struct completions *out)
{
	const struct cmd_opt *opt = NULL;
	bool failed;

	for (int i = 0;
	     inv->cmd != NULL && inv->cmd->opts != NULL && inv->cmd->opts[i].name != NULL; i++)
		if (option != NULL && strcmp(inv->cmd->opts[i].name, option) == 0)
			opt = &inv->cmd->opts[i];
	inv->from = o;
	inv->state = dispatch_state(d);
	inv->rng = dispatch_rng(d);
	inv->now = now;
	inv->chan = state_channel_read(inv->state, o->chan_key, &failed);
	inv->user = state_user_find(inv->state, o->user_key);
	if (opt == NULL || failed)
		goto done;
	invocation_seat(inv);
	/* A GM-only command suggests nothing to others: the suggestions could
	 * show what only the GM may see. */
	for (size_t i = 0; i < 3 && inv->path[i] != NULL; i++)
		if (inv->path[i]->role == ROLE_GM && !inv->is_gm)
			goto done;
	if (opt->complete != NULL)
		opt->complete(inv, partial != NULL ? partial : "", out);
	else if (opt->choices != NULL)
		choices(opt, partial != NULL ? partial : "", out);
done:
	invocation_clear(inv);
}
