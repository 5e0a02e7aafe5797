/* /table examples: a table for each rule text; see cmd_table_examples.h. */
#include "commands/tables/cmd_table_examples.h"

#include <string.h>

const char *const cmd_table_example_texts[] = {"tension",    "exploration", "delving",
                                               "safe-areas", "fungeon",     NULL};

static const struct table_example examples[] = {
    {"tension",
     "D12 Tension: each dungeon needs an encounter table, harmless to deadly, read "
     "with d10 + Tension (a flooded crypt).",
     "encounter",
     "1-3: a lost rat-catcher, hungry and talkative\n"
     "4-7: 1d4 giant leeches\n"
     "8-11: 1d6 drowned dead\n"
     "12-15: a bog hag and 1d3 thralls\n"
     "16-18: 2d4 drowned dead behind a drowned priest\n"
     "19-20: the eel-thing of the lowest vault"},
    {"tension", "D12 Tension: and an environmental effects table, harmless to ominous.", "effects",
     "1-3: 1d6 copper coins glint in the silt\n"
     "4-6: a draught shows the way up\n"
     "7-9: the water rises to the knees\n"
     "10-12: a drip hisses a torch out\n"
     "13-15: rot gas bubbles up: CON save or 1d4 damage\n"
     "16-18: the floor gives way: DEX save or 1d6 damage\n"
     "19-20: the passage floods: everyone must move on"},
    {"exploration",
     "Exploration: the hazard die's Encounter is a wandering monster (a goblin "
     "warren's, with a nested table for its rarest guests, visitors).",
     "encounter",
     "1-3: 2d4 goblin scouts\n"
     "4-5: a patrol of 1d6+2 goblins and a wolf\n"
     "6: 1d3 hobgoblins\n"
     "7: a giant spider\n"
     "8: [[visitors]]"},
    {"exploration", "Exploration: the visitors the warren's table names.", "visitors",
     "1-3: a goblin chief and 1d4 guards\n"
     "4-6: an ogre the goblins pay in pigs"},
    {"delving",
     "Delving: the dungeon shifts, a d66 that a custom hazard die's 4 names "
     "(Dungeon shift: [[shifts]]).",
     "shifts",
     "11-16: distant bells, then silence\n"
     "21-26: cold enough to see your breath\n"
     "31-36: a draught smelling of smoke\n"
     "41-46: grit sifts down from the ceiling\n"
     "51-56: pale shapes drift by and fade\n"
     "61-66: rats stream past, fleeing something"},
    {"safe-areas",
     "Safe areas: the wandering monsters of level 2, weighted, rolled by the "
     "corridor and resting checks once /turn level 2 is set.",
     "encounter-2",
     "4x 1d6 giant rats\n"
     "3x 2d4 kobolds\n"
     "2x a gelatinous cube\n"
     "1x a pedlar with 1d4 mules and goods to sell"},
    {"fungeon", "Fungeon: for the player who draws Traps and describes the room.", "rooms",
     "1: a chapel with the pews piled against one door\n"
     "2: a kitchen, its hearth still warm\n"
     "3: a library gone to mould\n"
     "4: a shrine to something with too many arms\n"
     "5: a barracks of 2d6 empty bunks\n"
     "6: a well room, dry, with a new rope down it"},
};

const struct table_example *
cmd_table_examples(size_t *n)
{
	*n = sizeof(examples) / sizeof(examples[0]);
	return examples;
}

void
cmd_table_examples_fn(struct invocation *inv, struct reply *out)
{
	const char *which = invocation_str(inv, "text");

	reply_title(out, "A table for each rule text, to enter as it stands");
	if (which == NULL) {
		/* first, so that a platform that shows a few lines (IRC) shows it */
		reply_add(out, RS_DIM, "One rule text's alone: ");
		reply_cmd(out, RS_DIM, "table examples", "text", "delving", NULL);
		for (size_t i = 0; cmd_table_example_texts[i] != NULL; i++)
			reply_add(out, RS_DIM, "%s%s", i ? ", " : " (", cmd_table_example_texts[i]);
		reply_add(out, RS_DIM, ").");
		reply_nl(out);
	}
	for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++) {
		const struct table_example *e = &examples[i];

		if (which != NULL && strcmp(which, e->text) != 0)
			continue;
		reply_line(out, RS_ITALIC, "%s", e->about);
		reply_cmd(out, RS_CODE, "table set", "name", e->name, NULL);
		reply_nl(out);
		for (const char *p = e->lines; *p != '\0';) {
			size_t n = strcspn(p, "\n");

			reply_line(out, RS_CODE, "%.*s", (int)n, p);
			p += n + (p[n] == '\n');
		}
		reply_cmd(out, RS_CODE, "table end", NULL);
		reply_nl(out);
	}
	reply_add(out, RS_DIM, "On Discord, ");
	reply_cmd(out, RS_DIM, "table set", "name", "NAME", NULL);
	reply_add(out, RS_DIM, " alone opens a form: paste the lines there (no ");
	reply_cmd(out, RS_DIM, "table end", NULL);
	reply_add(out, RS_DIM, ").");
	reply_nl(out);
}
