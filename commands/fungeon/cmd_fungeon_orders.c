/* /fungeon orders: standing orders for a room's fights; see
 * cmd_fungeon_orders.h. */
#include "commands/fungeon/cmd_fungeon_orders.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_rights.h"
#include "commands/fungeon/fungeon_roll.h"

#define ORDERS_MAX CF_PARTS_MAX

typedef char word_t[FUNGEON_NAME_MAX * 2 + 2];

/* Orders are given for the room the party is in or is making. */
static bool
in_a_room(const struct fungeon_channel *c, struct reply *out)
{
	char where[96];

	if (c->d.room.number > 0)
		return true;
	fungeon_dungeon_where(&c->d, where, sizeof(where));
	reply_error(out, "Orders are for a room's fights, and the party is %s.", where);
	return false;
}

/* Whether p is out of the room's fights (a defeated monster, a dead
 * Fungeoneer): then an error reply. */
static bool
fights_no_more(const struct fungeon_channel *c, const struct fungeon_part *p, struct reply *out)
{
	if (p->kind == FGP_MEMBER && c->m[p->member].dead)
		reply_error(out, "%s is dead and fights no more; orders are for those who fight.",
		            c->m[p->member].name);
	else if (p->kind != FGP_MEMBER && p->s->hits <= 0)
		reply_error(out,
		            "%s is defeated and fights no more; orders are for those who fight.",
		            p->s->name);
	else
		return false;
	return true;
}

/* One "who>target" (or "target", for the invoker's own Fungeoneer) read
 * into who and the name it aims at ("" for none: back to the default). */
static int
read_aim(struct invocation *inv, struct fungeon_channel *c, const char *w, struct fungeon_part *who,
         char *aim, size_t len, struct reply *out)
{
	const char *gt = strchr(w, '>');
	char whoname[sizeof(word_t)];
	struct fungeon_part target;

	if (gt == w || (gt != NULL && gt[1] == '\0')) {
		reply_error(out,
		            "An order is written who>target (Alba>goblin) or target alone for "
		            "your own Fungeoneer; '%.40s' is not.",
		            w);
		return -1;
	}
	if (gt != NULL && strchr(gt + 1, '>') != NULL) {
		reply_error(out,
		            "An order is who>target, with one '>' (Alba>goblin); '%.40s' has more: "
		            "separate orders with commas (Alba>goblin, Brom>rat).",
		            w);
		return -1;
	}
	if (gt == NULL && !strcasecmp(w, "none")) { /* one's own back to the default */
		int me = fungeon_channel_need_self(c, inv, out);

		if (me < 0)
			return -1;
		*who = (struct fungeon_part){.kind = FGP_MEMBER, .member = me, .target = -1};
		aim[0] = '\0';
		return fights_no_more(c, who, out) ? -1 : 0;
	}
	if (gt == NULL) {
		struct reply *scratch = reply_new();
		bool known = fungeon_roll_part_resolve(c, w, FGP_MEMBER | FGP_MONSTER, &target,
		                                       scratch) == 0;
		int me;

		reply_free(scratch);
		if (!known && fungeon_channel_option_word(w, out))
			return -1;
		if (!known) {
			reply_error(
			    out,
			    "There is no Fungeoneer or monster '%.40s' here to aim at; an "
			    "order is written who>target (Alba>goblin), or target alone for "
			    "your own Fungeoneer.",
			    w);
			return -1;
		}
		me = fungeon_channel_need_self(c, inv, out);

		if (me < 0)
			return -1;
		snprintf(whoname, sizeof(whoname), "%s", c->m[me].name);
	} else {
		snprintf(whoname, sizeof(whoname), "%.*s", (int)(gt - w), w);
	}
	if (fungeon_roll_part_resolve(c, whoname, FGP_MEMBER | FGP_MONSTER, who, out) < 0 ||
	    !fungeon_rights_may_direct(c, inv, who, out) || fights_no_more(c, who, out))
		return -1;
	w = gt != NULL ? gt + 1 : w;
	if (!strcasecmp(w, "none")) {
		aim[0] = '\0';
		return 0;
	}
	if (fungeon_roll_part_resolve(c, w, FGP_MEMBER | FGP_MONSTER, &target, out) < 0 ||
	    fights_no_more(c, &target, out) ||
	    !fungeon_rights_may_aim(c, whoname, who, &target, out))
		return -1;
	if (target.kind == who->kind && target.member == who->member && target.s == who->s) {
		reply_error(out, "%s cannot aim at itself; a winner hurts one of the others.",
		            whoname);
		return -1;
	}
	fungeon_roll_part_name(c, &target, aim, len);
	return 0;
}

/* Refuses a use: word with no '/' beside targets: (/help
 * fungeon orders: orders are apart by commas): "targets:Ann Bob" puts Bob
 * in use:, where a monster/ability goes, and the ability's refusal would
 * not say why. Returns whether it refused. */
static bool
target_in_use(const char *uses, struct reply *out)
{
	word_t w[ORDERS_MAX];
	int n = fungeon_channel_split_names(uses, w, ORDERS_MAX, NULL);

	for (int i = 0; i < n; i++) {
		if (strchr(w[i], '/') != NULL)
			continue;
		reply_error(out,
		            "'%.40s' is no monster/ability for use: (wolf/howl, or wolf/none); if "
		            "it is another order for targets:, orders there are apart by commas "
		            "with no space (targets:Alba>goblin,Brom>rat), or the whole list is "
		            "quoted (targets:\"Alba>goblin Brom>rat\").",
		            w[i]);
		return true;
	}
	return false;
}

/* Reads the use option: "monster/ability" or "monster/none" words. */
static int
read_uses(struct invocation *inv, struct fungeon_channel *c, const char *list,
          struct fungeon_part *mon, char use[][FUNGEON_NAME_MAX + 1], struct reply *out)
{
	word_t w[ORDERS_MAX];
	int n = fungeon_channel_split_names(list, w, ORDERS_MAX, out);

	for (int i = 0; i < n; i++) {
		if (fungeon_roll_use_resolve(c, inv, w[i], &mon[i], out) < 0 ||
		    fights_no_more(c, &mon[i], out))
			return -1;
		snprintf(use[i], FUNGEON_NAME_MAX + 1, "%s",
		         mon[i].kind == FGP_ABILITY ? mon[i].s->d.ab[mon[i].ability].name : "none");
	}
	return n;
}

/* The room's standing orders, one line each, or that there are none. */
static void
list_orders(const struct fungeon_channel *c, struct reply *out)
{
	const struct fungeon_room *r = &c->d.room;
	int n = 0;

	for (int i = 0; i < c->n; i++)
		if (c->m[i].aim[0] && ++n)
			reply_line(out, 0, "%s (%s) aims at %s.", c->m[i].name, c->m[i].player,
			           c->m[i].aim);
	for (int i = 0; i < r->n[FUNGEON_MONSTER]; i++) {
		const struct fungeon_piece *p = &r->p[FUNGEON_MONSTER][i];

		if (p->aim[0] && ++n)
			reply_line(out, 0, "%s aims at %s.", p->name, p->aim);
		if (p->use[0] && ++n)
			reply_line(out, 0, "%s uses %s.", p->name,
			           strcmp(p->use, "none") ? p->use : "no special ability");
	}
	if (n == 0)
		reply_line(out, 0,
		           "No orders in room %lld: each monster uses its first special ability, "
		           "and each winner hurts the other side's lowest die.",
		           (long long)r->number);
}

void
cmd_fungeon_orders(struct invocation *inv, struct reply *out)
{
	struct fungeon_channel *c = fungeon_channel(inv);
	const char *targets = invocation_str(inv, "targets"), *uses = invocation_str(inv, "use");
	word_t w[ORDERS_MAX];
	struct fungeon_part who[ORDERS_MAX], mon[ORDERS_MAX];
	char aim[ORDERS_MAX][FUNGEON_NAME_MAX + 1], use[ORDERS_MAX][FUNGEON_NAME_MAX + 1];
	char name[FUNGEON_SOURCE_MAX];
	int nt = 0, nu = 0;

	if (!in_a_room(c, out))
		return;
	if (targets == NULL && uses == NULL) {
		list_orders(c, out);
		return;
	}
	if (targets != NULL && uses != NULL && target_in_use(uses, out))
		return;
	if (targets != NULL && (nt = fungeon_channel_split_names(targets, w, ORDERS_MAX, out)) < 0)
		return;
	if (targets != NULL && nt == 0) {
		reply_error(out,
		            "targets: needs an order, who>target (Alba>goblin), or a target alone "
		            "for your own Fungeoneer (none: back to the default).");
		return;
	}
	for (int i = 0; i < nt; i++)
		if (read_aim(inv, c, w[i], &who[i], aim[i], sizeof(aim[i]), out) < 0)
			return;
	if (uses != NULL && (nu = read_uses(inv, c, uses, mon, use, out)) < 0)
		return;
	if (uses != NULL && nu == 0) {
		reply_error(out, "use: needs monster/ability (wolf/howl), or monster/none.");
		return;
	}
	for (int i = 0; i < nt; i++) {
		char *slot = who[i].kind == FGP_MEMBER ? c->m[who[i].member].aim : who[i].s->aim;

		snprintf(slot, FUNGEON_NAME_MAX + 1, "%.*s", FUNGEON_NAME_MAX, aim[i]);
		fungeon_roll_part_name(c, &who[i], name, sizeof(name));
		if (aim[i][0])
			reply_line(out, 0, "%s's won ranks hurt %s in this room's fights.", name,
			           aim[i]);
		else
			reply_line(out, 0,
			           "%s's won ranks hurt the other side's lowest die again (the "
			           "default).",
			           name);
	}
	for (int i = 0; i < nu; i++) {
		snprintf(mon[i].s->use, sizeof(mon[i].s->use), "%.*s", FUNGEON_NAME_MAX, use[i]);
		if (strcmp(use[i], "none") == 0)
			reply_line(out, 0, "%s uses no special ability in this room's fights.",
			           mon[i].s->name);
		else
			reply_line(out, 0, "%s uses %s in each turn of this room's fights.",
			           mon[i].s->name, use[i]);
	}
	channel_touch(inv->chan);
}
