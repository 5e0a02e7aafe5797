/* /procedure: a compact reference card of the turn procedure. */
#include "commands/procedure/cmd_procedure.h"

#include <string.h>

#include "commands/procedure/procedure_state.h"

struct card_row {
	const char *what, *text;
};

static const struct card_row exploration_card[] = {
    {"Each turn", "10 minutes. The party gives its marching order and actions; the GM says what "
                  "they see or meet; the hazard die is rolled; actions are resolved, the GM "
                  "choosing when the hazard strikes; time is marked and light tracked."},
    {"Hazard die", "1d6: 1 Encounter, 2 Sign, 3 Light, 4 Fatigue, 5-6 Nothing. It is pressure, "
                   "not a straitjacket: common sense reads it (a torch just lit only "
                   "flickers)."},
    {"Traditional", "Instead: a die of the GM's choice each turn, an encounter on a 1; light "
                    "and rest kept separately (torch 6 turns, lantern 6 hours, a rest each "
                    "hour)."},
    {"Movement", "Per round: slow 15 ft, normal 30 ft, fast 45 ft. Per turn, cautious (3x base "
                 "speed in yards, checking footing, watching, mapping): 45, 90, 135 yards. "
                 "Rushing doubles it: no searching or mapping, a setback to spot traps or hidden "
                 "features."},
    {"Searching", "1 turn for a room, passage or feature; a WIS check, DC 8 (a loose "
                  "flagstone) to DC 16 (a master-crafted hidden door). Success: the GM shows "
                  "what is there; failure finds nothing, which does not mean nothing is there. "
                  "Examining one statue, chest or stretch of wall may take less time (the GM's "
                  "call)."},
    {"Surprise", "When either side might be caught off guard, a WIS check DC 12 per character; "
                 "the surprised cannot act in the first round, and some may be surprised while "
                 "others are not. Circumstances give Edge or Setback."},
    {"Light", "Torch 6 turns (1 hour), lantern 36 (6 hours, one flask of oil), candle 6 (1 "
              "hour). A Light result flags the oldest lit source. Torch and lantern: 30 ft "
              "bright light and 30 ft dim beyond; candle: 5 ft bright and 5 ft dim."},
    {"Darkvision", "Sees 30 ft in dim light as if bright, and in darkness as if dim, without "
                   "colour or fine detail."},
    {"No light", "Effectively blind: a setback on all rolls, movement halved, cannot read, "
                 "search or spot danger."},
    {"Quick reference", "1 turn each: move cautious; move rushing (setback to spot danger); "
                        "search (WIS vs concealment); force a door (STR vs door); pick a lock "
                        "(DEX vs lock); listen at a door (WIS); rest."},
    {"Rest", "1 turn of sitting, eating, drinking and catching breath, nothing strenuous. "
             "After 6 turns without one, rest or each character makes a CON save DC 12 (1 "
             "Fatigue on a failure)."},
    {"One turn each", "Move along a corridor to the next room; deal with monsters; deal with "
                      "a room's challenges; search a room; rest; pass through a clear room; "
                      "take a stair."},
};

static const struct card_row delving_card[] = {
    {"Each turn", "10 minutes; most actions (moving, searching, fighting, resting) take one. "
                  "At its end the hazard die: 1 Encounter, 2 Fatigue, 3 Burn, 4 Dungeon shift, "
                  "5 Sign, 6 Free."},
    {"Crawling", "36 m per turn, mostly standing still, listening, testing surfaces and "
                 "mapping: traps are found automatically, and the map is drawn."},
    {"Walking", "720 m per turn: surprised by all encounters, spring all traps, can map; for "
                "going back through explored parts."},
    {"Running", "1.5 km per turn: surprised, spring traps, no map, candles blown out; a last "
                "resort, when fleeing."},
    {"Searching", "1 turn reveals what is not obvious (a statuette in a drawer, a cracked tile) "
                  "and clues to secrets; 2 turns in dim light (candle or lantern)."},
    {"Encounters", "Usually from the dungeon's encounter table; reaction, activity, distance "
                   "and surprise are the GM's (a WIS check DC 12 when wanted). A Sign shows the "
                   "next encounter's creature, or a clue to something hidden."},
    {"Light", "Torch: shapes 12 m, details 3 m, lets the party search faster, a whole slot, "
              "burns out on a Burn (new ones lit from the embers). Candle: shapes 6 m, details "
              "3 m, 8 hours (the expedition), 10 to a slot. Lantern: candles in a case, "
              "shutters if wanted, the expedition, never blown out."},
    {"Darkness", "Total darkness: -10 to movement and coordination checks, surprised by all "
                 "encounters, springing all traps, no mapping."},
    {"Rest", "1 turn. Fatigue: 1 damage each (more in harsh dungeons) unless the party rests "
             "next turn; ignored while resting. Reminder after 6 turns without rest."},
    {"One turn each", "Move along a corridor to the next room; deal with monsters; deal with "
                      "a room's challenges; search a room; rest; pass through a clear room; "
                      "take a stair."},
};

/* The safe-areas text: room by room. delver keeps no character sheets, so
 * most of this is for the table to apply. */
static const struct card_row rooms_card[] = {
    {"Safe areas", "Level 0, where the party starts, and vendors' rooms: blessed ground where "
                   "monsters do not go and nobody fights. Parties come back to rest there. "
                   "Stairs lead from level 0 to level 1 and back."},
    {"Vendors", "1d6 hoards at the dungeon's level, 2d6 x 100 rations at 1 gp each, and 1d10 x "
                "10% of its coins for salvage; bargaining skill 1d10 + 5. It sells from its "
                "hoards and buys with the coins it has. Each item or lot is tried once, usually "
                "by the best bargainer; a rejected price stands for good. No bargaining with "
                "anyone using magic or gear it knows helps the roll."},
    {"One turn each", "Move along a corridor to the next room; deal with monsters; deal with a "
                      "room's challenges or other combat; search a room for secrets; rest in a "
                      "room; pass through a clear room; go up or down a stair to a new level or "
                      "a safe area."},
    {"Wandering", "Entering a corridor leg: 1 in 6, and they appear at its far end. Each turn "
                  "of rest: 1 in 6, and they come in by a random way (a blocked one slows "
                  "them)."},
    {"Entering a room", "A forced door alerts the room. Otherwise Move Silently against the "
                        "inhabitants' Spot; inhabitants with Hide are busy half the time, "
                        "else they roll to stay hidden. Go on until one side finds the other "
                        "(surprise) or both fail (combat)."},
    {"Corridors", "Wandering monsters try to surprise with Move Silently too; when both sides "
                  "surprise each other, neither does."},
    {"Surprise, initiative", "The surprised side only defends in the surprise round. Then a "
                             "reflex roll: highest first; a tie goes to the higher reflex "
                             "skill, then both act at once. Damage and its penalties land "
                             "after a side has acted."},
    {"End of a room", "It ends when the party leaves by an open door, or starts on a door to "
                      "leave; wanderers, neighbours coming to look, or a chase keep it going "
                      "until the party catches its breath. Then, in order: Grim tests, "
                      "endurance checks against Fatigue (or the Exhaustion trait), "
                      "advancement checks."},
    {"Load", "Carrying capacity by Str: the worse of the load's and the armour's penalties, "
             "never both; load Fatigue comes at the end of each room (dragging: each "
             "round)."},
    {"Recovery", "Exhaustion goes only with an extended rest in a safe area. A turn of rest "
                 "allows a healing check that lowers wounds by one (one wound this way). In "
                 "combat a healing check against a dying character's wounds stabilizes them "
                 "(stop continuing damage first). The incapacitated rest at least a day."},
    {"Rations", "Eaten while resting. A slain monster that can be eaten gives Fort x 5 rations "
                "(the GM may change that, or rule it inedible)."},
};

/* The commands each card's turns use, as references: a table cell is plain
 * text, which could only name them one platform's way. */
static const char exploration_cmds[] =
    "Each turn: {/hazard roll}. Traditional: {/hazard chance x=1 n=6}. Surprise: {/surprise}. "
    "Light: {/light list}. Rest: {/rest}.";
static const char delving_cmds[] =
    "Each turn: {/hazard roll}. Running: {/turn move pace=running}. Surprise: {/surprise}. Rest: "
    "{/rest}.";
static const char rooms_cmds[] =
    "Safe areas: {/safe on}. Vendors: {/vendor meet}, {/bargain}. Wandering: {/wander check "
    "procedure=corridor}, {/wander check procedure=rest}. Load: {/encumbrance}. Rest: {/rest}.";

static void
procedure_fn(struct invocation *inv, struct reply *out)
{
	static const struct {
		const char *title;
		const struct card_row *rows;
		size_t n;
		const char *cmds;
	} cards[] = {
	    {"Exploration procedure (a turn is 10 minutes)", exploration_card,
	     sizeof(exploration_card) / sizeof(exploration_card[0]), exploration_cmds},
	    {"Delving procedure (a turn is 10 minutes)", delving_card,
	     sizeof(delving_card) / sizeof(delving_card[0]), delving_cmds},
	    {"Room by room: safe areas, vendors, wandering monsters", rooms_card,
	     sizeof(rooms_card) / sizeof(rooms_card[0]), rooms_cmds},
	};
	const char *name = invocation_str(inv, "procedure");
	size_t k = name == NULL                   ? (size_t)procedure_state_of(inv->chan)->proc
	           : strcmp(name, "rooms") == 0   ? 2
	           : strcmp(name, "delving") == 0 ? 1
	                                          : 0;

	reply_title(out, "%s", cards[k].title);
	reply_table(out, 2, NULL);
	for (size_t i = 0; i < cards[k].n; i++) {
		const char *cells[2] = {cards[k].rows[i].what, cards[k].rows[i].text};

		reply_row(out, false, cells);
	}
	reply_text(out, 0, cards[k].cmds);
}

static const char *const proc_choices[] = {"exploration", "delving", "rooms", NULL};

static const struct cmd_opt procedure_opts[] = {
    {.name = "procedure",
     .desc = "exploration, delving or rooms (default: the channel's procedure)",
     .type = OPT_STRING,
     .choices = proc_choices},
    {0},
};

const struct command cmd_procedure = {
    .name = "procedure",
    .desc = "Reference card: turn steps, movement, searching, surprise, light, rest",
    .help = "exploration and delving are the two turn procedures; rooms is the room-by-room "
            "procedure of safe areas, vendors and wandering monsters. Ruling: delver keeps no "
            "character sheets, inventories or maps, so movement, searches, slots, endurance, "
            "exhaustion, wounds, "
            "initiative, opposed skill rolls and rations are the table's to apply (rolled "
            "with {/roll}); the cards say how.",
    .opts = procedure_opts,
    .fn = procedure_fn,
    .read_only = true,
};
