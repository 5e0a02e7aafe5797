/* /surprise: WIS checks DC 12 for the party, and for the other side. */
#include "commands/procedure/cmd_surprise.h"

#include <stdio.h>

#include "commands/procedure/procedure_render.h"
#include "rules/procedure/wander.h"

static void
cell(const struct surprise_check *c, int mod, char *buf, size_t len)
{
	const char *what = c->surprised ? "surprised" : "alert";

	if (mod != 0)
		snprintf(buf, len, "%d%+d = %d %s", c->d20, mod, c->total, what);
	else
		snprintf(buf, len, "%d %s", c->d20, what);
}

static int
count_surprised(const struct surprise_check *c, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += c[i].surprised;
	return k;
}

static void
side_line(struct reply *out, const char *side, int surprised, int n)
{
	reply_add(out, 0, "%s: ", side);
	reply_add(out, RS_BOLD | (surprised > 0 ? RS_BAD : RS_GOOD), "%d", surprised);
	reply_add(out, 0, " of %d surprised.", n);
	reply_nl(out);
}

/* The check when the party is surprised by every encounter (delving:
 * walking, running or total darkness, caught as procedure_state_surprise()
 * says): no WIS check for the party, which is surprised whatever it
 * rolls; the m monsters (0: none) check as ever. With hint, says how
 * the monsters check. */
static void
caught_party(struct invocation *inv, struct reply *out, int caught, int n, int m, bool hint)
{
	static const char *const hdr[] = {"#", "monsters"};
	struct surprise_check foes[SURPRISE_MAX];

	if (m > 0) {
		wander_surprise_roll(inv->rng, m, 0, foes);
		reply_title(out, "Surprise: WIS check DC %d (d20), the monsters only", SURPRISE_DC);
	} else {
		reply_title(out, "Surprise");
	}
	/* The bot cannot know every encounter (a room's own is the GM's), so
	 * this speaks of any encounter, not of one it rolled. */
	if (caught < 0)
		reply_add(out, 0, "In total darkness any encounter ");
	else
		reply_add(out, 0, "The party is %s, so any encounter ", turn_pace_name(caught));
	reply_add(out, RS_BAD, "surprises %s", caught < 0 ? "the party" : "it");
	reply_add(out, 0, ", and it makes no check");
	if (hint) {
		reply_add(out, 0, " (");
		reply_cmd(out, 0, "surprise", "monsters:", "N", NULL);
		reply_add(out, 0, " checks the monsters)");
	}
	reply_add(out, 0, ".");
	reply_nl(out);
	if (m > 0) {
		reply_table(out, 2, hdr);
		for (int i = 0; i < m; i++) {
			char num[16], b[48];
			const char *cells[2] = {num, b};

			snprintf(num, sizeof(num), "%d", i + 1);
			cell(&foes[i], 0, b, sizeof(b));
			reply_row(out, false, cells);
		}
	}
	side_line(out, "Party", n, n);
	if (m > 0)
		side_line(out, "Monsters", count_surprised(foes, m), m);
	reply_line(out, 0, "The surprised cannot act in the first round of combat.");
}

/* The WIS checks of n in the party with modifier mod, and of m monsters
 * (0: none) side by side. */
static void
checks(struct invocation *inv, struct reply *out, int n, int mod, int m)
{
	static const char *const hdr2[] = {"#", "party"};
	static const char *const hdr3[] = {"#", "party", "monsters"};
	struct surprise_check party[SURPRISE_MAX], foes[SURPRISE_MAX];
	bool side = m > 0;
	int rows = side && m > n ? m : n;

	wander_surprise_roll(inv->rng, n, mod, party);
	if (side)
		wander_surprise_roll(inv->rng, m, 0, foes);
	reply_title(out, "Surprise: WIS check DC %d (d20%s)", SURPRISE_DC,
	            mod ? " + modifier" : "");
	reply_table(out, side ? 3 : 2, side ? hdr3 : hdr2);
	for (int i = 0; i < rows; i++) {
		char num[16], a[48] = "", b[48] = "";
		const char *cells[3] = {num, a, b};

		snprintf(num, sizeof(num), "%d", i + 1);
		if (i < n)
			cell(&party[i], mod, a, sizeof(a));
		if (side && i < m)
			cell(&foes[i], 0, b, sizeof(b));
		reply_row(out, false, cells);
	}
	side_line(out, "Party", count_surprised(party, n), n);
	if (side)
		side_line(out, "Monsters", count_surprised(foes, m), m);
	if (count_surprised(party, n) > 0 || (side && count_surprised(foes, m) > 0))
		reply_line(out, 0, "The surprised cannot act in the first round of combat.");
}

static void
surprise_fn(struct invocation *inv, struct reply *out)
{
	int n = (int)invocation_int(inv, "n", 1), mod = (int)invocation_int(inv, "mod", 0);
	int m = (int)invocation_int(inv, "monsters", 0);
	bool forced = invocation_bool(inv, "forced", false), side = m > 0 && !forced;
	int caught = procedure_state_surprise(inv->chan, false);
	const struct procedure_state *ps = channel_mod_peek(inv->chan, CHANMOD_PROC);

	if (forced && m == 0) {
		reply_error(out, "forced:true is about the monsters; give monsters:N too (1-20).");
		return;
	}
	/* Text 004: monsters do not go to a safe area, and no fighting
	 * happens there, so nobody is caught off guard. */
	if (ps != NULL && ps->safe) {
		reply_add(out, RS_GOOD,
		          "No surprise check: no encounter comes to a safe area and no fighting "
		          "happens there (");
		procedure_render_safe_exit(out, RS_GOOD, ps);
		reply_line(out, RS_GOOD, ").");
		return;
	}
	if (caught != TURN_NOT_SURPRISED) {
		caught_party(inv, out, caught, n, side ? m : 0, m == 0);
	} else {
		checks(inv, out, n, mod, side ? m : 0);
		if (ps != NULL)
			procedure_render_rest_pace(out, ps, false);
	}
	if (forced)
		reply_line(out, 0,
		           "The forced door alerted the room: its %d %s cannot be surprised.", m,
		           m == 1 ? "inhabitant" : "inhabitants");
}

static const struct cmd_opt surprise_opts[] = {
    {.name = "n",
     .desc = "Characters checking (1-20, default 1)",
     .type = OPT_INT,
     .min = 1,
     .max = SURPRISE_MAX},
    {.name = "mod",
     .desc = "Their WIS modifier (-5 to +10)",
     .type = OPT_INT,
     .min = -5,
     .max = 10},
    {.name = "monsters",
     .desc = "Also check this many monsters, side by side (1-20)",
     .type = OPT_INT,
     .min = 1,
     .max = SURPRISE_MAX},
    {.name = "forced",
     .desc = "The party forced a door: the monsters are alerted",
     .type = OPT_BOOL},
    {0},
};

const struct command cmd_surprise = {
    .name = "surprise",
    .desc = "Surprise: a WIS check DC 12 per character (and monster)",
    .help = "When either side may be caught off guard, each character makes a WIS check DC "
            "12: d20 + modifier, 12 or more is alert; the surprised cannot act in the first "
            "round of combat, and some may be surprised while others are not. monsters:N "
            "checks the other side too, shown side by side. Delving, a party walking, running "
            "or in total darkness is surprised by every encounter: only the monsters check (a "
            "party resting this turn, only in darkness). A "
            "forced door always alerts the "
            "room's inhabitants (forced:true). In a safe area no encounter comes, so "
            "there is no check. Ruling: Edge or Setback from circumstances (a "
            "party creeping through darkness, or arguing loudly) is the GM's, given as mod:.",
    .opts = surprise_opts,
    .fn = surprise_fn,
    .read_only = true,
};
