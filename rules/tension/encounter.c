/* encounter: the D12 encounter check; see encounter.h. */
#include "rules/tension/encounter.h"

#include "rules/base/rng.h"

void
encounter_check(struct rng *r, int exits, int tension, struct encounter_check *out)
{
	out->roll = (int)rng_die(r, 12);
	out->exits = exits;
	out->tension = tension;
	out->by_exits = out->roll <= exits;
	out->by_tension = out->roll <= tension;
	out->encounter = out->by_exits || out->by_tension;
}
