/* /thwacko: each player's Thwack-O style (colour and mark), a user
 * preference kept across channels. */
#include "commands/fungeon/cmd_thwacko.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/thwacko_style.h"
#include "rules/base/mem.h"

/* Bytes of a mark as typed: a longer one is refused as too long by the
 * command table, a shorter one quoted whole by thwacko_style_mark_check. */
#define THWACKO_MARK_TYPED_MAX 64

/* The style the invoker's die is drawn in here: the party's (distinct
 * among its players) when the invoker plays in this channel. */
static void
style_here(struct invocation *inv, struct thwacko_style *out)
{
	const struct fungeon_channel *c = fungeon_channel_peek(inv->chan);
	const struct thwacko_style *chosen = user_style(inv->user);
	int me = c != NULL ? fungeon_channel_member_of(c, inv->from->user_key) : -1;

	if (me >= 0) {
		struct thwacko_style all[FUNGEON_PARTY_MAX];

		fungeon_channel_styles(c, inv->state, all);
		*out = all[me];
	} else if (chosen != NULL) {
		*out = *chosen;
	} else {
		thwacko_style_default(inv->from->user_key, out);
	}
}

/* One die as it is drawn here; mine is its player's chosen style (NULL:
 * none), which the party may not let it use (its mark is another's). */
static void
sample(struct reply *out, const char *who, const struct thwacko_style *s,
       const struct thwacko_style *mine)
{
	reply_add(out, 0, "%s: ", who);
	reply_add_user(out, s, RS_BOLD, "6");
	reply_add(out, 0, " (%s, mark %s", thwacko_style_colour_name(s->colour), s->mark);
	if (mine == NULL)
		reply_add(out, 0, ", default");
	else if (strcmp(mine->mark, s->mark) != 0)
		reply_add(out, 0, ", default here: mark %s is another player's in this party",
		          mine->mark);
	reply_add(out, 0, ")");
	reply_nl(out);
}

/* Whether st's mark is another player's in this channel's party: then an
 * error reply, for the dice must be told apart where colour does not
 * show (the mark is what tells them apart there). */
static bool
clashes(struct invocation *inv, const struct thwacko_style *st, struct reply *out)
{
	const struct fungeon_channel *c = fungeon_channel_peek(inv->chan);
	struct thwacko_style all[FUNGEON_PARTY_MAX];

	if (c == NULL || c->n == 0)
		return false;
	fungeon_channel_styles(c, inv->state, all);
	for (int i = 0; i < c->n; i++) {
		if (strcmp(c->m[i].user_key, inv->from->user_key) == 0 ||
		    strcmp(all[i].mark, st->mark) != 0)
			continue;
		reply_error(out,
		            "The mark %s is taken in this party: it is on %s's Thwack-O die (%s); "
		            "choose another mark, so that the dice can be told apart where colour "
		            "does not show.",
		            st->mark, c->m[i].player, thwacko_style_colour_name(all[i].colour));
		return true;
	}
	return false;
}

/* The parties the chooser plays in, with their dice as they were before
 * the choice, so that the reply can say what it moved elsewhere. */
#define PARTIES_SEEN_MAX 16
struct party_seen {
	struct channel *ch;
	struct thwacko_style before[FUNGEON_PARTY_MAX];
};
struct parties {
	const char *user_key;
	struct state *st;
	struct party_seen p[PARTIES_SEEN_MAX];
	int n;
};

static void
party_seen(struct channel *ch, void *ctx)
{
	struct parties *g = ctx;
	const struct fungeon_channel *c = fungeon_channel_peek(ch);

	if (c == NULL || g->n == PARTIES_SEEN_MAX || fungeon_channel_member_of(c, g->user_key) < 0)
		return;
	g->p[g->n].ch = ch;
	fungeon_channel_styles(c, g->st, g->p[g->n].before);
	g->n++;
}

static int
by_key(const void *a, const void *b)
{
	return strcmp(channel_key(((const struct party_seen *)a)->ch),
	              channel_key(((const struct party_seen *)b)->ch));
}

/* What the choice st did in each other party of the chooser me: where its
 * mark is another's who joined first, the chooser's die keeps its default
 * there; where the chooser joined first, the other's die gives the mark up
 * for its default. A chosen style holds in every channel, and in a party
 * the one who joined first keeps a mark (delver(7), Thwack-O styles). */
static void
elsewhere(struct invocation *inv, const struct parties *g, const struct thwacko_style *st,
          struct reply *out)
{
	for (int k = 0; k < g->n; k++) {
		const struct fungeon_channel *c = fungeon_channel_peek(g->p[k].ch);
		struct thwacko_style after[FUNGEON_PARTY_MAX];
		int me;

		if (g->p[k].ch == inv->chan || c == NULL)
			continue;
		me = fungeon_channel_member_of(c, inv->from->user_key);
		fungeon_channel_styles(c, inv->state, after);
		for (int i = 0; i < c->n; i++) {
			if (i == me && strcmp(after[i].mark, st->mark) != 0) {
				for (int j = 0; j < c->n; j++)
					if (j != me && strcmp(after[j].mark, st->mark) == 0)
						reply_line(
						    out, 0,
						    "In %s your die keeps mark %s: %s is %s's "
						    "there, who joined that party before you.",
						    channel_key(g->p[k].ch), after[i].mark,
						    st->mark, c->m[j].player);
			} else if (i != me && strcmp(g->p[k].before[i].mark, after[i].mark) != 0) {
				reply_line(
				    out, 0,
				    "In %s %s's die gives mark %s up for %s: you joined that "
				    "party first, so the mark is yours there.",
				    channel_key(g->p[k].ch), c->m[i].player, g->p[k].before[i].mark,
				    after[i].mark);
			}
		}
	}
}

static void
thwacko_style(struct invocation *inv, struct reply *out)
{
	const struct thwacko_style *old = user_style(inv->user);
	const char *mark = invocation_str(inv, "mark");
	struct thwacko_style st;
	struct parties *g;
	char err[THWACKO_MARK_TYPED_MAX + 200];

	if (mark != NULL && (thwacko_style_mark_check(mark, err, sizeof(err)) < 0 ||
	                     thwacko_style_mark_reads(mark, err, sizeof(err)) < 0)) {
		reply_error(out, "%s", err);
		return;
	}
	if (old != NULL)
		st = *old;
	else
		thwacko_style_default(inv->from->user_key, &st);
	st.colour = (enum ucolour)thwacko_style_colour_parse(invocation_str(inv, "colour"));
	if (mark != NULL)
		snprintf(st.mark, sizeof(st.mark), "%s", mark);
	if (clashes(inv, &st, out))
		return;
	g = xcalloc(1, sizeof(*g));
	g->user_key = inv->from->user_key;
	g->st = inv->state;
	state_each_channel(inv->state, party_seen, g);
	qsort(g->p, (size_t)g->n, sizeof(g->p[0]), by_key);
	user_set_style(inv->user, &st);
	user_touch(inv->user);
	reply_add(out, 0, "Your Thwack-O die, in every channel: ");
	reply_add_user(out, &st, RS_BOLD, "6");
	reply_add(out, 0, " (%s, mark %s).", thwacko_style_colour_name(st.colour), st.mark);
	reply_nl(out);
	elsewhere(inv, g, &st, out);
	free(g);
}

static void
thwacko_show(struct invocation *inv, struct reply *out)
{
	const struct fungeon_channel *c = fungeon_channel_peek(inv->chan);
	struct thwacko_style st;

	int me = c != NULL ? fungeon_channel_member_of(c, inv->from->user_key) : -1;

	style_here(inv, &st);
	reply_title(out, "Thwack-O dice");
	if (me < 0) /* else the party's list names the invoker */
		sample(out, "You", &st, user_style(inv->user));
	if (c == NULL || c->n == 0)
		return;
	{
		struct thwacko_style all[FUNGEON_PARTY_MAX];

		fungeon_channel_styles(c, inv->state, all);
		for (int i = 0; i < c->n; i++) {
			const struct user *u = state_user_find(inv->state, c->m[i].user_key);
			char who[FUNGEON_PLAYER_MAX + 8];

			snprintf(who, sizeof(who), "%s%s", c->m[i].player, i == me ? " (you)" : "");
			sample(out, who, &all[i], u != NULL ? user_style(u) : NULL);
		}
	}
}

static const struct cmd_opt style_opts[] = {
    {.name = "colour",
     .desc = "gray, red, green, yellow, blue, pink, cyan or white",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = thwacko_style_colour_names},
    {.name = "mark",
     .desc = "1-2 symbols or emoji, or up to 4 letters, shown before your die",
     .type = OPT_STRING,
     .flags = OPT_NAME,
     .max = THWACKO_MARK_TYPED_MAX},
    {0},
};

static const struct command thwacko_subs[] = {
    {.name = "show",
     .desc = "Preview your Thwack-O die and the party's",
     .fn = thwacko_show,
     .read_only = true},
    {.name = "style",
     .desc = "Choose your Thwack-O die's colour and mark (a mark nobody else in the party has)",
     .opts = style_opts,
     .fn = thwacko_style},
    {0},
};

const struct command cmd_thwacko = {
    .name = "thwacko",
    .desc = "Your Thwack-O die's style: a colour and a mark",
    .help = "In every Fungeon roll your Thwack-O die is drawn in your colour with your mark "
            "before it, so it stands out where colour does not render. Without a choice "
            "you get a stable default. Your style holds in every channel, but in a party "
            "no two dice share a mark: where another player's die has yours already (a "
            "default, or chosen by one who joined before you), your die keeps its default "
            "there; where you joined first, the other die gives your mark up. Choosing a "
            "style names each of your other parties where it did either.",
    .subs = thwacko_subs,
    .default_sub = "show",
};
