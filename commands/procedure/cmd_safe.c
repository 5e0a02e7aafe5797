/* /safe: whether the party is in a safe area (level 0, a vendor's room). */
#include "commands/procedure/cmd_safe.h"

#include "commands/procedure/procedure_render.h"
#include "commands/procedure/procedure_state.h"

/* The state, and a button that turns it (the GM's): pressing it changes
 * what this message shows, so its reply replaces the message. */
static void
safe_show(struct invocation *inv, struct reply *out)
{
	const struct procedure_state *s = procedure_state_of(inv->chan);

	if (s->safe && s->level == 0) {
		/* level 0 is the safe area itself: the party leaves by the
		 * stair, which takes a turn, not by /safe off */
		reply_add(out, 0,
		          "The party is in the safe area of level 0: no wandering monsters, no "
		          "fighting; ");
		procedure_render_safe_exit(out, 0, s);
		reply_line(out, 0, ".");
		reply_button(out, "Take the stair to level 1", "turn level 1");
	} else if (s->safe) {
		reply_add(out, 0,
		          "The party is in a safe area: no wandering monsters, no "
		          "fighting. ");
		reply_cmd(out, 0, "vendor meet", NULL);
		reply_line(out, 0, " rolls a vendor's stock.");
		reply_button_update(out, "Leave the safe area", "safe off");
	} else {
		reply_add(out, 0, "The party is not in a safe area; the GM declares one with ");
		reply_cmd(out, 0, "safe on", NULL);
		reply_line(out, 0, ".");
		reply_button_update(out, "Declare a safe area", "safe on");
	}
}

static void
safe_set(struct invocation *inv, struct reply *out, bool on)
{
	struct procedure_state *s = procedure_state_of(inv->chan);

	if (!on && s->level == 0) {
		reply_error(out,
		            "The party is on level 0, which is the safe area itself; it leaves "
		            "with /turn level 1.");
		return;
	}
	s->safe = on;
	channel_touch(inv->chan);
	safe_show(inv, out);
}

static void
safe_on(struct invocation *inv, struct reply *out)
{
	safe_set(inv, out, true);
}

static void
safe_off(struct invocation *inv, struct reply *out)
{
	safe_set(inv, out, false);
}

static const struct command safe_subs[] = {
    {.name = "show",
     .desc = "Whether the party is in a safe area",
     .fn = safe_show,
     .read_only = true},
    {.name = "on", .desc = "The party is in a safe area", .role = ROLE_GM, .fn = safe_on},
    {.name = "off", .desc = "The party leaves the safe area", .role = ROLE_GM, .fn = safe_off},
    {0},
};

const struct command cmd_safe = {
    .name = "safe",
    .desc = "Safe areas (level 0, vendor rooms): no wandering monsters",
    .help = "Safe areas (level 0, where the party starts, and vendors' rooms) have no "
            "wandering monsters and no fighting: wandering checks there roll nothing, and a "
            "tension roll makes no encounter check. Rulings: time still passes there (the "
            "hazard die is rolled and lights burn), but an Encounter result does not happen; "
            "no fighting means the bot rolls no encounter there, while combat itself is the "
            "table's, which the bot does not police; "
            "level 0 is the safe area: {/turn level level=0} enters it and leaving level 0 for "
            "a level leaves it (so {/safe off} is refused there), while a channel that tracks "
            "no level starts outside a safe area; "
            "the text's stair 'down' from level 1 to level 0 is read as up.",
    .subs = safe_subs,
    .default_sub = "show",
};
