/* /procedure: a compact reference card of the turn procedure. */
#include "commands/procedure/cmd_procedure.h"

#include "commands/procedure/procedure_state.h"

struct card_row {
	const char *what, *text;
};

static const struct card_row exploration_card[] = {
    {"Each turn", "Roll the hazard die: 1 Encounter, 2 Sign, 3 Light, 4 Fatigue, "
                  "5-6 Nothing."},
    {"Movement", "3x base speed in yards per turn, cautious: slow 45, normal 90, fast 135. "
                 "Rushing doubles it: no searching or mapping, a setback to spot traps."},
    {"Searching", "1 turn; a WIS check, DC 8 (easy) to DC 16 (hard)."},
    {"Surprise", "A WIS check DC 12 per character."},
    {"Light", "Torch 6 turns, lantern 36 (one flask), candle 6. A Light result "
              "flags the oldest lit source. Torch and lantern: 30 ft bright light and 30 ft "
              "dim beyond; candle: 5 ft bright and 5 ft dim."},
    {"Darkvision", "Sees 30 ft in dim light as if bright, and in darkness as if dim, without "
                   "colour or fine detail."},
    {"No light", "Effectively blind: a setback on all rolls, movement halved, cannot read, "
                 "search or spot danger."},
    {"Quick reference", "1 turn each: move cautious; move rushing (setback to spot danger); "
                        "search (WIS vs concealment); force a door (STR vs door); pick a lock "
                        "(DEX vs lock); listen at a door (WIS); rest."},
    {"Rest", "1 turn. After 6 turns without one, rest or each character makes a "
             "CON save DC 12 (1 Fatigue on a failure)."},
    {"One turn each", "Move along a corridor to the next room; deal with monsters; deal with "
                      "a room's challenges; search a room; rest; pass through a clear room; "
                      "take a stair."},
};

static const struct card_row delving_card[] = {
    {"Each turn", "Roll the hazard die: 1 Encounter, 2 Fatigue, 3 Burn, 4 Dungeon "
                  "shift, 5 Sign, 6 Free."},
    {"Crawling", "36 m per turn: detect traps automatically, map."},
    {"Walking", "720 m per turn: surprised by all encounters, spring all traps, can map."},
    {"Running", "1.5 km per turn: surprised, spring traps, no map, candles blown out."},
    {"Searching", "1 turn, 2 in dim light (candle or lantern)."},
    {"Encounters", "Reaction, activity, distance and surprise are the GM's (a WIS check DC "
                   "12 when wanted)."},
    {"Light", "Torches burn out on a Burn; candles and lanterns last the expedition (8 hours). "
              "Torch: shapes 12 m, details 3 m. Candle: shapes 6 m, details 3 m."},
    {"Darkness", "Total darkness: -10 to movement and coordination checks, surprised by all "
                 "encounters, springing all traps, no mapping."},
    {"Rest", "1 turn. Fatigue: 1 damage each unless the party rests next turn; "
             "ignored while resting. Reminder after 6 turns without rest."},
    {"One turn each", "Move along a corridor to the next room; deal with monsters; deal with "
                      "a room's challenges; search a room; rest; pass through a clear room; "
                      "take a stair."},
};

/* The commands each card's turns use, as references: a table cell is plain
 * text, which could only name them one platform's way. */
static const char exploration_cmds[] =
    "Each turn: {/hazard roll}. Surprise: {/surprise}. Light: {/light list}. Rest: {/rest}.";
static const char delving_cmds[] =
    "Each turn: {/hazard roll}. Running: {/turn move how=running}. Surprise: {/surprise}. Rest: "
    "{/rest}.";

static void
procedure_fn(struct invocation *inv, struct reply *out)
{
	const char *name = invocation_str(inv, "procedure");
	int p =
	    name != NULL ? hazard_procedure_parse(name) : (int)procedure_state_of(inv->chan)->proc;
	const struct card_row *rows = p == PROC_DELVING ? delving_card : exploration_card;
	size_t n = p == PROC_DELVING ? sizeof(delving_card) / sizeof(delving_card[0])
	                             : sizeof(exploration_card) / sizeof(exploration_card[0]);

	reply_title(out, "%s procedure (a turn is 10 minutes)",
	            p == PROC_DELVING ? "Delving" : "Exploration");
	reply_table(out, 2, NULL);
	for (size_t i = 0; i < n; i++) {
		const char *cells[2] = {rows[i].what, rows[i].text};

		reply_row(out, false, cells);
	}
	reply_text(out, 0, p == PROC_DELVING ? delving_cmds : exploration_cmds);
}

static const char *const proc_choices[] = {"exploration", "delving", NULL};

static const struct cmd_opt procedure_opts[] = {
    {.name = "procedure",
     .desc = "exploration or delving (default: the channel's)",
     .type = OPT_STRING,
     .choices = proc_choices},
    {0},
};

const struct command cmd_procedure = {
    .name = "procedure",
    .desc = "Reference card: turn steps, movement, searching, surprise, light, rest",
    .opts = procedure_opts,
    .fn = procedure_fn,
    .read_only = true,
};
