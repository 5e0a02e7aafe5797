/*
 * procedure_state: a channel's dungeon-procedure state (module slot
 * CHANMOD_PROC): the turn clock with its lights, rest clock and remembered
 * sign, and the settings of the hazard die and the wandering checks.
 *
 * Saved as one JSON object; load() checks every field and refuses a record
 * it cannot trust whole.
 */
#ifndef DELVER_PROCEDURE_STATE_H
#define DELVER_PROCEDURE_STATE_H

#include <stdbool.h>

#include "commands/core/state.h"
#include "rules/procedure/hazard.h"
#include "rules/tables/roll_table.h"
#include "rules/procedure/turn.h"
#include "rules/procedure/vendor.h"
#include "rules/procedure/wander.h"
#include "rules/procedure/odds.h"

#define FATIGUE_DAMAGE_MAX 20 /* delving Fatigue's damage in the harshest dungeon */
#define LEVEL_MAX          99 /* the deepest dungeon level /turn level tracks */

struct procedure_state {
	struct turn_clock clock;
	enum hazard_table table;   /* the channel's hazard die */
	enum procedure proc;       /* how light and rest are kept */
	struct odds chance;        /* the classic hazard die: X-in-N */
	bool gm_rolls;             /* only the GM passes turns (default: anyone) */
	struct roll_table *custom; /* the channel's own table, 1..die, or NULL (owned) */
	enum wander_proc wander;   /* the default wandering check (never retreat) */
	struct odds wander_chance; /* the classic wandering check's X-in-N */
	bool safe;                 /* the party is in a safe area: always on level 0 */
	int lantern_low;           /* turns a Light result leaves a lantern, 1..LIGHT_LOW_MAX */
	int fatigue_damage;        /* delving Fatigue's damage, 1..FATIGUE_DAMAGE_MAX */
	int level;                 /* the dungeon level the party is on (0: a safe area's
	                              level 0), 0..LEVEL_MAX; -1: not tracked */
	int nvendors;              /* 0..VENDORS_MAX */
	struct vendor *vendors;    /* nvendors vendors met, owned (NULL when none) */
};

extern const struct chanmod procedure_state_mod;

/* The channel's state, created on first use. */
struct procedure_state *procedure_state_of(struct channel *ch);

/* Whether the party is in a safe area (no wandering monsters, no
 * fighting), for other features (the tension roll). Reads only; creates
 * nothing. */
bool procedure_state_safe(const struct channel *ch);

/* The channel's default wandering check (/wander default; corridor until
 * set). Reads only. */
enum wander_proc procedure_state_wander(const struct channel *ch);

/* The dungeon level the channel tracks (/turn level), or -1. Reads only. */
int procedure_state_level(const struct channel *ch);

/* Whether the party is resting now: the channel's last turn was a rest
 * (turn_resting()). Reads only; creates nothing. */
bool procedure_state_resting(const struct channel *ch);

/* Whether an encounter met now catches the party by surprise under the
 * channel's procedure (delving: walking, running or total darkness; a
 * resting party only in darkness), as turn_surprise() answers: the pace,
 * -1 for total darkness, or TURN_NOT_SURPRISED. The party rests when
 * resting says so or the channel's last turn was a rest
 * (procedure_state_resting()). Every command that finds an encounter
 * asks here. Reads only; creates nothing. */
int procedure_state_surprise(const struct channel *ch, bool resting);

/* The vendor called name (case folded in every script), or NULL. */
struct vendor *procedure_state_vendor(struct procedure_state *s, const char *name);
/* Appends a zeroed vendor and returns it (the caller checked VENDORS_MAX). */
struct vendor *procedure_state_vendor_add(struct procedure_state *s);
/* Forgets the vendor v (one of s's), with its deals. */
void procedure_state_vendor_forget(struct procedure_state *s, struct vendor *v);

#endif
