/* Unit tests for the Fungeon commands: the channel module's save/load round
 * trip, state unchanged on every bad input, Thwack-O styles and their
 * placement when a player rolls for a trap, and the budget check. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_save.h"
#include "commands/fungeon/thwacko_style.h"
#include "rules/base/rng.h"
#include "rules/base/utf8.h"
#include "tests/unit/helpers/fgtable.h"

/* Three players in room 1: the Traps player's pit guards the coin, the
 * Monsters player's goblin; Cora triggers the pit (passing it), Alba takes
 * the coin, a combat turn, an adjustment. */
static void
play_a_room(struct fgtable *t)
{
	fgtable_adventurers(t, 5, 2, 1);
	fgtable_ok(t, "carol", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_make(t, FUNGEON_CAT_TRAPS,
	             "/fungeon trap add pit annoy 2 pain 1 continuous guards type acid");
	fgtable_make(t, FUNGEON_CAT_MONSTERS,
	             "/fungeon monster add goblin level 2 ability stab annoy 1 pain 1 type blade");
	fgtable_make(t, FUNGEON_CAT_TREASURE, "/fungeon treasure add coin mundane");
	fgtable_enter_waived(t);
	fgtable_ok(t, "carol", "/fungeon trigger pit Cora");
	fgtable_ok(t, "alice", "/fungeon take coin"); /* the pit guarding it was passed */
	fgtable_ok(t, "carol", "/fungeon combat");
	fgtable_ok(t, "carol", "/fungeon adjust Cora xp:12");
}

/* A long name and a long multibyte player name: every roll label is cut
 * on a character boundary, so replies stay valid UTF-8. */
static void
long_names_stay_utf8(void **unused)
{
	struct fgtable *t = fgtable_new(7);
	char player[NAME_MAX_LEN], line[200];
	char *text;

	memset(player, 0, sizeof(player));
	for (size_t i = 0; i + 2 < sizeof(player); i += 2)
		memcpy(player + i, "é", 2);
	snprintf(line, sizeof(line), "/fungeon join %s wizard 3", "Aaaaaaaaaaaaaaaaaaaaaaaa");
	fgtable_ok(t, player, line);
	fgtable_ok(t, "bob", "/fungeon join Brom fighter 3");
	fgtable_ok(t, "bob", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap add pit annoy 2 pain 1 type acid");
	fgtable_make(t, FUNGEON_CAT_MONSTERS,
	             "/fungeon monster add goblin level 2 ability stab annoy 1 pain 1 type blade");
	fgtable_enter_waived(t);
	for (int i = 0; i < 3; i++) {
		static const char *const cmds[] = {"/fungeon find pit", "/fungeon combat",
		                                   "/fungeon combat"};

		text = fgtable_run(t, i == 0 ? player : "bob", cmds[i]);
		assert_false(reply_is_error(t->last));
		assert_true(utf8_valid(text, strlen(text)));
		assert_non_null(strstr(text, "Aaaaaaaaaaaaaaaaaaaaaaaa (éé"));
		free(text);
	}
	fgtable_free(t);
}

static void
module_round_trip(void **unused)
{
	struct fgtable *t = fgtable_new(1);
	char *a;

	(void)unused;
	play_a_room(t);
	fgtable_round_trips(fgtable_fungeon(t));
	a = fgtable_saved(t);
	assert_non_null(strstr(a, "\"name\":\"Alba\""));
	assert_non_null(strstr(a, "\"design\":\"annoy 2 pain 1 guards continuous type acid\""));
	assert_non_null(strstr(a, "\"items\":[{\"name\":\"coin\",\"design\":\"mundane\"}]"));
	free(a);
	fgtable_free(t);
}

/* A member of today's form, with its level and the rest given. */
#define MEMBER(level)                                                                              \
	"{\"user\":\"k\",\"player\":\"p\",\"name\":\"A\",\"class\":\"c\",\"type\":\"\","           \
	"\"style\":{\"colour\":\"red\",\"mark\":\"◆\"},\"level\":" level ",\"hits\":5,"            \
	"\"xp\":0,\"dead\":false,\"fresh\":false,\"credit\":0,\"wanderers\":[],\"items\":[],"      \
	"\"effects\":[]}"
#define ROOM(traps)                                                                                \
	"{\"number\":1,\"floor\":1,\"party\":[1,1,1,1],\"budgets\":[2,2,2],\"stair\":false,"       \
	"\"order\":[0],\"holders\":[0,0,0],\"made\":3,\"traps\":" traps ",\"monsters\":[],"        \
	"\"treasure\":[]}"
#define STATE(phase, floor, party, room)                                                           \
	"{\"v\":2,\"xp_rule\":\"table\",\"phase\":\"" phase "\",\"floor\":" floor                  \
	",\"rooms\":1,\"back\":0,\"path\":[{\"room\":1,\"floor\":1}],\"room\":" room               \
	",\"fallen\":[],\"waived\":\"\",\"party\":[" party "]}"

static void
module_load_rejects_bad_records(void **unused)
{
	static const char *const good = STATE("room", "1", MEMBER("1"), ROOM("[]"));
	static const char *const bad[] = {
	    "{}",
	    "{\"v\":3}",
	    STATE("cellar", "1", MEMBER("1"), ROOM("[]")),
	    STATE("room", "62", MEMBER("1"), ROOM("[]")),
	    STATE("room", "1", MEMBER("61"), ROOM("[]")),
	    STATE("room", "1", MEMBER("1"),
	          ROOM("[{\"name\":\"pit\",\"maker\":\"k\",\"design\":\"pain 2\",\"state\":"
	               "\"hidden\",\"passed\":false,\"unaware\":0}]")),
	    STATE("room", "1", MEMBER("1"),
	          ROOM("[{\"name\":\"pit\",\"maker\":\"k\",\"design\":\"annoy 2 type x\","
	               "\"state\":\"rusty\",\"passed\":false,\"unaware\":0}]")),
	    STATE("room", "1", "", ROOM("[]")), /* holders name a member there is not */
	    /* the form before the room model */
	    "{\"floor\":0,\"rooms\":0,\"xp_rule\":\"prose\",\"holders\":{},\"party\":[],"
	    "\"designs\":{}}",
	    "{\"floor\":100,\"rooms\":0,\"xp_rule\":\"table\"}",
	    "{\"floor\":1,\"rooms\":0,\"xp_rule\":\"table\",\"holders\":{\"traps\":\"\","
	    "\"monsters\":\"\",\"treasure\":\"\"},\"party\":[],\"designs\":{\"traps\":[],"
	    "\"monsters\":[{\"name\":\"a b\",\"design\":\"level 1\",\"room\":true,\"hits\":3,"
	    "\"taken\":\"\"}],\"treasure\":[]}}",
	};
	cJSON *j = cJSON_Parse(good);
	void *fresh = fungeon_mod.create();
	char err[200] = "";

	assert_non_null(j);
	if (fungeon_mod.load(fresh, j, err, sizeof(err)) != 0)
		fail_msg("the good record: %s", err);
	cJSON_Delete(j);
	fungeon_mod.destroy(fresh);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = cJSON_Parse(bad[i]);
		fresh = fungeon_mod.create();
		assert_non_null(j);
		if (fungeon_mod.load(fresh, j, err, sizeof(err)) != -1)
			fail_msg("bad record %zu loaded", i);
		assert_true(strncmp(err, "Fungeon ", 8) == 0);
		cJSON_Delete(j);
		fungeon_mod.destroy(fresh);
	}
}

/* A number far past a field's range is refused with the field named, never
 * cast first: a double out of an integer's range makes the cast undefined
 * (fuzz_record found "wanderers":[1e52]; under UBSan this test aborts when
 * a reader casts before it checks). */
static void
module_load_refuses_numbers_past_range(void **unused)
{
	static const struct {
		const char *record, *err;
	} bad[] = {
	    {STATE("room", "1",
	           "{\"user\":\"k\",\"player\":\"p\",\"name\":\"A\",\"class\":\"c\","
	           "\"type\":\"\",\"style\":{\"colour\":\"red\",\"mark\":\"◆\"},\"level\":1,"
	           "\"hits\":5,\"xp\":0,\"dead\":false,\"fresh\":false,\"credit\":0,"
	           "\"wanderers\":[1e52],\"items\":[],\"effects\":[]}",
	           ROOM("[]")),
	     "Fungeon party member: 'wanderers' holds something other than points 1..100000000."},
	    {STATE("room", "1", MEMBER("1"),
	           "{\"number\":1,\"floor\":1,\"party\":[1e52,1,1,1],\"budgets\":[2,2,2],"
	           "\"stair\":false,\"order\":[0],\"holders\":[0,0,0],\"made\":3,"
	           "\"traps\":[],\"monsters\":[],\"treasure\":[]}"),
	     "Fungeon room: 'party' holds a number out of range."},
	    {STATE("room", "1", MEMBER("1"),
	           "{\"number\":1,\"floor\":1,\"party\":[1,1,1,1],\"budgets\":[-1e300,2,2],"
	           "\"stair\":false,\"order\":[0],\"holders\":[0,0,0],\"made\":3,"
	           "\"traps\":[],\"monsters\":[],\"treasure\":[]}"),
	     "Fungeon room: 'budgets' holds a budget out of range."},
	    /* the form before the room model */
	    {"{\"floor\":1,\"rooms\":0,\"xp_rule\":\"table\",\"holders\":{\"traps\":\"\","
	     "\"monsters\":\"\",\"treasure\":\"\"},\"order\":[1e52],\"party\":[{\"user\":"
	     "\"console:a\",\"player\":\"alice\",\"name\":\"Alba\",\"class\":\"wizard\","
	     "\"level\":1,\"hits\":5,\"xp\":0,\"dead\":false,\"fresh\":false,\"credit\":0,"
	     "\"wanderers\":[],\"items\":[],\"effects\":[]}],\"designs\":{\"traps\":[],"
	     "\"monsters\":[],\"treasure\":[]}}",
	     "Fungeon state: 'order' holds something other than a party member."},
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *j = cJSON_Parse(bad[i].record);
		void *fresh = fungeon_mod.create();
		char err[200] = "";

		assert_non_null(j);
		if (fungeon_mod.load(fresh, j, err, sizeof(err)) != -1)
			fail_msg("bad record %zu loaded", i);
		assert_string_equal(err, bad[i].err);
		cJSON_Delete(j);
		fungeon_mod.destroy(fresh);
	}
}

/* A state written before the room model (no "v") reads as a party in its
 * room: the designs of that room with their states, the rest gone; the
 * makers are the categories' holders; an effect learns where it came from
 * and what ending it is worth. */
static void
old_form_loads(void **unused)
{
	static const char *const old =
	    "{\"floor\":3,\"xp_rule\":\"table\",\"rooms\":2,\"holders\":{\"traps\":\"console:b\","
	    "\"monsters\":\"console:a\",\"treasure\":\"\"},\"budgets\":{\"traps\":7,\"monsters\":"
	    "9,\"treasure\":5},\"order\":[1,0],\"picks_made\":3,\"fallen\":[],\"waived\":\"\","
	    "\"party\":[{\"user\":\"console:a\",\"player\":\"alice\",\"name\":\"Alba\",\"class\":"
	    "\"wizard\",\"level\":4,\"hits\":20,\"xp\":90,\"dead\":false,\"fresh\":false,"
	    "\"credit\":0,\"wander\":5,\"items\":[],\"effects\":[{\"kind\":\"damage\",\"source\":"
	    "\"pit\",\"annoy\":2,\"pain\":1,\"universal\":false,\"type\":\"acid\"},{\"kind\":"
	    "\"hold\",\"source\":\"wasp/sting\",\"annoy\":3,\"pain\":0,\"universal\":false,"
	    "\"type\":\"\"}]},{\"user\":\"console:b\",\"player\":\"bob\",\"name\":\"Brom\","
	    "\"class\":\"fighter\",\"level\":2,\"hits\":0,\"xp\":0,\"dead\":true,\"fresh\":false,"
	    "\"credit\":0,\"wanderers\":[],\"items\":[{\"name\":\"gem\",\"design\":\"mundane value "
	    "2\"}],\"effects\":[]}],\"designs\":{\"traps\":[{\"name\":\"pit\",\"design\":\"annoy 2 "
	    "pain 1 continuous type acid\",\"room\":true,\"hits\":0,\"taken\":\"\",\"sprung\":true,"
	    "\"passed\":true},{\"name\":\"old\",\"design\":\"annoy 2 type x\",\"room\":false,"
	    "\"hits\":0,\"taken\":\"\"}],\"monsters\":[{\"name\":\"troll\",\"design\":\"level 3\","
	    "\"room\":false,\"hits\":9,\"taken\":\"\"}],\"treasure\":[]}}";
	cJSON *j = cJSON_Parse(old);
	struct fungeon_channel *c = fungeon_mod.create();
	char err[200] = "";

	assert_non_null(j);
	if (fungeon_mod.load(c, j, err, sizeof(err)) != 0)
		fail_msg("load: %s", err);
	assert_int_equal(c->d.phase, FUNGEON_ROOM);
	assert_int_equal(c->d.rooms, 2);
	assert_int_equal(c->d.room.number, 2);
	assert_int_equal(c->d.room.floor, 3);
	assert_int_equal(c->d.room.budgets.traps, 7);
	assert_int_equal(c->d.room.party.max, 4); /* read back from the budgets */
	assert_int_equal(c->d.room.party.total, 6);
	assert_int_equal(c->d.room.party.min, 2);
	assert_int_equal(c->d.room.n[FUNGEON_TRAP], 1); /* "old" was an earlier room's */
	assert_int_equal(c->d.room.p[FUNGEON_TRAP][0].state, FUNGEON_TRAP_SPRUNG);
	assert_string_equal(c->d.room.p[FUNGEON_TRAP][0].maker, "console:b");
	assert_int_equal(c->d.room.n[FUNGEON_MONSTER], 0);
	assert_int_equal(fungeon_channel_holder(c, FUNGEON_CAT_TRAPS), 1);
	assert_int_equal(fungeon_channel_holder(c, FUNGEON_CAT_TREASURE), -1);
	assert_int_equal(c->m[0].nwander, 1);
	assert_int_equal(c->m[0].wanderer[0], 5);
	assert_int_equal(c->m[0].effects[0].from, FUNGEON_FROM_TRAP);
	assert_int_equal(c->m[0].effects[0].xp, 4); /* the pit's cost: (1 + 1) doubled */
	assert_string_equal(c->m[0].effects[0].maker, "console:b");
	assert_int_equal(c->m[0].effects[1].from, FUNGEON_FROM_MONSTER);
	assert_string_equal(c->m[0].effects[1].maker, "console:a");
	/* the dead one's gem lies in the room, to plunder */
	assert_int_equal(c->m[1].nitems, 0);
	assert_int_equal(c->d.room.n[FUNGEON_TREASURE], 1);
	assert_true(c->d.room.p[FUNGEON_TREASURE][0].left);
	assert_true(c->style[0].colour != c->style[1].colour);
	cJSON_Delete(j);
	fungeon_mod.destroy(c);
}

/* Every bad input is one error sentence and leaves the state as it was. */
static void
bad_input_changes_nothing(void **unused)
{
	static const char room[] = "The party is in room 1 on floor 1, and rooms are made in "
	                           "the hallway before them; on to the next with /fungeon "
	                           "hallway.";
	static const char sprung[] =
	    "pit has sprung already; a trap without Unlimited Use springs once.";
	static const struct {
		const char *user, *line, *error;
	} cases[] = {
	    {"alice", "/fungeon join Alba2 wizard 2",
	     "You already play Alba here (one Fungeoneer per player); /fungeon leave first."},
	    {"dan", "/fungeon join Dirk monk 61", NULL},
	    {"dan", "/fungeon join Dirk monk 0", NULL},
	    {"dan", "/fungeon join Alba monk 1",
	     "The name Alba is taken here by alice's Fungeoneer; pick another."},
	    {"dan", "/fungeon join pit monk 1",
	     "The name pit is taken here by a trap of the room; pick another."},
	    {"dan", "/fungeon join Di:rk monk 1", NULL},
	    {"dan", "/fungeon join Dirk monk 1 type:two,words", NULL},
	    {"alice", "/fungeon adjust Zed hits:-3",
	     "There is no Fungeoneer or monster 'Zed' here; the party is Alba (alice), Brom (bob), "
	     "Cora (carol); the room's monsters are goblin."},
	    {"alice", "/fungeon adjust Alba",
	     "Say what to adjust: hits:+N or hits:-N, xp:+N or xp:-N."},
	    {"alice", "/fungeon adjust Alba hits:0",
	     "An adjustment of 0 changes nothing; give +N or -N."},
	    {"alice", "/fungeon adjust goblin xp:5",
	     "goblin is a monster, and monsters have no XP; adjust its hits."},
	    {"alice", "/fungeon trigger pit Alba", sprung},
	    {"alice", "/fungeon find pit Alba", sprung},
	    {"alice", "/fungeon disarm pit Alba", sprung},
	    {"alice", "/fungeon find nothing",
	     "There is no trap 'nothing' here; the room's traps are pit."},
	    {"alice", "/fungeon find pit Zed", NULL},
	    {"alice", "/fungeon find pit bonus:Zed", NULL},
	    {"alice", "/fungeon trap add hole annoy 1 pain 1 type fire", room},
	    {"alice", "/fungeon monster add imp level 1", room},
	    {"alice", "/fungeon treasure remove coin", room},
	    {"alice", "/fungeon pick traps", room},
	    {"alice", "/fungeon enter", room},
	    {"alice", "/fungeon entrance",
	     "The entrance is described before a dungeon begins, and the party is in room 1 on "
	     "floor 1; the next dungeon starts from town."},
	    {"carol", "/fungeon combat use:goblin/bite",
	     "The monster goblin has no ability 'bite'; its abilities are stab."},
	    /* play-test 2: whether one directs the monster is asked first */
	    {"alice", "/fungeon combat use:goblin/bite",
	     "goblin is carol's to direct: whoever made a monster directs it (the GM may direct "
	     "any)."},
	    {"alice", "/fungeon combat use:goblin/none",
	     "goblin is carol's to direct: whoever made a monster directs it (the GM may direct "
	     "any)."},
	    {"alice", "/fungeon combat rat",
	     "There is no monster 'rat' here; the room's monsters are goblin."},
	    {"alice", "/fungeon combat targets:Alba",
	     "A target is written who>target (Alba>goblin); 'Alba' is not."},
	    {"alice", "/fungeon combat targets:Zed>goblin",
	     "'Zed' does not fight this turn; a target is given to a Fungeoneer or monster in the "
	     "fight."},
	    {"alice", "/fungeon combat targets:Alba>Alba",
	     "Alba cannot target itself; a winner hurts one of the others."},
	    {"alice", "/fungeon combat targets:Alba>ghost",
	     "Alba targets 'ghost', who is not in this conflict; a target is one of the others in "
	     "it."},
	    {"alice", "/fungeon take coin", "Alba took coin already."},
	    {"alice", "/fungeon use coin",
	     "coin has no magic to use; magic treasure is used to heal (once) or to end "
	     "continuous damage."},
	    {"alice", "/fungeon town sell coin",
	     "Treasure is traded in town, and the party is in room 1 on floor 1; head back first "
	     "with /fungeon retreat."},
	    {"alice", "/fungeon town healer",
	     "The healer is found only in town, and the party is in room 1 on floor 1; head back "
	     "first "
	     "with /fungeon retreat."},
	    {"dan", "/fungeon xp-rule formula", NULL},
	    {"alice", "/fungeon floor 62", NULL},
	    {"dan", "/fungeon leave",
	     "You have no Fungeoneer here; /fungeon join NAME CLASS LEVEL makes one."},
	    {"alice", "/thwacko style red two words", NULL},
	    {"alice", "/thwacko style red abcde",
	     "'abcde' is too long: a mark is 1 or 2 symbols or emoji, or up to 4 "
	     "letters (of any alphabet)."},
	    {"alice", "/thwacko style purple", NULL},
	};
	struct fgtable *t = fgtable_new(2);

	play_a_room(t);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fgtable_fails_unchanged(t, cases[i].user, cases[i].line, cases[i].error);
	fgtable_free(t);
}

/* A player rolling for a trap without their own Fungeoneer in the roll gets
 * their one Thwack-O die on the trap's dice: the trap's maker. */
static void
thwacko_on_the_trap_player(void **unused)
{
	struct fgtable *t = fgtable_new(3);
	const struct reply_msg *m;
	int maker_spans = 0, victim_spans = 0, mk, victim;
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	const struct fungeon_channel *c;
	char line[160], label[200];

	fgtable_adventurers(t, 2, 2, 0);
	fgtable_ok(t, "bob", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap add pit annoy 2 pain 3 type spikes");
	fgtable_enter_waived(t);
	c = fgtable_fungeon(t);
	mk = fungeon_channel_holder(c, FUNGEON_CAT_TRAPS);
	victim = 1 - mk;
	snprintf(line, sizeof(line), "/fungeon trigger pit %s", c->m[victim].name);
	snprintf(label, sizeof(label), "%s (%s): ", c->m[victim].name, c->m[victim].player);
	fgtable_ok(t, c->m[victim].player, line);
	fungeon_channel_styles(c, t->st, styles);
	m = reply_msg(t->last, REPLY_CHANNEL);
	assert_non_null(m);
	for (size_t b = 0; b < m->nblocks; b++) {
		const struct reply_block *bl = &m->blocks[b];

		if (bl->kind != RB_LINE || bl->nspans == 0)
			continue;
		for (size_t s = 0; s < bl->nspans; s++) {
			if (!(bl->spans[s].style & RS_USER))
				continue;
			if (!strncmp(bl->spans[0].text, "pit: ", 5)) {
				assert_int_equal(bl->spans[s].user.colour, styles[mk].colour);
				assert_string_equal(bl->spans[s].user.mark, styles[mk].mark);
				maker_spans++;
			}
			if (!strncmp(bl->spans[0].text, label, strlen(label))) {
				assert_int_equal(bl->spans[s].user.colour, styles[victim].colour);
				victim_spans++;
			}
		}
	}
	assert_true(maker_spans >= 1); /* the Annoy roll, and the Pain roll on a failure */
	assert_true(victim_spans >= 1);
	fgtable_free(t);
}

/* In a Painful conflict's rank table each Thwack-O die is drawn in its
 * player's style, and no other cell is. */
static void
thwacko_styled_in_rank_tables(void **unused)
{
	struct fgtable *t = fgtable_new(3);
	const struct reply_msg *m;
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	int styled = 0, tables = 0;

	fgtable_adventurers(t, 2, 2, 0);
	fgtable_ok(t, "bob", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add rat level 2");
	fgtable_enter_waived(t);
	fgtable_ok(t, "alice", "/fungeon combat");
	fungeon_channel_styles(fgtable_fungeon(t), t->st, styles);
	m = reply_msg(t->last, REPLY_CHANNEL);
	assert_non_null(m);
	for (size_t b = 0; b < m->nblocks; b++) {
		const struct reply_block *bl = &m->blocks[b];

		if (bl->kind != RB_TABLE || bl->header == NULL || strcmp(bl->header[0], "rank"))
			continue;
		tables++;
		for (size_t r = 0; r < bl->nrows; r++) {
			for (int c = 1; c < bl->ncols; c++) {
				int who = strcmp(bl->header[c], "Alba") == 0   ? 0
				          : strcmp(bl->header[c], "Brom") == 0 ? 1
				                                               : -1;
				bool marked =
				    who >= 0 && !strncmp(bl->rows[r].cells[c], styles[who].mark,
				                         strlen(styles[who].mark));

				assert_int_equal((bl->rows[r].user_cols >> c) & 1u, marked);
				if (!marked)
					continue;
				assert_int_equal(bl->rows[r].user[c].colour, styles[who].colour);
				styled++;
			}
		}
	}
	assert_true(tables >= 1);
	assert_int_equal(styled, 2 * tables); /* one die per player per conflict */
	fgtable_free(t);
}

static void
styles_default_distinct_and_chosen(void **unused)
{
	const char *keys[8] = {"console:a", "console:b", "console:c", "console:d",
	                       "console:e", "console:f", "console:g", "console:h"};
	const struct thwacko_style *chosen[8] = {NULL};
	struct thwacko_style mine = {.colour = UC_RED, .mark = "🔥"}, out[8], again[8], one;
	char err[200];

	chosen[3] = &mine;
	thwacko_style_party(keys, chosen, 8, out);
	thwacko_style_party(keys, chosen, 8, again);
	assert_memory_equal(out, again, sizeof(out));
	assert_int_equal(out[3].colour, UC_RED);
	assert_string_equal(out[3].mark, "🔥");
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < i; k++)
			assert_true(out[i].colour != out[k].colour);
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < i; k++)
			if (i != 3 && k != 3)
				assert_string_not_equal(out[i].mark, out[k].mark);
	/* alone, a player keeps the hashed default */
	thwacko_style_default("console:a", &one);
	thwacko_style_party(keys, (const struct thwacko_style *const[]){NULL}, 1, out);
	assert_int_equal(out[0].colour, one.colour);
	assert_string_equal(out[0].mark, one.mark);
	assert_true(one.colour != UC_GRAY);

	assert_int_equal(thwacko_style_mark_check("◆", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("🐉", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("❤️", err, sizeof(err)),
	                 0); /* + variation selector */
	assert_int_equal(thwacko_style_mark_check("AB12", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("ABCDE", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("◆◆◆", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("a b", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("a\tb", err, sizeof(err)), -1);
	assert_int_equal(thwacko_style_mark_check("\xe2\x80\x8b", err, sizeof(err)), -1); /* ZWSP */
	assert_int_equal(thwacko_style_mark_check("\xff", err, sizeof(err)), -1);
	/* newcomer F25: 4 letters of any alphabet, an accent with its letter */
	assert_int_equal(thwacko_style_mark_check("жжжж", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("龍之介", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("e\xcc\x81"
	                                          "e\xcc\x81"
	                                          "e\xcc\x81"
	                                          "e\xcc\x81",
	                                          err, sizeof(err)),
	                 0);
	/* 4 Deseret letters of 4 bytes, each with an accent: 24 bytes */
	assert_int_equal(
	    thwacko_style_mark_check("𐐨\xcc\x81𐐨\xcc\x81𐐨\xcc\x81𐐨\xcc\x81", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("жжжжж", err, sizeof(err)), -1);
	assert_string_equal(err, "'жжжжж' is too long: a mark is 1 or 2 symbols or "
	                         "emoji, or up to 4 letters (of any alphabet).");
	assert_int_equal(thwacko_style_mark_check("ж◆", err, sizeof(err)), 0);
	assert_int_equal(thwacko_style_mark_check("ж◆ж", err, sizeof(err)), -1);
	/* a letter and 12 accents: 26 bytes */
	assert_int_equal(
	    thwacko_style_mark_check("ж\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81"
	                             "\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81",
	                             err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "is too long: a mark is at most 24 bytes."));
	assert_int_equal(thwacko_style_colour_parse("Cyan"), UC_CYAN);
	assert_int_equal(thwacko_style_colour_parse("grey"), UC_GRAY);
	assert_int_equal(thwacko_style_colour_parse("purple"), -1);
}

/* /thwacko style is a user preference: stored on the user record and used
 * in every channel. */
static void
thwacko_style_is_per_user(void **unused)
{
	struct fgtable *t = fgtable_new(4);
	const struct thwacko_style *s;
	char *text;

	fgtable_ok(t, "alice", "/thwacko style cyan AL");
	s = user_style(state_user_find(t->st, "console:alice"));
	assert_non_null(s);
	assert_int_equal(s->colour, UC_CYAN);
	assert_string_equal(s->mark, "AL");
	fgtable_ok(t, "alice", "/thwacko style green");
	assert_int_equal(s->colour, UC_GREEN);
	assert_string_equal(s->mark, "AL");
	/* newcomer F25: "up to 4 letters" of any alphabet */
	fgtable_ok(t, "alice", "/thwacko style red жжжж");
	assert_string_equal(s->mark, "жжжж");
	fgtable_ok(t, "alice", "/thwacko style red 𐐨\xcc\x81𐐨\xcc\x81𐐨\xcc\x81𐐨\xcc\x81");
	assert_string_equal(s->mark, "𐐨\xcc\x81𐐨\xcc\x81𐐨\xcc\x81𐐨\xcc\x81");
	fgtable_ok(t, "alice", "/thwacko style green AL");
	text = fgtable_run(t, "alice", "/thwacko");
	/* plain text: the renderers add the mark before the die */
	assert_string_equal(text, "Thwack-O dice\nYou: 6 (green, mark AL)\n");
	free(text);
	fgtable_free(t);
}

/* The cost reply shows plain points, each doubling, the budget and what is
 * left; in town, the budgets a room would have now. */
static void
cost_shows_the_budget(void **unused)
{
	struct fgtable *t = fgtable_new(5);
	char *text;

	fgtable_adventurers(t, 2, 3, 0);
	text = fgtable_run(t, "alice",
	                   "/fungeon cost trap annoy 2 pain 1 unlimited universal type darts");
	assert_string_equal(text, "Trap: annoy 2 pain 1 unlimited universal type darts\n"
	                          "Plain: annoy 2 (1) + pain 1 (1) = 2\n"
	                          "Doubled: unlimited use → 4, universal damage → 8\n"
	                          "Cost: 8 points.\n"
	                          "Traps budget of a room now: 5 (Party Max 3 + floor 2); spent 0, "
	                          "this design 8, over budget by 3.\n");
	free(text);
	text = fgtable_run(t, "alice", "/fungeon cost treasure fancy value 1 pain 1 type fire");
	assert_non_null(strstr(text, "Cost: 6 points. Sells in town for 3 points.\n"));
	free(text);
	fgtable_free(t);
}

/* Ruling: the formula is a per-channel setting (the GM's); the hallway
 * levels by the rule in force. */
static void
xp_rule_setting(void **unused)
{
	struct fgtable *t = fgtable_new(6);
	const struct fungeon_channel *c;
	char *text, *json;

	fgtable_adventurers(t, 2, 0, 0);
	fgtable_ok(t, "alice", "/fungeon adjust Alba xp:20"); /* a new one starts with 0 */
	fgtable_ok(t, "alice", "/fungeon hallway");
	c = fgtable_fungeon(t);
	assert_int_equal(c->m[0].level, 2); /* the table: level 3 at 40 */
	fgtable_ok(t, "alice", "/gm claim");
	text = fgtable_run(t, "alice", "/fungeon xp-rule formula");
	assert_string_equal(text, "alice sets the XP rule (it was table). XP rule here: formula "
	                          "(level up when XP >= 10 x 2^(current level - 1): level 3 at "
	                          "20).\n");
	free(text);
	json = fgtable_saved(t);
	assert_non_null(strstr(json, "\"xp_rule\":\"formula\""));
	free(json);
	fgtable_enter_waived(t);
	fgtable_ok(t, "alice", "/fungeon hallway");
	assert_int_equal(c->m[0].level, 3);
	assert_int_equal(c->m[0].hits, 15);
	text = fgtable_run(t, "alice", "/xp 3");
	assert_string_equal(text, "Level 3 needs 20 XP in all (formula); max hits 15, class bonus "
	                          "1.\n");
	free(text);
	fgtable_free(t);
}

/* Adds a piece of kind k read from spec, priced, to c's room. */
static struct fungeon_piece *
piece(struct fungeon_channel *c, enum fungeon_kind k, const char *name, const char *spec)
{
	struct fungeon_piece *s = fungeon_room_add(&c->d.room, k);
	struct fungeon_price p;
	char err[200];

	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->maker, sizeof(s->maker), "console:p0");
	if (fungeon_cost_parse(k, spec, &s->d, err, sizeof(err)) < 0 ||
	    fungeon_cost_price(&s->d, &p, err, sizeof(err)) < 0)
		fail_msg("%s: %s", spec, err);
	s->cost = p.total;
	s->hits = k == FUNGEON_MONSTER ? fungeon_cost_monster_hits(s->d.level) : 0;
	return s;
}

/* Fills c with n Fungeoneers F0.. (players p0.., user keys console:p0..)
 * carrying items items and effects effects each, in room 1 with designs
 * pieces of each kind (traps t0.., monsters m0.., treasure r0..) made by
 * p0, who holds every category. */
static void
fill(struct fungeon_channel *c, int n, int items, int effects, int designs)
{
	static const char *const prefix[FUNGEON_KIND_COUNT] = {"t", "m", "r"};
	static const char *const spec[FUNGEON_KIND_COUNT] = {
	    "annoy 2 pain 1 continuous type acid", "level 2 ability bite annoy 1 pain 1 type claws",
	    "mundane"};
	char key[32], player[16], name[16], err[200];
	struct fungeon_party p;

	for (int i = 0; i < n; i++) {
		struct thwacko_style st;
		struct fungeon_member *m;

		snprintf(key, sizeof(key), "console:p%d", i);
		thwacko_style_distinct(key, c->style, c->n, &st);
		m = fungeon_channel_member_add(c, &st);
		snprintf(player, sizeof(player), "p%d", i);
		snprintf(name, sizeof(name), "F%d", i);
		fungeon_member_init(m, key, player, name, "fighter", 3);
		for (int k = 0; k < items; k++) {
			struct fungeon_item *it = fungeon_item_add(m);

			assert_non_null(it);
			snprintf(it->name, sizeof(it->name), "i%d-%d", i, k);
			assert_int_equal(fungeon_cost_parse(FUNGEON_TREASURE,
			                                    "fancy pain 1 type fire", &it->d, err,
			                                    sizeof(err)),
			                 0);
			it->cost = 4;
		}
		for (int k = 0; k < effects; k++) {
			struct fungeon_effect e = {
			    .kind = k % 2 ? FUNGEON_EFFECT_HOLD : FUNGEON_EFFECT_DAMAGE,
			    .from = k % 2 ? FUNGEON_FROM_MONSTER : FUNGEON_FROM_TRAP,
			    .annoy = 2,
			    .pain = k % 2 ? 0 : 1,
			    .type = "fire",
			    .maker = "console:p0",
			    .xp = k % 2 ? 0 : 6};

			snprintf(e.source, sizeof(e.source), "s%d", k);
			assert_int_equal(fungeon_effect_add(m, &e), 0);
		}
	}
	fungeon_channel_party(c, &p);
	fungeon_dungeon_begin(&c->d, &p);
	fungeon_budgets(&p, c->d.floor, &(struct fungeon_budgets){0});
	fungeon_dungeon_hallway(&c->d, &p, &(struct fungeon_budgets){6, 9, 4}, false);
	if (n > 0) {
		c->d.room.picks = (struct fungeon_picks){
		    .n = 1, .order = {0}, .holder = {0, 0, 0}, .made = FUNGEON_CAT_COUNT};
	}
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		for (int i = 0; i < designs; i++) {
			snprintf(name, sizeof(name), "%s%d", prefix[k], i);
			piece(c, (enum fungeon_kind)k, name, spec[k]);
		}
	}
	fungeon_dungeon_enter(&c->d);
	if (n > 0 && designs > 0)
		snprintf(c->d.room.p[FUNGEON_TREASURE][0].taken,
		         sizeof(c->d.room.p[FUNGEON_TREASURE][0].taken), "F0");
}

/* Edge sizes: nothing held costs the struct alone and allocates nothing. */
static void
module_round_trip_empty(void **unused)
{
	struct fungeon_channel *c = fungeon_mod.create();

	assert_null(c->m);
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		assert_null(c->d.room.p[k]);
	assert_int_equal(fungeon_channel_bytes(c), sizeof(struct fungeon_channel));
	fgtable_round_trips(c);
	/* members with nothing carried own no arrays either */
	fill(c, 1, 0, 0, 0);
	assert_null(c->m[0].items);
	assert_null(c->m[0].effects);
	fgtable_round_trips(c);
	fungeon_mod.destroy(c);
}

static void
module_round_trip_one(void **unused)
{
	struct fungeon_channel *c = fungeon_mod.create();

	fill(c, 1, 1, 1, 1);
	assert_int_equal(fungeon_channel_bytes(c),
	                 sizeof(struct fungeon_channel) + sizeof(struct fungeon_member) +
	                     sizeof(struct thwacko_style) + sizeof(struct fungeon_item) +
	                     sizeof(struct fungeon_effect) +
	                     FUNGEON_KIND_COUNT * sizeof(struct fungeon_piece));
	fgtable_round_trips(c);
	fungeon_mod.destroy(c);
}

static void
module_round_trip_full(void **unused)
{
	struct fungeon_channel *c = fungeon_mod.create();

	fill(c, FUNGEON_PARTY_MAX, FUNGEON_ITEMS_MAX, FUNGEON_EFFECTS_MAX, FUNGEON_DESIGNS_MAX);
	assert_null(fungeon_item_add(&c->m[0])); /* full: nothing added */
	assert_int_equal(c->m[0].nitems, FUNGEON_ITEMS_MAX);
	/* XP past 2^53 keep every digit */
	c->m[1].xp = INT64_MAX;
	fgtable_round_trips(c);
	fungeon_mod.destroy(c);
}

/* A record one past a limit is refused, whatever the arrays hold. */
static void
module_load_rejects_one_past_the_limits(void **unused)
{
	struct fungeon_channel *c = fungeon_mod.create();
	cJSON *j, *more;
	char err[200];

	fill(c, FUNGEON_PARTY_MAX, FUNGEON_ITEMS_MAX, FUNGEON_EFFECTS_MAX, FUNGEON_DESIGNS_MAX);
	for (int what = 0; what < 4; what++) {
		struct fungeon_channel *fresh = fungeon_mod.create();
		cJSON *m0;

		j = fungeon_mod.save(c);
		m0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "party"), 0);
		switch (what) {
		case 0:
			more = cJSON_GetObjectItem(j, "party");
			cJSON_AddItemToArray(more, cJSON_Duplicate(m0, true));
			break;
		case 1:
			more = cJSON_GetObjectItem(m0, "items");
			cJSON_AddItemToArray(more,
			                     cJSON_Duplicate(cJSON_GetArrayItem(more, 0), true));
			break;
		case 2:
			more = cJSON_GetObjectItem(m0, "effects");
			cJSON_AddItemToArray(more,
			                     cJSON_Duplicate(cJSON_GetArrayItem(more, 0), true));
			break;
		default:
			more = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "room"), "traps");
			cJSON_AddItemToArray(more,
			                     cJSON_Duplicate(cJSON_GetArrayItem(more, 0), true));
			break;
		}
		assert_int_equal(fungeon_mod.load(fresh, j, err, sizeof(err)), -1);
		assert_true(strstr(err, "is not a list of at most") != NULL);
		cJSON_Delete(j);
		fungeon_mod.destroy(fresh);
	}
	fungeon_mod.destroy(c);
}

/* A room's lists of numbers of fixed length (the party's four figures, a
 * holder for each of the three categories) are refused at any other
 * length, and the draw's order past the party's most, in one sentence
 * naming the length allowed; nothing is read past what the list holds. */
static void
module_load_refuses_room_lists_of_another_length(void **unused)
{
	static const struct {
		const char *key;
		int drop, add;
		const char *error;
	} cases[] = {
	    {"party", 1, 0, "Fungeon room: 'party' is not a list of 4 whole numbers."},
	    {"party", 0, 1, "Fungeon room: 'party' is not a list of 4 whole numbers."},
	    {"holders", 1, 0, "Fungeon room: 'holders' is not a list of 3 whole numbers."},
	    {"holders", 0, 1, "Fungeon room: 'holders' is not a list of 3 whole numbers."},
	    {"order", 0, FUNGEON_PARTY_MAX, /* one order already */
	     "Fungeon room: 'order' is not a list of 0 to 8 whole numbers."},
	};
	struct fungeon_channel *c = fungeon_mod.create();
	char err[200];

	fill(c, FUNGEON_PARTY_MAX, 1, 1, 1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fungeon_channel *fresh = fungeon_mod.create();
		cJSON *j = fungeon_mod.save(c);
		cJSON *list = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "room"), cases[i].key);

		assert_non_null(list);
		if (cases[i].drop)
			cJSON_DeleteItemFromArray(list, 0);
		for (int k = 0; k < cases[i].add; k++)
			cJSON_AddItemToArray(list, cJSON_CreateNumber(0));
		assert_int_equal(fungeon_mod.load(fresh, j, err, sizeof(err)), -1);
		assert_string_equal(err, cases[i].error);
		cJSON_Delete(j);
		fungeon_mod.destroy(fresh);
	}
	fungeon_mod.destroy(c);
}

/* At each maximum, adding one more is the same one-sentence error as
 * ever, and the state (its saved text) is unchanged. */
static void
limits_at_the_maximum(void **unused)
{
	static const struct {
		const char *user, *line, *error;
	} cases[] = {
	    {"newcomer", "/fungeon join Zed fighter 3", "The party is full (8 Fungeoneers)."},
	    {"p1", "/fungeon take r1",
	     "F1 carries 8 items already, the most one can; sell one in town first."},
	};
	struct fgtable *t = fgtable_new(3);
	struct fungeon_channel *c = fgtable_fungeon(t);

	fill(c, FUNGEON_PARTY_MAX, FUNGEON_ITEMS_MAX, FUNGEON_EFFECTS_MAX, FUNGEON_DESIGNS_MAX);
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++)
		for (int i = 0; i < c->d.room.n[k]; i++)
			c->d.room.p[k][i].d.guards = false;
	for (int i = 0; i < c->d.room.n[FUNGEON_MONSTER]; i++)
		c->d.room.p[FUNGEON_MONSTER][i].hits = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fgtable_fails_unchanged(t, cases[i].user, cases[i].line, cases[i].error);
	fgtable_free(t);
}

/* A full room refuses one piece more of each kind, in the hallway. */
static void
room_holds_24_of_each(void **unused)
{
	struct fgtable *t = fgtable_new(3);
	struct fungeon_channel *c;
	char line[80];

	fgtable_ok(t, "p0", "/fungeon join F0 fighter 60");
	fgtable_ok(t, "p0", "/fungeon hallway");
	c = fgtable_fungeon(t);
	for (int i = 0; i < FUNGEON_DESIGNS_MAX; i++) {
		snprintf(line, sizeof(line), "/fungeon trap add t%d annoy 1 pain 1 type darts", i);
		fgtable_ok(t, "p0", line);
	}
	assert_int_equal(c->d.room.n[FUNGEON_TRAP], FUNGEON_DESIGNS_MAX);
	fgtable_fails_unchanged(t, "p0", "/fungeon trap add t99 annoy 1 pain 1 type darts",
	                        "Room 1 holds 24 traps already, the most it can.");
	fgtable_free(t);
}

/* Memory follows what the channel holds: a 3-player party with two
 * pieces costs the struct and those records, and leaving or unmaking
 * gives the bytes back. */
static void
memory_tracks_what_the_channel_holds(void **unused)
{
	struct fgtable *t = fgtable_new(4);
	const struct fungeon_channel *c = fgtable_fungeon(t);
	size_t empty = fungeon_channel_bytes(c),
	       member = sizeof(struct fungeon_member) + sizeof(struct thwacko_style);

	assert_int_equal(empty, sizeof(struct fungeon_channel));
	fgtable_adventurers(t, 3, 3, 3);
	fgtable_ok(t, "alice", "/fungeon hallway");
	fgtable_pick_all(t);
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap add pit annoy 2 pain 1 type darts");
	fgtable_make(t, FUNGEON_CAT_MONSTERS, "/fungeon monster add rat level 3");
	assert_int_equal(fungeon_channel_bytes(c),
	                 empty + 3 * member + 2 * sizeof(struct fungeon_piece));
	assert_true(fungeon_channel_bytes(c) < 8192);
	fgtable_make(t, FUNGEON_CAT_TRAPS, "/fungeon trap remove pit");
	assert_int_equal(fungeon_channel_bytes(c),
	                 empty + 3 * member + sizeof(struct fungeon_piece));
	fgtable_ok(t, "carol", "/fungeon leave");
	assert_int_equal(fungeon_channel_bytes(c),
	                 empty + 2 * member + sizeof(struct fungeon_piece));
	fgtable_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(module_round_trip),
	    cmocka_unit_test(long_names_stay_utf8),
	    cmocka_unit_test(thwacko_styled_in_rank_tables),
	    cmocka_unit_test(module_load_rejects_bad_records),
	    cmocka_unit_test(module_load_refuses_numbers_past_range),
	    cmocka_unit_test(old_form_loads),
	    cmocka_unit_test(bad_input_changes_nothing),
	    cmocka_unit_test(thwacko_on_the_trap_player),
	    cmocka_unit_test(styles_default_distinct_and_chosen),
	    cmocka_unit_test(thwacko_style_is_per_user),
	    cmocka_unit_test(cost_shows_the_budget),
	    cmocka_unit_test(xp_rule_setting),
	    cmocka_unit_test(module_round_trip_empty),
	    cmocka_unit_test(module_round_trip_one),
	    cmocka_unit_test(module_round_trip_full),
	    cmocka_unit_test(module_load_rejects_one_past_the_limits),
	    cmocka_unit_test(module_load_refuses_room_lists_of_another_length),
	    cmocka_unit_test(limits_at_the_maximum),
	    cmocka_unit_test(room_holds_24_of_each),
	    cmocka_unit_test(memory_tracks_what_the_channel_holds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
