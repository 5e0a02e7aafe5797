/* /fungeon join and leave: who is in the party, the checks a new
 * Fungeoneer's name, class and level pass, and what one who leaves hands
 * on (its categories) and leaves behind. */
#include "commands/fungeon/cmd_fungeon_join.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "commands/fungeon/cmd_fungeon_design.h"
#include "commands/fungeon/fungeon_channel.h"
#include "rules/base/buf.h"
#include "rules/base/utf8.h"
#include "rules/fungeon/fungeon_name.h"

/* Whether s holds something besides spaces. */
static bool
has_text(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return true;
	return false;
}

/* Refuses a class that reads as a number: the level typed where the class
 * goes (line 16: a class is a career). Returns 0, or -1 with an error. */
static int
class_no_level(struct invocation *inv, const char *name, const char *cls, struct reply *out)
{
	int n;
	enum fungeon_level_form form = fungeon_level_typed(cls, &n);
	/* a Roman numeral or a labelled level ("Ⅲ", "L3", "level") names a
	 * level as no other number does */
	bool level_like = form == FUNGEON_LEVEL_ROMAN || form == FUNGEON_LEVEL_LABELLED;
	const char *reads = form == FUNGEON_LEVEL_LABELLED && fungeon_level_label(cls)
	                        ? "a level's label"
	                    : level_like ? "a level"
	                                 : "a number";

	if (form == FUNGEON_LEVEL_NONE)
		return 0;
	if (invocation_has(inv, "level"))
		reply_error(out,
		            "'%s' reads as %s, not a class: a class is any career, such as "
		            "fighter (/fungeon join %s CLASS %lld).",
		            cls, reads, name, (long long)invocation_int(inv, "level", 0));
	else if (n > 0 && level_like)
		reply_error(
		    out,
		    "'%s' reads as level %d, not a class: the class comes first and is any "
		    "career, such as fighter, and the level after it is typed in the digits "
		    "0 to 9 (/fungeon join %s CLASS %d).",
		    cls, n, name, n);
	else if (n > 0)
		reply_error(out,
		            "'%s' reads as a level, not a class: the class comes first and is any "
		            "career, such as fighter (/fungeon join %s CLASS %d).",
		            cls, name, n);
	else
		reply_error(out,
		            "'%s' reads as %s, not a class: a class is any career, such as "
		            "fighter, and the level after it a whole number from %d to %d in the "
		            "digits 0 to "
		            "9.",
		            cls, reads, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
	return -1;
}

/* A word of a class of several words (words_level()). */
struct class_word {
	size_t at;  /* its offset in the class */
	int n;      /* the level it names, or -1 */
	bool level; /* it reads as a level wherever it stands */
	bool ends;  /* it reads as one at the class's end or before a label */
	bool label; /* a level's label alone ("level") */
};

/* Reads the words of cls (apart by spaces, - and _) into w (at most max);
 * returns how many. */
static size_t
class_words(const char *cls, struct class_word *w, size_t max)
{
	size_t nw = 0;

	for (size_t i = 0; cls[i] != '\0' && nw < max;) {
		char word[FUNGEON_CLASS_MAX + 1];
		size_t k = strcspn(cls + i, " -_\t");
		enum fungeon_level_form f;
		int n;

		if (k == 0) {
			i++;
			continue;
		}
		snprintf(word, sizeof(word), "%.*s", (int)k, cls + i);
		f = fungeon_level_typed(word, &n);
		w[nw].at = i;
		w[nw].n = n;
		w[nw].label = f == FUNGEON_LEVEL_LABELLED && fungeon_level_label(word);
		/* a number, or a label, names a level anywhere; a number word or
		 * "III" only where a level goes ("Third Eye Monk" is a class) */
		w[nw].level = f == FUNGEON_LEVEL_DIGITS || f == FUNGEON_LEVEL_OTHER_DIGITS ||
		              f == FUNGEON_LEVEL_LABELLED ||
		              (f != FUNGEON_LEVEL_NONE && strpbrk(word, "0123456789") != NULL) ||
		              (f == FUNGEON_LEVEL_ROMAN && (unsigned char)word[0] >= 0x80);
		w[nw].ends = f == FUNGEON_LEVEL_WORDS || f == FUNGEON_LEVEL_ROMAN;
		nw++;
		i += k;
	}
	return nw;
}

/* Where in cls, a class of several words, a level is typed ("level 3",
 * "lvl 3", "level three", "wizard 3", "wizard-III", "third level"): the
 * offset of the first word from which it reads as a level, with in *n the
 * level named (or -1); -1 when it holds none. */
static long
words_level(const char *cls, int *n)
{
	struct class_word w[FUNGEON_CLASS_CHARS];
	size_t nw = class_words(cls, w, FUNGEON_CLASS_CHARS);

	for (size_t i = 0; nw > 1 && i < nw; i++) {
		if (!w[i].level && !(w[i].ends && (i + 1 == nw || w[i + 1].label)))
			continue;
		/* a label before a word that names no number is a word of the
		 * class ("Level Drainer") */
		if (w[i].label && i + 1 < nw && w[i + 1].n < 0 && !w[i + 1].level && !w[i + 1].ends)
			continue;
		*n = -1;
		for (size_t k = i; k < nw && *n < 0; k++)
			*n = w[k].n;
		return (long)w[i].at;
	}
	return -1;
}

/* Writes the level option as typed ("3") into level; returns false, with
 * level left as it was, when none was typed. */
static bool
level_typed(const struct invocation *inv, char *level, size_t len)
{
	if (!invocation_has(inv, "level"))
		return false;
	snprintf(level, len, "%lld", (long long)invocation_int(inv, "level", 0));
	return true;
}

/* Refuses a class of several words that holds a level, quoted or joined
 * by - ("level 3", "wizard 3", "wizard-3": recheck F7), in one sentence
 * naming the command to type. Returns 0, or -1 with an error. */
static int
class_words_no_level(struct invocation *inv, const char *name, const char *cls, struct reply *out)
{
	int n;
	long at = words_level(cls, &n);
	char level[24];
	size_t len;

	if (at < 0)
		return 0;
	if (!level_typed(inv, level, sizeof(level))) {
		if (n > 0)
			snprintf(level, sizeof(level), "%d", n);
		else
			snprintf(level, sizeof(level), "LEVEL");
	}
	for (len = (size_t)at; len > 0 && strchr(" -_\t", cls[len - 1]) != NULL; len--)
		;
	if (len == 0)
		reply_error(out,
		            "'%s' reads as a level, not a class: a class is any career, such as "
		            "fighter, and the level is typed after it as a word of its own, in "
		            "the digits 0 to 9 (/fungeon join %s CLASS %s).",
		            cls, name, level);
	else
		reply_error(out,
		            "'%s' holds a level, which a class may not: the level is typed after "
		            "the class as a word of its own, in the digits 0 to 9 (/fungeon join "
		            "%s %s%.*s%s %s).",
		            cls, name, memchr(cls, ' ', len) != NULL ? "\"" : "", (int)len, cls,
		            memchr(cls, ' ', len) != NULL ? "\"" : "", level);
	return -1;
}

/* Refuses a class type that is a Roman numeral or a labelled level ("Ⅲ",
 * "L3", "level"): a level is typed alone in the digits 0 to 9 (the
 * playtest found "Ⅲ" and "L3" taken as types). n is what it names
 * (fungeon_level_typed()). */
static void
type_level_like(struct invocation *inv, const char *name, const char *cls, const char *type,
                enum fungeon_level_form form, int n, struct reply *out)
{
	bool has = invocation_has(inv, "level");
	long long level = (long long)invocation_int(inv, "level", 0);

	bool alone = form == FUNGEON_LEVEL_LABELLED && fungeon_level_label(type);

	if (alone && !has)
		reply_error(out,
		            "'%s' is a level's label, not a class type: type the level alone, in "
		            "the digits 0 to 9 (/fungeon join %s %s LEVEL), and a class type as a "
		            "word such as fire (type:fire).",
		            type, name, cls);
	else if (alone)
		reply_error(out,
		            "'%s' is a level's label, not a class type, and the level is %lld "
		            "already: type the level alone, in the digits 0 to 9 (/fungeon join %s "
		            "%s %lld), and a class type as a word such as fire (type:fire).",
		            type, level, name, cls, level);
	else if (has)
		reply_error(out,
		            "'%s' reads as a second level (the level is %lld already): give the "
		            "level once, alone, in the digits 0 to 9, and a class type as a word "
		            "such as fire (type:fire).",
		            type, level);
	else if (n > 0)
		reply_error(
		    out,
		    "'%s' reads as level %d, not a class type: a level is typed alone in the "
		    "digits 0 to 9 (/fungeon join %s %s %d), a class type is a word such as "
		    "fire (type:fire).",
		    type, n, name, cls, n);
	else
		reply_error(
		    out,
		    "'%s' reads as a level, not a class type: a level is a whole number from "
		    "%d to %d typed alone in the digits 0 to 9, a class type a word such as "
		    "fire (type:fire).",
		    type, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
}

/* Refuses a class type that reads as a number: a level in words or as an
 * ordinal (S8: "three" was taken as a type), in another script's digits,
 * or one mistyped ("2.5"). Returns 0, or -1 with an error. */
static int
type_no_level(struct invocation *inv, const char *name, const char *cls, const char *type,
              struct reply *out)
{
	int n;
	enum fungeon_level_form form = fungeon_level_typed(type, &n);

	if (form == FUNGEON_LEVEL_NONE)
		return 0;
	if (form == FUNGEON_LEVEL_ROMAN || form == FUNGEON_LEVEL_LABELLED)
		type_level_like(inv, name, cls, type, form, n, out);
	else if (form == FUNGEON_LEVEL_DIGITS && n > 0 && invocation_has(inv, "level"))
		reply_error(out,
		            "'%s' reads as a second level (the level is %lld already): give the "
		            "level once, and a class type as a word such as fire (type:fire).",
		            type, (long long)invocation_int(inv, "level", 0));
	else if (form == FUNGEON_LEVEL_DIGITS)
		reply_error(out,
		            "'%s' is no level (a level is a whole number from %d to %d) and no "
		            "class type (a word, such as fire).",
		            type, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
	else if (form == FUNGEON_LEVEL_OTHER_DIGITS)
		reply_error(
		    out,
		    "'%s' reads as a number, not a class type: a level is a whole number from "
		    "%d to %d in the digits 0 to 9, a class type a word such as fire "
		    "(type:fire).",
		    type, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
	else if (invocation_has(inv, "level"))
		reply_error(out,
		            "'%s' reads as a number, not a class type, and the level is %lld "
		            "already: a class type is a word such as fire (type:fire).",
		            type, (long long)invocation_int(inv, "level", 0));
	else if (n > 0)
		reply_error(out,
		            "'%s' reads as a level%s, not a class type: a level is a number "
		            "(/fungeon join %s %s %d), a class type a word such as fire "
		            "(type:fire).",
		            type, isdigit((unsigned char)type[0]) ? "" : " written in words", name,
		            cls, n);
	else
		reply_error(out,
		            "'%s' reads as a level written in words, not a class type: a level is "
		            "a number from %d to %d, a class type a word such as fire (type:fire).",
		            type, FUNGEON_LEVEL_MIN, FUNGEON_LEVEL_MAX);
	return -1;
}

/* Checks the name, class and class type of the invoker's Fungeoneer
 * joining (a new one, or its replacement). Returns 0, or -1 with an error
 * reply. */
static int
join_words(struct invocation *inv, const struct fungeon_channel *c, struct reply *out)
{
	const char *name = invocation_str(inv, "name"), *cls = invocation_str(inv, "class");
	const char *type = invocation_str(inv, "type");

	if (!cmd_fungeon_design_word(name, FUNGEON_NAME_CHARS,
	                             "a Fungeoneer's " CMD_FUNGEON_DESIGN_NAME_RULE, out))
		return -1;
	if (!cmd_fungeon_design_shows("A Fungeoneer's name", name, out) ||
	    !cmd_fungeon_design_name_free(name, out))
		return -1;
	if (!has_text(cls)) {
		reply_error(out,
		            "A Fungeoneer needs a class, any career at all (Warrior, Shadow Mage); "
		            "the class may not be empty.");
		return -1;
	}
	if (!cmd_fungeon_design_shows("A class", cls, out) ||
	    class_no_level(inv, name, cls, out) < 0)
		return -1;
	if (utf8_len(cls) > FUNGEON_CLASS_CHARS) {
		char quoted[4 * FUNGEON_CLASS_CHARS + 4];

		snprintf(quoted, sizeof(quoted), "%.*s…",
		         (int)utf8_cut_text(cls, strlen(cls),
		                            utf8_prefix(cls, strlen(cls), FUNGEON_CLASS_CHARS)),
		         cls);
		reply_error(out,
		            "'%s' is too long: a class is at most %d characters (Drazzorian "
		            "Puddle Thumper fits).",
		            quoted, FUNGEON_CLASS_CHARS);
		return -1;
	}
	if (class_words_no_level(inv, name, cls, out) < 0)
		return -1;
	if (type != NULL &&
	    !cmd_fungeon_design_word(type, FUNGEON_TYPE_CHARS, CMD_FUNGEON_DESIGN_TYPE_RULE, out))
		return -1;
	if (type != NULL && !cmd_fungeon_design_shows("A class type", type, out))
		return -1;
	if (type != NULL && type_no_level(inv, name, cls, type, out) < 0)
		return -1;
	if (fungeon_channel_name_used(c, name, inv->from->user_key, out))
		return -1;
	return 0;
}

/* Says so when member i's player chose a Thwack-O mark another die of
 * this party has already: their die keeps another here. */
static void
mark_taken_here(struct invocation *inv, const struct fungeon_channel *c, int i, struct reply *out)
{
	const struct thwacko_style *mine = user_style(inv->user);
	struct thwacko_style all[FUNGEON_PARTY_MAX];

	if (mine == NULL)
		return;
	fungeon_channel_styles(c, inv->state, all);
	if (strcmp(all[i].mark, mine->mark) == 0)
		return;
	reply_add(out, 0,
	          "Thwack-O mark %s is another player's in this party, so %s's die here is ",
	          mine->mark, c->m[i].player);
	reply_add_user(out, &all[i], RS_BOLD, "6");
	reply_add(out, 0, " (%s, mark %s; ", thwacko_style_colour_name(all[i].colour), all[i].mark);
	reply_cmd(out, 0, "thwacko style", NULL);
	reply_add(out, 0, " chooses another).");
	reply_nl(out);
}

/* Says so when m's player is called as a piece of the room is: where a
 * command takes either, that name is refused (fungeon_roll_part_resolve()),
 * so the line says what reaches each. */
static void
name_is_a_piece(const struct fungeon_channel *c, const struct fungeon_member *m, struct reply *out)
{
	for (int k = 0; k < FUNGEON_KIND_COUNT; k++) {
		const char *kind = fungeon_cost_kind_name((enum fungeon_kind)k);
		const struct fungeon_piece *s =
		    fungeon_room_find(&c->d.room, (enum fungeon_kind)k, m->player);

		if (s == NULL)
			continue;
		reply_line(out, 0,
		           "%s is also the name of the room's %s %s: where a command takes either, "
		           "say %s for your Fungeoneer; the %s's maker or the GM may rename it "
		           "(/fungeon %s rename %s NEW).",
		           m->player, kind, s->name, m->name, kind, kind, s->name);
		return;
	}
}

/* Refuses a player called as a Fungeoneer already is when that
 * Fungeoneer's other name, its player's, is a Fungeoneer's too: both its
 * names would then name two (fungeon_channel_name_clash()), and nobody,
 * the GM included, could reach it. */
static int
no_one_stranded(const struct fungeon_channel *c, const char *player, struct reply *out)
{
	int k, i = fungeon_channel_strands(c, -1, player, &k);

	if (i < 0)
		return 0;
	reply_error(out,
	            "You may not join under the name %s: it is %s's Fungeoneer's, whose other "
	            "name, %s, is %s's Fungeoneer's too, so no command could name %s's %s any "
	            "more; join under another nick, or once %s's %s has left the party.",
	            player, c->m[i].player, c->m[i].player, c->m[k].player, c->m[i].player,
	            c->m[i].name, c->m[i].player, c->m[i].name);
	return -1;
}

/* Says so when m's player is called as another's Fungeoneer is: a
 * command given that name then picks neither (fungeon_channel_name_clash()),
 * so the line says what reaches each. */
static void
name_is_a_fungeoneer(const struct fungeon_channel *c, const struct fungeon_member *m,
                     struct reply *out)
{
	int i = fungeon_channel_called(c, m->player, (int)(m - c->m));

	if (i >= 0)
		reply_line(out, 0,
		           "%s is also the name of %s's Fungeoneer: a command given it picks "
		           "neither, so say %s for that Fungeoneer and %s for yours.",
		           m->player, c->m[i].player, c->m[i].player, m->name);
}

/* Says that the word typed after m's class, where the level goes, became
 * its class type: the text's classes are of several words (line 16:
 * "Shadow Mage or Drazzorian Puddle Thumper"), so "join Shade Shadow Mage
 * 3" may mean one class (recheck F8). */
static void
type_routed(struct invocation *inv, const struct fungeon_member *m, struct reply *out)
{
	char level[24] = "";
	bool typed = level_typed(inv, level, sizeof(level));

	reply_add(out, 0,
	          " %s is taken as the class type, the damage the class bonus counts against; if "
	          "\"%s %s\" is one class, quote it (/fungeon join %s \"%s %s\"%s%s).",
	          m->ctype, m->cls, m->ctype, m->name, m->cls, m->ctype, typed ? " " : "", level);
}

/* At the entrance a join or leave moves the floor with Party Min. */
static void
entrance_follows(struct fungeon_channel *c, struct reply *out)
{
	struct fungeon_party p;

	fungeon_channel_party(c, &p);
	if (fungeon_dungeon_entrance_follows(&c->d, &p))
		reply_line(out, 0, "The entrance now opens on floor %d, the Party Min.",
		           c->d.floor);
}

void
cmd_fungeon_join(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *type = invocation_str(inv, "type");
	int me = fungeon_channel_member_of(c, inv->from->user_key), level;
	/* On the way back the new one joins in town, where the level is the
	 * player's to choose, as for one who falls there. */
	bool replacing = me >= 0 && c->m[me].dead,
	     in_dungeon = c->d.phase != FUNGEON_TOWN && c->d.phase != FUNGEON_RETREAT;
	bool after_death =
	    in_dungeon && (replacing || fungeon_channel_fallen(c, inv->from->user_key));
	/* A dungeon under way (past its entrance): whoever joins starts where
	 * a replacement does, however they come (line 53; line 18 wants a
	 * party to begin at one level, which only town and the entrance
	 * choose). */
	bool under_way = c->d.phase == FUNGEON_HALLWAY || c->d.phase == FUNGEON_ROOM;
	struct fungeon_party p;
	struct fungeon_member *m;
	bool other = false;

	if (me >= 0 && !replacing) {
		reply_error(out, "You already play %s here (one Fungeoneer per player); ",
		            c->m[me].name);
		reply_cmd(out, RS_BAD, "fungeon leave", NULL);
		reply_add(out, RS_BAD, " first.");
		return;
	}
	if (join_words(inv, c, out) < 0 ||
	    (me < 0 && no_one_stranded(c, inv->from->user_name, out) < 0))
		return;
	if (!replacing && c->n == FUNGEON_PARTY_MAX) {
		reply_error(out, "The party is full (%d Fungeoneers).", FUNGEON_PARTY_MAX);
		return;
	}
	fungeon_channel_party(c, &p);
	if (after_death || under_way) {
		level = fungeon_replacement_level(fungeon_channel_floor(c));
		/* one level is allowed: a different one typed is taken as that,
		 * and said (play-test 3, F8) */
		other = invocation_has(inv, "level") && invocation_int(inv, "level", 0) != level;
	} else {
		level = (int)invocation_int(inv, "level", p.n > 0 ? p.min : 1);
	}
	if (replacing) {
		fungeon_room_leave_items(&c->d.room, &c->m[me]); /* what death left, if any */
		m = &c->m[me];
		fungeon_member_free(m);
	} else {
		struct thwacko_style st;

		fungeon_channel_new_style(c, inv->state, inv->from->user_key, &st);
		m = fungeon_channel_member_add(c, &st);
	}
	fungeon_member_init(m, inv->from->user_key, inv->from->user_name,
	                    invocation_str(inv, "name"), invocation_str(inv, "class"), level);
	snprintf(m->ctype, sizeof(m->ctype), "%s", type != NULL ? type : "");
	/* Out until the next hallway: a replacement, and anyone joining a room
	 * under way. */
	m->fresh = after_death || c->d.phase == FUNGEON_ROOM || c->d.phase == FUNGEON_RETREAT;
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "%s", m->player);
	reply_add(out, 0, " %s ", replacing ? "makes a new Fungeoneer:" : "joins as");
	reply_add(out, RS_BOLD, "%s", m->name);
	reply_add(out, 0, ", level %d %s%s%s%s: %d hits, class bonus %d, %lld XP.", m->level,
	          m->cls, m->ctype[0] ? " (class type " : "", m->ctype, m->ctype[0] ? ")" : "",
	          m->hits, fungeon_class_bonus(m->level), (long long)m->xp);
	if (type != NULL && invocation_routed(inv, "type"))
		type_routed(inv, m, out);
	if (other)
		reply_add(out, 0,
		          after_death ? " Level %d is the only one after a death: floor %d - 1, at "
		                        "least 1, for the rest of this dungeon."
		                      : " Level %d is the only one for whoever joins a dungeon "
		                        "under way: floor %d - 1, at least 1, as a replacement.",
		          level, fungeon_channel_floor(c));
	if (m->fresh && c->d.phase == FUNGEON_RETREAT)
		reply_add(out, 0,
		          " %s joins the party when it reaches town (no hallway comes on the way "
		          "back).",
		          m->name);
	else if (m->fresh)
		reply_add(out, 0, " %s joins the party in the next hallway.", m->name);
	reply_nl(out);
	name_is_a_fungeoneer(c, m, out);
	name_is_a_piece(c, m, out);
	mark_taken_here(inv, c, (int)(m - c->m), out);
	entrance_follows(c, out);
}

/* "Monsters pass to al, the highest roller left, with 3 points left to
 * spend." for category k, whose holder just left. */
static void
holder_passed(const struct fungeon_channel *c, enum fungeon_category k, struct reply *out)
{
	static const char *const label[] = {"Traps", "Monsters", "Treasure"};
	int h = fungeon_room_holder(&c->d.room, k);
	int64_t left = fungeon_channel_budget(c, (enum fungeon_kind)k) -
	               fungeon_channel_spent(c, (enum fungeon_kind)k);

	if (h < 0)
		return;
	reply_add(out, 0, "%s pass%s to ", label[k], k == FUNGEON_CAT_TREASURE ? "es" : "");
	reply_add(out, RS_BOLD, "%s", c->m[h].player);
	reply_add(out, 0, ", the highest roller left");
	if (c->d.phase == FUNGEON_HALLWAY)
		reply_add(out, 0, ", with %lld point%s left to spend", (long long)left,
		          left == 1 ? "" : "s");
	reply_line(out, 0, ".");
}

/* Into b (initialised here), what member i leaves behind in the dungeon
 * when it leaves the party alive: "What Ala carried stays in room 1 for the
 * others to take: ring, c." and "al's wandering monster of 6 points, not
 * built yet, goes with Ala."; nothing in town or at the entrance, where it
 * takes what it carries. */
static void
what_stays(const struct fungeon_channel *c, int i, struct buf *b)
{
	const struct fungeon_member *m = &c->m[i];

	buf_init(b, 1024);
	if (c->d.phase == FUNGEON_TOWN || c->d.phase == FUNGEON_ENTRANCE || m->dead)
		return;
	for (int k = 0; k < m->nitems; k++) {
		if (k == 0 && c->d.phase == FUNGEON_HALLWAY)
			buf_addf(b,
			         "What %s carried lies in room %lld ahead, for the others to take "
			         "once they go in: ",
			         m->name, (long long)c->d.room.number);
		else if (k == 0)
			buf_addf(b, "What %s carried stays in room %lld for the others to take: ",
			         m->name, (long long)c->d.room.number);
		buf_addf(b, "%s%s", k > 0 ? ", " : "", m->items[k].name);
		if (k == 5 && m->nitems > 6) {
			buf_addf(b, " and %d more", m->nitems - 6);
			break;
		}
	}
	if (m->nitems > 0)
		buf_adds(b, ".");
	for (int k = 0; k < m->nwander; k++)
		buf_addf(b, "%s%s's wandering monster of %lld points, not built yet, goes with %s.",
		         b->len > 0 ? " " : "", m->player, (long long)m->wanderer[k], m->name);
}

void
cmd_fungeon_leave(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *who = invocation_str(inv, "who");
	int me = who != NULL ? fungeon_channel_need_member(c, who, out)
	                     : fungeon_channel_need_self(c, inv, out);
	char name[FUNGEON_NAME_MAX + 1], player[FUNGEON_PLAYER_MAX];
	bool held[FUNGEON_CAT_COUNT], own;
	struct buf stays;

	if (me < 0)
		return;
	own = strcmp(c->m[me].user_key, inv->from->user_key) == 0;
	if (!own && !inv->is_gm) {
		reply_error(out,
		            "%s is %s's Fungeoneer: only the GM takes another player's Fungeoneer "
		            "out of the party (for a player who is away).",
		            c->m[me].name, c->m[me].player);
		return;
	}
	snprintf(name, sizeof(name), "%s", c->m[me].name);
	snprintf(player, sizeof(player), "%s", c->m[me].player);
	what_stays(c, me, &stays);
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		held[k] = fungeon_room_holder(&c->d.room, (enum fungeon_category)k) == me;
	if (c->m[me].dead && c->d.phase != FUNGEON_TOWN)
		fungeon_channel_fallen_add(c, c->m[me].user_key);
	fungeon_room_leave_items(&c->d.room, &c->m[me]);
	fungeon_channel_orders_lapse(c, me);
	fungeon_channel_member_remove(c, me);
	if (c->n == 0) { /* the party is gone: so is its dungeon */
		fungeon_dungeon_town(&c->d);
		fungeon_channel_fallen_clear(c);
	}
	channel_touch(inv->chan);
	if (own)
		reply_line(out, 0, "%s leaves the party with %s.", inv->from->user_name, name);
	else
		reply_line(out, 0, "The GM takes %s's %s out of the party.", player, name);
	if (stays.len > 0)
		reply_line(out, 0, "%s", buf_str(&stays));
	buf_free(&stays);
	for (int k = 0; k < FUNGEON_CAT_COUNT; k++)
		if (held[k])
			holder_passed(c, (enum fungeon_category)k, out);
	entrance_follows(c, out);
}
