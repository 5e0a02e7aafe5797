/* /fungeon: the masterless dungeon crawl (the rule text 000, RULES.md
 * section 4). This file holds the command table; the handlers are in
 * cmd_fungeon_*.c. */
#include "commands/fungeon/cmd_fungeon.h"

#include "commands/core/complete.h"
#include "commands/fungeon/cmd_fungeon_combat.h"
#include "commands/fungeon/cmd_fungeon_design.h"
#include "commands/fungeon/cmd_fungeon_hallway.h"
#include "commands/fungeon/cmd_fungeon_join.h"
#include "commands/fungeon/cmd_fungeon_orders.h"
#include "commands/fungeon/cmd_fungeon_party.h"
#include "commands/fungeon/cmd_fungeon_retreat.h"
#include "commands/fungeon/cmd_fungeon_town.h"
#include "commands/fungeon/cmd_fungeon_trap.h"
#include "rules/fungeon/fungeon_room.h"

/* --- the command table --- */

static const char *const rule_choices[] = {"table", "formula", NULL};
static const char *const cat_choices[] = {"traps", "monsters", "treasure", NULL};

#define WHO(req)                                                                                   \
	{                                                                                          \
		.name = "who", .desc = "A Fungeoneer, by character or player name",                \
		.type = OPT_STRING, .flags = (req) | OPT_AUTOCOMPLETE,                             \
		.max = 2 * FUNGEON_NAME_MAX + 1, .complete = complete_fg_who                       \
	}
#define WHO_GM                                                                                     \
	{                                                                                          \
		.name = "who", .desc = "For another player's Fungeoneer: the GM's alone",          \
		.type = OPT_STRING, .flags = OPT_AUTOCOMPLETE, .max = 2 * FUNGEON_NAME_MAX + 1,    \
		.complete = complete_fg_who                                                        \
	}
#define WHO_LIST(what)                                                                             \
	{                                                                                          \
		.name = "who", .desc = (what), .type = OPT_STRING,                                 \
		.flags = OPT_REST | OPT_AUTOCOMPLETE, .max = 400, .complete = complete_fg_who      \
	}
#define BONUS                                                                                      \
	{                                                                                          \
		.name = "bonus", .desc = "Whose class fits (class bonus): names, or all",          \
		.type = OPT_STRING, .max = 400                                                     \
	}

/* Names, classes and types are limited in characters (a user's letters,
 * whatever their bytes), which the handlers count and name in their own
 * error; the options take what any string option takes. */
static const struct cmd_opt join_opts[] = {
    {.name = "name",
     .desc = "Your Fungeoneer's name (no spaces)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_NAME,
     .max = OPT_STRING_MAX},
    {.name = "class",
     .desc = "A class, free text (quote it if it has spaces)",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_NAME,
     .max = OPT_STRING_MAX},
    {.name = "level",
     .desc = "Level 1 to 60 (default: Party Min; in a dungeon under way: floor - 1)",
     .type = OPT_INT,
     .min = FUNGEON_LEVEL_MIN,
     .max = FUNGEON_LEVEL_MAX},
    {.name = "type",
     .desc = "The Type your class bonus is tied to (fire for a Fire Mage), if any",
     .type = OPT_STRING,
     .max = OPT_STRING_MAX},
    {0},
};
static const struct cmd_opt who_opts[] = {WHO(0), {0}};
static const struct cmd_opt floor_opts[] = {
    {.name = "n",
     .desc = "The floor, 1 to 61 (a replacement there joins at level 60, the highest)",
     .type = OPT_INT,
     .min = 1,
     .max = FUNGEON_FLOOR_MAX},
    {0},
};
static const struct cmd_opt adjust_opts[] = {
    {.name = "who",
     .desc = "A Fungeoneer, or a monster of the room",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_AUTOCOMPLETE,
     .max = 2 * FUNGEON_NAME_MAX + 1,
     .complete = complete_fg_who},
    {.name = "hits",
     .desc = "Hits to give (+N) or take (-N)",
     .type = OPT_INT,
     .min = -1000,
     .max = 1000},
    {.name = "xp",
     .desc = "XP to give (+N) or take (-N)",
     .type = OPT_INT,
     .min = -9007199254740991LL, /* what Discord's integer options carry: 2^53 - 1 */
     .max = 9007199254740991LL},
    {0},
};
static const struct cmd_opt xprule_opts[] = {
    {.name = "rule",
     .desc = "table (default) or formula; setting it is the GM's",
     .type = OPT_STRING,
     .choices = rule_choices},
    {0},
};
static const struct cmd_opt enter_opts[] = {
    {.name = "waive",
     .desc = "Let go the points left that no new piece can use (the GM: any), recorded",
     .type = OPT_BOOL},
    {0},
};
static const struct cmd_opt pick_opts[] = {
    {.name = "category",
     .desc = "traps, monsters or treasure",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = cat_choices},
    WHO_GM,
    {0},
};
static const struct cmd_opt leave_opts[] = {
    WHO_GM,
    {0},
};
static const struct cmd_opt take_opts[] = {
    {.name = "item",
     .desc = "A treasure of the room, or one the dead left",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = OPT_STRING_MAX},
    WHO_GM,
    {0},
};
static const struct cmd_opt use_opts[] = {
    {.name = "item",
     .desc = "A magic item you carry",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = OPT_STRING_MAX},
    {.name = "on",
     .desc = "The Fungeoneer it is used on (default: yours)",
     .type = OPT_STRING,
     .flags = OPT_AUTOCOMPLETE,
     .max = 2 * FUNGEON_NAME_MAX + 1,
     .complete = complete_fg_who},
    {0},
};
#define TRAP_OPT                                                                                   \
	{                                                                                          \
		.name = "trap", .desc = "A trap of the room", .type = OPT_STRING,                  \
		.flags = OPT_REQUIRED | OPT_AUTOCOMPLETE, .max = OPT_STRING_MAX,                   \
		.complete = complete_fg_trap                                                       \
	}
static const struct cmd_opt find_opts[] = {
    TRAP_OPT,
    WHO_LIST("Who searches: yours (the GM may name anyone; default: everyone for the GM)"),
    BONUS,
    {0},
};
static const struct cmd_opt trigger_opts[] = {
    TRAP_OPT,
    WHO_LIST("Whose action springs it: yours; its maker or the GM names whose, or all "
             "(default: yours)"),
    BONUS,
    {0},
};
static const struct cmd_opt disarm_opts[] = {
    TRAP_OPT,
    WHO_LIST("Who disarms it: yours (the GM may name anyone)"),
    BONUS,
    {0},
};
static const struct cmd_opt combat_opts[] = {
    {.name = "monsters",
     .desc = "Monsters to fight first, when more stand than a turn holds (the next standing "
             "fill the rest)",
     .type = OPT_STRING,
     .flags = OPT_REST | OPT_AUTOCOMPLETE,
     .max = 400,
     .complete = complete_fg_monsters},
    {.name = "use",
     .desc = "For the monsters you direct: monster/ability, or none (default: their orders)",
     .type = OPT_STRING,
     .flags = OPT_AUTOCOMPLETE,
     .max = 400,
     .complete = complete_fg_abilities},
    {.name = "targets",
     .desc = "For yours and the monsters you direct: who>target (default: their aims)",
     .type = OPT_STRING,
     .max = 400},
    BONUS,
    {0},
};
static const struct cmd_opt orders_opts[] = {
    {.name = "targets",
     .desc = "who>target for yours and the monsters you made (Alba>goblin); who>none clears",
     .type = OPT_STRING,
     .max = 400},
    {.name = "use",
     .desc = "monster/ability for the monsters you made (goblin/bite), or monster/none",
     .type = OPT_STRING,
     .flags = OPT_AUTOCOMPLETE,
     .max = 400,
     .complete = complete_fg_abilities},
    {0},
};
static const struct cmd_opt hallway_opts[] = {
    {.name = "confirm",
     .desc = "Go on though monsters stand or treasure is untaken (asked first)",
     .type = OPT_BOOL},
    {0},
};
static const struct cmd_opt retreat_opts[] = {
    WHO_LIST("Who makes the roll (the GM's choice; default: every Fungeoneer in play)"),
    BONUS,
    {.name = "confirm",
     .desc = "Turn back for good (asked before the first step back)",
     .type = OPT_BOOL},
    {0},
};

/* What /help fungeon combat points to: the turn in full. */
static const struct help_topic combat_topics[] = {
    {.name = "steps",
     .desc = "each step in full, with its rulings",
     .text = "(1) continuous monster features are rolled, one Annoy roll for each ability "
             "(a hold and continuous damage from one ability share it): a failure costs "
             "the turn for a hold, the Pain roll for continuous damage, where the monster "
             "only deals damage (Ruling: the damage goes on by itself, as a trap's does; "
             "a trap's continuous damage waits for the hallway); a hold ends at once when its "
             "monster is "
             "defeated. Ruling: a hold is re-rolled here, with the others. (2) each monster "
             "uses its special ability: its first, unless whoever directs it chose another "
             "or none ({/fungeon orders}, or use: in their own turn); one with no Pain dice, "
             "hold or continuous damage is not rolled, as a failure would bring nothing. Ruling: "
             "an ability "
             "is rolled against every Fungeoneer in the fight but those who rolled against "
             "it in (1): one Annoy roll a turn against an ability one suffers, so a single "
             "success breaks its hold. Those who fail face the monster's Pain dice in a "
             "Painful conflict, where they can hurt the monster too. (3) everyone's Painful "
             "conflict; Ruling: a held Fungeoneer may not act, but rolls as it is made to: "
             "it can be hurt, and a rank it wins deals no damage. Ruling: between turns too, "
             "until the hold breaks, it does not search, disarm, get past a trap, take or "
             "use treasure. A rank's "
             "winner hurts its target: a Fungeoneer any other in the fight, a monster a "
             "Fungeoneer (its maker is required to have it attack the players); each player "
             "aims their own Fungeoneer, and whoever made a monster aims it "
             "({/fungeon orders}, or targets: in their own turn). Ruling: without a "
             "target, the other side's lowest die at that rank. Ruling: a tie at a rank "
             "deals no damage. Ruling: one taken to 0 hits at a rank is dead from the next: "
             "its dice there count 0, as a roll that ran out (shown \"0 (dead, rolled 4)\", "
             "the die it rolled beside), so it wins and deals nothing more. Monster attacks are "
             "universal: no class bonus or magic "
             "counts against them, so in (3) each Fungeoneer rolls its level alone (bonus: "
             "adds nothing there). In an ability's conflict a monster's Resist dice take "
             "the class-bonus and magic dice of the ability's type. They never add dice. Ruling: "
             "they count for nothing "
             "in continuous damage's Pain roll (1), where the sufferer hurts nobody. Each "
             "point dealt "
             "to a monster earns XP equal to its cost; Ruling: its maker's Fungeoneer too (a "
             "wandering one's as well), as a trap's maker's Fungeoneer earns it from the trap. "
             "Ruling: holds end with the fight. "
             "Ruling: a "
             "turn "
             "takes at most 13 participants; beyond, the first monsters standing fight and "
             "the others stay out, unless whoever made them names the ones that fight "
             "first, the next standing filling the places left (naming picks which monsters "
             "fight, never how few); with fewer, every standing monster fights each turn. Any "
             "player whose "
             "Fungeoneer is in play may play the turn; the GM may decide for anyone."},
    {0},
};

static const struct command fungeon_subs[] = {
    {.name = "join",
     .desc = "Make your Fungeoneer: name, class, level (one per player here)",
     .help = "Max hits = 5 x level; class bonus = level / 2; a new Fungeoneer has 0 XP. "
             "type:fire says your class bonus is tied to fire: it then counts by itself "
             "against fire (a class or type that reads as a level, 3, three, 3rd, Ⅲ, ³, 三 or L3, "
             "quoted or not, is refused: the level is a number typed alone in the digits 0 to 9, "
             "after the "
             "class). After your "
             "Fungeoneer died in a dungeon, join again: the new one "
             "starts at level floor - 1 (at least 1) for the rest of that dungeon and waits "
             "for the next hallway (once the party heads back, for town, where its level "
             "is yours to choose), as does anyone joining while the party is in a room. "
             "Ruling: anyone joining a dungeon under way starts at floor - 1 (at least 1), as "
             "a replacement does (a level typed is taken as that one, and said so); in town "
             "and at the entrance the level is yours to choose.",
     .opts = join_opts,
     .fn = cmd_fungeon_join},
    {.name = "leave",
     .desc = "Take your Fungeoneer out of the party",
     .help = "In the dungeon what it carried stays in the room for the others to take (left "
             "by it, the reply naming what; a wandering monster it had still to build goes "
             "with it). Ruling: the categories it held in this "
             "room pass to the highest roller left, the reply naming who holds each now and, "
             "in the hallway, the points left to spend; the monsters you made follow the "
             "defaults from then on (only the GM directs them). The GM may take out another "
             "player's Fungeoneer (who:), for a player who is away: a dead one not replaced "
             "would hold the hallway shut, a wandering monster not built the way back.",
     .opts = leave_opts,
     .fn = cmd_fungeon_leave},
    {.name = "sheet",
     .desc = "A Fungeoneer's sheet: hits, XP, effects and their sources, treasure",
     .opts = who_opts,
     .fn = cmd_fungeon_sheet,
     .read_only = true},
    {.name = "party",
     .desc = "The party, where it is, Party Min/Max/Total, the floor, the room's budgets",
     .help = "Party Min is the lowest level of the party in play, Party Max the highest, "
             "Party Total their sum; a replacement waiting for the hallway is named apart, "
             "not counted. Ruling: the text's own example (levels 2, 3 and 5, \"Party Total is "
             "8\") is a slip for 10. A room's budgets count the party as its hallway did; "
             "when the party changed since, the budget line says so (Party Total 9 as the "
             "hallway counted it); while a hallway that killed the whole party waits to "
             "run again, the room has no budgets until it does.",
     .fn = cmd_fungeon_party,
     .read_only = true},
    {.name = "floor",
     .desc = "Show the floor; the GM may set it by hand, a correction outside the rules",
     .help = "A dungeon's entrance opens on Party Min, and the floor changes only by a "
             "downward stair ({/fungeon stair}). Ruling: the GM may set it by hand (at the "
             "entrance or from a room), a correction outside the rules that says so. Floors go to "
             "61: a replacement there joins at level 60, the highest whose XP 64-bit "
             "arithmetic can count.",
     .opts = floor_opts,
     .fn = cmd_fungeon_floor},
    {.name = "stair",
     .desc = "Take the room's downward stair: the rooms to come are one floor deeper",
     .help = "The Traps player places a downward stair in a room when Party Min rose in the "
             "hallway before it; it leads to the next floor, and the party takes it (or "
             "not) before the next hallway. Ruling: a floor changes only by such a stair; "
             "other stairs drawn on the map are scenery. Ruling: taking it is the party's "
             "choice (the text says where it leads, not that it must be taken). Ruling: Party "
             "Min rose when the room's is above the room before's, so a rise between "
             "hallways (a player leaving) places one too.",
     .fn = cmd_fungeon_stair},
    {.name = "adjust",
     .desc = "Change hits or XP by hand, outside the rules (it says so; undo fixes mistakes)",
     .help = "In a dungeon, hits heal only through magic treasure and levelling up; this "
             "is a correction outside the rules, and its reply says so. {/undo} takes back a "
             "change that was a mistake. A player adjusts their own Fungeoneer; the GM any "
             "Fungeoneer or a monster. One adjustment changes XP by at most "
             "9007199254740991 (the largest number Discord carries); XP count from 0 up to "
             "9223372036854775807.",
     .opts = adjust_opts,
     .fn = cmd_fungeon_adjust},
    {.name = "xp-rule",
     .desc = "Show or set the XP rule: table (default) or formula",
     .help = "Ruling: the level table is the default (level 3 at 40 XP); the prose "
             "formula, level up when XP >= 10 x 2^(current level - 1), disagrees from "
             "level 3 on (20 XP) and is the alternative. Any player of the party sets it in "
             "town, between dungeons, or the GM alone, at any time, where one holds the seat; "
             "the reply names who set it. Ruling: "
             "the table's heading \"(Party Min + Floor)\" is a slip; XP depend on neither.",
     .opts = xprule_opts,
     .fn = cmd_fungeon_xprule},
    {.name = "entrance",
     .desc = "Into a dungeon when the players don't agree on it: the highest roll describes it",
     .help = "From town. Every player rolls one die, their Thwack-O (a tie for the highest "
             "re-rolled, the others not); the highest describes the entrance, which opens on floor "
             "= Party Min. Ruling: hits stay as they are into a new dungeon; a new game "
             "session makes them whole ({/fungeon town session}).",
     .fn = cmd_fungeon_hallway_entrance},
    {.name = "hallway",
     .desc = "Between rooms: replacements, level-ups, continuous damage, category draw",
     .help = "From town (into a new dungeon; Ruling: hits stay as they are, a new game "
             "session makes them whole), the entrance or a room, in order: (1) dead "
             "Fungeoneers are replaced at level floor - 1 (minimum 1); (2) level-ups, "
             "several at once, each level recomputing class bonus and max hits and healing "
             "5 hits; (3) continuous damage, from traps and monsters, is rolled (a success "
             "against a trap's earns its cost in XP; a trap's Annoy roll is rolled as when "
             "triggered, the class bonus counting if the class fits, as for an ability's), and "
             "holds end; (4) every player whose "
             "Fungeoneer lives rolls one die, their Thwack-O: the highest chooses first "
             "among Traps, Monsters, Treasure with {/fungeon pick category=CATEGORY}, then "
             "the next (Ruling: a tie that reaches into the first three places is re-rolled, "
             "shown tied group by tied group; one below them decides nothing and stays; a "
             "player chooses again only when there are fewer "
             "players than categories; a lone player holds all three). Whoever takes Traps "
             "first describes the room and maps it. One who "
             "died in (3) "
             "is out until the next hallway; when (3) kills the whole party, nobody draws, "
             "and once new Fungeoneers have joined this command runs again for the same room "
             "(nothing rolled before is rolled again). If Party Min rose (Ruling: since the room "
             "before "
             "was counted), the Traps player places a downward stair. Ruling: the room's budgets "
             "are computed once, after (1) and "
             "(2), and stay fixed for the room. The room left behind goes with all it held; "
             "Ruling: the party may leave it with monsters standing, which go with it: "
             "heading back, only wandering monsters are met. Leaving monsters standing or "
             "treasure untaken is asked first and named: go on with "
             "{/fungeon hallway confirm:true}.",
     .opts = hallway_opts,
     .fn = cmd_fungeon_hallway},
    {.name = "pick",
     .desc = "Choose a category (traps, monsters, treasure) in the draw's order",
     .help = "Each player chooses for themself when it is their turn; who: chooses for "
             "another player, and is the GM's alone (for a player who is away). A category "
             "typed in the singular is taken (trap for traps). Whoever chooses Traps "
             "describes the room and draws it on the map first.",
     .opts = pick_opts,
     .fn = cmd_fungeon_hallway_pick},
    {.name = "enter",
     .desc = "Enter the room made in the hallway",
     .help = "Every category is chosen and every point spent first (the text, line 67: "
             "all the points given are spent). Points too few for a new piece could also go "
             "into remaking a bigger existing piece (unmake it, make it again with more: 2 more "
             "Annoy dice for a Traps point, more levels for Monsters points); the waiver is "
             "this project's Ruling for that case, a holder's choice instead of the remake. "
             "Ruling: a holder may let go ({/fungeon enter "
             "waive:true}) only the points of their own categories that no new piece can "
             "use: a Traps point short of a trap (one costs 2), Monsters points short of the "
             "floor (what a monster costs at least), or a kind that has its 24 pieces "
             "already; Treasure points always buy a mundane item. The GM may let any go, a "
             "correction outside the rules that says so. A holder's waiver holds only while "
             "no new piece can use the points left: it is checked again at each piece of its "
             "category made or unmade, lapsing (said so) once one could, and at entry; the "
             "GM's stands as made. {/fungeon party} shows the waivers standing in the "
             "hallway and the one recorded in the room, and the party goes in once every "
             "category's points are spent or waived.",
     .opts = enter_opts,
     .fn = cmd_fungeon_hallway_enter},
    {.name = "cost",
     .desc = "Price a trap, monster or treasure against this room's budget",
     .help = "Design words: trap: annoy N, pain N and type WORD (all needed), then any of "
             "guards, unlimited, universal, continuous (annoy 2 type fire pain 2). monster: "
             "level N (needed), then per ability: ability NAME with annoy N and type WORD "
             "(both needed), then any of pain N, resist N TYPE, hold, continuous, universal. "
             "treasure: mundane|fancy, value N, heal N, annoy N, pain N, universal, type WORD "
             "(magic dice need fancy, and a type or universal). Plain points add first, then "
             "each doubling feature doubles the sum. Ruling: an odd number of Annoy dice costs "
             "as the next even number.",
     .subs = cmd_fungeon_design_cost_subs},
    {.name = "trap",
     .desc = "Make, list or unmake this room's traps (the Traps player)",
     .subs = cmd_fungeon_design_trap_subs},
    {.name = "monster",
     .desc = "Make, list or unmake this room's monsters (the Monsters player)",
     .subs = cmd_fungeon_design_monster_subs},
    {.name = "treasure",
     .desc = "Make, list or unmake this room's treasure (the Treasure player)",
     .subs = cmd_fungeon_design_treasure_subs},
    {.name = "find",
     .desc = "Search for a trap: Annoy rolls against as many dice as its cost",
     .help = "A success finds the trap without triggering it and earns its cost in XP. "
             "Ruling: a Fungeoneer who fails stays in blissful ignorance and may not search "
             "that trap again; a trap found is not searched for again. The trap's maker's own "
             "Fungeoneer earns the XP as anyone does (the text makes no exception). Each "
             "player searches "
             "with their own Fungeoneer; the GM may name anyone.",
     .opts = find_opts,
     .fn = cmd_fungeon_trap_find},
    {.name = "trigger",
     .desc = "Stumble into a trap or get past it: an Annoy roll against its Annoy dice",
     .help = "The class bonus counts on the Annoy roll when the class is tied to the "
             "trap's type (line 260: a Fire Mage against a fire trap), or for those bonus: "
             "names, unless the trap is universal. A "
             "success sidesteps "
             "the trap and earns its cost in XP (Ruling: each time, an Unlimited trap's too); a "
             "failure makes its Pain roll against that Fungeoneer, where the class bonus counts "
             "when the class fits (Ruling: as in every Painful conflict), and starts its "
             "continuous damage, whose re-roll in each hallway is this Annoy roll again. Several "
             "at once each roll one die + level first; "
             "the highest avoids it (Ruling: a tie for highest is re-rolled among the tied, "
             "shown), the others make the "
             "Annoy roll. A trap without Unlimited Use springs once. A trap springs by a "
             "Fungeoneer's own action: a player triggers their own; the trap's maker, who "
             "keeps track of it, announces a sprung trap by naming whose action sprang it "
             "(all: everyone in the room but the held, who are named as left out), and so "
             "may the GM; theirs bare, with others in the room, is refused.",
     .opts = trigger_opts,
     .fn = cmd_fungeon_trap_trigger},
    {.name = "disarm",
     .desc = "Disarm a trap that was found: an Annoy roll, the class bonus counting",
     .help = "Like triggering, but the class bonus counts where the class fits. A success "
             "disarms it (XP); a failure is a triggering. Ruling: a trap is found before it "
             "is disarmed. A player disarms with their own Fungeoneer; the GM may name "
             "anyone.",
     .opts = disarm_opts,
     .fn = cmd_fungeon_trap_disarm},
    {.name = "combat",
     .desc = "One combat turn: continuous monster features, abilities, the Painful conflict",
     .help = "A turn has three steps. (1) Continuous monster features: one Annoy roll for "
             "each ability; a failure costs the turn (a hold) or the Pain roll (continuous "
             "damage). (2) Each monster uses its special ability (its first, unless "
             "{/fungeon orders} chose another); those who fail face its Pain dice. (3) "
             "Everyone's Painful conflict: each rank's winner hurts its target (the other "
             "side's lowest die unless {/fungeon orders} aimed it), a tie deals nothing, and "
             "each point dealt to a monster earns its cost in XP. Each player rolls one "
             "Thwack-O die in the whole turn, in their first roll of it, and the turn's "
             "highest narrates. Any player whose Fungeoneer is in play may play the turn; the "
             "GM may decide for anyone.",
     .topics = combat_topics,
     .opts = combat_opts,
     .fn = cmd_fungeon_combat},
    {.name = "orders",
     .desc = "Standing orders for the room's fights: whom yours hurts, what your monsters use",
     .help = "The winner of a rank hurts one other Fungeoneer or monster of its choosing, and "
             "whoever made a monster controls it. A player aims their own Fungeoneer "
             "({/fungeon orders targets:Alba>goblin}); whoever made a monster aims it at a "
             "Fungeoneer (goblin>Brom: the text requires its maker to have it attack the "
             "players, so never at a monster) and chooses its special ability ({/fungeon orders "
             "use:goblin/bite}, or goblin/none; by default its first). The GM may give "
             "anyone's orders. Orders hold for the room's fights, until changed (who>none, "
             "or none alone for your own, goes back to the default, the other side's lowest "
             "die; one '>' an order, orders apart by commas with no space, or the list quoted: "
             "targets:\"Alba>goblin Brom>rat\"); an aim at one who is "
             "not in a conflict leaves the default there. Orders lapse with those they "
             "concern: when a Fungeoneer dies or leaves, its aim, every aim at it and the "
             "orders of the monsters its player made go (those monsters follow the "
             "defaults); a defeated monster's orders and the aims at it go too. Without "
             "options, the room's orders are listed.",
     .opts = orders_opts,
     .fn = cmd_fungeon_orders},
    {.name = "take",
     .desc = "Take a treasure of the room, or plunder what the dead left",
     .help = "Treasure is found once the room's monsters are dead, or, when a trap guards "
             "it, once that trap was triggered, disarmed or sidestepped. A dead Fungeoneer's "
             "treasure stays where it fell for the others to plunder; Ruling: one who dies "
             "in a hallway leaves it in the room that hallway leads to (or, should the party "
             "head back from there, in the room it re-enters). A player takes for "
             "their own Fungeoneer (who: another is the GM's); a name it carries already is "
             "carried with a number (stone2).",
     .opts = take_opts,
     .fn = cmd_fungeon_town_take},
    {.name = "use",
     .desc = "Use magic treasure (on you, or on another): heal, or end continuous damage",
     .help = "Magic ends continuous damage: a healing item heals and is used up (it works "
             "once); any other magic item ends the continuous damage of the one it is used "
             "on. Ruling: a magic item that does not heal keeps its magic (the text makes "
             "only healing work once).",
     .opts = use_opts,
     .fn = cmd_fungeon_town_use},
    {.name = "retreat",
     .desc = "Head back to town, room by room: Annoy rolls before each; failures build "
             "wanderers",
     .help = "Before re-entering each room on the way back, every player makes an Annoy "
             "roll against its floor; each failure gives that player one wandering monster "
             "of level + floor points (points from separate failures never pool), built "
             "with {/fungeon monster add name=NAME design=DESIGN}. The party goes on once "
             "they are built and beaten. Ruling: each room is re-entered at the floor it "
             "was on. Ruling: a Fungeoneer who dies on the way back is replaced in town; "
             "should the whole party fall, any of its players takes it on to town. Heading "
             "back is for good, so the first step back asks to be confirmed (confirm:true), "
             "as does a later step that would leave what the dead left there untaken. "
             "Every player rolls; who: names who rolls, and is the GM's.",
     .opts = retreat_opts,
     .fn = cmd_fungeon_retreat},
    {.name = "town",
     .desc = "In town: sell treasure for half its points, buy new with the credit, the healer",
     .subs = cmd_fungeon_town_subs},
    {0},
};

/* What /help fungeon points to: the rulings that hold all through, a page
 * of their own so that the command's help fits IRC. */
static const struct help_topic fungeon_topics[] = {
    {.name = "rulings",
     .desc = "the rulings that hold all through",
     .text = "Thwack-O, as the text has it (\"only roll one Thwack-O Die, even if you are "
             "making multiple Rolls this turn\"): in a combat turn each player rolls one "
             "Thwack-O, in the first roll of the turn they take part in, and the highest of "
             "the turn narrates it; outside combat each roll holds each player's Thwack-O "
             "once (even one made for their Fungeoneer and their trap at once) and has its "
             "own narrator. Ruling: every Fungeon die is a d6. Ruling: a tie for "
             "the highest Thwack-O is broken by re-rolling the tied dice, shown. Costs: plain "
             "points first, then one doubling per doubling feature. Ruling: an odd number of "
             "Annoy dice costs as the next even number. Ruling: a tie at a rank of a Painful "
             "conflict deals no damage. Ruling: XP use the level table unless the channel "
             "chose the formula ({/fungeon xp-rule})."},
    {0},
};

const struct command cmd_fungeon = {
    .name = "fungeon",
    .desc = "Fungeon: masterless dungeon crawling with Thwack-O dice",
    .help = "A party goes from town into a dungeon: a hallway, then the room its players "
            "made, then the next hallway, until it heads back. Every player rolls in every "
            "conflict; each player's Thwack-O die replaces one of their dice (one in each "
            "roll, one in a whole combat turn) and is drawn in their style "
            "({/thwacko show}). The highest Thwack-O narrates (in combat, the whole turn's). "
            "Nobody runs the game: each player decides for their own Fungeoneer, whoever "
            "made a trap or monster runs it, any player of the party moves it on, and the "
            "GM, where a channel has one, may decide for anyone.",
    .topics = fungeon_topics,
    .subs = fungeon_subs,
    .default_sub = "party",
};
