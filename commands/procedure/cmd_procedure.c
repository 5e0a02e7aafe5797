/* /procedure: a compact reference card of the turn procedure. */
#include "commands/procedure/cmd_procedure.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/core/completions.h"
#include "commands/core/registry.h"
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
    {"Rest",
     "1 turn of sitting, eating, drinking and catching breath, nothing strenuous. "
     "After 6 turns without one, rest or each character makes a CON save DC " FATIGUE_SAVE_DC_TEXT
     " (1 Fatigue on a failure)."},
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
    "Each turn: {/hazard roll}. Traditional: {/hazard chance odds=1-in-6}. Surprise: {/surprise}. "
    "Light: {/light list}. Rest: {/rest}.";
static const char delving_cmds[] =
    "Each turn: {/hazard roll}. Running: {/turn move pace=running}. Surprise: {/surprise}. Rest: "
    "{/rest}.";
static const char rooms_cmds[] =
    "Safe areas: {/safe on}. Vendors: {/vendor meet}, {/bargain}. Wandering: {/wander check "
    "procedure=corridor}, {/wander check procedure=rest}. Load: {/encumbrance}. Rest: {/rest}.";

static const struct {
	const char *name; /* as /procedure takes it */
	const char *title;
	const struct card_row *rows;
	size_t n;
	const char *cmds;
} cards[] = {
    {"exploration", "Exploration procedure (a turn is 10 minutes)", exploration_card,
     sizeof(exploration_card) / sizeof(exploration_card[0]), exploration_cmds},
    {"delving", "Delving procedure (a turn is 10 minutes)", delving_card,
     sizeof(delving_card) / sizeof(delving_card[0]), delving_cmds},
    {"rooms", "Room by room: safe areas, vendors, wandering monsters", rooms_card,
     sizeof(rooms_card) / sizeof(rooms_card[0]), rooms_cmds},
};

#define NCARDS (sizeof(cards) / sizeof(cards[0]))

/* Sections one card names that another card holds under another name: a
 * section asked for by that name, which no row of the card has, is that
 * row ("/procedure surprise" in a delving channel is its Encounters, which
 * says how surprise goes there, not exploration's Surprise: F12). */
static const struct {
	const char *card, *name, *row;
} also_named[] = {
    {"delving", "Surprise", "Encounters"},
};

/* The row of card k that section names: the one whose name it is, else the
 * one whose name starts with it (case aside), else the one it names by
 * another name (also_named); NULL when none or several do. */
static const struct card_row *
find_section(size_t k, const char *section)
{
	const struct card_row *hit = NULL;
	size_t len = strlen(section), hits = 0;

	for (size_t i = 0; i < cards[k].n; i++) {
		const char *what = cards[k].rows[i].what;

		if (strcasecmp(what, section) == 0)
			return &cards[k].rows[i];
		if (strncasecmp(what, section, len) == 0) {
			hit = &cards[k].rows[i];
			hits++;
		}
	}
	for (size_t a = 0; hits == 0 && a < sizeof(also_named) / sizeof(also_named[0]); a++)
		if (strcmp(also_named[a].card, cards[k].name) == 0 &&
		    strncasecmp(also_named[a].name, section, len) == 0)
			for (size_t i = 0; i < cards[k].n; i++)
				if (strcmp(cards[k].rows[i].what, also_named[a].row) == 0)
					return &cards[k].rows[i];
	return hits == 1 ? hit : NULL;
}

/* "each turn": a section's name as it is typed (lower case, up to a
 * comma: "surprise" for "Surprise, initiative"), into low (size bytes). */
static void
lower_name(const char *what, char *low, size_t size)
{
	size_t j = 0;

	for (; *what != '\0' && *what != ',' && j + 1 < size; what++)
		low[j++] = (char)tolower((unsigned char)*what);
	low[j] = '\0';
}

/* Whether section starts the names of several of card k's sections (and
 * names none whole): then refuses it (in out) with those sections, as a
 * word that starts several choices is ("/procedure s" on the exploration
 * card: searching or surprise), rather than looking in the other cards,
 * whose answer follows the other rule text (recheck9 F16). */
static bool
several_sections(size_t k, const char *section, struct reply *out)
{
	size_t len = strlen(section), hits = 0, said = 0;

	for (size_t i = 0; i < cards[k].n; i++)
		hits += strncasecmp(cards[k].rows[i].what, section, len) == 0;
	if (hits < 2 || find_section(k, section) != NULL)
		return false;
	reply_error(out, "'%.40s' starts several sections of the %s card; did you mean ", section,
	            cards[k].name);
	for (size_t i = 0; i < cards[k].n; i++) {
		char low[40];

		if (strncasecmp(cards[k].rows[i].what, section, len) != 0)
			continue;
		lower_name(cards[k].rows[i].what, low, sizeof(low));
		said++;
		reply_add(out, RS_BAD, "%s%s", said == 1 ? "" : said == hits ? " or " : ", ", low);
	}
	reply_add(out, RS_BAD, "?");
	return true;
}

/* The error for a section that names none of card k's (nor, when any, of
 * the other cards, or a card itself): card k's sections, as typed. */
static void
no_section(size_t k, const char *section, bool any, struct reply *out)
{
	const char *names[NCARDS], *best;

	for (size_t i = 0; i < NCARDS; i++)
		names[i] = cards[i].name;
	best = any ? registry_suggest(section, names, NCARDS) : NULL;
	if (any)
		reply_error(out,
		            "'%.40s' is no card (exploration, delving or rooms) and no section of "
		            "one%s%s%s; the %s card's sections are ",
		            section, best != NULL ? " (did you mean " : "",
		            best != NULL ? best : "", best != NULL ? "?)" : "", cards[k].name);
	else
		reply_error(out, "The %s card has no section '%.40s'; its sections are ",
		            cards[k].name, section);
	for (size_t i = 0; i < cards[k].n; i++) {
		char low[40];

		lower_name(cards[k].rows[i].what, low, sizeof(low));
		reply_add(out, RS_BAD, "%s%s",
		          i == 0                ? ""
		          : i + 1 == cards[k].n ? " and "
		                                : ", ",
		          low);
	}
	reply_add(out, RS_BAD, ".");
}

/* One section of card k: its name and text on one line, under the card's
 * title. */
static void
show_section(size_t k, const struct card_row *row, struct reply *out)
{
	reply_title(out, "%s", cards[k].title);
	reply_add(out, RS_BOLD, "%s", row->what);
	reply_line(out, 0, ": %s", row->text);
}

/* The card name names (case aside), or NCARDS. */
static size_t
find_card(const char *name)
{
	for (size_t i = 0; i < NCARDS; i++)
		if (strcasecmp(name, cards[i].name) == 0)
			return i;
	return NCARDS;
}

/*
 * /procedure [card] [section]. Typed, the first word may be the section
 * itself (/procedure light, /procedure quick reference): a word that names
 * no card starts the section. A section is looked for in the card named,
 * else in the channel's, then in the others.
 */
static void
procedure_fn(struct invocation *inv, struct reply *out)
{
	const char *name = invocation_str(inv, "procedure");
	const char *rest = invocation_str(inv, "section");
	size_t k = (size_t)procedure_state_of(inv->chan)->proc, named = NCARDS;
	char section[96];
	const struct card_row *row = NULL;

	section[0] = '\0';
	if (name != NULL && (named = find_card(name)) < NCARDS)
		k = named;
	else if (name != NULL)
		snprintf(section, sizeof(section), "%s", name);
	if (rest != NULL)
		snprintf(section + strlen(section), sizeof(section) - strlen(section), "%s%s",
		         section[0] != '\0' ? " " : "", rest);
	if (section[0] == '\0') {
		reply_title(out, "%s", cards[k].title);
		reply_table(out, 2, NULL);
		for (size_t i = 0; i < cards[k].n; i++) {
			const char *cells[2] = {cards[k].rows[i].what, cards[k].rows[i].text};

			reply_row(out, false, cells);
		}
		reply_text(out, 0, cards[k].cmds);
		reply_nl(out);
		reply_text(out, RS_DIM, "One section alone: {/procedure section:light}.");
		return;
	}
	if (several_sections(k, section, out))
		return;
	row = find_section(k, section);
	/* Without a card named, a section of another card will do
	 * (/procedure vendors: the rooms card's). */
	for (size_t i = 0; row == NULL && named == NCARDS && i < NCARDS; i++) {
		row = find_section(i, section);
		if (row != NULL)
			k = i;
	}
	if (row == NULL)
		no_section(k, section, named == NCARDS, out);
	else
		show_section(k, row, out);
}

/* Suggests the sections of every card, lower case, that contain the typed
 * text. */
static void
section_complete(struct invocation *inv, const char *partial, struct completions *out)
{
	for (size_t k = 0; k < NCARDS; k++) {
		for (size_t i = 0; i < cards[k].n; i++) {
			char low[40];

			lower_name(cards[k].rows[i].what, low, sizeof(low));
			if (strstr(low, partial) != NULL)
				completions_add(out, low);
		}
	}
}

/* Suggests the cards that contain the typed text. */
static void
card_complete(struct invocation *inv, const char *partial, struct completions *out)
{
	for (size_t k = 0; k < NCARDS; k++)
		if (strstr(cards[k].name, partial) != NULL)
			completions_add(out, cards[k].name);
}

/* procedure takes no choices: typed, its word may be a section
 * (procedure_fn). */
static const struct cmd_opt procedure_opts[] = {
    {.name = "procedure",
     .desc = "exploration, delving or rooms (default: the channel's procedure)",
     .type = OPT_STRING,
     .flags = OPT_AUTOCOMPLETE,
     .max = 40,
     .complete = card_complete},
    {.name = "section",
     .desc = "One section of the card: light, rest, searching, ... (default: the whole card)",
     .type = OPT_STRING,
     .flags = OPT_REST | OPT_AUTOCOMPLETE,
     .max = 40,
     .complete = section_complete},
    {0},
};

const struct command cmd_procedure = {
    .name = "procedure",
    .desc = "Reference card: turn steps, movement, searching, surprise, light, rest",
    .help = "exploration and delving are the two turn procedures; rooms is the room-by-room "
            "procedure of safe areas, vendors and wandering monsters. A section alone: "
            "{/procedure section:light}, {/procedure procedure=rooms section=vendors} (a "
            "section of another card is found too). Ruling: delver keeps no "
            "character sheets, inventories or maps, so movement, searches, slots, endurance, "
            "exhaustion, wounds, "
            "initiative, opposed skill rolls and rations are the table's to apply (rolled "
            "with {/roll}); the cards say how.",
    .opts = procedure_opts,
    .fn = procedure_fn,
    .read_only = true,
};
