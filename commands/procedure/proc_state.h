/*
 * proc_state: a channel's dungeon-procedure state (module slot
 * CHANMOD_PROC): the turn clock with its lights, rest clock and remembered
 * sign, and the settings of the hazard die and the wandering checks.
 *
 * Saved as one JSON object; load() checks every field and refuses a record
 * it cannot trust whole.
 */
#ifndef DELVER_PROC_STATE_H
#define DELVER_PROC_STATE_H

#include <stdbool.h>

#include "commands/state.h"
#include "rules/procedure/hazard.h"
#include "rules/tables/rtable.h"
#include "rules/procedure/turn.h"
#include "rules/procedure/vendor.h"
#include "rules/procedure/wander.h"
#include "rules/procedure/xin.h"

struct proc_state {
	struct turn_clock clock;
	enum hazard_table table;  /* the channel's hazard die */
	enum procedure proc;      /* how light and rest are kept */
	struct xin chance;        /* the classic hazard die: X-in-N */
	bool gm_rolls;            /* only the GM passes turns (default: anyone) */
	struct rtable *custom;    /* the channel's own table, 1..die, or NULL (owned) */
	enum wander_proc wander;  /* the default wandering check (never retreat) */
	struct xin wander_chance; /* the classic wandering check's X-in-N */
	bool safe;                /* the party is in a safe area */
	int nvendors;             /* 0..VENDORS_MAX */
	struct vendor *vendors;   /* nvendors vendors met, owned (NULL when none) */
};

extern const struct chanmod proc_mod;

/* The channel's state, created on first use. */
struct proc_state *proc_of(struct channel *ch);

/* The vendor called name (case-insensitive), or NULL. */
struct vendor *proc_vendor(struct proc_state *s, const char *name);
/* Appends a zeroed vendor and returns it (the caller checked VENDORS_MAX). */
struct vendor *proc_vendor_add(struct proc_state *s);

#endif
