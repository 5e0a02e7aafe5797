/*
 * fungeon_render: how Fungeon rolls and the outcomes of
 * rules/fungeon/fungeon_play.h look in a reply (shared by every conflict
 * command). Renders only: nothing here changes the channel's state or draws
 * a die. Everything is appended to the caller's reply; nothing is kept.
 */
#ifndef DELVER_FUNGEON_RENDER_H
#define DELVER_FUNGEON_RENDER_H

#include <stddef.h>

#include "commands/fungeon/fungeon.h"
#include "commands/fungeon/thwacko_style.h"
#include "commands/core/registry.h"

/* The lines naming who narrates, from a narration found by rules/ (with
 * any Thwack-O tie re-rolls shown); nothing when no player rolled. */
void fungeon_render_narration_lines(struct reply *out, const struct cf_narration *n,
                                    const struct fungeon_channel *c,
                                    const struct thwacko_style *styles, const char *what);

/* The line naming who narrates so far in a combat turn: the highest
 * Thwack-O rolled in it yet, or the players tied for it (re-rolled only
 * when the turn ends tied); nothing while nobody rolled one. */
void fungeon_render_turn_so_far(struct reply *out, const struct cf_turn *t,
                                const struct fungeon_channel *c,
                                const struct thwacko_style *styles);

/* Renders an Annoying conflict's outcome: the obstacle's roll, then each
 * member's with its result and XP. */
void fungeon_render_annoy(struct reply *out, const struct fungeon_channel *c,
                          const struct fungeon_play_obstacle *o, const struct fungeon_play_annoy *a,
                          const struct thwacko_style *styles);

/* The bytes of a dice line's label: a whole source ("monster/ability",
 * FUNGEON_SOURCE_MAX) fits, so a monster's or an ability's line shows its
 * name whole. */
#define FUNGEON_LABEL_MAX FUNGEON_SOURCE_MAX
/* Copies src into dst[size], cut short on a character boundary and marked
 * with "…" when it does not fit (a long name with its player's), so that
 * a cut label never reads as a whole one. size is at least 4. */
void fungeon_render_fit_label(char *dst, size_t size, const char *src);
/* Renders group g as "label: 6 ◆4 1" (the Thwack-O die in its player's
 * style), then the suffix; ends the line, a working one without a suffix
 * (reply_working). */
void fungeon_render_group_line(struct reply *out, const struct cf_group *g, const char *label,
                               const struct thwacko_style *styles, const char *suffix);

/* Appends to the line in progress that m, taken to 0 hits, dies: its
 * player is out until the party's next stop (fungeon_rights_out_until),
 * and, when it carries any, its treasure fate ("stays here to plunder");
 * rendered before the death moves that treasure. */
void fungeon_render_death(struct reply *out, const struct fungeon_channel *c,
                          const struct fungeon_member *m, const char *fate);

/* Renders one continuous-effect roll (hallway step 3 when in_hallway,
 * else combat step 1). */
void fungeon_render_cont(struct reply *out, const struct fungeon_channel *c,
                         const struct fungeon_cont *k, const struct thwacko_style *styles,
                         bool in_hallway);

/* The rank-by-rank table of a Painful conflict: a row per rank with each
 * roll's die there (0 once it ran out; the Thwack-O die carries its
 * player's mark; one dead from an earlier rank counts 0 there, its die
 * shown beside: "0 (dead, rolled 4)"), the winner and the damage point it
 * dealt. */
void fungeon_render_pain_table(struct reply *out, const char *const *names,
                               const struct cf_group *const *g, int n, const struct cf_pain *res,
                               const struct thwacko_style *styles, const struct fungeon_channel *c);

/* Whether the party would leave monsters standing or treasure untaken
 * (the room's, or what the dead left) in room r. */
bool fungeon_render_anything_behind(const struct fungeon_room *r);
/* Says what the party leaves behind in room r ("room 2 with 3 monsters
 * standing (a, b, c) and 2 treasures untaken (x, y)"), when
 * fungeon_render_anything_behind(). */
void fungeon_render_left_behind(struct reply *out, const struct fungeon_room *r, unsigned style);
/* Writes into buf the names of what the dead left in room r and nobody
 * took ("antidote, coin"; at most six, then "..."); returns how many
 * there are. */
int fungeon_render_dead_left(const struct fungeon_room *r, char *buf, size_t len);
/* Names the new Fungeoneers who join the party in town (made on the way,
 * or in the dungeon before the party turned back, at floor - 1): in town
 * a new one's level is its player's to choose, and the line says how. */
void fungeon_render_joining_in_town(const struct fungeon_channel *c, struct reply *out);
/* On the way back, leaving room r: when the dead left treasure there that
 * nobody took, asks to confirm going on (ask: returns true, the caller
 * stops) or says it stays behind for good (returns false); nothing and
 * false when there is none. */
bool fungeon_render_dead_left_behind(struct reply *out, const struct fungeon_room *r, bool ask);
/* On the way back, once the room re-entered has no wandering monster left
 * to build or standing: says how to go on (`/fungeon retreat`, with a "Go
 * on" button) and returns true; otherwise says nothing and returns false. */
bool fungeon_render_go_on_back(const struct fungeon_channel *c, struct reply *out);

/* The line saying that m, carrying FUNGEON_EFFECTS_MAX continuous
 * effects, was not given source's: "Lo carries 4 continuous effects
 * already, the most the bot keeps: c5's is not added." */
void fungeon_render_effect_full(struct reply *out, const struct fungeon_member *m,
                                const char *source);
/* That line for each member of a whose effects found no room. */
void fungeon_render_effects_full(struct reply *out, const struct fungeon_channel *c,
                                 const struct fungeon_play_annoy *a, const char *source);

#endif
