/*
 * roll_words: the command's own options typed among the words of a roll's
 * text (/roll's and /gmroll's expression, /save's roll), which the option
 * parser hands on whole: a yes/no option written in the label
 * ("/roll 1d20 # insight private:true", "/save boom 2d6 # fire
 * channel:true") is the option the user meant, and a word written as an
 * option the command has not ("lable:fire") is said to be one.
 */
#ifndef DELVER_ROLL_WORDS_H
#define DELVER_ROLL_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/core/registry.h"

/* The first word "NAME:" (name is NAME without its ':') of text before its
 * label and outside any term's "[label]", or NULL: an option typed among
 * the dice. */
const char *roll_words_option(const char *text, const char *name);

/*
 * Finds a word "NAME:VALUE" (name is NAME without its ':') in text at or
 * after from (a word starts there or after a space, and ends at a space or
 * ';'). Returns 0 when there is none; 1 when VALUE is a yes/no option's
 * value (registry_parse_bool: *value) and out (outlen bytes) holds text
 * without that word and a space beside it; -1 when VALUE is none (bad,
 * badlen bytes, then holds the word, for the error).
 */
int roll_words_find(const char *text, size_t from, const char *name, bool *value, char *out,
                    size_t outlen, char *bad, size_t badlen);

/*
 * roll_words_find() on the label of text (after its '#' outside any term's
 * "[label]", dice_label_find): the same returns, and a label that was only
 * that word goes from out with its '#' and the blanks before it. Returns
 * 0 when text has no label.
 */
int roll_words_in_label(const char *text, const char *name, bool *value, char *out, size_t outlen,
                        char *bad, size_t badlen);

/* Starts the refusal in out of bad, a word of /cmd's label that gives its
 * yes/no option name (roll_words_find) a value it does not take: what is
 * wrong and the values taken; the caller ends the sentence. */
void roll_words_bad(struct reply *out, const char *cmd, const char *name, const char *bad);

/* Refuses in out /cmd's yes/no option name given as given and, in the
 * label, as the other value: neither is silently dropped. */
void roll_words_twice(struct reply *out, const char *cmd, const char *name, bool given);

/*
 * When the roll's text typed (the command's rest-of-line option, which
 * failed to parse as dice) holds a word written as an option
 * ("lable:fire") that the command has not, before its label: replies so,
 * naming the command's options and the likeliest one, and, for label:,
 * where a label goes when the command has no such option. Returns
 * whether it replied.
 */
bool roll_words_typo(const struct invocation *inv, const char *typed, struct reply *out);

#endif
