/* /light: the party's light sources. */
#include "commands/procedure/cmd_light.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "commands/procedure/cmd_turn.h"
#include "commands/procedure/procedure_render.h"
#include "commands/dice/rollchan.h"
#include "rules/base/num.h"

static void
light_list_cmd(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);

	if (s->clock.lights.n == 0) {
		procedure_render_darkness(out, s->proc);
		return;
	}
	reply_title(out, "Lit sources (%s procedure)", hazard_procedure_name(s->proc));
	cmd_turn_lights_table(out, s);
	procedure_render_dim_line(out, s);
}

/*
 * Whether the carrier of a light added, typed by position where no count
 * was, is a count written in words ("/light add torch two" lit one torch
 * carried by "two", recheck9 F1); then refuses it (in out), as /fungeon
 * join refuses a level in words where the class type goes. A carrier of
 * that name is given by name (who:two), quoted ("two", as a name is
 * elsewhere) or after a count.
 */
static bool
count_in_words(struct invocation *inv, int kind, const char *who, struct reply *out)
{
	int n = who != NULL ? num_word(who, false) : -1;
	char count[8];

	if (n < 1 || n > LIGHT_MAX || invocation_named(inv, "who") ||
	    invocation_quoted(inv, "who") || invocation_has(inv, "count"))
		return false;
	snprintf(count, sizeof(count), "%d", n);
	reply_error(out,
	            "'%s' reads as a count written in words, not who carries it: a count is a "
	            "number (",
	            who);
	reply_cmd(out, RS_BAD, "light add", "kind", light_kind_name(kind), "count", count, NULL);
	reply_add(out, RS_BAD, "), a carrier a name (who:%s).", who);
	return true;
}

static void
light_add_cmd(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	int kind = light_kind_parse(invocation_str(inv, "kind"));
	int count = (int)invocation_int(inv, "count", 1), life = light_life(kind, s->proc);
	const char *who = invocation_str(inv, "who");
	char err[200];

	if (count_in_words(inv, kind, who, out))
		return;
	if (light_add(&s->clock.lights, kind, count, who, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		return;
	}
	turn_flag_clear(&s->clock);
	channel_touch(inv->chan);
	rollchan_dark_forget(inv->chan);
	reply_add(out, 0, "Lit ");
	reply_add(out, RS_BOLD, "%d", count);
	reply_add(out, 0, " %s%s", light_kind_name(kind),
	          count > 1 ? (kind == LIGHT_TORCH ? "es" : "s") : "");
	if (who != NULL)
		reply_add(out, 0, " carried by %s", who);
	if (life > 0) {
		reply_add(out, 0, "; %s lasts ", count > 1 ? "each" : "it");
		reply_add(out, RS_BOLD, "%d", life);
		reply_add(out, 0, " turns.");
	} else {
		reply_add(out, 0, "; torches last until a Burn result.");
	}
	reply_nl(out);
	cmd_turn_lights_table(out, s);
}

static void
light_out_cmd(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	size_t idx[LIGHT_MAX];
	char err[200];
	int n = light_select(&s->clock.lights, invocation_str(inv, "which"), idx, err, sizeof(err));

	if (n < 0) {
		reply_error(out, "%s", err);
		return;
	}
	for (int i = 0; i < n; i++) {
		char name[100];

		procedure_render_light_name(&s->clock.lights.l[idx[i]], true, name, sizeof(name));
		reply_line(out, 0, "%s is put out.", name);
	}
	for (int i = n - 1; i >= 0; i--)
		light_remove(&s->clock.lights, idx[i]);
	turn_flag_clear(&s->clock);
	channel_touch(inv->chan);
	if (s->clock.lights.n == 0)
		light_list_cmd(inv, out);
}

static void
light_flicker_cmd(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	struct light l;
	char name[100];
	enum turn_light_result was = turn_flicker(&s->clock, &l);

	if (was == TURN_LIGHT_FLICKERED) {
		char id[16];
		int left = light_left(&l, s->proc);

		snprintf(id, sizeof(id), "%d", l.id);
		procedure_render_light_name(&l, true, name, sizeof(name));
		reply_add(out, 0,
		          "%s was just lit, so this turn's Light result already only made it "
		          "flicker: it keeps burning with ",
		          name);
		reply_add(out, RS_BOLD, "%d", left);
		reply_add(out, 0,
		          " %s left; the GM may still put it out: ", left == 1 ? "turn" : "turns");
		reply_cmd(out, 0, "light out", "which", id, NULL);
		reply_add(out, 0, ".");
		reply_nl(out);
		return;
	}
	if (was == TURN_LIGHT_RULED) {
		procedure_render_light_name(&l, true, name, sizeof(name));
		reply_add(out, 0,
		          "The GM already ruled this turn's Light result only a flicker: %s keeps "
		          "burning with ",
		          name);
		reply_add(out, RS_BOLD, "%d", light_left(&l, s->proc));
		reply_add(out, 0, " %s left, and nothing changes.",
		          light_left(&l, s->proc) == 1 ? "turn" : "turns");
		reply_nl(out);
		return;
	}
	if (was == TURN_LIGHT_NONE) {
		reply_error(out, "There is no Light result this turn to rule a flicker (or the "
		                 "lights changed since); ");
		reply_cmd(out, RS_BAD, "light add", NULL);
		reply_add(out, RS_BAD, " or ");
		reply_cmd(out, RS_BAD, "light refill", NULL);
		reply_add(out, RS_BAD, " instead.");
		return;
	}
	channel_touch(inv->chan);
	rollchan_dark_forget(inv->chan);
	procedure_render_light_name(&l, true, name, sizeof(name));
	reply_add(out, 0, "%s only flickers: it keeps burning with ", name);
	reply_add(out, RS_BOLD, "%d", light_left(&l, s->proc));
	reply_add(out, 0, " turns left.");
	reply_nl(out);
}

void
cmd_light_fails(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	struct turn_report rep;

	turn_report_init(&rep);
	turn_light_fails(&s->clock, s->proc, s->lantern_low, &rep);
	channel_touch(inv->chan);
	procedure_render_report(out, &rep, s, false, false);
	if (rep.n > 0 && rep.ev[0].kind == TE_FLAG_OUT && s->clock.lights.n == 0)
		procedure_render_darkness(out, s->proc);
}

static void
light_fail_cmd(struct invocation *inv, struct reply *out)
{
	cmd_light_fails(inv, out);
}

static void
light_refill_cmd(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);
	const char *which = invocation_str(inv, "which");
	size_t idx[LIGHT_MAX];
	char err[200], name[100];
	int n = light_select(&s->clock.lights, which, idx, err, sizeof(err));

	/* A lantern that burned out is no longer lit, so not listed: a new
	 * flask lights it again. */
	if (n < 0 && (isdigit((unsigned char)which[which[0] == '#']) ||
	              light_kind_parse(which) == LIGHT_LANTERN)) {
		if (light_kind_parse(which) == LIGHT_LANTERN)
			reply_error(out, "No lantern is lit (a lantern that burned out leaves ");
		else
			reply_error(out,
			            "No lit lantern is numbered '%.20s' (a lantern that burned out "
			            "leaves ",
			            which);
		reply_cmd(out, RS_BAD, "light list", NULL);
		reply_add(out, RS_BAD, "); ");
		reply_cmd(out, RS_BAD, "light add", "kind", "lantern", NULL);
		reply_add(out, RS_BAD, " lights one again with a fresh flask.");
		return;
	}
	if (n < 0) {
		reply_error(out, "%s", err);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (s->clock.lights.l[idx[i]].kind != LIGHT_LANTERN) {
			procedure_render_light_name(&s->clock.lights.l[idx[i]], true, name,
			                            sizeof(name));
			reply_error(out,
			            "%s is not a lantern; only lanterns take a new flask of oil.",
			            name);
			return;
		}
	}
	for (int i = 0; i < n; i++) {
		struct light *l = &s->clock.lights.l[idx[i]];

		l->burned = 0;
		procedure_render_light_name(l, true, name, sizeof(name));
		reply_add(out, 0, "%s has a new flask: ", name);
		reply_add(out, RS_BOLD, "%d", light_left(l, s->proc));
		reply_add(out, 0, " turns.");
		reply_nl(out);
	}
	turn_flag_clear(&s->clock);
	channel_touch(inv->chan);
}

static void
light_low_cmd(struct invocation *inv, struct reply *out)
{
	struct procedure_state *s = procedure_state_of(inv->chan);

	s->lantern_low = (int)invocation_int(inv, "turns", LIGHT_LOW_DEFAULT);
	channel_touch(inv->chan);
	reply_add(out, 0, "A Light result now leaves a lantern at most ");
	reply_add(out, RS_BOLD, "%d", s->lantern_low);
	reply_add(out, 0, " %s of oil.", s->lantern_low == 1 ? "turn" : "turns");
	reply_nl(out);
}

static const char *const kind_choices[] = {"torch", "lantern", "candle", NULL};

static const struct cmd_opt add_opts[] = {
    {.name = "kind",
     .desc = "torch, lantern or candle",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .choices = kind_choices},
    {.name = "count", .desc = "How many (1-20)", .type = OPT_INT, .min = 1, .max = LIGHT_MAX},
    {.name = "who", .desc = "Who carries it", .type = OPT_USER, .flags = OPT_BLANK_NONE},
    {0},
};

static const struct cmd_opt which_opts[] = {
    {.name = "which",
     .desc = "A number from /light list, torch, lantern, candle or all",
     .type = OPT_STRING,
     .flags = OPT_REQUIRED,
     .max = 20},
    {0},
};

static const struct cmd_opt low_opts[] = {
    {.name = "turns",
     .desc = "Turns of oil a Light result leaves a lantern (1-48, default 6)",
     .type = OPT_INT,
     .flags = OPT_REQUIRED,
     .min = 1,
     .max = LIGHT_LOW_MAX},
    {0},
};

static const struct command light_subs[] = {
    {.name = "list",
     .desc = "The lit sources and their turns left",
     .fn = light_list_cmd,
     .read_only = true},
    {.name = "add",
     .desc = "Light sources: torch, lantern or candle",
     .opts = add_opts,
     .fn = light_add_cmd},
    {.name = "out",
     .desc = "Put out a source, a kind (all torches) or all",
     .help = "Running blows candles out by itself: {/turn move pace=running}.",
     .opts = which_opts,
     .fn = light_out_cmd},
    {.name = "flicker",
     .desc = "Rule this turn's Light result only a flicker",
     .help = "A Light result (a torch sputters out, or lantern oil runs low) is pressure, "
             "not a straitjacket: until the next turn the GM may rule it only flickered, "
             "and the source is as it was. Rulings: it falls on the oldest lit source; one "
             "lit just before the turn only flickers ominously already (this says so; "
             "{/light out} still puts it out); a torch or candle goes out; a lantern's oil runs "
             "low to at most 6 turns "
             "(an hour) left, which the GM changes with {/light low}.",
     .role = ROLE_GM,
     .fn = light_flicker_cmd},
    {.name = "fail",
     .desc = "A non-magical light source fails, as a Light result",
     .help = "What a tension roll's dungeon event 6 does (text 001: a non-magical light "
             "source fails), and the hazard die's Light result: the oldest lit source "
             "sputters out (a lantern's oil runs low; one lit this turn only flickers). "
             "Behind the screen a tension roll leaves it to the GM, who gives it with this "
             "when the players are told. {/light flicker} undoes it until the next turn.",
     .role = ROLE_GM,
     .fn = light_fail_cmd},
    {.name = "low",
     .desc = "How many turns of oil a Light result leaves a lantern (default 6)",
     .help = "Ruling: lantern oil that runs low keeps at most this many turns (1 to 48; "
             "default 6, an hour, a torch's life); a lantern with less keeps what it has. "
             "{/light refill} gives it a new flask.",
     .role = ROLE_GM,
     .opts = low_opts,
     .fn = light_low_cmd},
    {.name = "refill",
     .desc = "Give a lantern a new flask of oil",
     .help = "For a lantern still lit. One that burned out has left the list: {/light add "
             "kind=lantern} lights it again with a fresh flask.",
     .opts = which_opts,
     .fn = light_refill_cmd},
    {0},
};

const struct command cmd_light = {
    .name = "light",
    .desc = "Light sources: add, list, out, refill; GM: fail, flicker",
    .help = "Exploration: a torch lasts 6 turns, a lantern 36 (one flask), a candle 6. "
            "Delving: torches burn out on a Burn result, candles and lanterns last the "
            "expedition (8 hours, 48 turns). The bot warns one turn before a source goes out "
            "and says when it does. Torch: shapes 12 m, details 3 m; candle: shapes 6 m, "
            "details 3 m. Exploration: torch and lantern 30 ft bright + 30 ft dim, candle 5 + "
            "5; no light: effectively blind (a setback on all rolls, movement halved, no "
            "reading, searching or spotting danger). Delving darkness: -10 to movement and "
            "coordination checks, surprised, traps sprung, no mapping. Running blows candles "
            "out. Rulings: a delving candle or lantern counts its 48 turns from when it is "
            "lit; the exploration text also calls a lantern '1 Watch', which it does not "
            "define, so a lantern lasts its 6 hours (36 turns) whichever bookkeeping is "
            "used.",
    .subs = light_subs,
    .default_sub = "list",
};
