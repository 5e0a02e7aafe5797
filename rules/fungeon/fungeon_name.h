/*
 * fungeon_name: what a name, a class, a type or a design word a player
 * gives may be (pure; no state). Names of Fungeoneers, designs and
 * abilities are at most FUNGEON_NAME_CHARS characters, types
 * FUNGEON_TYPE_CHARS (rules/fungeon/fungeon_cost.h).
 */
#ifndef DELVER_FUNGEON_NAME_H
#define DELVER_FUNGEON_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* Whether s is a valid name for a Fungeoneer, a design or an ability:
 * 1..FUNGEON_NAME_CHARS characters of UTF-8 with no whitespace, no control
 * character and none of : , > / " # (which the commands use as
 * separators). */
bool fungeon_name_valid(const char *s);
/* The same for a word of at most `chars` characters (a Type: at most
 * FUNGEON_TYPE_CHARS). */
bool fungeon_name_word_valid(const char *s, size_t chars);

/* Whether text a player gives now (a name, a class, a type, a design)
 * shows as it is typed: well-formed UTF-8 without what replies take out
 * (rules/base/textsafe.h: controls, bidi controls, invisible characters;
 * but a zero-width joiner or non-joiner between two characters, where it
 * changes what shows (utf8_joiner_shows(): an emoji family, Persian's and
 * the Indic scripts' spelling), is part of the name) and with no word
 * that starts with a combining mark (an accent with no letter under it).
 * Text already saved is read without this check. */
bool fungeon_name_shows(const char *s);

/* Whether a name would read two ways: a number (digits or number signs
 * of any script alone, signed or not), or one of the words the commands and replies give a meaning
 * (none, all, tie, dead), case folded. A new name must not be one; names
 * saved before are read without this check. */
bool fungeon_name_reserved(const char *s);

#endif
