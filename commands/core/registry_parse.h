/*
 * registry_parse: a command's words bound to the options its declaration
 * (commands/core/registry.h) gives it, as checked, typed values.
 *
 * A typed line is split at blanks, "double quotes" grouping words (also in
 * name:"two words"), and a lone # starts label text that is never parsed.
 * The first words name the command and its subcommands; the rest are
 * name:value words, bound by name, or values bound by position, a value the
 * option next in line cannot take going on to the next option that can,
 * and passing options the command's first value does not take (struct
 * cmd_opt's when); odds (OPT_ODDS) are one value of one or several words
 * ("2 in 6"; by name too: "odds:2 in 6"). Discord's options arrive named and are bound one by one.
 * Whatever does not bind (an unknown command, subcommand or option, a word no option takes, a value
 * out of range or among no choices, given twice, too long or holding control characters, a required
 * option missing) is refused with one sentence naming it, and the usage.
 */
#ifndef DELVER_REGISTRY_PARSE_H
#define DELVER_REGISTRY_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/core/registry.h"
#include "rules/base/buf.h"

/*
 * Parses a command line without its prefix ("roll 4d6kh3 # Stealth") into
 * inv->cmd, inv->path and inv->args against table (command_table, or a
 * test's own). Returns 0, or -1 with an error reply that names what is
 * wrong and shows the usage. Free the values with invocation_clear().
 */
int registry_parse_in(const struct command *const *table, const char *line, size_t len,
                      struct invocation *inv, struct reply *out);
/*
 * The same for a line typed in a channel whose records are not loaded yet:
 * when the command it names takes the channel's default for its first
 * option (registry_has_channel_default()), no option is bound and 1 is
 * returned, inv->cmd and inv->path naming the command and inv->words
 * holding the line's words: registry_parse_later() binds them once
 * inv->chan is known. The line must stay as it is until then.
 */
int registry_parse_before_channel(const struct command *const *table, const char *line, size_t len,
                                  struct invocation *inv, struct reply *out);
/* Binds the options of a line registry_parse_before_channel() returned 1
 * for, from the words it kept (which it frees), as registry_parse_in()
 * would have. Returns 0, or -1 with an error reply. */
int registry_parse_later(struct invocation *inv, struct reply *out);

/*
 * Binds one option given by name to inv (for Discord, whose options arrive
 * named and typed; values are given as text). Returns 0, or -1 with an error
 * reply. registry_parse_check_required() then reports a missing required
 * option.
 */
int registry_parse_bind(struct invocation *inv, const char *name, const char *value,
                        struct reply *out);
int registry_parse_check_required(struct invocation *inv, struct reply *out);
/* Resolves a subcommand path given as names (Discord); NULL names end it. */
int registry_parse_select(struct invocation *inv, const char *const *names, struct reply *out);

/* The most words a typed line may have. */
#define REGISTRY_WORDS_MAX 128

/*
 * Splits a typed line (len bytes) into its words as registry_parse_in()
 * reads them: at blanks, "double quotes" grouping words and removed, up to
 * a lone # (the label text after it is no word). The words are copied to
 * store, which holds len + REGISTRY_WORDS_MAX bytes, and pointed to from
 * words (REGISTRY_WORDS_MAX of them). Returns how many, or -1 when the
 * line has more.
 */
int registry_parse_words(const char *line, size_t len, char *store, const char **words);

/* Whether the text v (well-formed UTF-8) is blank: only spaces, tabs and
 * characters a reply shows as nothing (rules/base/textsafe.h), or empty. */
bool registry_parse_blank(const char *v);

/* Whether v reads as a whole number, as a number option typed by
 * position takes it ("3", "-1", "+2"). */
bool registry_parse_number(const char *v);

/* Whether option i of inv->cmd is filled by position under the value its
 * first option holds, given or the channel's default (struct cmd_opt's
 * when); every option applies while that value is unknown. */
bool registry_parse_applies(const struct invocation *inv, int i);

/* Whether v is one of the choices of option o (which has choices), whatever
 * its case. */
bool registry_parse_choice(const struct cmd_opt *o, const char *v);

/*
 * Reads v (len bytes) as a yes/no option's value, whatever its case: true,
 * yes, on or 1 set *b true; false, no, off or 0 set it false. Returns
 * whether v is one of them (else *b is unchanged).
 */
bool registry_parse_bool(const char *v, size_t len, bool *b);
/* Appends those values as a refusal names them: "true or false, yes or
 * no, on or off, 1 or 0". */
void registry_parse_bool_words(struct buf *b);

#endif
