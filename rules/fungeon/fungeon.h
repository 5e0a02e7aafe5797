/*
 * fungeon: Fungeoneers, party math, levels, XP, hits and budgets (RULES.md
 * section 4).
 *
 * A Fungeoneer (struct fungeon_member) has a name, a free-text class (with,
 * optionally, the Type its class bonus is tied to: fire for a Fire Mage)
 * and a level; class bonus = floor(level / 2), max hits = 5 x level; it
 * dies at 0 hits, and its player makes a new one at level floor - 1 (at
 * least 1). The text caps no level: FUNGEON_LEVEL_MAX is the highest level
 * whose XP need 64-bit arithmetic can hold, and XP count up to INT64_MAX.
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
 * party costs what it carries rather than its limits. fungeon_member_free()
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

#include "rules/fungeon/fungeon_cost.h"

#define FUNGEON_DIE         6                         /* every Fungeon die is a d6 */
#define FUNGEON_KEY_MAX     128                       /* a player's user key, with the NUL */
#define FUNGEON_PLAYER_MAX  64                        /* a player's display name, with the NUL */
#define FUNGEON_CLASS_CHARS 40                        /* characters of a class */
#define FUNGEON_CLASS_MAX   (4 * FUNGEON_CLASS_CHARS) /* bytes of a class, without the NUL */
#define FUNGEON_PARTY_MAX   8
#define FUNGEON_ITEMS_MAX   8 /* treasure one Fungeoneer carries */
#define FUNGEON_EFFECTS_MAX 4 /* continuous effects on one Fungeoneer */
/* The deepest floor: a replacement there joins at floor - 1, the highest
 * level there is. */
#define FUNGEON_FLOOR_MAX     (FUNGEON_LEVEL_MAX + 1)
#define FUNGEON_XP_MAX        INT64_MAX /* XP one Fungeoneer may hold */
#define FUNGEON_POINTS_MAX    100000000 /* town credit and wandering points */
#define FUNGEON_SOLD_MAX      (4 * (int64_t)FUNGEON_POINTS_MAX) /* given up in one visit */
#define FUNGEON_SOURCE_MAX    (2 * FUNGEON_NAME_MAX + 2)
#define FUNGEON_WANDERERS_MAX 8  /* wandering monsters one player has yet to build */
#define FUNGEON_MAGIC_MAX     70 /* magic Annoy (or Pain) dice one Fungeoneer may carry */

enum fungeon_xp_rule {
	FUNGEON_XP_TABLE = 0, /* the level table (default) */
	FUNGEON_XP_FORMULA,   /* the prose formula (Ruling: configurable) */
};

enum fungeon_effect_kind {
	FUNGEON_EFFECT_HOLD = 0, /* Continuous Hold: loses combat turns */
	FUNGEON_EFFECT_DAMAGE,   /* Continuous Damage: Annoy, then Pain on a failure */
};

/* Where an effect came from, which says when it is rolled: a trap's
 * continuous damage in each hallway only; a monster's continuous features
 * (hold, damage) at the start of each combat turn, and its continuous
 * damage in the hallway too. */
enum fungeon_effect_from {
	FUNGEON_FROM_TRAP = 0,
	FUNGEON_FROM_MONSTER, /* a monster's special ability */
};

/* A continuous effect on a Fungeoneer, kept until one successful Annoy roll
 * against it (or magic ends continuous damage). It copies its source's
 * dice, so it outlives the room and the design it came from. */
struct fungeon_effect {
	enum fungeon_effect_kind kind;
	enum fungeon_effect_from from;
	char source[FUNGEON_SOURCE_MAX]; /* "Needle" or "wasp/sting" */
	char maker[FUNGEON_KEY_MAX];     /* the user key of its maker, who rolls it; "" nobody */
	int annoy, pain;
	bool universal;
	char type[FUNGEON_TYPE_MAX + 1];
	int64_t xp; /* XP of the successful Annoy roll that ends it (a trap's cost) */
};

struct fungeon_item {
	char name[FUNGEON_NAME_MAX + 1];
	struct fungeon_design d; /* a treasure */
	int64_t cost;
};

struct fungeon_member {
	char user_key[FUNGEON_KEY_MAX];
	char player[FUNGEON_PLAYER_MAX];
	char name[FUNGEON_NAME_MAX + 1];
	char cls[FUNGEON_CLASS_MAX + 1];
	char ctype[FUNGEON_TYPE_MAX + 1]; /* the Type its class bonus is tied to, or "" */
	int level, hits;
	int64_t xp;
	bool dead;
	bool fresh;     /* a replacement made since the last hallway */
	int64_t credit; /* town trade points from sold treasure */
	int64_t sold;   /* points of treasure given up in this visit to town */
	int nwander;    /* 0..FUNGEON_WANDERERS_MAX */
	int64_t wanderer[FUNGEON_WANDERERS_MAX]; /* points of each wandering monster to build */
	int nitems;                              /* 0..FUNGEON_ITEMS_MAX */
	struct fungeon_item *items;              /* nitems items, owned */
	int neffects;                            /* 0..FUNGEON_EFFECTS_MAX */
	struct fungeon_effect *effects;          /* neffects effects, owned */
	/* Whom its player chose for its won ranks to hurt in this room's
	 * fights (a Fungeoneer or monster), "" for the default. */
	char aim[FUNGEON_NAME_MAX + 1];
};

struct fungeon_party {
	int n; /* living Fungeoneers */
	int min, max, total;
};

struct fungeon_budgets {
	int64_t traps, monsters, treasure;
};

struct fungeon_levelup {
	int from, to;
	int hits_before, hits_after;
	int max_before, max_after;
	int bonus_before, bonus_after;
};

int fungeon_class_bonus(int level);
int fungeon_max_hits(int level);

/* Party Min/Max/Total over the living; all 0 when nobody lives. */
void fungeon_party_math(const struct fungeon_member *m, int n, struct fungeon_party *out);
/* Party Min/Max/Total over the party in play: the living but those who
 * wait to join (fresh, made since the last hallway); all 0 when nobody is
 * in play. */
void fungeon_party_in_play(const struct fungeon_member *m, int n, struct fungeon_party *out);

/* The floor in play: the one set, or (0 = not set) the entrance, Party Min
 * (1 for an empty party). */
int fungeon_floor(int floor_set, const struct fungeon_party *p);

void fungeon_budgets(const struct fungeon_party *p, int floor, struct fungeon_budgets *out);

/* The level a replacement Fungeoneer starts at: floor - 1, at least 1. */
int fungeon_replacement_level(int floor);

/* How a word typed where a class or class type goes reads as a level. */
enum fungeon_level_form {
	FUNGEON_LEVEL_NONE,   /* as no number ("fire") */
	FUNGEON_LEVEL_DIGITS, /* a number in the digits 0 to 9 ("3", "2.5", "-1") */
	FUNGEON_LEVEL_WORDS,  /* as num_word(s, true) reads it ("three", "3rd") */
	/* numerals other than the digits 0 to 9, alone or among them: another
	 * script's digits (fullwidth "２", Arabic-Indic "٣"), superscripts
	 * ("³"), circled or fractions ("③", "½"), CJK numerals ("三",
	 * "十二"): a level is written in 0 to 9, so these name none */
	FUNGEON_LEVEL_OTHER_DIGITS,
	/* a Roman numeral: one of the characters "Ⅰ" to "Ⅻ" ("ⅰ" to "ⅻ"), or
	 * two letters or more of I, V and X written as one (2 to 39, "III",
	 * "xii"; "x" alone is a word) */
	FUNGEON_LEVEL_ROMAN,
	/* a level's label, "L", "Lv", "Lvl" or "Level" (case folded), with a
	 * number after it ("L3", "lvl.3", "Level-3", "L３") or alone
	 * ("level", "lvl", "レベル": the label of a level typed apart,
	 * fungeon_level_label()); or numerals
	 * with a CJK label ("三級", "3级", "第三", "レベル3") */
	FUNGEON_LEVEL_LABELLED,
};

/* Whether s is a level's label with no number: "level", "lvl" or "lv"
 * (any case, a '.', '-' or '_' after it allowed), or "レベル", "等級" or
 * "等级", the CJK labels FUNGEON_LEVEL_LABELLED knows. */
bool fungeon_level_label(const char *s);

/* How s, typed as a class or class type, reads as a level: the form, and
 * in *level the level (FUNGEON_LEVEL_MIN..FUNGEON_LEVEL_MAX) it names, or
 * -1 when it names none ("fire", "2.5", "zero", "seventy", "２", "³",
 * "level"; "Ⅲ" and "L3" name 3). This is
 * the one reading of a level typed in the wrong place, in digits or in
 * words. */
enum fungeon_level_form fungeon_level_typed(const char *s, int *level);

/* Total XP needed to be at `level` (1..FUNGEON_LEVEL_MAX) under the rule;
 * -1 for a level past FUNGEON_LEVEL_MAX, whose need 64 bits cannot hold. */
int64_t fungeon_xp_needed(enum fungeon_xp_rule rule, int level);

/* The highest level (1..FUNGEON_LEVEL_MAX) that xp reaches under the rule. */
int fungeon_level_for_xp(enum fungeon_xp_rule rule, int64_t xp);

/* A fresh Fungeoneer at full hits with 0 XP, whatever its level (XP then
 * counts up against the level table from there). m must own nothing (never
 * initialised, or freed by fungeon_member_free()). */
void fungeon_member_init(struct fungeon_member *m, const char *user_key, const char *player,
                         const char *name, const char *cls, int level);

/* Applies every level m's XP reaches (never lowering a level). Returns true
 * and fills up (may be NULL) when m gained at least one level. Dead
 * Fungeoneers do not level. */
bool fungeon_level_up(struct fungeon_member *m, enum fungeon_xp_rule rule,
                      struct fungeon_levelup *up);

/* Frees what m owns (its items and effects); m then holds none. */
void fungeon_member_free(struct fungeon_member *m);

/* The owned arrays' two moves (rules/mem.h: they never fail). Each takes
 * p, an array of n elements of size bytes, and returns it resized: grown
 * to n + 1 with the new last element zeroed, or with element i (< n)
 * removed, the others keeping their order (NULL when none is left). */
void *fungeon_array_grow(void *p, int n, size_t size);
void *fungeon_array_drop(void *p, int n, int i, size_t size);

/* Appends a zeroed item to m and returns it, or NULL when m carries
 * FUNGEON_ITEMS_MAX already. Pointers to m's items are then stale. */
struct fungeon_item *fungeon_item_add(struct fungeon_member *m);
/* Removes item i (ignored when out of range), keeping the others' order. */
void fungeon_item_remove(struct fungeon_member *m, int i);
/* The item of m called name (case-insensitive), or -1. */
int fungeon_item_find(const struct fungeon_member *m, const char *name);
/* base with the number k after it ("Gem2"), base cut short so that it is
 * a name of at most FUNGEON_NAME_CHARS characters; out holds
 * FUNGEON_NAME_MAX + 1. */
void fungeon_numbered_name(const char *base, int k, char *out);

/* Gives m's player one more wandering monster of `points` to build (each
 * failure on the way back builds its own; points never pool). Returns -1
 * when m has FUNGEON_WANDERERS_MAX already. */
int fungeon_add_wanderer(struct fungeon_member *m, int64_t points);
/* Removes wanderer i (built), keeping the others' order. */
void fungeon_wanderer_remove(struct fungeon_member *m, int i);

/*
 * Town trading: the treasure given up gives half its points to spend on
 * new treasure, rounded down (text 000, line 297; the 11-point sword gives
 * 5), rounded once over all m gave up in this visit to town (m->sold), so
 * the order or splitting of its sales never costs a point: two 1-point
 * coins give 1. Adds the sale of treasure costing `cost` (>= 0) to m->sold
 * and returns the points it added to m's credit (half the new total less
 * half the old, each rounded down), or -1 (nothing changed) when the credit
 * would pass FUNGEON_POINTS_MAX or m->sold FUNGEON_SOLD_MAX.
 */
int64_t fungeon_sell(struct fungeon_member *m, int64_t cost);
/* What selling treasure costing `cost` would add to m's credit now: half
 * of m->sold + cost, rounded down, less half of m->sold, rounded down. */
int64_t fungeon_sale_gain(const struct fungeon_member *m, int64_t cost);
/* The party leaves town: what each gave up there is rounded for good. */
void fungeon_town_leave(struct fungeon_member *m, int n);

/* Moves item i of the dead Fungeoneer `from` to the living `to` (its
 * treasure is left for the others to plunder). Returns -1 when from lives,
 * to is dead, i is out of range or to carries FUNGEON_ITEMS_MAX already. */
int fungeon_plunder(struct fungeon_member *from, int i, struct fungeon_member *to);
/* A magic treasure used on m ends its continuous damage. Returns how many
 * effects ended. */
int fungeon_magic_cure(struct fungeon_member *m);

/* Takes n hits (down to 0). Returns true when m died of it; its continuous
 * effects end then. */
bool fungeon_damage(struct fungeon_member *m, int n);
/* Heals n hits (up to max); the dead are not healed. Returns hits gained. */
int fungeon_heal(struct fungeon_member *m, int n);
/* A new game session (a Ruling on "Heading Back to Town", which limits
 * healing to magic treasure during a game session): m's hits are whole
 * again. The dead are not healed. Returns hits gained. */
int fungeon_heal_new_session(struct fungeon_member *m);
/* Adds n >= 0 XP earned in play. Returns 0, or -1 when the sum would pass
 * FUNGEON_XP_MAX: m then holds FUNGEON_XP_MAX (the caller says so). */
int fungeon_add_xp(struct fungeon_member *m, int64_t n);

/* Whether treasure item's magic applies against damage of `type`: it is
 * magic of a universal type, or of the same type (case-insensitive). */
bool fungeon_item_matches(const struct fungeon_design *item, const char *type);

/* Whether m's class is tied to damage of `type` (its class type, the same
 * word case-insensitively); "" matches nothing. */
bool fungeon_class_fits(const struct fungeon_member *m, const char *type);

/* Whether m has a Type a monster's Resist dice may be bought against: its
 * class type, or the type of magic Annoy or Pain dice it carries (universal
 * magic is of every type). */
bool fungeon_has_type(const struct fungeon_member *m, const char *type);

/*
 * Dice a Fungeoneer rolls against an obstacle of damage `type` (may be "")
 * that is `universal` or not. Annoy: level, plus class bonus (when `bonus`,
 * the class fits) and matching magic Annoy dice unless universal (against
 * a universal obstacle nobody adds either, on Annoy as on Pain). Pain: level,
 * plus class bonus and matching magic Pain dice unless universal (universal
 * damage: no class bonus or magic protection applies). *magic receives the
 * magic dice counted (may be NULL).
 */
int fungeon_annoy_dice(const struct fungeon_member *m, bool bonus, const char *type, bool universal,
                       int *magic);
int fungeon_pain_dice(const struct fungeon_member *m, bool bonus, const char *type, bool universal,
                      int *magic);

/* Adds an effect (replacing one from the same source). Returns -1 when m
 * already carries FUNGEON_EFFECTS_MAX others. Pointers to m's effects are then
 * stale, as after fungeon_effect_remove(). */
int fungeon_effect_add(struct fungeon_member *m, const struct fungeon_effect *e);
void fungeon_effect_remove(struct fungeon_member *m, int i);

#endif
