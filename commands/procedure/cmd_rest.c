/* /rest: the party spends a turn resting. */
#include "commands/procedure/cmd_rest.h"

#include <stdio.h>

#include "commands/procedure/cmd_hazard.h"
#include "commands/procedure/procedure_render.h"
#include "commands/dice/rollchan.h"

static void
rest_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	int exits = (int)invocation_int(inv, "exits", 1);
	char action[64];

	if (!procedure_render_may_pass(inv, s, out, "passes turns"))
		return;
	if (invocation_bool(inv, "hazard", true)) {
		struct hazard_view v;

		if (procedure_render_view(s, s->table, &v, out) < 0)
			return;
		cmd_hazard_turn(inv, out, s, &v, true);
	} else {
		struct turn_report rep;
		struct turn_how how = {.effect = HZ_NOTHING, .resting = true, .safe = s->safe};

		turn_report_init(&rep);
		turn_pass(&s->clock, s->proc, &how, &rep);
		channel_touch(inv->chan);
		rollchan_heading(inv->chan, out, "Rest: turn %d", s->clock.turn);
		procedure_render_report(out, &rep, s, false, false);
		procedure_render_footer(out, s,
		                        rollchan_show_dark(inv->chan, s->clock.lights.n == 0));
	}
	if (s->safe) {
		reply_line(out, RS_DIM,
		           "A safe area: no wandering monsters come while the party rests.");
		return;
	}
	snprintf(action, sizeof(action), "wander rest exits:%d", exits);
	reply_button(out, "Wandering check (resting)", action);
}

static const struct cmd_opt rest_opts[] = {
    {.name = "hazard",
     .desc = "Roll the hazard die for the rest turn (default true)",
     .type = OPT_BOOL},
    {.name = "exits",
     .desc = "The room's exits, for the resting wandering check (1-20)",
     .type = OPT_INT,
     .min = 1,
     .max = WANDER_EXITS_MAX},
    {0},
};

const struct command cmd_rest = {
    .name = "rest",
    .desc = "The party rests for a turn (resets the rest clock)",
    .help = "Resting takes 1 turn: lights burn down, the rest clock starts again, and a "
            "pending delving Fatigue is avoided. The turn's hazard die is rolled as for any "
            "turn (hazard:false skips it); a delving Fatigue rolled while resting is ignored. "
            "Then the bot offers the resting wandering check (1-in-6; on a 1 they come "
            "through one of the room's exits). Rulings: an exploration Fatigue rolled on a "
            "rest turn is satisfied by that rest (no save); the resting check is offered, not "
            "rolled by itself, since the hazard die already brings its own encounters: a GM "
            "following the safe-areas text rolls it for each turn of rest.",
    .opts = rest_opts,
    .fn = rest_fn,
};
