/* /wander: wandering-monster checks (corridor, rest, classic, tension) and
 * the back-to-town check (retreat). */
#include "commands/procedure/cmd_wander.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/core/registry_parse.h"
#include "commands/procedure/procedure_render.h"
#include "commands/dice/rollchan.h"
#include "commands/gm/gm_screen.h"
#include "commands/tables/tables_use.h"
#include "commands/tension/tension_state.h"
#include "rules/base/buf.h"
#include "rules/base/mem.h"

/* What exits:N takes: each check then holds it to its own range. */
#define EXITS_ASKED_MAX 999

/* The line that says what the check's die did. */
static void
check_roll(struct reply *out, const struct wander_check *w)
{
	reply_add(out, 0, "d%d: ", w->sides);
	reply_add(out, RS_BOLD | RS_HIGHLIGHT, "%d", w->roll);
	reply_add(out, 0, " → ");
	if (!w->encounter) {
		reply_add(out, RS_GOOD, "no wandering monsters");
		reply_add(out, 0, ".");
		reply_nl(out);
		return;
	}
	reply_add(out, RS_BOLD | RS_BAD, "wandering monsters!");
	reply_nl(out);
}

/* The encounter table's line: its roll (d10 + Tension, or the channel's own
 * table's die) and the entry, struck or with its dice rolled. */
static void
table_line(struct reply *out, const struct tension_pick *p, const char *table)
{
	char how[160];

	if (table[0] != '\0') {
		tables_use_pick_text(p, table, "encounter", how, sizeof(how));
		reply_add(out, 0, "From the %s: ", how);
	} else {
		reply_add(out, 0, "Encounter table: d10 + Tension = %d + %d = ", p->d10,
		          p->total - p->d10);
		reply_add(out, RS_BOLD, "%d", p->total);
		reply_add(out, 0, ": ");
	}
	if (p->struck) {
		reply_add(out, RS_STRUCK, "%s", p->text);
		reply_add(out, 0, " is struck, so no encounter (the dungeon's supply is finite).");
	} else {
		reply_add(out, RS_BOLD | RS_BAD, "%s", p->text);
		reply_add(out, 0, ".");
	}
	reply_nl(out);
}

/* What a check found besides its die: the channel's own table rolled
 * (rolled), or the creature whose sign was met (sign_turn >= 0). */
struct found {
	bool rolled;
	const char *table;
	int sign_turn;
	const char *sign;
};

/* The creature the check met: the sign's, or the table's entry. */
static void
found_text(struct reply *out, const struct wander_check *w, const struct found *f)
{
	if (f->sign_turn < 0) {
		table_line(out, &w->pick, f->table);
		return;
	}
	reply_add(out, RS_BOLD | RS_BAD, "They are");
	reply_add(out, 0, " the creature whose sign the party met on turn %d", f->sign_turn);
	if (f->sign[0] != '\0')
		reply_add(out, 0, ": %s.", f->sign);
	else
		reply_add(out, 0, " (the one the GM rolled for that sign).");
	reply_nl(out);
}

/* What the check found. While Tension is hidden what comes (the sign's
 * creature, the channel's encounter table's entry, struck or not, or
 * nothing named) is behind the GM's screen, whoever checks: the channel
 * reads the same lines whatever it is (monsters come whenever the die says
 * so), and the GM alone what it is (the tension check's whole reply is the
 * GM's already). */
static void
found_lines(struct invocation *inv, struct reply *out, const struct wander_check *w,
            const struct found *f)
{
	if (!tension_state_hidden(inv->chan) || w->proc == WANDER_TENSION) {
		if (f->sign_turn >= 0 || f->rolled)
			found_text(out, w, f);
		return;
	}
	if (!w->encounter && !f->rolled)
		return;
	reply_line(out, RS_ITALIC, "What they are stays behind the GM's screen.");
	/* Meeting a sign's creature forgets it (a change, an undo step) and
	 * meeting anything else changes nothing: the check leaves a step
	 * either way, named as made behind the screen (inv->screened). */
	inv->screened = true;
	if (!gm_screen_aside(inv, out, "what your wandering check put behind the GM's screen"))
		return;
	if (f->sign_turn >= 0 || f->rolled)
		found_text(out, w, f);
	else
		reply_line(out, 0,
		           "Behind the screen: no sign's creature is remembered and the channel "
		           "has no encounter table of its own, so you say what comes.");
	reply_to(out, REPLY_CHANNEL);
}

/* The check's heading, then its lines; with compact output the heading
 * opens the die's line (commands/dice/rollchan.h: rollchan_heading()). */
static void
show_check(struct invocation *inv, struct reply *out, const struct wander_check *w,
           struct odds chance, int tension, const struct found *f)
{
	const struct channel *ch = inv->chan;
	/* What the check found is an encounter unless the channel reads that
	 * its table's entry is struck (behind the GM's screen it reads the
	 * same either way). */
	bool struck = f->sign_turn < 0 && f->rolled && w->pick.struck &&
	              (!tension_state_hidden(ch) || w->proc == WANDER_TENSION);
	/* the resting check's party rests: only darkness surprises it */
	int surprise =
	    struck ? TURN_NOT_SURPRISED : procedure_state_surprise(ch, w->proc == WANDER_REST);

	switch (w->proc) {
	case WANDER_CORRIDOR:
		rollchan_heading(ch, out, "Wandering check: corridor leg (1-in-6)");
		check_roll(out, w);
		if (w->encounter)
			reply_line(out, 0, "They appear at the far end of the corridor leg.");
		break;
	case WANDER_REST:
		rollchan_heading(ch, out, "Wandering check: resting (1-in-6)");
		check_roll(out, w);
		if (w->encounter) {
			reply_add(out, 0, "They enter through exit ");
			reply_add(out, RS_BOLD, "%d", w->entry);
			reply_add(out, 0,
			          " of %d (d%d); if that way is blocked, they may have trouble "
			          "getting in.",
			          w->exits, w->exits);
			reply_nl(out);
		}
		break;
	case WANDER_CLASSIC:
		rollchan_heading(ch, out, "Wandering check: classic (%d-in-%d)", chance.x,
		                 chance.n);
		check_roll(out, w);
		break;
	case WANDER_TENSION:
		rollchan_heading(ch, out,
		                 "Wandering check: D12 encounter check (exits %d, Tension %d)",
		                 w->exits, tension);
		check_roll(out, w);
		procedure_render_d12_check(out, &w->d12);
		reply_add(out, 0, ".");
		reply_nl(out);
		break;
	default:
		break;
	}
	found_lines(inv, out, w, f);
	if (w->encounter && surprise != TURN_NOT_SURPRISED) {
		procedure_render_surprised(out, surprise);
		reply_add(out, 0, ".");
		reply_nl(out);
	} else if (w->encounter && !struck) {
		procedure_render_rest_pace(out, procedure_state_of(inv->chan),
		                           w->proc == WANDER_REST);
	}
	if (w->encounter)
		reply_button(out, "Surprise check", "surprise");
}

/* Refuses the chance option (its text v, NULL: not given) for a check
 * other than classic, which alone takes odds. Returns 0, or -1 with an
 * error reply. */
static int
chance_refused(struct invocation *inv, int proc, const char *v, struct reply *out)
{
	if (v == NULL || proc == WANDER_CLASSIC)
		return 0;
	/* A number given as chance: for the tension check, a Tension. */
	if (proc == WANDER_TENSION && registry_parse_number(v) && !invocation_has(inv, "tension"))
		reply_error(out,
		            "Chance is for the classic check only; the tension check has fixed "
		            "odds (for a Tension of %s, write tension:%s).",
		            v, v);
	else
		reply_error(out,
		            "Chance is for the classic check only; the %s check has fixed odds.",
		            wander_name(proc));
	return -1;
}

/* A check's numbers as it reads them (check_numbers). */
struct check_numbers {
	bool has_exits, has_tension, has_chance;
	int exits, tension;
	struct odds chance;
	/* chance as given, unless a number counted as typed; NULL: none */
	const char *chance_text;
};

/* The refusal of the numbers typed by position (n of typed) that check
 * proc has no place for: what the check takes, and every number it was
 * given, by name or not; for a check that takes none, the checks that
 * would take the first as it is. */
static void
numbers_refused(struct invocation *inv, int proc, const long long *typed, size_t n,
                struct reply *out)
{
	static const char *const takes[WANDER_COUNT] = {
	    [WANDER_REST] = "one number, the room's exits",
	    [WANDER_CLASSIC] = "its odds as X-in-N (2-in-6, 2 in 6 or 2 6) or X alone for "
	                       "X-in-6",
	    [WANDER_TENSION] = "two numbers, the room's exits and then a Tension",
	};
	static const char *const names[] = {"exits", "chance", "tension"};
	char item[6][40], first[16];
	size_t k = 0;
	struct buf got;

	for (size_t i = 0; i < 3; i++) {
		if (!invocation_named(inv, names[i]))
			continue;
		if (i == 1)
			snprintf(item[k++], sizeof(item[0]), "chance:%.16s",
			         invocation_str(inv, "chance"));
		else
			snprintf(item[k++], sizeof(item[0]), "%s:%lld", names[i],
			         (long long)invocation_int(inv, names[i], 0));
	}
	for (size_t i = 0; i < n && k < 6; i++)
		snprintf(item[k++], sizeof(item[0]), "%lld", typed[i]);
	buf_init(&got, 300);
	for (size_t i = 0; i < k; i++)
		buf_addf(&got, "%s%s", reply_list_sep(i, k, " and "), item[i]);
	snprintf(first, sizeof(first), "%lld", typed[0]);
	if (proc == WANDER_CORRIDOR || takes[proc] == NULL) {
		bool exits = typed[0] >= 1 && typed[0] <= WANDER_EXITS_MAX,
		     odds = typed[0] >= 1 && typed[0] <= 6;

		reply_error(out, "The %s check takes no number: its odds are 1 in 6 (got %s)",
		            wander_name(proc), buf_str(&got));
		if (exits) {
			reply_add(out, RS_BAD, "; a room's exits are for ");
			reply_cmd(out, RS_BAD, "wander check", "procedure", "rest", "exits", first,
			          NULL);
		}
		if (odds) {
			reply_add(out, RS_BAD, ", odds of %s in 6 for ", first);
			reply_cmd(out, RS_BAD, "wander check", "procedure", "classic", "chance",
			          first, NULL);
		}
		reply_add(out, RS_BAD, ".");
	} else if (proc == WANDER_CLASSIC && invocation_has(inv, "chance")) {
		/* the odds were given, in a form it takes: what has no place
		 * is the numbers after them (F14) */
		const char *ch = invocation_str(inv, "chance");
		bool named = invocation_named(inv, "chance");

		buf_reset(&got);
		for (size_t i = 0; i < n && i < 6; i++)
			buf_addf(&got, "%s%lld", reply_list_sep(i, n < 6 ? n : 6, " and "),
			         typed[i]);
		reply_error(out,
		            "The classic check takes its odds and no other number: %s%.16s gives "
		            "them, and %s %s no place",
		            named ? "chance:" : "", ch, buf_str(&got), n > 1 ? "have" : "has");
		/* "chance:2 3" may be odds of 2 in 3, which by name are one word */
		if (named && n == 1 && registry_parse_number(ch))
			reply_add(out, RS_BAD, " (odds of %s in %lld are chance:%s-in-%lld)", ch,
			          typed[0], ch, typed[0]);
		reply_add(out, RS_BAD, ".");
	} else {
		reply_error(out, "The %s check takes %s (got %s).", wander_name(proc), takes[proc],
		            buf_str(&got));
	}
	buf_free(&got);
}

/*
 * Reads exits, chance and tension for check proc into *c. The registry
 * gave each value typed by position to what the check takes (struct
 * cmd_opt's when, under the check named or the channel's default:
 * registry_parse_applies()), and a
 * number it had no place for to the next option left: such a number is
 * refused with every number typed, those the check took first (they came
 * first). A value given by name stays where it was put, for the checks
 * below to refuse where it does not belong. Returns 0, or -1 with an error
 * reply.
 */
static int
check_numbers(struct invocation *inv, int proc, struct check_numbers *c, struct reply *out)
{
	static const char *const names[] = {"exits", "chance", "tension"};
	const char *ch = invocation_str(inv, "chance");
	long long typed[3];
	size_t n = 0;
	bool takes[3], left = false;

	for (size_t i = 0; i < 3; i++)
		takes[i] = registry_parse_applies(
		    inv, registry_opt_index(inv->cmd, names[i], strlen(names[i])));
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < 3; i++) {
			const char *v = invocation_str(inv, names[i]);

			/* a number typed as chance counts where odds do not */
			if (takes[i] != (pass == 0) || v == NULL ||
			    invocation_named(inv, names[i]) ||
			    (i == 1 && (takes[i] || !registry_parse_number(v))))
				continue;
			typed[n++] = strtoll(v, NULL, 10);
			left = left || !takes[i];
			if (i == 1)
				ch = NULL;
		}
	if (left) {
		numbers_refused(inv, proc, typed, n, out);
		return -1;
	}
	c->has_exits = invocation_has(inv, "exits");
	c->exits = (int)invocation_int(inv, "exits", 1);
	c->has_tension = invocation_has(inv, "tension");
	c->tension = (int)invocation_int(inv, "tension", tension_state_value(inv->chan));
	c->chance_text = ch;
	c->has_chance = proc == WANDER_CLASSIC && invocation_odds(inv, "chance", &c->chance);
	return 0;
}

static void
wander_check_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	const char *pname = invocation_str(inv, "procedure");
	int proc = pname != NULL ? wander_parse(pname) : (int)s->wander;
	struct check_numbers c;
	int exits, tension;
	bool hidden = proc == WANDER_TENSION && tension_state_hidden(inv->chan);
	struct odds chance = s->wander_chance;
	struct wander_check w;
	struct roll_table *encounters;
	struct tables_lookup tl;
	char own[ROLL_TABLE_NAME_MAX], met[TURN_SIGN_MAX];
	struct found f = {.table = own, .sign_turn = -1, .sign = met};
	bool has_own, sign;

	if (check_numbers(inv, proc, &c, out) < 0 ||
	    chance_refused(inv, proc, c.chance_text, out) < 0)
		return;
	if (c.has_chance)
		chance = c.chance;
	exits = c.exits;
	tension = c.tension;
	if (c.has_exits && proc != WANDER_REST && proc != WANDER_TENSION) {
		if (proc == WANDER_CLASSIC && !c.has_chance)
			reply_error(
			    out,
			    "Exits count for the rest and tension checks only, not classic (for "
			    "classic odds of %d in 6, write chance:%d).",
			    exits, exits);
		else
			reply_error(out,
			            "Exits count for the rest and tension checks only, not %s.",
			            wander_name(proc));
		return;
	}
	/* The range is the check's: the option allows either's. */
	if (proc == WANDER_REST && (exits < 1 || exits > WANDER_EXITS_MAX)) {
		reply_error(out,
		            "A resting check needs a way in for the monsters: exits must be from 1 "
		            "to %d (got %d).",
		            WANDER_EXITS_MAX, exits);
		return;
	}
	if (proc == WANDER_TENSION && exits > WANDER_EXITS_MAX) {
		reply_error(out,
		            "A tension check takes exits from 0 (a sealed room) to %d (got %d).",
		            WANDER_EXITS_MAX, exits);
		return;
	}
	if (c.has_tension && proc != WANDER_TENSION) {
		reply_error(out, "The tension option is for the tension check only, not %s.",
		            wander_name(proc));
		return;
	}
	if (hidden && !inv->is_gm) {
		reply_error(out,
		            "Tension is behind the GM's screen here, so only the GM makes the "
		            "tension check; corridor, rest and classic checks are open to all.");
		return;
	}
	if (s->safe) {
		reply_add(out, RS_GOOD, "No wandering monsters: the party is in a safe area (");
		procedure_render_safe_exit(out, RS_GOOD, s);
		reply_line(out, RS_GOOD, ").");
		return;
	}
	if (hidden)
		invocation_screen(inv, out, RS_ITALIC,
		                  "The GM makes a wandering check (tension) behind the screen.");
	/* The monsters that come are the creature a Sign announced, else
	 * the channel's own encounter table's (by its die; the tension check
	 * reads a table of 1-20 with d10 + Tension), else, for the tension
	 * check, Tension's table. */
	encounters = xmalloc(sizeof(*encounters));
	tables_lookup_init(&tl, inv->chan);
	has_own = tables_use_kind(inv->chan, "encounter", encounters, own);
	sign = s->clock.sign_set;
	if (!has_own)
		tension_state_table(inv->chan, TENSION_TABLE_ENCOUNTER, encounters);
	if (proc == WANDER_CORRIDOR)
		wander_corridor(inv->rng, &w);
	else if (proc == WANDER_REST)
		wander_rest(inv->rng, exits, &w);
	else if (proc == WANDER_CLASSIC)
		wander_classic(inv->rng, chance, &w);
	else
		wander_tension(inv->rng, exits, tension, sign ? NULL : encounters, &tl.lk, &w);
	f.rolled = proc == WANDER_TENSION && w.d12.encounter && !sign;
	if (w.encounter && sign) {
		turn_sign_meet(&s->clock, met, &f.sign_turn);
		channel_touch(inv->chan);
	} else if (w.encounter && proc != WANDER_TENSION && has_own) {
		tension_pick(inv->rng, encounters, 0, &tl.lk, &w.pick);
		/* Behind the screen the die's word stands: a struck entry
		 * said aloud would tell what the GM struck. */
		if (!tension_state_hidden(inv->chan))
			w.encounter = !w.pick.struck;
		f.rolled = true;
	}
	show_check(inv, out, &w, chance, tension, &f);
	tables_lookup_clear(&tl);
	free(encounters);
}

static void
dice_text(const int *d, int n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && off < len; i++) {
		int r = snprintf(buf + off, len - off, "%s%d", i ? " " : "", d[i]);

		if (r < 0)
			break;
		off += (size_t)r;
	}
}

static void
wander_retreat_fn(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"player", "dice", "result"};
	struct retreat_player p[RETREAT_PLAYERS_MAX];
	struct retreat_obstacle o;
	int floor = (int)invocation_int(inv, "floor", 1), failures = 0;
	char err[200], dice[RETREAT_DICE_MAX * 3 + 16];
	int n = wander_retreat_parse(invocation_str(inv, "players"), p, err, sizeof(err));

	if (n < 0) {
		reply_error(out, "%s", err);
		return;
	}
	wander_retreat_obstacle_roll(inv->rng, floor, &o);
	dice_text(o.dice, o.floor, dice, sizeof(dice));
	reply_title(out, "Back to town: floor %d, before re-entering the room", floor);
	reply_add(out, 0, "The floor's %d Annoy %s: %s, highest ", floor,
	          floor == 1 ? "die" : "dice", dice);
	reply_add(out, RS_BOLD, "%d", o.high);
	reply_add(out, 0, ".");
	reply_nl(out);
	reply_table(out, 3, hdr);
	for (int i = 0; i < n; i++) {
		struct wander_retreat_roll r;
		char res[80];
		const char *cells[3] = {p[i].name, dice, res};

		wander_retreat_roll(inv->rng, &o, &p[i], &r);
		dice_text(r.dice, r.ndice, dice, sizeof(dice));
		snprintf(dice + strlen(dice), sizeof(dice) - strlen(dice), " (%d)", r.high);
		if (r.failed)
			snprintf(res, sizeof(res), "fails: %d points for a wandering monster",
			         r.points);
		else
			snprintf(res, sizeof(res), "avoids it");
		failures += r.failed;
		reply_row(out, false, cells);
	}
	reply_add(out, RS_BOLD, "%d", failures);
	reply_add(out, 0,
	          " of %d %s: each failing player builds a wandering monster with level + "
	          "floor points. With a Fungeon party, ",
	          n, failures == 1 ? "fails" : "fail");
	reply_cmd(out, 0, "fungeon retreat", NULL);
	reply_add(out, 0, " uses its levels, class bonuses, magic and Thwack-O dice.");
	reply_nl(out);
}

static void
wander_default_fn(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	int proc = wander_parse(invocation_str(inv, "procedure"));
	struct odds chance = s->wander_chance;

	if (chance_refused(inv, proc, invocation_str(inv, "chance"), out) < 0)
		return;
	(void)invocation_odds(inv, "chance", &chance);
	s->wander = proc;
	s->wander_chance = chance;
	channel_touch(inv->chan);
	reply_cmd(out, 0, "wander check", NULL);
	reply_add(out, 0, " now runs the ");
	reply_add(out, RS_BOLD, "%s", wander_name(proc));
	if (proc == WANDER_CLASSIC)
		reply_add(out, 0, " check (%d-in-%d)", chance.x, chance.n);
	else
		reply_add(out, 0, " check");
	reply_add(out, 0, " here by default.");
	reply_nl(out);
}

static const char *const check_choices[] = {"corridor", "rest", "classic", "tension", NULL};

/* The check /wander runs in ch when none is named. */
static const char *
check_default(const struct channel *ch)
{
	return wander_name(procedure_state_wander(ch));
}

/* The checks that take each option typed by position. */
static const char *const exits_when[] = {"rest", "tension", NULL};
static const char *const chance_when[] = {"classic", NULL};
static const char *const tension_when[] = {"tension", NULL};
/* The exits each check holds exits:N to (wander_check_fn). */
static const struct opt_range exits_ranges[] = {
    {"rest", 1, WANDER_EXITS_MAX},
    {"tension", 0, WANDER_EXITS_MAX},
    {0},
};

static const struct cmd_opt check_opts[] = {
    {.name = "procedure",
     .desc = "corridor, rest, classic or tension (default: the channel's)",
     .type = OPT_STRING,
     .choices = check_choices,
     .channel_default = check_default},
    {.name = "exits",
     .desc = "The room's exits (rest 1-20, tension 0-20; default 1)",
     .type = OPT_INT,
     .min = 0,
     .max = EXITS_ASKED_MAX,
     .when = exits_when,
     .ranges = exits_ranges},
    {.name = "chance",
     .desc = "Classic odds X-in-N, e.g. 2-in-6",
     .type = OPT_STRING,
     .flags = OPT_ODDS | OPT_BLANK_NONE,
     .max = 16,
     .when = chance_when},
    {.name = "tension",
     .desc = "Use this Tension (1-10) instead of the channel's",
     .type = OPT_INT,
     .min = 1,
     .max = 10,
     .when = tension_when},
    {0},
};

static const struct cmd_opt retreat_opts[] = {
    {.name = "floor",
     .desc = "The dungeon floor (1-20): the Annoy dice against each player",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = 1,
     .max = RETREAT_FLOOR_MAX},
    {.name = "players",
     .desc = "Players as name:level, +N for extra dice: alice:2 bob:3+1",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED | OPT_REST,
     .max = 600},
    {0},
};

static const struct cmd_opt default_opts[] = {
    {.name = "procedure",
     .desc = "corridor, rest, classic or tension",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = check_choices},
    {.name = "chance",
     .desc = "Classic odds X-in-N, e.g. 2-in-6",
     .type = OPT_STRING,
     .flags = OPT_ODDS | OPT_BLANK_NONE,
     .max = 16},
    {0},
};

static const struct command wander_subs[] = {
    {.name = "check",
     .desc = "Check for wandering monsters",
     .help = "corridor: on entering a corridor leg, 1-in-6; they appear at its far end. rest: "
             "each turn resting, 1-in-6; they come through one of the room's exits (exits:N, "
             "the bot picks 1..N). classic: X-in-N per turn (default 1-in-6). tension: the D12 "
             "encounter check, d12 <= exits (0 for a sealed room, where only Tension counts) or "
             "<= the channel's Tension (tension:N uses another), then d10 + Tension on the "
             "channel's encounter table; a struck entry means no encounter. When Tension is "
             "hidden, only the GM makes this check and "
             "sees it. Monsters that come are the creature a Sign announced (which is then "
             "forgotten), else a roll on the channel's own table encounter (encounter-N on "
             "level N, {/turn level}) by its die (the tension check reads a table of 1-20 "
             "with d10 + Tension); while Tension is hidden, the channel reads that "
             "monsters come whenever the die says so, and what they are (the sign's "
             "creature, or that roll, struck or not) goes to the GM alone. Numbers typed "
             "without names go to what the check takes: rest its exits, classic X then N "
             "(classic 2 is 2-in-6), tension its exits, then a Tension.",
     .opts = check_opts,
     .fn = wander_check_fn},
    {.name = "retreat",
     .desc = "Back-to-town check per player (Fungeon): floor 2, players alice:2 bob:3",
     .help = "{/wander retreat floor=2 players=\"alice:2 bob:3\"}: retracing steps, before "
             "re-entering each room every player makes an Annoy roll "
             "against as many dice as the floor; each failure gives that player level + floor "
             "points to build a wandering monster. This is the plain version for players "
             "given by name; {/fungeon retreat} does it for a Fungeon party. Rulings: the "
             "floor's dice are rolled once for every player (as in {/fungeon retreat}), the "
             "dice are d6, the highest die counts, a tie avoids it, +N adds extra dice "
             "(class bonus, magic); no Thwack-O die.",
     .opts = retreat_opts,
     .fn = wander_retreat_fn},
    {.name = "default",
     .desc = "Choose the channel's default check",
     .role = ROLE_GM,
     .opts = default_opts,
     .fn = wander_default_fn},
    {0},
};

const struct command cmd_wander = {
    .name = "wander",
    .desc = "Wandering-monster checks: corridor, rest, classic, tension, retreat",
    .help = "Safe areas (level 0 and vendor rooms, {/safe on}) have no wandering monsters: the "
            "checks there say so without rolling.",
    .subs = wander_subs,
    .default_sub = "check",
};
