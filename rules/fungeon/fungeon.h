/*
 * fungeon: Fungeoneers, party math, levels, XP, hits and budgets (RULES.md
 * section 4).
 *
 * A Fungeoneer (struct fg_member) has a name, a free-text class and a level
 * 1..20; class bonus = floor(level / 2), max hits = 5 x level; it dies at 0
 * hits, and its player makes a new one at level floor - 1 (at least 1).
 * Party Min, Max and Total are over the living Fungeoneers; the entrance
 * opens on floor = Party Min. Budgets: Traps = Party Max + floor, Monsters =
 * Party Total + floor (every monster costs at least floor points), Treasure
 * = Party Min + floor.
 *
 * XP: the table (default) gives the total XP for each level, 0 10 40 80 160
 * 320 640 1280 2560 5120 for levels 1..10, and 10 x 2^(level-1) beyond.
 * Ruling: the prose formula (level up when XP >= 10 x 2^(current level - 1),
 * so 20 XP for level 3) is the configurable alternative. Level-ups happen
 * in the hallway, several at once if the XP allows; each level gained
 * recomputes class bonus and max hits and heals 5 hits.
 *
 * Memory: a Fungeoneer owns its items and effects, each an array of
 * exactly as many elements as it holds (NULL when it holds none), so a
 * party costs what it carries rather than its limits. fg_member_free()
 * releases them; allocation follows rules/mem.h (it never fails). A
 * member may be moved (memmove) but never copied: a copy would share the
 * arrays.
 *
 * Pure: no I/O, no globals.
 */
#ifndef DELVER_FUNGEON_H
#define DELVER_FUNGEON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/fungeon/fgcost.h"

#define FG_DIE           6   /* every Fungeon die is a d6 */
#define FG_KEY_MAX       128 /* a player's user key, with the NUL */
#define FG_PLAYER_MAX    64  /* a player's display name, with the NUL */
#define FG_CLASS_MAX     24  /* bytes of a class, without the NUL */
#define FG_PARTY_MAX     8
#define FG_ITEMS_MAX     8 /* treasure one Fungeoneer carries */
#define FG_EFFECTS_MAX   4 /* continuous effects on one Fungeoneer */
#define FG_FLOOR_MAX     99
#define FG_XP_MAX        100000000 /* XP one Fungeoneer may hold */
#define FG_SOURCE_MAX    (2 * FG_NAME_MAX + 2)
#define FG_WANDERERS_MAX 8 /* wandering monsters one player has yet to build */

enum fg_xp_rule {
	FG_XP_TABLE = 0, /* the level table (default) */
	FG_XP_FORMULA,   /* the prose formula (Ruling: configurable) */
};

enum fg_effect_kind {
	FG_EFFECT_HOLD = 0, /* Continuous Hold: loses combat turns */
	FG_EFFECT_DAMAGE,   /* Continuous Damage: Pain each hallway and turn */
};

/* A continuous effect on a Fungeoneer, kept until one successful Annoy roll
 * against it (or magic cures it). It copies its source's dice, so it
 * outlives the design it came from. */
struct fg_effect {
	enum fg_effect_kind kind;
	char source[FG_SOURCE_MAX]; /* "pit" or "wasp/sting" */
	int annoy, pain;
	bool universal;
	char type[FG_TYPE_MAX + 1];
};

struct fg_item {
	char name[FG_NAME_MAX + 1];
	struct fg_design d; /* a treasure */
	int64_t cost;
};

struct fg_member {
	char user_key[FG_KEY_MAX];
	char player[FG_PLAYER_MAX];
	char name[FG_NAME_MAX + 1];
	char cls[FG_CLASS_MAX + 1];
	int level, hits;
	int64_t xp;
	bool dead;
	bool fresh;                         /* a replacement made since the last hallway */
	int64_t credit;                     /* town trade points from sold treasure */
	int nwander;                        /* 0..FG_WANDERERS_MAX */
	int64_t wanderer[FG_WANDERERS_MAX]; /* points of each wandering monster to build */
	int nitems;                         /* 0..FG_ITEMS_MAX */
	struct fg_item *items;              /* nitems items, owned */
	int neffects;                       /* 0..FG_EFFECTS_MAX */
	struct fg_effect *effects;          /* neffects effects, owned */
};

struct fg_party {
	int n; /* living Fungeoneers */
	int min, max, total;
};

struct fg_budgets {
	int64_t traps, monsters, treasure;
};

struct fg_levelup {
	int from, to;
	int hits_before, hits_after;
	int max_before, max_after;
	int bonus_before, bonus_after;
};

int fg_class_bonus(int level);
int fg_max_hits(int level);

/* Party Min/Max/Total over the living; all 0 when nobody lives. */
void fg_party_math(const struct fg_member *m, int n, struct fg_party *out);

/* The floor in play: the one set, or (0 = not set) the entrance, Party Min
 * (1 for an empty party). */
int fg_floor(int floor_set, const struct fg_party *p);

void fg_budgets(const struct fg_party *p, int floor, struct fg_budgets *out);

/* The level a replacement Fungeoneer starts at: floor - 1, at least 1. */
int fg_replacement_level(int floor);

/* Total XP needed to be at `level` (1..FG_LEVEL_MAX) under the rule. */
int64_t fg_xp_needed(enum fg_xp_rule rule, int level);

/* The highest level (1..FG_LEVEL_MAX) that xp reaches under the rule. */
int fg_level_for_xp(enum fg_xp_rule rule, int64_t xp);

/* A fresh Fungeoneer at full hits with 0 XP, whatever its level (XP then
 * counts up against the level table from there). m must own nothing (never
 * initialised, or freed by fg_member_free()). */
void fg_member_init(struct fg_member *m, const char *user_key, const char *player, const char *name,
                    const char *cls, int level);

/* Applies every level m's XP reaches (never lowering a level). Returns true
 * and fills up (may be NULL) when m gained at least one level. Dead
 * Fungeoneers do not level. */
bool fg_level_up(struct fg_member *m, enum fg_xp_rule rule, struct fg_levelup *up);

/* Frees what m owns (its items and effects); m then holds none. */
void fg_member_free(struct fg_member *m);

/* The owned arrays' two moves (rules/mem.h: they never fail). Each takes
 * p, an array of n elements of size bytes, and returns it resized: grown
 * to n + 1 with the new last element zeroed, or with element i (< n)
 * removed, the others keeping their order (NULL when none is left). */
void *fg_array_grow(void *p, int n, size_t size);
void *fg_array_drop(void *p, int n, int i, size_t size);

/* Appends a zeroed item to m and returns it, or NULL when m carries
 * FG_ITEMS_MAX already. Pointers to m's items are then stale. */
struct fg_item *fg_item_add(struct fg_member *m);
/* Removes item i (ignored when out of range), keeping the others' order. */
void fg_item_remove(struct fg_member *m, int i);

/* Gives m's player one more wandering monster of `points` to build (each
 * failure on the way back builds its own; points never pool). Returns -1
 * when m has FG_WANDERERS_MAX already. */
int fg_add_wanderer(struct fg_member *m, int64_t points);
/* Removes wanderer i (built), keeping the others' order. */
void fg_wanderer_remove(struct fg_member *m, int i);

/* Moves item i of the dead Fungeoneer `from` to the living `to` (its
 * treasure is left for the others to plunder). Returns -1 when from lives,
 * to is dead, i is out of range or to carries FG_ITEMS_MAX already. */
int fg_plunder(struct fg_member *from, int i, struct fg_member *to);
/* A magic treasure used on m ends its continuous damage. Returns how many
 * effects ended. */
int fg_magic_cure(struct fg_member *m);

/* Takes n hits (down to 0). Returns true when m died of it; its continuous
 * effects end then. */
bool fg_damage(struct fg_member *m, int n);
/* Heals n hits (up to max); the dead are not healed. Returns hits gained. */
int fg_heal(struct fg_member *m, int n);
/* Adds n XP (n may be negative), keeping 0..FG_XP_MAX. */
void fg_add_xp(struct fg_member *m, int64_t n);

/* Whether treasure item's magic applies against damage of `type`: it is
 * magic of a universal type, or of the same type (case-insensitive). */
bool fg_item_matches(const struct fg_design *item, const char *type);

/*
 * Dice a Fungeoneer rolls against an obstacle of damage `type` (may be "")
 * that is `universal` or not. Annoy: level, plus class bonus (when `bonus`,
 * the class fits) and matching magic Annoy dice unless universal (against
 * a universal obstacle nobody adds either, on Annoy as on Pain). Pain: level,
 * plus class bonus and matching magic Pain dice unless universal (universal
 * damage: no class bonus or magic protection applies). *magic receives the
 * magic dice counted (may be NULL).
 */
int fg_annoy_dice(const struct fg_member *m, bool bonus, const char *type, bool universal,
                  int *magic);
int fg_pain_dice(const struct fg_member *m, bool bonus, const char *type, bool universal,
                 int *magic);

/* Adds an effect (replacing one from the same source). Returns -1 when m
 * already carries FG_EFFECTS_MAX others. Pointers to m's effects are then
 * stale, as after fg_effect_remove(). */
int fg_effect_add(struct fg_member *m, const struct fg_effect *e);
void fg_effect_remove(struct fg_member *m, int i);

#endif
