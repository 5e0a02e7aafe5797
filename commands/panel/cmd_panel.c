/* /panel: the channel's state at a glance; see cmd_panel.h. */
#include "commands/panel/cmd_panel.h"

#include <stdio.h>
#include <string.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "commands/panel/panel_state.h"
#include "commands/procedure/procedure_render.h"
#include "commands/procedure/procedure_state.h"
#include "commands/tension/cmd_tension.h"
#include "commands/tension/tension_state.h"

/* Lights named one by one; more are counted. */
#define LIGHTS_SHOWN 3
/* Bytes of text the lights, and the party, take at most on their line
 * (the rest are counted), so that each of the panel's lines fits one IRC
 * line (510 bytes less the longest prefix a server adds, about 350)
 * whatever the names. */
#define PART_BYTES 220

/* The lit sources and their turns left, or the darkness. */
static void
lights_part(struct reply *out, const struct procedure_state *s)
{
	const struct lights *ls = &s->clock.lights;
	size_t used = 0, i;

	if (ls->n == 0) {
		reply_add(out, RS_BAD, "Darkness: nothing is lit");
		return;
	}
	reply_add(out, 0, "Lights: ");
	for (i = 0; i < ls->n && i < LIGHTS_SHOWN; i++) {
		char name[100];
		int left = light_left(&ls->l[i], s->proc);

		procedure_render_light_name(&ls->l[i], false, name, sizeof(name));
		/* name, " 12 turns left" or " until a Burn", ", " */
		used += strlen(name) + 16;
		if (i > 0 && used > PART_BYTES)
			break;
		reply_add(out, 0, "%s%s ", i > 0 ? ", " : "", name);
		if (left < 0) {
			reply_add(out, 0, "until a Burn");
		} else {
			reply_add(out, left <= 1 ? RS_BOLD | RS_BAD : RS_BOLD, "%d", left);
			reply_add(out, 0, " %s left", left == 1 ? "turn" : "turns");
		}
	}
	if (i < ls->n)
		reply_add(out, 0, " and %zu more", ls->n - i);
}

/* Line 1: the clock, the rest clock, the lights. */
static void
clock_line(struct reply *out, const struct procedure_state *s)
{
	const struct turn_clock *c = &s->clock;
	char t[40];

	procedure_render_time_text(c->turn, t, sizeof(t));
	reply_add(out, RS_BOLD, "Turn %d", c->turn);
	reply_add(out, 0, " (%s in the dungeon) · ", t);
	reply_add(out, RS_BOLD, "%d", c->since_rest);
	reply_add(out, 0, " %s since the last rest", c->since_rest == 1 ? "turn" : "turns");
	if (c->fatigue_due)
		reply_add(out, RS_BAD, ": rest now, or Fatigue deals 1 damage to each");
	else if (c->since_rest >= TURN_REST_DUE)
		reply_add(out, RS_BAD, ": a rest is due");
	reply_add(out, 0, " · ");
	lights_part(out, s);
	reply_nl(out);
}

/* The hazard die the channel rolls: "delving", "classic 2-in-6". */
static void
hazard_part(struct reply *out, const struct procedure_state *s)
{
	reply_add(out, 0, "Hazard die: ");
	if (s->table == HAZARD_CLASSIC)
		reply_add(out, RS_BOLD, "classic %d-in-%d", s->chance.x, s->chance.n);
	else
		reply_add(out, RS_BOLD, "%s", hazard_table_name(s->table));
	if (s->safe)
		reply_add(out, 0, " · the party is in a safe area");
}

/* In the hallway and a Fungeon room: which player holds each category. */
static void
holders_part(struct reply *out, const struct fungeon_channel *fc)
{
	bool any = false;

	for (int k = 0; k < FUNGEON_CAT_COUNT; k++) {
		int h = fungeon_channel_holder(fc, (enum fungeon_category)k);

		if (h < 0 || h >= fc->n)
			continue;
		reply_add(out, 0, "%s%s: %s", any ? ", " : " · ",
		          fungeon_hallway_category_name((enum fungeon_category)k), fc->m[h].player);
		any = true;
	}
}

/* Line 3, for a Fungeon party: where it is, who holds which category and
 * who chooses next, a downward stair to place or to take, and on the way
 * back the wandering monsters to build or standing. */
static void
fungeon_line(struct reply *out, const struct fungeon_channel *fc)
{
	const struct fungeon_dungeon *d;
	char where[96];
	int next, build = 0, standing, dead = 0;

	if (fc == NULL || fc->n == 0)
		return;
	d = &fc->d;
	fungeon_dungeon_where(d, where, sizeof(where));
	reply_add(out, 0, "Fungeon: the party is ");
	reply_add(out, RS_BOLD, "%s", where);
	if (d->phase == FUNGEON_HALLWAY || d->phase == FUNGEON_ROOM)
		holders_part(out, fc);
	next = d->phase == FUNGEON_HALLWAY ? fungeon_hallway_picks_next(&d->room.picks) : -1;
	if (next >= 0 && next < fc->n)
		reply_add(out, 0, " · %s chooses a category next", fc->m[next].player);
	if (d->phase == FUNGEON_HALLWAY && d->room.stair)
		reply_add(out, 0, " · a downward stair to floor %d to place", d->room.floor + 1);
	if (d->phase == FUNGEON_ROOM && d->room.stair && d->floor == d->room.floor)
		reply_add(out, 0, " · a downward stair to floor %d, not taken", d->room.floor + 1);
	for (int i = 0; i < fc->n; i++)
		dead += fc->m[i].dead;
	if (d->phase != FUNGEON_TOWN && !fungeon_rights_anyone_in_play(fc))
		reply_add(out, RS_BAD, " · nobody of the party is in play: %s",
		          d->phase == FUNGEON_RETREAT ? "on to town, where the fallen make new "
		                                        "Fungeoneers"
		          : dead > 0                  ? "new Fungeoneers first, then the hallway"
		                     : "the new Fungeoneers are made, on to the hallway");
	if (d->phase == FUNGEON_RETREAT) {
		for (int i = 0; i < fc->n; i++)
			build += fc->m[i].dead ? 0 : fc->m[i].nwander;
		standing = fungeon_room_standing(&d->room);
		if (build > 0)
			reply_add(out, 0, " · %d wandering monster%s to build", build,
			          build == 1 ? "" : "s");
		if (standing > 0)
			reply_add(out, 0, " · %d wandering monster%s standing", standing,
			          standing == 1 ? "" : "s");
	}
	reply_nl(out);
}

/* Line 2: Tension (its bar when shown, else only that it is hidden), the
 * hazard die. */
static void
tension_line(struct reply *out, const struct channel *ch, const struct procedure_state *s,
             bool show_tension)
{
	if (show_tension) {
		cmd_tension_bar(out, tension_state_value(ch));
		reply_add(out, 0, " · ");
	} else {
		/* Italic, not dimmed: a colour would draw Discord's line as a
		 * code block, unlike the panel's others. */
		reply_add(out, 0, "Tension: ");
		reply_add(out, RS_ITALIC, "hidden behind the GM's screen");
		reply_add(out, 0, " · ");
	}
	hazard_part(out, s);
	reply_nl(out);
}

/* What a replacement waits for: the hallway, or on the way back town. */
static const char *
fresh_words(const struct fungeon_channel *fc)
{
	return fc->d.phase == FUNGEON_RETREAT ? "joins in town" : "joins in the hallway";
}

/* Line 4, for a Fungeon party: each Fungeoneer's level, hits and XP, and
 * whether it waits to join. */
static void
party_line(struct reply *out, const struct fungeon_channel *fc)
{
	size_t used = 0;
	int i;

	if (fc == NULL || fc->n == 0)
		return;
	reply_add(out, 0, "Party: ");
	for (i = 0; i < fc->n; i++) {
		const struct fungeon_member *m = &fc->m[i];
		char piece[FUNGEON_NAME_MAX + 80];
		const char *waits = m->fresh ? fresh_words(fc) : NULL;
		int n = snprintf(piece, sizeof(piece), ", %s L%d %d/%d hits %lld XP%s%s%s", m->name,
		                 m->level, m->hits, fungeon_max_hits(m->level), (long long)m->xp,
		                 waits ? " (" : "", waits ? waits : "", waits ? ")" : "");

		used += n > 0 ? (size_t)n : 0;
		if (i > 0 && used > PART_BYTES)
			break;
		reply_add(out, 0, "%s", i > 0 ? ", " : "");
		reply_add(out, RS_BOLD, "%s", m->name);
		if (m->dead) {
			reply_add(out, RS_BAD, " (dead)");
			continue;
		}
		reply_add(out, 0, " L%d ", m->level);
		reply_add(out, m->hits <= 1 ? RS_BAD : 0, "%d/%d hits", m->hits,
		          fungeon_max_hits(m->level));
		reply_add(out, 0, " %lld XP", (long long)m->xp);
		if (waits != NULL)
			reply_add(out, 0, " (%s)", waits);
	}
	if (i < fc->n)
		reply_add(out, 0, " and %d more", fc->n - i);
	reply_nl(out);
}

static void
panel_lines(struct invocation *inv, struct reply *out, bool show_tension)
{
	const struct procedure_state *s = procedure_state_of(inv->chan);

	clock_line(out, s);
	tension_line(out, inv->chan, s, show_tension);
	fungeon_line(out, fungeon_channel_peek(inv->chan));
	party_line(out, fungeon_channel_peek(inv->chan));
}

/* For a Fungeon party, the step that moves it on from where it is, each
 * the command it names with its own rights: into the dungeon from town
 * and the entrance (once the fallen there made new Fungeoneers), into the room from the hallway
 * (the hallway again when nobody was left to draw in it), a combat turn while monsters stand, else
 * the next hallway from a room or the next step of the way back. */
static void
fungeon_buttons(struct reply *out, const struct fungeon_channel *fc)
{
	bool standing;

	if (fc == NULL || fc->n == 0)
		return;
	/* a fight needs a monster standing and someone of the party in play */
	standing = fungeon_room_standing(&fc->d.room) > 0 && fungeon_rights_anyone_in_play(fc);
	switch (fc->d.phase) {
	case FUNGEON_TOWN:
	case FUNGEON_ENTRANCE:
		/* the fallen make new Fungeoneers before the hallway */
		for (int i = 0; i < fc->n; i++)
			if (fc->m[i].dead)
				return;
		reply_button_panel(out, "Hallway", "fungeon hallway");
		break;
	case FUNGEON_HALLWAY:
		/* nobody drew: the hallway runs again once new ones joined */
		if (fungeon_dungeon_hallway_again(&fc->d))
			reply_button_panel(out, "Hallway", "fungeon hallway");
		else
			reply_button_panel(out, "Enter", "fungeon enter");
		break;
	case FUNGEON_ROOM:
		if (standing)
			reply_button_panel(out, "Combat", "fungeon combat");
		reply_button_panel(out, "Hallway", "fungeon hallway");
		break;
	case FUNGEON_RETREAT:
		for (int i = 0; i < fc->n; i++)
			if (fc->m[i].nwander > 0 && !fc->m[i].dead)
				return; /* a wanderer to build first: no button builds it */
		if (standing)
			reply_button_panel(out, "Combat", "fungeon combat");
		else
			reply_button_panel(out, "Go on back", "fungeon retreat");
		break;
	case FUNGEON_PHASE_COUNT:
		break;
	}
}

static void
panel_show(struct invocation *inv, struct reply *out)
{
	bool hidden = tension_state_hidden(inv->chan);

	reply_panel(out, panel_state_message(inv->chan));
	panel_lines(inv, out, !hidden);
	reply_button_panel(out, "Next turn", "hazard roll");
	reply_button_panel(out, "Rest", "rest");
	reply_button_panel(out, "Tension +1", "tension raise amount:1 reason:from the panel");
	reply_button_panel(out, "Wander", "wander check");
	reply_button_panel(out, "Undo", "undo");
	fungeon_buttons(out, fungeon_channel_peek(inv->chan));
	if (hidden && inv->is_gm) {
		reply_to(out, REPLY_INVOKER);
		panel_lines(inv, out, true);
		reply_to(out, REPLY_CHANNEL);
	}
}

const struct command cmd_panel = {
    .name = "panel",
    .desc = "The dungeon's state at a glance, with buttons for the next turn, rest, Tension",
    .help = "Shows the turn and the time in the dungeon, the turns since the last rest, the "
            "lights and their turns left, Tension (its bar while Tension is open; in hidden "
            "mode the GM alone sees it, in a copy of their own), the hazard die and, for a "
            "Fungeon party, where it is (town, the hallway, room N, the way back) with its "
            "floor, who holds which category and chooses next, a downward stair to place or "
            "take, the wandering monsters to build or fight on the way back, that the fallen "
            "make new Fungeoneers first when nobody of the party is in play (once all are "
            "made, that the hallway comes next), and each "
            "Fungeoneer's level, hits and XP (a new one: that it waits to join). Its buttons run "
            "{/hazard roll}, {/rest}, {/tension "
            "raise amount:1} "
            "(its reason: from the panel), {/wander check} and {/undo}, and for a Fungeon party "
            "the step that moves it on ({/fungeon hallway}, {/fungeon enter}, {/fungeon "
            "combat} while someone in play can fight, or {/fungeon retreat}; none in town while "
            "a fallen player has no new Fungeoneer), with the rights of "
            "each (a "
            "player pressing the GM's "
            "button is told why, alone). On Discord the panel is one message of the bot's "
            "that stays current: every change to the channel, by any command or button, "
            "edits it, a burst of changes as one edit; a new {/panel} moves it, and a panel "
            "someone deleted is forgotten. On IRC and the console it is up to four lines of text "
            "shown when asked.",
    .fn = panel_show,
    .read_only = true,
};

static void
placed(struct invocation *inv, struct reply *out)
{
	const char *id = invocation_str(inv, "message"), *was = invocation_str(inv, "was");
	const char *server = invocation_str(inv, "server");
	char old[PANEL_MESSAGE_MAX];

	if (id == NULL)
		id = "";
	if ((id[0] != '\0' && !panel_state_id_valid(id)) ||
	    (was != NULL && !panel_state_id_valid(was)) ||
	    (server != NULL && server[0] != '\0' && !panel_state_id_valid(server))) {
		reply_error(out,
		            "A panel's message id is 1 to %d printable characters without spaces.",
		            PANEL_MESSAGE_MAX - 1);
		return;
	}
	snprintf(old, sizeof(old), "%s", panel_state_message(inv->chan));
	reply_panel(out, old);
	if (was != NULL && strcmp(old, was) != 0)
		return;
	panel_state_set(inv->chan, id, server);
}

static const struct cmd_opt placed_opts[] = {
    {.name = "message",
     .desc = "The id of the message showing the panel now, or nothing",
     .type = OPT_STRING,
     .max = PANEL_MESSAGE_MAX - 1},
    {.name = "was",
     .desc = "Change the record only while it names this message",
     .type = OPT_STRING,
     .max = PANEL_MESSAGE_MAX - 1},
    {.name = "server",
     .desc = "The id of the server the channel is in, if any",
     .type = OPT_STRING,
     .max = PANEL_MESSAGE_MAX - 1},
    {0},
};

const struct command cmd_panel_placed = {
    .name = "panel-placed",
    .desc = "Records which message shows the channel's panel (a transport's)",
    .opts = placed_opts,
    .fn = placed,
};
