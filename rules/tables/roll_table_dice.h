/*
 * roll_table_dice: the dice written inside a table entry's text ("2d4
 * goblins"), rolled when the entry comes up. Pure: the RNG is the caller's,
 * and the text goes into the caller's buffer.
 */
#ifndef DELVER_ROLL_TABLE_DICE_H
#define DELVER_ROLL_TABLE_DICE_H

#include <stdint.h>

#include "rules/base/buf.h"

struct rng;

/*
 * Rolls the dice written inside an entry's text: each word that is a dice
 * expression in /roll's notation ("1d4", "2d6+1", "4d6kh3", "3d6!", "d20",
 * with trailing punctuation ignored; "1d20 adv" and "1d20 dis" as /roll
 * reads them) is
 * rolled and replaced by its total, and what was rolled is appended:
 * "2d4 goblins" becomes "5 goblins (2d4: 3+2)". Other words are copied as
 * they are. Appends to out; returns the number of expressions rolled.
 */
int roll_table_dice_roll_text(const char *text, struct rng *rng, struct buf *out);

/* Bytes of the notes of one entry ("2d4: 3+2; 1d6: 4"); a longer list is
 * cut and marked. */
#define ROLL_TABLE_NOTES_MAX 1024

/* Dice expressions one entry rolls; an entry with more is refused when
 * it is set (roll_table_dice_check), and one saved before that rolls its
 * first ones and says the rest were not rolled. */
#define ROLL_TABLE_DICE_WORDS_MAX 8

/*
 * The same for len bytes of text, one part of an entry: the words go to
 * out, and what was rolled is added to notes ("2d4: 3+2", separated by
 * "; ") instead of being appended, so that the parts of one entry share
 * one list (roll_table_dice_notes() appends it). *dice_left is how many
 * dice the whole command may still roll (DICE_ROLLED_MAX, as /roll, to
 * start with): each expression's dice are taken from it, and one that
 * would pass it stays as written, followed by a note in out saying so
 * (once; *dice_left is then -1, and later expressions stay as written).
 * *words_left is how many more expressions the entry may roll
 * (ROLL_TABLE_DICE_WORDS_MAX to start with): past it an expression stays as
 * written, followed the first time by a note saying so (*words_left is
 * then -1). Returns the number of expressions rolled.
 */
int roll_table_dice_roll_part(const char *text, size_t len, struct rng *rng, int64_t *dice_left,
                              int *words_left, struct buf *out, struct buf *notes);
/* Appends " (notes)" to out, or nothing when notes is empty. */
void roll_table_dice_notes(const struct buf *notes, struct buf *out);

/*
 * Checks the dice written inside an entry's text as roll_table_dice_roll_text()
 * would find them: a word that is dice notation but breaks a limit of
 * NOTATION.md, so that it could never be rolled, is an error. Returns 0,
 * or -1 with "in '1d1000000000', ..." (the dice parser's reason, lower-cased
 * and without its full stop) in err.
 */
int roll_table_dice_check(const char *text, size_t len, char *err, size_t errlen);

#endif
