/* /xp: the Fungeon level thresholds under this channel's XP rule. */
#include "commands/fungeon/cmd_xp.h"

#include <stdio.h>

#include "commands/fungeon/fungeon_channel.h"
#include "rules/base/num.h"

static void
xp_fn(struct invocation *inv, struct reply *out)
{
	static const char *const hdr[] = {"level", "total XP", "max hits", "class bonus"};
	const struct fungeon_channel *c = fungeon_channel_peek(inv->chan);
	enum fungeon_xp_rule rule = c != NULL ? c->xp_rule : FUNGEON_XP_TABLE;
	int me = c != NULL ? fungeon_channel_member_of(c, inv->from->user_key) : -1;
	const struct fungeon_member *m = me >= 0 ? &c->m[me] : NULL;
	int last = 10;

	if (invocation_has(inv, "level")) {
		int l = (int)invocation_int(inv, "level", 1);

		reply_line(out, 0,
		           "Level %d needs %lld XP in all (%s); max hits %d, class bonus %d.", l,
		           (long long)fungeon_xp_needed(rule, l),
		           rule == FUNGEON_XP_FORMULA ? "formula" : "table", fungeon_max_hits(l),
		           fungeon_class_bonus(l));
		return;
	}
	if (m != NULL && m->level + 1 > last)
		last = m->level + 1 > FUNGEON_LEVEL_MAX ? FUNGEON_LEVEL_MAX : m->level + 1;
	reply_title(out, "XP by level (%s)", rule == FUNGEON_XP_FORMULA ? "formula" : "table");
	reply_table(out, 4, hdr);
	for (int l = 1; l <= last; l++) {
		char lv[NUM_TEXT_MAX], xp[NUM_TEXT_MAX], hits[NUM_TEXT_MAX], bonus[NUM_TEXT_MAX];
		const char *cells[] = {lv, xp, hits, bonus};

		/* num_text, not snprintf: this table is most of /xp's time. */
		num_text(l, lv);
		num_text((long long)fungeon_xp_needed(rule, l), xp);
		num_text(fungeon_max_hits(l), hits);
		num_text(fungeon_class_bonus(l), bonus);
		reply_row(out, m != NULL && m->level == l, cells);
	}
	reply_line(
	    out, RS_DIM, "%s",
	    rule == FUNGEON_XP_FORMULA
	        ? "Formula (Ruling, chosen here): level up when XP >= 10 x 2^(current level - 1)."
	        : "Table (the default; Ruling): beyond 10, 10 x 2^(level - 1).");
	if (m != NULL && !m->dead && fungeon_level_for_xp(rule, m->xp) > m->level)
		reply_line(out, RS_GOOD,
		           "%s is level %d with %lld XP: level %d is due in the "
		           "hallway.",
		           m->name, m->level, (long long)m->xp, fungeon_level_for_xp(rule, m->xp));
	else if (m != NULL && m->level < FUNGEON_LEVEL_MAX)
		reply_line(out, 0, "%s is level %d with %lld XP: level %d at %lld.", m->name,
		           m->level, (long long)m->xp, m->level + 1,
		           (long long)fungeon_xp_needed(rule, m->level + 1));
}

static const struct cmd_opt xp_opts[] = {
    {.name = "level",
     .desc = "One level, 1 to 60",
     .type = OPT_INT,
     .min = FUNGEON_LEVEL_MIN,
     .max = FUNGEON_LEVEL_MAX},
    {0},
};

const struct command cmd_xp = {
    .name = "xp",
    .desc = "Fungeon XP needed for each level (your level highlighted)",
    .help = "Ruling: the level table (0 10 40 80 160 320 640 1280 2560 5120, then 10 x "
            "2^(level - 1)) is the default; the prose formula (level up when XP >= 10 x "
            "2^(current level - 1), 20 XP for level 3) is a per-channel alternative: "
            "{/fungeon xp-rule rule=formula}.",
    .opts = xp_opts,
    .fn = xp_fn,
    .read_only = true,
};
