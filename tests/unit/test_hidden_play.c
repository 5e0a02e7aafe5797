/*
 * Two worlds, one play. Two channels differ only behind the GM's screen:
 * the hidden Tension value and the reasons the GM gives, the screened
 * tables (their entries, their dice, the names of the tables they name),
 * which entry is struck, the sign's creature or none, the GM's secret and
 * hidden rolls. The same long play then runs in both, on the console, on
 * IRC and on Discord: the GM's moves behind the screen (the same commands
 * with other hidden words) between the players' commands, every command
 * family with its options (the handwritten part: hazard dice, wandering
 * checks, /undo after them, secret table rolls, names of screened and of
 * missing tables; then the whole command table as tests/unit/helpers/
 * cmdwalk.h walks it) and the buttons the channel was shown, pressed by
 * each member. On Discord the walk is made of interactions and the
 * buttons are pressed; the handwritten lines run there through the
 * dispatcher as that member, changing the game unseen. Every line rolls from a seed of its own, the
 * same in both worlds, so dice a hidden branch draws (a table rolled in
 * one world, a creature met in the other) do not shift later rolls.
 *
 * What a player sees (their own command's every part but the GM's, the
 * channel's part of the GM's commands) must be byte for byte the same in
 * both worlds; what the GM sees must differ (else the worlds hide nothing
 * and the test could not fail).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/log.h"
#include "commands/core/dispatch.h"
#include "rules/base/buf.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/cmdwalk.h"
#include "tests/unit/helpers/playview.h"

#define PAIRS 2
#define MOVES 10
#define SEEDS 16 /* plays of each pair on each platform */

/* One world: the GM's set-up before the play, and the GM's moves behind
 * the screen that the play makes by number ("@N"). Both worlds of a pair
 * run the same commands; only what the screen hides differs. */
struct world_text {
	const char *setup[32];
	const char *moves[MOVES];
};

static const struct world_text worlds[PAIRS][2] = {
    /* Delving with the channel's own tables behind the screen. */
    {{{"gm claim", "tension mode hidden", "hazard procedure delving", "hazard table delving",
       "table set encounter 1-2: Quillfang; 3-4: Morrowisp [[kin]]; 5-6: Gloamjaw",
       "table set kin 1-6: Ashveil", "table set effects 1-10: Brinecall; 11-20: Cinderhall",
       "table set encounter-2 1-6: Drowsmire", "table set loot 1-6: a copper coin",
       "tension set 3 # quietnight", "tension strike Gloamjaw", "hazard sign Vexthorn",
       "gmroll 1d20+3 # plotalpha", "table roll kin secret:true", NULL},
      {"tension raise amount:2 # stirring", "hazard sign Morrowisp", "tension roll 2",
       "wander check tension exits:3", "table set kin 1-4: Ashveil; 5-6: Emberlisk",
       "tension strike Quillfang", "table roll encounter", "gmroll 1d8 # plotgamma",
       "tension strike Morrowisp", "tension unstrike Zzyzx"}},
     {{"gm claim", "tension mode hidden", "hazard procedure delving", "hazard table delving",
       "table set encounter 1-4: Wyrmtail [[lichlair]]; 5-6: Hagmoor; 7-8: Sporeling",
       "table set lichlair 1-4: Thornback", "table set effects 1-20: Mistveil",
       "table set encounter-2 1-8: Boglurk", "table set loot 1-6: a copper coin",
       "tension set 9 # bridgeambush", "tension strike Hagmoor", "hazard sign",
       "gmroll 2d6 # plotbeta", "table roll lichlair secret:true", NULL},
      {"tension lower amount:1 # settling", "hazard sign none", "tension roll 2",
       "wander check tension exits:3", "table set lichlair 1-6: Thornback",
       "tension strike Sporeling", "table roll encounter", "gmroll 3d4 # plotdelta",
       "tension strike Zzyzx", "tension unstrike o"}}},
    /* Exploration with Tension's own tables (none of the channel's). */
    {{{"gm claim", "tension mode hidden", "tension set 2 # dozing", "hazard sign Vexthorn",
       "gmroll 1d20 # plotalpha", NULL},
      {"tension set 8 # waking", "hazard sign Morrowisp", "tension roll 1",
       "wander check tension exits:2", "tension strike 3", "tension unstrike 3",
       "tension raise amount:1 # louder", "gmroll 1d6 # plotgamma", "tension strike Zzyzx",
       "tension unstrike table:effects entry:Qqxq"}},
     {{"gm claim", "tension mode hidden", "tension set 7 # restless", "hazard sign none",
       "gmroll 1d4 # plotbeta", NULL},
      {"tension set 1 # asleep", "hazard sign", "tension roll 1", "wander check tension exits:2",
       "tension strike 19", "tension unstrike 19", "tension lower amount:1 # quieter",
       "gmroll 2d10 # plotdelta", "tension strike 4", "tension unstrike 4"}}},
};

/* The play: "alice: " and "bob: " lines are theirs, "gm: " the GM's in the
 * open (the same in both worlds), "@N" the GM's move N, "*walk" every
 * command of the table as alice, "*press" the buttons shown so far. */
static const char *const play[] = {
    "alice: help",
    "alice: help tension",
    "alice: help table",
    "alice: help hazard",
    "alice: help wander",
    "alice: help undo",
    "alice: tension",
    "alice: tension show",
    "alice: tension table",
    "alice: help tension rulings",
    "alice: light add lantern",
    "alice: undo",
    "alice: table",
    "alice: table list",
    "alice: table show encounter",
    "alice: table show effects",
    "alice: table show encounter-2",
    "alice: table show encounter-3",
    "alice: table show kin",
    "alice: table show lichlair",
    "alice: table show nosuch",
    "alice: table show loot",
    /* the GM's open table names a screened table in one world and none
     * in the other (hidden12's F1) */
    "gm: table set loot2 1-2: a; 3-4: [[kin]] and [[lichlair]]",
    "alice: table show loot2",
    "alice: table roll loot",
    "alice: table roll loot secret:true",
    "alice: table roll encounter",
    "alice: table roll encounter secret:true",
    "alice: table roll kin secret:true",
    "alice: table roll lichlair secret:true",
    "alice: table roll nosuch secret:true",
    "alice: table roll Kin",
    "alice: table delete kin",
    "alice: table delete lichlair",
    "alice: light add torch",
    "alice: light",
    "alice: turn",
    "alice: hazard",
    "alice: undo",
    "alice: hazard roll",
    "alice: undo",
    "@0",
    "alice: undo",
    "bob: tension",
    "alice: wander corridor",
    "alice: undo",
    "alice: wander rest exits:2",
    "alice: undo",
    "alice: wander classic",
    "alice: undo",
    "alice: wander check",
    "alice: undo",
    "@1",
    "alice: rest",
    "alice: undo",
    "alice: hazard",
    "alice: wander corridor",
    "alice: undo",
    "alice: wander corridor",
    "alice: wander rest exits:1",
    "alice: undo",
    "@2",
    "alice: undo",
    "bob: undo",
    "alice: panel",
    "alice: turn level 2",
    "alice: hazard",
    "alice: wander corridor",
    "alice: undo",
    "alice: turn level 3",
    "alice: turn level 0",
    "@3",
    "alice: undo",
    "alice: wander classic",
    "alice: wander classic",
    "alice: hazard",
    "alice: hazard",
    "alice: undo",
    "@4",
    "alice: table",
    "alice: table show kin",
    "alice: undo",
    "@5",
    "alice: tension",
    "alice: undo",
    "alice: surprise",
    "alice: gmroll 1d20+5 # stealthy",
    "alice: roll 2d6+1 # damage private:true",
    "alice: roll 1d20",
    "bob: undo",
    "alice: log",
    "alice: log secret",
    "@6",
    "alice: undo",
    "alice: rest",
    "alice: hazard",
    "alice: hazard",
    "alice: wander corridor",
    "alice: wander rest exits:2",
    "@7",
    "alice: undo",
    "@8",
    "alice: undo",
    "@9",
    "bob: undo",
    "*rounds",
    "alice: procedure",
    "alice: procedure hazard",
    "alice: turn advance",
    "alice: turn",
    "alice: panel",
    "*press",
    "*walk",
    "*press",
    "alice: hazard",
    "alice: wander corridor",
    "alice: undo",
    "alice: undo",
    "alice: undo",
    "alice: tension",
    "alice: table",
    NULL,
};

/* A stretch of play the play repeats ("*rounds"), ROUNDS times: each of
 * the GM's hidden rolls and checks, and the players' checks, each with a
 * player's /undo after it. */
#define ROUNDS 6
static const char *const rounds[] = {
    "alice: hazard",
    "alice: undo",
    "alice: wander check",
    "alice: undo",
    "alice: wander classic",
    "alice: undo",
    "bob: wander rest exits:2",
    "bob: undo",
    "alice: rest",
    "alice: undo",
    "@2",
    "alice: undo",
    "@3",
    "bob: undo",
    "alice: wander corridor",
    "@1",
    "alice: wander corridor",
    "alice: undo",
    "alice: panel",
    NULL,
};

/* One platform's session of one world and what it has shown. */
struct session {
	struct playview *pv;
	const struct world_text *text;
	struct buf players; /* what a player sees, each command headed */
	struct buf gm;      /* every part, the GM's included */
	char buttons[96][128];
	int nbuttons;
	int line; /* lines run, for the seed of the next */
};

static uint64_t base_seed;

static void
keep_button(void *ctx, const char *custom_id)
{
	struct session *s = ctx;

	for (int i = 0; i < s->nbuttons; i++)
		if (strcmp(s->buttons[i], custom_id) == 0)
			return;
	if (s->nbuttons < 96)
		snprintf(s->buttons[s->nbuttons++], sizeof(s->buttons[0]), "%s", custom_id);
}

/* The next line's dice: a seed of its own, the same in both worlds. */
static void
reseed(struct session *s)
{
	rng_seed(dispatch_rng(playview_dispatch(s->pv)), base_seed + (uint64_t)s->line++ * 7919);
}

/* who runs line (typed); a player sees their own command's every part
 * but the GM's, and the channel's part of the GM's. */
static void
run(struct session *s, const char *who, const char *line)
{
	bool gm = strcmp(who, "gm") == 0;

	reseed(s);
	/* The GM's typed words are the GM's: the players' view names the
	 * GM's command by its place in the play only. */
	buf_adds(&s->players, "== ");
	buf_adds(&s->players, who);
	buf_adds(&s->players, ": ");
	buf_adds(&s->players, gm ? "(a command of the GM's)" : line);
	buf_addc(&s->players, '\n');
	buf_adds(&s->gm, "== ");
	buf_adds(&s->gm, who);
	buf_addc(&s->gm, '\n');
	if (playview_kind(s->pv) == PLAYVIEW_CONSOLE) {
		struct buf all;
		const char *cut;

		/* One run shows both: the console prints every part, the
		 * invoker's and the channel's first. */
		buf_init(&all, 1 << 20);
		playview_line(s->pv, who, line, PLAYVIEW_ALL, &all);
		buf_adds(&s->gm, buf_str(&all));
		cut = strstr(buf_str(&all), gm ? "(only " : "(only the GM, ");
		buf_add(&s->players, buf_str(&all),
		        cut != NULL ? (size_t)(cut - buf_str(&all)) : all.len);
		buf_free(&all);
	} else {
		playview_line(s->pv, who, line, gm ? PLAYVIEW_CHANNEL : PLAYVIEW_INVOKER,
		              &s->players);
	}
}

/* A Discord interaction of alice's (type 2 command, 3 button). */
static void
interact(struct session *s, const char *who, int type, cJSON *data, const char *what)
{
	reseed(s);
	buf_adds(&s->players, "== ");
	buf_adds(&s->players, who);
	buf_adds(&s->players, ": ");
	buf_adds(&s->players, what);
	buf_addc(&s->players, '\n');
	playview_event(s->pv, who, type, data,
	               strcmp(who, "gm") == 0 ? PLAYVIEW_CHANNEL : PLAYVIEW_INVOKER, &s->players);
}

static void
walk_case(void *ctx, const struct cmdwalk_case *c)
{
	struct session *s = ctx;

	if (playview_kind(s->pv) != PLAYVIEW_DISCORD)
		run(s, "alice", c->line);
	else if (c->leaf->subs == NULL)
		interact(s, "alice", 2, playview_discord_data(c), c->line);
}

static void
press(struct session *s)
{
	static const char *const who[] = {"alice", "bob", "gm"};

	if (playview_kind(s->pv) != PLAYVIEW_DISCORD)
		return;
	for (int i = 0; i < s->nbuttons; i++)
		for (int u = 0; u < 3; u++) {
			cJSON *data = cJSON_CreateObject();
			char what[160];

			cJSON_AddStringToObject(data, "custom_id", s->buttons[i]);
			cJSON_AddNumberToObject(data, "component_type", 2);
			snprintf(what, sizeof(what), "the button %s", s->buttons[i]);
			interact(s, who[u], 3, data, what);
		}
}

static void
session_open(struct session *s, enum playview_kind kind, const struct world_text *text)
{
	memset(s, 0, sizeof(*s));
	s->pv = playview_new(kind, base_seed);
	s->text = text;
	buf_init(&s->players, 1 << 24);
	buf_init(&s->gm, 1 << 24);
	playview_on_button(s->pv, keep_button, s);
	for (int i = 0; text->setup[i] != NULL; i++)
		run(s, "gm", text->setup[i]);
}

static void
session_close(struct session *s)
{
	playview_free(s->pv);
	buf_free(&s->players);
	buf_free(&s->gm);
}

static void
session_lines(struct session *s, const char *const *lines)
{
	for (int i = 0; lines[i] != NULL; i++) {
		const char *l = lines[i];

		if (strcmp(l, "*rounds") == 0)
			for (int r = 0; r < ROUNDS; r++)
				session_lines(s, rounds);
		else if (l[0] == '@')
			run(s, "gm", s->text->moves[atoi(l + 1)]);
		else if (strcmp(l, "*walk") == 0)
			cmdwalk(command_table, walk_case, s);
		else if (strcmp(l, "*press") == 0)
			press(s);
		else if (strncmp(l, "alice: ", 7) == 0)
			run(s, "alice", l + 7);
		else if (strncmp(l, "bob: ", 5) == 0)
			run(s, "bob", l + 5);
		else if (strncmp(l, "gm: ", 4) == 0)
			run(s, "gm", l + 4);
	}
}

/* Fails naming the first command whose view differs between a and b, and
 * showing each from the line where they part. */
static void
same_view(const char *what, const char *a, const char *b)
{
	size_t at = 0, head = 0, line = 0;

	if (strcmp(a, b) == 0)
		return;
	while (a[at] == b[at])
		at++;
	for (size_t i = 0; i < at; i++)
		if (i == 0 || a[i - 1] == '\n') {
			line = i;
			if (strncmp(a + i, "== ", 3) == 0)
				head = i;
		}
	fail_msg("%s: the players' view differs between the worlds after\n%.*s\n%.500s\n---- the "
	         "other world:\n%.500s",
	         what, (int)strcspn(a + head, "\n"), a + head, a + line, b + line);
}

/* Both worlds of pair p on platform kind: the players' views the same,
 * the GM's different; appends the players' view of the first to seen. */
static void
play_pair(int p, enum playview_kind kind, struct buf *seen)
{
	struct session s[2];
	char what[64];

	for (int w = 0; w < 2; w++) {
		session_open(&s[w], kind, &worlds[p][w]);
		session_lines(&s[w], play);
	}
	snprintf(what, sizeof(what), "pair %d on %s, seed %llu", p, playview_names[kind],
	         (unsigned long long)base_seed);
	same_view(what, buf_str(&s[0].players), buf_str(&s[1].players));
	if (kind == PLAYVIEW_CONSOLE && strcmp(buf_str(&s[0].gm), buf_str(&s[1].gm)) == 0)
		fail_msg("%s: the GM's view is the same in both worlds: nothing is hidden", what);
	if (kind == PLAYVIEW_DISCORD && s[0].nbuttons == 0)
		fail_msg("%s: the channel was shown no button to press", what);
	buf_adds(seen, buf_str(&s[0].players));
	for (int w = 0; w < 2; w++)
		session_close(&s[w]);
}

/* Texts the players' view must hold somewhere: the play reached what it
 * is for (monsters that come, encounters and signs, screened refusals). */
static const char *const reached[] = {
    "wandering monsters!", "Encounter", "Sign", "behind the GM's screen",
    "rolls in secret",     "Undid",     NULL,
};

static void
the_screen_hides_what_differs(void **unused)
{
	struct buf seen;

	(void)unused;
	log_set_level(LOG_LEVEL_WARN);
	buf_init(&seen, 1 << 26);
	for (uint64_t k = 0; k < SEEDS; k++) {
		base_seed = 1 + k * 104729;
		for (int p = 0; p < PAIRS; p++)
			for (int kind = 0; kind < PLAYVIEW_NKINDS; kind++)
				play_pair(p, (enum playview_kind)kind, &seen);
	}
	for (size_t i = 0; reached[i] != NULL; i++)
		if (strstr(buf_str(&seen), reached[i]) == NULL)
			fail_msg("the play never showed a player '%s'", reached[i]);
	print_message("players' view compared: %zu bytes\n", seen.len);
	buf_free(&seen);
}

/* A pair whose GM released the seat with Tension hidden: A's screened
 * tables name others (encounter -> b2 -> c3, effects -> lair, which no
 * table is, encounter-2 -> visitors), B's name none and B has no b2, c3,
 * visitors. Both have the same open tables, which the players replace
 * with chains and circles through the screened ones and references to
 * them: these must read as in a world where they are not (hidden8's V3,
 * V5, V7). A player's set of a name they cannot read, screened or missing,
 * is refused alike, saving nothing (V4), and a player's own change
 * undoes as theirs. */
#define OPEN_TABLES                                                                                \
	"table set p1 1-6: one", "table set p2 1-6: two", "table set p3 1-6: three",               \
	    "table set p4 1-6: four", "table set r 1-6: are", "table set s 1-6: ess"
static const struct world_text empty_seat[2] = {
    {{"gm claim", OPEN_TABLES, "tension mode hidden", "table set encounter 1-6: [[b2]]",
      "table set b2 1-6: [[c3]]", "table set c3 1-6: a troll",
      "table set effects 1-20: the den and [[lair]]", "table set encounter-2 1-6: [[visitors]]",
      "table set visitors 1-6: pilgrims", "gm release", NULL},
     {NULL}},
    {{"gm claim", OPEN_TABLES, "tension mode hidden", "table set encounter 1-6: rats",
      "table set effects 1-20: mist", "table set encounter-2 1-6: bats",
      "table set encounter-3 1-6: owls", "table set effects-2 1-20: fog",
      "table set effects-3 1-20: rain", "gm release", NULL},
     {NULL}},
};

static const char *const empty_seat_play[] = {
    "alice: table set p1 1-6: [[encounter]]",
    "alice: table set p2 1-6: [[p1]]",
    "alice: table set p3 1-6: [[effects]]",
    "alice: table set p4 1-6: [[p2]]",
    "alice: table set r 1-6: [[visitors]] or [[ghosts]]",
    "bob: table set s 1-6: [[b2]]",
    "alice: table roll p2",
    "alice: table roll r",
    "bob: table roll s",
    "alice: table show p2",
    "alice: table",
    "alice: table set lair 1-6: [[p3]]",
    "alice: table set b2 1-6: a bat",
    "alice: table set c3",
    "alice: table set visitors 1-6: monks",
    "alice: table set encounter-2 1-6: moths",
    "alice: table set nosuch 1-6: a gap",
    "alice: table",
    "alice: table show b2",
    "alice: undo",
    "bob: undo",
    "alice: undo",
    "alice: table show r",
    "alice: table",
    NULL,
};

static void
the_empty_seat_hides_what_differs(void **unused)
{
	(void)unused;
	log_set_level(LOG_LEVEL_WARN);
	for (uint64_t k = 0; k < 2; k++) {
		base_seed = 1 + k * 104729;
		for (int kind = 0; kind < PLAYVIEW_NKINDS; kind++) {
			struct session s[2];
			char what[64];

			for (int w = 0; w < 2; w++) {
				session_open(&s[w], (enum playview_kind)kind, &empty_seat[w]);
				session_lines(&s[w], empty_seat_play);
			}
			snprintf(what, sizeof(what), "the empty seat on %s, seed %llu",
			         playview_names[kind], (unsigned long long)base_seed);
			same_view(what, buf_str(&s[0].players), buf_str(&s[1].players));
			if (kind == PLAYVIEW_CONSOLE &&
			    strcmp(buf_str(&s[0].gm), buf_str(&s[1].gm)) == 0)
				fail_msg("%s: the GM's view is the same in both worlds", what);
			/* a player's own change made in the open undoes as theirs */
			if (kind != PLAYVIEW_DISCORD &&
			    strstr(buf_str(&s[0].players), "Undid b") == NULL)
				fail_msg("%s: bob could not undo his own table", what);
			for (int w = 0; w < 2; w++)
				session_close(&s[w]);
		}
	}
}

/* A table of 12 entries of 150 bytes each (1851 bytes as text), all of
 * letter, into buf. */
static const char *
long_table(char *buf, size_t len, const char *name, char letter)
{
	size_t n = (size_t)snprintf(buf, len, "table set %s ", name);

	for (int e = 1; e <= 12 && n < len; e++) {
		char text[151];

		memset(text, letter, 150);
		text[150] = '\0';
		n += (size_t)snprintf(buf + n, len - n, "%s%d: %s", e > 1 ? "; " : "", e, text);
	}
	return buf;
}

/* hidden8's z (V6): with the seat empty and Tension hidden, a player's
 * change is held to the limit of the text the player may read, whatever
 * the tables behind the screen hold: A's screened tables are long, B's
 * short, and the players' long tables are saved, then refused, alike. */
static void
the_byte_limit_reads_alike(void **unused)
{
	static char lines[2][5][2000], open[18][32], grow[18][2000];
	static const char *const screened[] = {"encounter", "effects", "encounter-2", "encounter-3",
	                                       "effects-2"};
	struct world_text w[2];
	const char *moves[24];

	(void)unused;
	log_set_level(LOG_LEVEL_WARN);
	memset(w, 0, sizeof(w));
	for (int k = 0; k < 2; k++) {
		int n = 0;

		w[k].setup[n++] = "gm claim";
		for (int i = 0; i < 18; i++) {
			snprintf(open[i], sizeof(open[i]), "table set o%d 1-6: a coin", i + 1);
			w[k].setup[n++] = open[i];
		}
		w[k].setup[n++] = "tension mode hidden";
		for (int i = 0; i < 5; i++) {
			if (k == 0)
				long_table(lines[k][i], sizeof(lines[k][i]), screened[i], 'x');
			else
				snprintf(lines[k][i], sizeof(lines[k][i]),
				         "table set %s 1-20: rats", screened[i]);
			w[k].setup[n++] = lines[k][i];
		}
		w[k].setup[n++] = "gm release";
		w[k].setup[n] = NULL;
	}
	for (int i = 0; i < 18; i++) {
		char name[8];

		snprintf(name, sizeof(name), "o%d", i + 1);
		long_table(grow[i], sizeof(grow[i]) - 8, name, 'a' + (char)i);
		memmove(grow[i] + 7, grow[i], strlen(grow[i]) + 1);
		memcpy(grow[i], "alice: ", 7);
		moves[i] = grow[i];
	}
	moves[18] = "alice: table";
	moves[19] = NULL;
	/* IRC takes lines of 512 bytes: the console and Discord carry these
	 * (17 tables of 1851 bytes fit, 18 do not) */
	for (int kind = 0; kind < PLAYVIEW_NKINDS; kind++) {
		struct session s[2];
		char what[64];

		if (kind == PLAYVIEW_IRC)
			continue;
		base_seed = 1;
		for (int k = 0; k < 2; k++) {
			session_open(&s[k], (enum playview_kind)kind, &w[k]);
			session_lines(&s[k], moves);
		}
		snprintf(what, sizeof(what), "the byte limit on %s", playview_names[kind]);
		same_view(what, buf_str(&s[0].players), buf_str(&s[1].players));
		if (kind == PLAYVIEW_CONSOLE &&
		    (strstr(buf_str(&s[0].players), "Replaced the table o17") == NULL ||
		     strstr(buf_str(&s[0].players), "The table o18 was not saved") == NULL))
			fail_msg("%s: the players' tables were not saved up to the limit, then "
			         "refused:\n%s",
			         what, buf_str(&s[0].players));
		for (int k = 0; k < 2; k++)
			session_close(&s[k]);
	}
}

/* The text as an IRC client shows it: without the zero-width joiners that
 * keep nicks in replies from notifying their owners. */
static const char *
shown(struct buf *b)
{
	for (char *z; b->p != NULL && (z = strstr(b->p, "\xe2\x80\x8d")) != NULL; b->len -= 3)
		memmove(z, z + 3, strlen(z + 3) + 1);
	return buf_str(b);
}

/* A player is told who sees the hidden Tension by the nick the GM uses now
 * (hidden6: after the GM's NICK it named the old one until the GM ran a
 * command again). */
static void
the_screen_names_the_gm_by_the_nick_in_use(void **unused)
{
	struct playview *w = playview_new(PLAYVIEW_IRC, 1);
	struct buf seen;

	(void)unused;
	buf_init(&seen, 1 << 16);
	playview_line(w, "gm", "gm claim", PLAYVIEW_CHANNEL, &seen);
	playview_line(w, "gm", "tension mode hidden", PLAYVIEW_CHANNEL, &seen);
	playview_irc(w, ":gm!gm@h NICK gmx");
	buf_reset(&seen);
	playview_line(w, "alice", "tension", PLAYVIEW_INVOKER, &seen);
	assert_string_equal(shown(&seen),
	                    "PRIVMSG #walk :Tension is hidden behind the GM's screen; "
	                    "only gmx sees it.\n");
	buf_free(&seen);
	playview_free(w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(the_screen_hides_what_differs),
	    cmocka_unit_test(the_screen_names_the_gm_by_the_nick_in_use),
	    cmocka_unit_test(the_empty_seat_hides_what_differs),
	    cmocka_unit_test(the_byte_limit_reads_alike),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
