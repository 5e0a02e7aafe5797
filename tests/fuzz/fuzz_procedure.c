/*
 * fuzz_procedure: the dungeon procedure's parsers and commands. The first byte
 * picks the target; the rest is its text:
 *   0 X-in-N odds, 1 back-to-town players, 2 a custom table's die,
 *   3 a light selector, 4 a saved procedure state (JSON), 5 a custom hazard
 *   table, anything else: command lines (one per line) run through the
 *   dispatcher in one channel, as the GM and as a player.
 * Nothing may crash, leak or trip a sanitizer; a loaded state must save
 * and load again.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/core/dispatch.h"
#include "commands/procedure/procedure_state.h"
#include "rules/base/rng.h"

static void
load_state(const char *text)
{
	cJSON *o = cJSON_Parse(text), *again;
	struct procedure_state *s = procedure_state_mod.create(), *t;
	struct turn_report r;
	struct turn_how how = {.effect = HZ_LIGHT};
	char err[200];

	if (o != NULL && procedure_state_mod.load(s, o, err, sizeof(err)) == 0) {
		again = procedure_state_mod.save(s);
		t = procedure_state_mod.create();
		if (procedure_state_mod.load(t, again, err, sizeof(err)) != 0)
			abort(); /* what was saved must load */
		turn_report_init(&r);
		turn_pass(&t->clock, t->proc, &how, &r);
		turn_advance(&t->clock, t->proc, 3, &r);
		procedure_state_mod.destroy(t);
		cJSON_Delete(again);
	}
	cJSON_Delete(o);
	procedure_state_mod.destroy(s);
}

static void
custom_table(const char *text)
{
	struct roll_table t;
	struct hazard_view v;
	char err[200];

	if (roll_table_parse(text, 1, 8, &t, err, sizeof(err)) < 0)
		return;
	if (hazard_view(HAZARD_CUSTOM, (struct odds){1, 6}, &t, PROC_DELVING, &v) != 0)
		abort();
	for (int roll = 1; roll <= 8; roll++)
		(void)hazard_row_of(&v, roll);
}

static void
commands(const char *text)
{
	struct state *st = state_new();
	struct rng *rng = rng_new_seeded(1);
	struct dispatch *d = dispatch_new(&(struct dispatch_opts){.state = st, .rng = rng});
	struct origin gm = {.platform = "console",
	                    .chan_key = "console:f",
	                    .user_key = "console:gm",
	                    .user_name = "gm"};
	struct origin pl = gm;
	const char *p = text;

	snprintf(pl.user_key, sizeof(pl.user_key), "console:pl");
	snprintf(pl.user_name, sizeof(pl.user_name), "pl");
	for (int i = 0; *p != '\0' && i < 64; i++) {
		size_t len = strcspn(p, "\n");
		struct reply *r = reply_new();

		dispatch_line(d, i % 3 == 2 ? &pl : &gm, p, len, 0, r);
		free(reply_plain(r));
		reply_free(r);
		p += len;
		if (*p == '\n')
			p++;
	}
	dispatch_free(d);
	state_free(st);
	rng_free(rng);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, err[200];

	if (size < 1 || size > 4096)
		return 0;
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0]) {
	case 0: {
		struct odds c;

		(void)odds_parse(text, &c, err, sizeof(err));
		break;
	}
	case 1: {
		struct retreat_player p[RETREAT_PLAYERS_MAX];

		(void)wander_retreat_parse(text, p, err, sizeof(err));
		break;
	}
	case 2: {
		int sides;

		(void)hazard_parse_die(text, &sides, err, sizeof(err));
		break;
	}
	case 3: {
		struct lights ls = {0};
		size_t idx[LIGHT_MAX];

		light_add(&ls, LIGHT_TORCH, 3, "a", err, sizeof(err));
		light_add(&ls, LIGHT_LANTERN, 2, NULL, err, sizeof(err));
		(void)light_select(&ls, text, idx, err, sizeof(err));
		break;
	}
	case 4:
		load_state(text);
		break;
	case 5:
		custom_table(text);
		break;
	default:
		commands(text);
		break;
	}
	free(text);
	return 0;
}
