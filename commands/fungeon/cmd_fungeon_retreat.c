/* /fungeon retreat: heading back to town and going on back, room by room,
 * with the wandering monsters each room's Annoy roll brings (the rule
 * text's "Heading Back to Town"), until the party reaches town. */
#include "commands/fungeon/cmd_fungeon_retreat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/dice/rollchan.h"
#include "commands/fungeon/cmd_fungeon_town.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/fungeon_render.h"
#include "commands/fungeon/fungeon_roll.h"
#include "rules/base/mem.h"

/* What keeps the party from going on back: a wandering monster to build
 * or standing in the room it is in. Returns 0, or -1 with an error. */
static int
may_go_on(const struct fungeon_channel *c, struct reply *out)
{
	if (c->d.phase != FUNGEON_RETREAT)
		return 0;
	if (fungeon_rights_wanderers_due(c, out) < 0)
		return -1;
	if (fungeon_room_standing(&c->d.room) > 0) {
		bool any = false;

		for (int i = 0; i < c->n; i++)
			any |= fungeon_rights_in_play(c, i);
		if (any) {
			reply_error(out,
			            "The wandering monsters of room %lld still stand: fight them (",
			            (long long)c->d.room.number);
			reply_cmd(out, RS_BAD, "fungeon combat", NULL);
			reply_add(out, RS_BAD, ") before going on back.");
			return -1;
		}
	}
	return 0;
}

/* Holds end with the fight the party leaves. */
static void
lift_holds(struct fungeon_channel *c)
{
	for (int i = 0; i < c->n; i++)
		for (int e = 0; e < c->m[i].neffects;)
			if (c->m[i].effects[e].kind == FUNGEON_EFFECT_HOLD)
				fungeon_effect_remove(&c->m[i], e);
			else
				e++;
}

static void
reach_town(struct invocation *inv, struct fungeon_channel *c, struct reply *out)
{
	int wounded = 0;

	fungeon_dungeon_town(&c->d);
	fungeon_channel_new_room(c);
	fungeon_channel_fallen_clear(c);
	channel_touch(inv->chan);
	reply_add(out, RS_BOLD, "The party leaves the dungeon and is back in town. ");
	reply_add(out, 0, "Treasure trades here for half its points (");
	reply_cmd(out, 0, "fungeon town sell", "item", "ITEM", NULL);
	reply_add(out, 0, "), and the healer sells healing magic (");
	reply_cmd(out, 0, "fungeon town healer", NULL);
	reply_add(out, 0, ").");
	reply_nl(out);
	fungeon_render_joining_in_town(c, out);
	for (int i = 0; i < c->n; i++) {
		c->m[i].fresh = false; /* the replacements are with the party in town */
		c->m[i].nwander = 0;
	}
	for (int i = 0; i < c->n; i++)
		wounded += !c->m[i].dead && c->m[i].hits < fungeon_max_hits(c->m[i].level);
	if (wounded > 0) {
		reply_add(out, RS_DIM,
		          "Wounds mend here only by the healer's magic, until a new game session "
		          "makes every Fungeoneer whole (a Ruling: ");
		reply_cmd(out, RS_DIM, "fungeon town session", NULL);
		reply_add(out, RS_DIM, ", when the table meets again).");
		reply_nl(out);
	}
}

/* Heading back is for good: before the first step back, the party is
 * told what it leaves and asked to confirm. */
static void
ask_first(const struct fungeon_channel *c, int64_t next, struct reply *out)
{
	const struct fungeon_room *r = &c->d.room;
	char left[160];
	int dead =
	    c->d.phase == FUNGEON_HALLWAY ? fungeon_render_dead_left(r, left, sizeof(left)) : 0;
	bool made = c->d.phase == FUNGEON_HALLWAY &&
	            (r->n[FUNGEON_TRAP] + r->n[FUNGEON_MONSTER] + r->n[FUNGEON_TREASURE] > dead ||
	             r->picks.made > 0);

	if (next == 0)
		reply_add(out, 0, "Heading back from here leaves the dungeon at once, for town");
	else if (next == 1)
		reply_add(out, 0,
		          "Heading back turns the party around for good: it re-enters room 1 after "
		          "an Annoy roll against its floor, then leaves for town");
	else
		reply_add(out, 0,
		          "Heading back turns the party around for good: it re-enters rooms %lld "
		          "to 1, each after an Annoy roll against its floor, then leaves for town",
		          (long long)next);
	if (made)
		reply_add(out, 0, ", and room %lld, being made, is given up", (long long)r->number);
	if (dead > 0 && next > 0)
		reply_add(out, 0,
		          "; what the dead left in this hallway (%s) goes back with the party into "
		          "room %lld, to plunder there",
		          left, (long long)next);
	else if (dead > 0)
		reply_add(out, 0, "; what the dead left in this hallway (%s) stays behind for good",
		          left);
	if (c->d.phase == FUNGEON_ROOM && fungeon_render_anything_behind(r)) {
		reply_add(out, 0, "; it leaves ");
		fungeon_render_left_behind(out, r, 0);
		reply_add(out, 0, " behind for good");
	}
	reply_add(out, 0, ". Go with ");
	reply_cmd(out, 0, "fungeon retreat", "confirm:", "true", NULL);
	reply_add(out, 0, ".");
	reply_nl(out);
	reply_button(out, "Head back", "fungeon retreat confirm:true");
}

void
cmd_fungeon_retreat(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	int idx[FUNGEON_PARTY_MAX], n, floor;
	const char *bonus = invocation_str(inv, "bonus");
	struct thwacko_style styles[FUNGEON_PARTY_MAX];
	struct fungeon_play_obstacle o;
	struct fungeon_play_retreat *r;
	bool b[FUNGEON_PARTY_MAX];
	int64_t next;
	char err[200], left[160];
	bool from_hallway;

	if (!fungeon_channel_may(c, FUNGEON_ACT_RETREAT, out) ||
	    !fungeon_rights_may_move(c, inv, FUNGEON_ACT_RETREAT, out) || may_go_on(c, out) < 0)
		return;
	if (invocation_str(inv, "who") != NULL && !inv->is_gm) {
		reply_error(out,
		            "Every player makes the roll before each room on the way back; only "
		            "the GM names who rolls.");
		return;
	}
	if ((n = fungeon_channel_members_named(c, invocation_str(inv, "who"), idx, out)) < 0)
		return;
	next = fungeon_dungeon_next_back(&c->d);
	if (c->d.phase != FUNGEON_RETREAT && !invocation_bool(inv, "confirm", false)) {
		ask_first(c, next, out);
		return;
	}
	/* on the way back, what the dead left here stays for good: asked
	 * first while someone could still take it, else said */
	if (c->d.phase == FUNGEON_RETREAT &&
	    fungeon_render_dead_left_behind(out, &c->d.room,
	                                    n > 0 && !invocation_bool(inv, "confirm", false)))
		return;
	if (next == 0 || n == 0) {
		if (n == 0) { /* the whole party fell on the way back */
			reply_add(out, RS_BAD,
			          "Nobody of the party is left in play, so nobody rolls or fights "
			          "on the rest of the way back: the fallen come back into the game "
			          "in town, where each makes a new Fungeoneer (");
			reply_cmd(out, RS_BAD, "fungeon join", "name", "NAME", "class", "CLASS",
			          NULL);
			reply_add(out, RS_BAD, ").");
			reply_nl(out);
		}
		lift_holds(c);
		reach_town(inv, c, out);
		return;
	}
	floor = fungeon_dungeon_floor_of(&c->d, next);
	fungeon_play_floor_obstacle(floor, &o);
	if (fungeon_roll_annoy_check(c, &o, floor, idx, n, bonus, out) < 0)
		return;
	fungeon_channel_styles(c, inv->state, styles);
	fungeon_roll_bonus_flags(c, bonus, "", idx, n, b);
	r = xcalloc(1, sizeof(*r));
	if (fungeon_play_retreat(inv->rng, c->m, idx, n, b, floor, r, err, sizeof(err)) < 0) {
		reply_error(out, "%s", err);
		free(r);
		return;
	}
	lift_holds(c);
	from_hallway = c->d.phase == FUNGEON_HALLWAY;
	fungeon_dungeon_reenter(&c->d, next);
	fungeon_channel_new_room(c);
	fungeon_play_retreat_apply(c->m, r);
	channel_touch(inv->chan);
	rollchan_heading(inv->chan, out,
	                 "Back to town: before re-entering room %lld, Annoy rolls against %d %s "
	                 "(its floor)",
	                 (long long)next, floor, fungeon_channel_dice_word(floor));
	fungeon_render_annoy(out, c, &o, &r->annoy, styles);
	for (int i = 0; i < n; i++) {
		const struct fungeon_member *m = &c->m[idx[i]];

		if (r->wander[i] == 0)
			continue;
		reply_add(out, RS_BAD,
		          "%s builds one wandering monster of %lld points (level %d + floor %d) "
		          "in room %lld: ",
		          m->player, (long long)r->wander[i], m->level, floor, (long long)next);
		reply_cmd(out, RS_BAD, "fungeon monster add", "name", "NAME", "design", "DESIGN",
		          NULL);
		reply_nl(out);
	}
	if (from_hallway && fungeon_render_dead_left(&c->d.room, left, sizeof(left)) > 0) {
		reply_add(out, 0, "What the dead left in the hallway lies in room %lld: %s (",
		          (long long)next, left);
		reply_cmd(out, 0, "fungeon take", "item", "ITEM", NULL);
		reply_line(out, 0, ").");
	}
	if (fungeon_dungeon_next_back(&c->d) == 0)
		reply_line(out, 0, "Room %lld is the last before the entrance.", (long long)next);
	fungeon_render_narration_lines(out, &r->annoy.nar, c, styles, NULL);
	fungeon_render_go_on_back(c, out);
	free(r);
}
