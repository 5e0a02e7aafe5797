/*
 * Fungeon benchmarks: the largest Painful conflict the limits allow (13
 * participants of 100 dice: roll, sort, resolve, narrate), whole commands
 * through the console for a full party of 8 at level 20, the channel
 * module's JSON for a full channel (size and save+load time), and the
 * memory a channel's state holds, full and for a small party.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "tests/bench/bench.h"
#include "bot/console/console.h"
#include "commands/fungeon/fungeon_channel.h"
#include "commands/fungeon/fungeon_save.h"
#include "rules/base/rng.h"

static void
biggest_pain(int n)
{
	struct rng *rng = rng_new_seeded(1);
	struct cf_roll *r = calloc(1, sizeof(*r));
	struct cf_pain *res = calloc(1, sizeof(*res));
	struct cf_pain_part parts[CF_PARTS_MAX];
	struct cf_narration nar;
	double t0, t1;
	long dealt = 0;

	r->ng = CF_PARTS_MAX;
	for (int i = 0; i < CF_PARTS_MAX; i++) {
		r->g[i].player = i < 8 ? i : -1;
		r->g[i].n = CF_DICE_MAX;
		parts[i] = (struct cf_pain_part){
		    .g = &r->g[i], .side = i < 8 ? 0 : 1, .hits = 1000, .target = -1};
	}
	t0 = bench_now_ns();
	for (int k = 0; k < n; k++) {
		conflict_roll(rng, r, 6);
		for (int i = 0; i < r->ng; i++)
			conflict_sort(&r->g[i]);
		conflict_narrator(rng, r, 6, &nar);
		conflict_pain(parts, CF_PARTS_MAX, res);
		dealt += res->dealt[0];
	}
	t1 = bench_now_ns();
	printf("Painful conflict, 13 x 160 dice (roll+sort+narrate+resolve): %8.0f ns (%d runs, "
	       "%ld dealt)\n",
	       (t1 - t0) / n, n, dealt);
	free(r);
	free(res);
	rng_free(rng);
}

/* Runs line n times; with reset, every Fungeoneer and monster is back to
 * full hits and every trap hidden after each run (so a fight or a search
 * can be repeated). */
static void
command(struct console *c, struct fungeon_channel *fc, const char *line, int n, bool reset)
{
	struct buf out;
	double t0, t1;
	size_t bytes = 0;

	buf_init(&out, 1 << 22);
	t0 = bench_now_ns();
	for (int i = 0; i < n; i++) {
		console_handle_line(c, line, strlen(line), &out);
		bytes = out.len;
		buf_reset(&out);
		for (int k = 0; reset && k < fc->n; k++) {
			fc->m[k].hits = fungeon_max_hits(fc->m[k].level);
			fc->m[k].dead = false;
		}
		for (int k = 0; reset && k < fc->d.room.n[FUNGEON_MONSTER]; k++)
			fc->d.room.p[FUNGEON_MONSTER][k].hits =
			    fungeon_cost_monster_hits(fc->d.room.p[FUNGEON_MONSTER][k].d.level);
		for (int k = 0; reset && k < fc->d.room.n[FUNGEON_TRAP]; k++) {
			fc->d.room.p[FUNGEON_TRAP][k].state = FUNGEON_TRAP_HIDDEN;
			fc->d.room.p[FUNGEON_TRAP][k].unaware = 0;
		}
	}
	t1 = bench_now_ns();
	printf("console %-52.52s %8.0f ns/command (%zu bytes out)\n", line, (t1 - t0) / n, bytes);
	buf_free(&out);
}

static void say(struct console *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
say(struct console *c, const char *fmt, ...)
{
	char line[300];
	struct buf out;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	buf_init(&out, 1 << 22);
	console_handle_line(c, line, strlen(line), &out);
	buf_free(&out);
}

/* Adds a priced piece of kind k to the room, made by p0. */
static void
piece(struct fungeon_channel *fc, enum fungeon_kind k, const char *name, const char *spec)
{
	struct fungeon_piece *s = fungeon_room_add(&fc->d.room, k);
	struct fungeon_price p;
	char err[200];

	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->maker, sizeof(s->maker), "console:p0");
	if (fungeon_cost_parse(k, spec, &s->d, err, sizeof(err)) < 0 ||
	    fungeon_cost_price(&s->d, &p, err, sizeof(err)) < 0) {
		printf("%s: %s\n", spec, err);
		exit(1);
	}
	s->cost = p.total;
	s->hits = k == FUNGEON_MONSTER ? fungeon_cost_monster_hits(s->d.level) : 0;
}

/* A channel with a 3-player party in a room with a trap and a monster. */
static void
small_channel(struct dispatch *d)
{
	struct console_opts o = {.user = "q0", .channel = "small", .ansi = true};
	struct console *c = console_new(d, &o);
	const struct fungeon_channel *fc;

	say(c, "/as q0");
	say(c, "/fungeon join G0 fighter 3");
	say(c, "/fungeon hallway"); /* alone: q0 makes the room */
	for (int i = 1; i < 3; i++) {
		say(c, "/as q%d", i);
		say(c, "/fungeon join G%d fighter 3", i);
	}
	say(c, "/as q0");
	say(c, "/fungeon trap add pit annoy 2 pain 1 type darts");
	say(c, "/fungeon monster add rat level 3");
	say(c, "/fungeon enter waive:true");
	fc = fungeon_channel_peek(state_channel(dispatch_state(d), "console:small"));
	printf("small channel (%d members, %d pieces): state %zu bytes in memory\n", fc->n,
	       fc->d.room.n[FUNGEON_TRAP] + fc->d.room.n[FUNGEON_MONSTER] +
	           fc->d.room.n[FUNGEON_TREASURE],
	       fungeon_channel_bytes(fc));
	console_free(c);
}

int
main(void)
{
	struct dispatch *d =
	    dispatch_new(&(struct dispatch_opts){.state = state_new(), .rng = rng_new_seeded(1)});
	struct console_opts o = {.user = "p0", .channel = "table", .ansi = true};
	struct console *c = console_new(d, &o);
	struct fungeon_channel *fc;
	double t0, t1;
	char name[16];

	biggest_pain(2000);
	for (int i = 0; i < FUNGEON_PARTY_MAX; i++) {
		say(c, "/as p%d", i);
		say(c, "/fungeon join F%d fighter 20", i);
	}
	say(c, "/as p0");
	say(c, "/fungeon entrance");
	say(c, "/gm claim"); /* the floor by hand is the GM's */
	say(c, "/fungeon floor 1");
	say(c, "/fungeon hallway");
	fc = channel_mod(state_channel(dispatch_state(d), "console:table"), CHANMOD_FUNGEON);
	/* a full room: its makers' budgets aside, as many pieces as it holds */
	for (int k = 0; k < FUNGEON_DESIGNS_MAX; k++) {
		snprintf(name, sizeof(name), "t%d", k);
		piece(fc, FUNGEON_TRAP, name, "annoy 4 pain 4 type fire");
		snprintf(name, sizeof(name), "m%d", k);
		piece(
		    fc, FUNGEON_MONSTER, name,
		    "level 5 ability bite annoy 4 pain 4 type claws ability hide annoy 1 resist 2 "
		    "fire type fire");
		snprintf(name, sizeof(name), "r%d", k);
		piece(fc, FUNGEON_TREASURE, name, "fancy pain 1 type fire");
	}
	fc->d.room.picks = (struct fungeon_picks){
	    .n = 1, .order = {0}, .holder = {0, 0, 0}, .made = FUNGEON_CAT_COUNT};
	say(c, "/fungeon enter waive:true");
	command(c, fc, "/fungeon combat m0 m1 m2 m3 use:m0/bite,m1/bite targets:F0>m0 bonus:all",
	        20000, true);
	command(c, fc, "/fungeon find t0 F0", 20000, true);
	command(
	    c, fc,
	    "/fungeon cost monster level 20 ability breath annoy 80 pain 80 universal type fire",
	    20000, false);
	command(c, fc, "/fungeon party", 20000, false);
	{
		int n = 200;
		size_t size = 0;

		t0 = bench_now_ns();
		for (int i = 0; i < n; i++) {
			cJSON *j = fungeon_mod.save(fc);
			char *s = cJSON_PrintUnformatted(j);
			void *fresh = fungeon_mod.create();
			char err[200];

			size = strlen(s);
			if (fungeon_mod.load(fresh, j, err, sizeof(err)) != 0)
				printf("load failed: %s\n", err);
			fungeon_mod.destroy(fresh);
			free(s);
			cJSON_Delete(j);
		}
		t1 = bench_now_ns();
		printf("full channel (8 members, 72 pieces): %zu bytes of JSON, save+load %.0f us; "
		       "state %zu bytes in memory\n",
		       size, (t1 - t0) / n / 1000, fungeon_channel_bytes(fc));
	}
	small_channel(d);
	console_free(c);
	state_free(dispatch_state(d));
	rng_free(dispatch_rng(d));
	dispatch_free(d);
	return 0;
}
