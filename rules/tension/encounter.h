/*
 * d12: the D12 dungeon crawl's encounter check (RULES.md section 3), shared
 * by /tension roll and /wander tension: roll a d12; an encounter happens if
 * the roll is at most the room's exits or at most the current Tension.
 */
#ifndef DELVER_ENCOUNTER_H
#define DELVER_ENCOUNTER_H

#include <stdbool.h>

struct rng;

struct encounter_check {
	int roll;        /* the d12, 1..12 */
	int exits;       /* as given */
	int tension;     /* as given */
	bool by_exits;   /* roll <= exits */
	bool by_tension; /* roll <= tension */
	bool encounter;  /* either */
};

/* Rolls the check. exits >= 0, tension 1..10. */
void encounter_check(struct rng *r, int exits, int tension, struct encounter_check *out);

#endif
