/* fgtable: a Fungeon table for the unit tests; see fgtable.h. */
#include "tests/unit/helpers/fgtable.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "bot/console/console_name.h"
#include "commands/core/state_int.h"
#include "commands/fungeon/fungeon_save.h"

struct fgtable *
fgtable_new(uint64_t seed)
{
	struct fgtable *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->st = state_new();
	t->rng = rng_new_seeded(seed);
	t->d = dispatch_new(&(struct dispatch_opts){.state = t->st, .rng = t->rng});
	t->last = reply_new();
	return t;
}

void
fgtable_free(struct fgtable *t)
{
	reply_free(t->last);
	dispatch_free(t->d);
	state_free(t->st);
	rng_free(t->rng);
	free(t);
}

/* The channel typed in. */
static struct channel *
chan_of(struct fgtable *t)
{
	char key[80];

	snprintf(key, sizeof(key), "console:%s", t->chan != NULL ? t->chan : "t");
	return state_channel(t->st, key);
}

char *
fgtable_run(struct fgtable *t, const char *user, const char *line)
{
	struct origin o = {.platform = "console", .channel_named = console_name_channel};

	snprintf(o.chan_key, sizeof(o.chan_key), "console:%s", t->chan != NULL ? t->chan : "t");
	snprintf(o.user_key, sizeof(o.user_key), "console:%s", user);
	snprintf(o.user_name, sizeof(o.user_name), "%s", user);
	reply_clear(t->last);
	if (t->by_hand)
		channel_drop_texts(chan_of(t));
	dispatch_line(t->d, &o, line, strlen(line), 1000, t->last);
	return reply_plain(t->last);
}

void
fgtable_ok(struct fgtable *t, const char *user, const char *line)
{
	char *text = fgtable_run(t, user, line);

	if (reply_is_error(t->last))
		fail_msg("'%s' failed: %s", line, text);
	free(text);
}

void
fgtable_gm(struct fgtable *t, const char *line)
{
	free(fgtable_run(t, "gm", "/gm claim")); /* refused when gm holds it already */
	fgtable_ok(t, "gm", line);
}

char *
fgtable_said(struct fgtable *t, const char *user, const char *line)
{
	char *text = fgtable_run(t, user, line);

	if (reply_is_error(t->last))
		fail_msg("'%s' failed: %s", line, text);
	return text;
}

void
fgtable_says(struct fgtable *t, const char *user, const char *line, const char *want)
{
	char *text = fgtable_said(t, user, line);

	fgtable_holds(text, want);
	free(text);
}

struct fungeon_channel *
fgtable_fungeon(struct fgtable *t)
{
	t->by_hand = true;
	return channel_mod(chan_of(t), CHANMOD_FUNGEON);
}

char *
fgtable_saved(struct fgtable *t)
{
	const void *mod = channel_mod_peek(chan_of(t), CHANMOD_FUNGEON);
	cJSON *j;
	char *s;

	if (mod == NULL)
		return strdup("(none)");
	j = fungeon_mod.save(mod);
	s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	return s;
}

void
fgtable_fails_unchanged(struct fgtable *t, const char *user, const char *line, const char *error)
{
	char *before = fgtable_saved(t), *after, *text;

	text = fgtable_run(t, user, line);
	if (!reply_is_error(t->last))
		fail_msg("'%s' did not fail: %s", line, text);
	if (error != NULL && strcmp(reply_error_text(t->last), error) != 0)
		fail_msg("'%s' said \"%s\", not \"%s\"", line, reply_error_text(t->last), error);
	after = fgtable_saved(t);
	if (strcmp(before, after) != 0)
		fail_msg("'%s' changed the state", line);
	free(before);
	free(after);
	free(text);
}

struct fungeon_channel *
fgtable_reload(struct fgtable *t)
{
	cJSON *j = fungeon_mod.save(fgtable_fungeon(t));
	char *a = cJSON_PrintUnformatted(j), err[200] = "";
	struct fungeon_channel *fresh = fungeon_mod.create();

	cJSON_Delete(j);
	j = cJSON_Parse(a);
	free(a);
	assert_non_null(j);
	if (fungeon_mod.load(fresh, j, err, sizeof(err)) != 0)
		fail_msg("load: %s", err);
	cJSON_Delete(j);
	channel_mod_set(chan_of(t), CHANMOD_FUNGEON, fresh);
	return fresh;
}

void
fgtable_round_trips(const struct fungeon_channel *c)
{
	cJSON *j = fungeon_mod.save(c);
	char *a = cJSON_PrintUnformatted(j), *b, err[200] = "";
	struct fungeon_channel *fresh = fungeon_mod.create();

	cJSON_Delete(j);
	j = cJSON_Parse(a);
	assert_non_null(j);
	if (fungeon_mod.load(fresh, j, err, sizeof(err)) != 0)
		fail_msg("load: %s", err);
	cJSON_Delete(j);
	j = fungeon_mod.save(fresh);
	b = cJSON_PrintUnformatted(j);
	assert_string_equal(a, b);
	assert_int_equal(fungeon_channel_bytes(fresh), fungeon_channel_bytes(c));
	cJSON_Delete(j);
	free(a);
	free(b);
	fungeon_mod.destroy(fresh);
}

void
fgtable_pick_all(struct fgtable *t)
{
	static const char *const words[] = {"traps", "monsters", "treasure"};
	const struct fungeon_channel *c = fgtable_fungeon(t);
	int next;

	while ((next = fungeon_hallway_picks_next(&c->d.room.picks)) >= 0) {
		char line[64];
		int k = 0;

		while (c->d.room.picks.holder[k] >= 0)
			k++;
		snprintf(line, sizeof(line), "/fungeon pick %s", words[k]);
		fgtable_ok(t, c->m[next].player, line);
	}
}

const char *
fgtable_holder(struct fgtable *t, enum fungeon_category cat)
{
	const struct fungeon_channel *c = fgtable_fungeon(t);
	int h = fungeon_channel_holder(c, cat);

	assert_true(h >= 0);
	return c->m[h].player;
}

void
fgtable_make(struct fgtable *t, enum fungeon_category cat, const char *line)
{
	fgtable_ok(t, fgtable_holder(t, cat), line);
}

char *
fgtable_waived_said(struct fgtable *t)
{
	const struct fungeon_channel *c = fgtable_fungeon(t);
	const char *held = channel_gm_name(chan_of(t));
	char gm[64], *text;

	if (held != NULL) {
		snprintf(gm, sizeof(gm), "%s", held);
		text = fgtable_said(t, gm, "/fungeon enter waive:true");
	} else {
		fgtable_ok(t, "gm", "/gm claim");
		text = fgtable_said(t, "gm", "/fungeon enter waive:true");
		fgtable_ok(t, "gm", "/gm release");
	}
	assert_int_equal(c->d.phase, FUNGEON_ROOM);
	return text;
}

void
fgtable_enter_waived(struct fgtable *t)
{
	free(fgtable_waived_said(t));
}

/* The i-th of al, bo, cy, di and ed joins as the level lv fighter Al, Bo,
 * Cy, Di or Ed. */
static void
fighter(struct fgtable *t, int i, int lv)
{
	static const char *const users[] = {"al", "bo", "cy", "di", "ed"};
	static const char *const names[] = {"Al", "Bo", "Cy", "Di", "Ed"};
	char line[64];

	snprintf(line, sizeof(line), "/fungeon join %s fighter %d", names[i], lv);
	fgtable_ok(t, users[i], line);
}

void
fgtable_fighters(struct fgtable *t, int n, int lv)
{
	assert_in_range(n, 1, 5);
	for (int i = 0; i < n; i++)
		fighter(t, i, lv);
}

void
fgtable_pair(struct fgtable *t, int al, int bo)
{
	fighter(t, 0, al);
	fighter(t, 1, bo);
}

void
fgtable_adventurers(struct fgtable *t, int alba, int brom, int cora)
{
	static const char *const users[] = {"alice", "bob", "carol"};
	static const char *const joins[] = {"Alba wizard", "Brom fighter", "Cora rogue"};
	const int lv[] = {alba, brom, cora};

	for (int i = 0; i < 3 && lv[i] > 0; i++) {
		char line[64];

		snprintf(line, sizeof(line), "/fungeon join %s %d", joins[i], lv[i]);
		fgtable_ok(t, users[i], line);
	}
}

struct fungeon_channel *
fgtable_drawn(struct fgtable *t, int n, int lv)
{
	fgtable_fighters(t, n, lv);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_pick_all(t);
	return fgtable_fungeon(t);
}

void
fgtable_held(struct fgtable *t, int i, const char *source, int annoy, const char *type)
{
	struct fungeon_effect e = {
	    .kind = FUNGEON_EFFECT_HOLD, .from = FUNGEON_FROM_MONSTER, .annoy = annoy};

	snprintf(e.source, sizeof(e.source), "%s", source);
	snprintf(e.type, sizeof(e.type), "%s", type);
	snprintf(e.maker, sizeof(e.maker), "console:%s", fgtable_holder(t, FUNGEON_CAT_MONSTERS));
	assert_int_equal(fungeon_effect_add(&fgtable_fungeon(t)->m[i], &e), 0);
}

void
fgtable_doomed(struct fgtable *t, int i, const char *item)
{
	struct fungeon_effect e = {.kind = FUNGEON_EFFECT_DAMAGE,
	                           .from = FUNGEON_FROM_TRAP,
	                           .source = "Needle",
	                           .annoy = 100,
	                           .pain = 100,
	                           .type = "poison"};
	struct fungeon_member *m = &fgtable_fungeon(t)->m[i];

	assert_int_equal(fungeon_effect_add(m, &e), 0);
	m->hits = 1;
	if (item != NULL)
		fgtable_give(t, i, item, 2, true);
}

void
fgtable_give(struct fgtable *t, int i, const char *name, int64_t cost, bool fancy)
{
	struct fungeon_item *it = fungeon_item_add(&fgtable_fungeon(t)->m[i]);

	snprintf(it->name, sizeof(it->name), "%s", name);
	it->d.kind = FUNGEON_TREASURE;
	it->d.fancy = fancy;
	it->cost = cost;
}

struct fungeon_channel *
fgtable_rooms_waived(struct fgtable *t, int rooms)
{
	struct fungeon_channel *c = fgtable_fungeon(t);

	for (int room = 0; room < rooms; room++) {
		fgtable_ok(t, c->m[0].player, "/fungeon hallway");
		fgtable_pick_all(t);
		fgtable_enter_waived(t);
	}
	return c;
}

void
fgtable_room_made(struct fgtable *t, const char *const *designs)
{
	fgtable_room_made_by(t, "al", designs);
}

void
fgtable_room_made_by(struct fgtable *t, const char *opener, const char *const *designs)
{
	fgtable_ok(t, opener, "/fungeon hallway");
	fgtable_pick_all(t);
	for (int i = 0; designs[i] != NULL; i++) {
		enum fungeon_category k = strstr(designs[i], "/fungeon trap ") ? FUNGEON_CAT_TRAPS
		                          : strstr(designs[i], "/fungeon monster ")
		                              ? FUNGEON_CAT_MONSTERS
		                              : FUNGEON_CAT_TREASURE;

		fgtable_make(t, k, designs[i]);
	}
	fgtable_enter_waived(t);
}

struct fungeon_channel *
fgtable_into_room(struct fgtable *t, int lv, const char *const *designs)
{
	char line[80];

	snprintf(line, sizeof(line), "/fungeon join Al fighter %d", lv);
	fgtable_ok(t, "al", line);
	fgtable_room_made(t, designs);
	return fgtable_fungeon(t);
}

struct fungeon_channel *
fgtable_two_in_room(struct fgtable *t, int lv, const char *const *designs)
{
	fgtable_fighters(t, 2, lv);
	fgtable_room_made(t, designs);
	return fgtable_fungeon(t);
}

void
fgtable_all_fall(struct fgtable *t)
{
	const struct fungeon_channel *c = fgtable_fungeon(t);

	for (int i = 0; i < c->n; i++) {
		char line[FUNGEON_NAME_MAX + 40];

		snprintf(line, sizeof(line), "/fungeon adjust %s hits:-99", c->m[i].name);
		fgtable_ok(t, c->m[i].player, line);
	}
}

struct fungeon_channel *
fgtable_heading_back(struct fgtable *t)
{
	struct fungeon_channel *c = fgtable_rooms_waived(t, 2);

	fgtable_ok(t, c->m[0].player, "/fungeon retreat confirm:true");
	assert_int_equal(c->d.phase, FUNGEON_RETREAT);
	assert_int_equal(c->d.room.number, 1);
	return c;
}

struct fungeon_channel *
fgtable_three(struct fgtable *t, const char *const *monsters)
{
	struct fungeon_channel *c;

	c = fgtable_drawn(t, 3, 6);
	/* the test wants cy to make the monsters: give cy the category */
	c->d.room.picks.holder[FUNGEON_CAT_MONSTERS] = 2;
	for (int i = 0; monsters[i] != NULL; i++)
		fgtable_ok(t, "cy", monsters[i]);
	fgtable_enter_waived(t);
	return c;
}

struct fungeon_channel *
fgtable_alone_on_floor(struct fgtable *t, int floor, const char *monster)
{
	char line[40];

	snprintf(line, sizeof(line), "/fungeon floor %d", floor);
	fgtable_ok(t, "al", "/fungeon join Al fighter 1");
	fgtable_ok(t, "al", "/fungeon entrance");
	fgtable_gm(t, line);
	fgtable_ok(t, "al", "/fungeon hallway");
	fgtable_ok(t, "al", monster);
	fgtable_enter_waived(t);
	return fgtable_fungeon(t);
}

void
fgtable_holds(const char *text, const char *want)
{
	if (strstr(text, want) == NULL)
		fail_msg("no \"%s\" in:\n%s", want, text);
}
