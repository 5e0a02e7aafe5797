/*
 * registry: the command table and what is derived from it.
 *
 * Every command is declared once, as a const struct command: its name,
 * description, options (type, required, choices, limits), subcommands, who
 * may run it and its help text. From that one declaration come text parsing
 * for the console and IRC (`roll 4d6kh3 label:Stealth`, positional or
 * name:value: commands/core/registry_parse.h), usage messages, /help, and
 * Discord's registration JSON. A handler never sees a value the declaration
 * does not allow.
 */
#ifndef DELVER_REGISTRY_H
#define DELVER_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/completions.h"
#include "commands/core/invocation.h"
#include "commands/core/reply.h"
#include "commands/core/state.h"

#define CMD_LINE_MAX   2000 /* bytes in one command line */
#define OPT_STRING_MAX 200  /* default bytes in a string value */

enum opt_type {
	OPT_STRING,
	OPT_INT,
	OPT_BOOL,
	OPT_USER, /* a player: a name on text platforms, a user on Discord */
};

/* Option flags. */
#define OPT_REQUIRED     0x1u
#define OPT_REST         0x2u /* a positional string taking the rest of the line */
#define OPT_AUTOCOMPLETE 0x4u /* Discord may ask for suggestions */
/* A string that may hold line breaks (one given by a form, or typed line
 * by line: reply_ask); other control characters are still refused. */
#define OPT_LINES 0x8u
/* A rest-of-line option that a "# text" label alone binds as its text,
 * without the '#' (a reason, a note): its length is the text's. */
#define OPT_LABEL 0x10u
/* A string holding odds (rules/procedure/odds.h: 2-in-6, 2in6, 2/6,
 * 2 in 6, 2 6, or 2 for 2-in-6), checked as odds_parse() reads them and
 * refused with its sentence: typed by position it is one value of one or
 * several words, and given by name as a number it reads on over "in N"
 * (registry_parse.h). Read it with invocation_odds(). */
#define OPT_ODDS 0x20u
/* A text of only blanks and characters a reply shows as nothing (a
 * zero-width space, a bidi control: registry_parse_blank()) is no value:
 * the option counts as not given ("reason: " is no reason). */
#define OPT_BLANK_NONE 0x40u
/* A text that names something (a vendor, an item, a creature, a saved
 * roll, a table, a channel, a Fungeoneer, its class or its die's mark),
 * picks an entry or is one roll: as an OPT_USER value, a word typed by
 * position that is shaped like an option given by name ("nmae:Gus", a
 * letter, then letters, digits, '-' or '_', then ':') and is no option of
 * the command is refused with the command's options, not taken as the
 * name; quoted, it is the name. An OPT_LABEL text (a reason, a note) holds
 * such words freely, and refuses only a first word close to one of the
 * command's options ("reasn:"). */
#define OPT_NAME 0x80u
/* A rest-of-line text whose errors name columns in it (a dice
 * expression): typed by position, its words keep the blanks typed between
 * them, so that a column named is the column typed ("2d6   3d" faults the
 * 3 at column 7). Other texts part their words with single spaces (a
 * vendor's name "Old   Gus" is Old Gus). */
#define OPT_TYPED 0x100u

/* The range a command holds an OPT_INT option to under one value of its
 * first option (struct cmd_opt's ranges). */
struct opt_range {
	const char *when; /* a value of the command's first option */
	int64_t min, max;
};

struct cmd_opt {
	const char *name; /* lowercase, 1-32 chars, unique within the command */
	const char *desc; /* one line, at most 100 chars */
	enum opt_type type;
	unsigned flags;
	int64_t min, max;           /* OPT_INT bounds; OPT_STRING max length (0: default) */
	const char *const *choices; /* NULL-terminated allowed values, or NULL */
	/*
	 * Suggests values for a partly typed one (OPT_AUTOCOMPLETE), or NULL:
	 * then the choices that contain the partial text are suggested. inv has
	 * its context (channel, user, is_gm) and the options typed so far; the
	 * function adds values with completions_add() and changes nothing.
	 */
	void (*complete)(struct invocation *inv, const char *partial, struct completions *out);
	/*
	 * Refuses a text value the option can never take before its length
	 * is checked, so that the refusal says what the value is not (a die
	 * left out, the entries typed in its place, is no die rather than a
	 * die too long): writes one error sentence to out and returns -1, or
	 * returns 0 and lets the value on to the other checks. Called on
	 * values without control characters. NULL: no such check.
	 */
	int (*check)(struct invocation *inv, const char *value, struct reply *out);
	/*
	 * The values of the command's first option (one with choices) under
	 * which this option is filled by position, NULL-terminated, or NULL:
	 * under any. When the first option was given another value (or holds
	 * the channel's default another one: channel_default), a word
	 * typed by position passes this option by for the next one that
	 * applies ("/wander rest 3" gives exits, "/wander classic 2 6" the
	 * odds); a number no option that applies is left for still goes to
	 * this one, for the command to say where it belongs.
	 */
	const char *const *when;
	/*
	 * The value the command's first option (one with choices) takes in
	 * channel ch when it is not given (the channel's default check), or
	 * NULL: none; set on that option alone. A typed line of such a
	 * command is read once the channel's records are loaded
	 * (commands/core/dispatch.h), so that the other options' when apply
	 * to that value, and a number or odds typed where that option goes
	 * pass it by for the next option that applies. Without the channel
	 * (Discord's named options, a line a test reads alone) every option
	 * applies.
	 */
	const char *(*channel_default)(const struct channel *ch);
	/*
	 * For an OPT_INT option that the command holds to a narrower range
	 * under some values of its first option (given, or the channel's
	 * default), those ranges, ended by a zeroed entry, or NULL. A value
	 * min and max refuse is refused naming the range under the first
	 * option's value, the one the command takes ("/wander rest x": exits
	 * from 1 to 20); within min and max the command checks it.
	 */
	const struct opt_range *ranges;
};

enum cmd_role {
	ROLE_ANYONE = 0,
	ROLE_GM, /* the channel's GM or a platform admin */
};

typedef void (*cmd_fn)(struct invocation *inv, struct reply *out);

/* A part of a command's help with a page of its own (/help roll marks):
 * the command's help lists its topics, so that help stays short enough
 * for IRC and still leads to everything. */
struct help_topic {
	const char *name; /* one lowercase word, no subcommand's name */
	const char *desc; /* what it covers, a few words */
	const char *text; /* trusted text as command.help: "{/path}" a reference */
};

struct command {
	const char *name;                /* lowercase, 1-32 chars */
	const char *desc;                /* one line, at most 100 chars */
	const char *help;                /* more text for /help <command>, or NULL */
	const struct help_topic *topics; /* array ended by a zeroed entry, or NULL */
	enum cmd_role role;
	const struct cmd_opt *opts; /* array ended by a zeroed entry, or NULL */
	const struct command *subs; /* array ended by a zeroed entry, or NULL */
	const char *default_sub;    /* run when no subcommand is named */
	cmd_fn fn;                  /* NULL when the command only has subs */
	/* A short name typed lines also accept ("r" for roll), or NULL; it
	 * may never equal another command's name or alias. */
	const char *alias;
	/* The handler (fn) only reads: it never changes a channel or user
	 * record, whatever its options, so no /undo snapshot is taken before
	 * it runs (commands/core/undo.h). tests/unit/test_undo.c runs every command
	 * so marked on a channel using every module and checks that the
	 * records' bytes are unchanged, so the mark cannot lie. */
	bool read_only;
	/*
	 * Reads again a typed line of this command that the registry refused,
	 * once the channel's records are loaded (inv->chan, inv->line and
	 * inv->line_len are set, no option is bound; out holds the registry's
	 * refusal): when those records show what the words meant (a vendor's
	 * name of several words typed without quotes), replaces that refusal
	 * with its own (reply_error) and returns true; otherwise leaves out as
	 * it is and returns false. It changes nothing. NULL: the registry's
	 * refusal stands.
	 */
	bool (*misread)(struct invocation *inv, struct reply *out);
};

/* The top-level commands, ended by a NULL entry (commands/core/commands.c). */
extern const struct command *const command_table[];

/* A line the console answers itself (bot/console/console.c), not a command
 * of the table: /help lists it on the console, and an unknown name there
 * may be a slip for it. */
struct console_line {
	const char *name;  /* "as" */
	const char *usage; /* "/as NAME" */
	const char *desc;  /* one line, no full stop */
};

/* The console's own lines, ended by a zeroed entry (commands/core/commands.c). */
extern const struct console_line console_lines[];

/*
 * Appends to the open line of out (an error naming what was typed) the
 * closest command to typed (len bytes) among table's names, and on the
 * console the console's own lines too: "; did you mean /roll?", which
 * ends the sentence, and returns true; with none close, every name:
 * "; the commands are roll, ..., help" and, when console, "; on the
 * console also as, channel and quit", and returns false: the caller
 * ends the sentence.
 */
bool registry_unknown_add(const struct command *const *table, const char *typed, size_t len,
                          bool console, struct reply *out);

/*
 * The known words a mistyped one may mean, among the n words of cands
 * (NULL ones skipped; case aside throughout): the one it is; else every
 * one it begins, each once ("cl" for claim, "c" for classic and custom:
 * the start of a word is typed for the word, as /procedure takes a
 * section by its start); else the one within a typing slip of it (an edit
 * distance of 1, or 2 for words of seven letters or more; letters swapped
 * count one; none when two are as close). Returns how many, the first max
 * of them in found.
 */
size_t registry_suggest_all(const char *typed, const char *const *cands, size_t n,
                            const char **found, size_t max);
/* The one word registry_suggest_all() finds, or NULL when it finds none
 * or several. */
const char *registry_suggest(const char *typed, const char *const *cands, size_t n);

/* The most words a "did you mean" names: beyond that it names none. */
#define REGISTRY_SUGGEST_MAX 8

/* Appends the n words, each followed by after ("" or ":"), as a choice
 * between them: "a", "a or b", "a, b or c". */
void registry_or_list(struct buf *b, const char *const *words, size_t n, const char *after);
/* Appends lead, then "did you mean " and the words registry_suggest_all()
 * finds for typed (as registry_or_list() writes them), then "?"; returns
 * false, appending nothing, when it finds none or more than
 * REGISTRY_SUGGEST_MAX. */
bool registry_did_you_mean(struct buf *b, const char *lead, const char *typed,
                           const char *const *cands, size_t n, const char *after);

/* Appends the n option names as a refusal lists them: "label: and
 * private:", "name:, secret: and who:". */
void registry_opt_list(struct buf *b, const char *const *names, size_t n);

/* The top-level command of that name (or alias), or NULL. */
const struct command *registry_find(const char *name, size_t len);
/* The subcommand of c named by the first len bytes of name, or NULL
 * (case-insensitive, like every command name). */
const struct command *registry_find_sub(const struct command *c, const char *name, size_t len);
/* The same in another table (tests use their own tables). */
const struct command *registry_find_in(const struct command *const *table, const char *name,
                                       size_t len);
/* The command (parent NULL) or the subcommand of parent that well-formed
 * word[0..len) names once what textsafe removes (invisible characters,
 * controls) is left out, or NULL: whether a word refused for such a
 * character was meant as that command. */
const struct command *registry_find_cleaned(const struct command *parent, const char *word,
                                            size_t len);
/* Whether c's first option takes the channel's default when not given
 * (struct cmd_opt's channel_default), so that a typed line of c is read
 * once the channel is known. */
bool registry_has_channel_default(const struct command *c);

/* The index of option name in c's options, or -1. */
int registry_opt_index(const struct command *c, const char *name, size_t len);
/* Whether option i of c is filled by position: every option before the
 * first OPT_REST one, and that one. */
bool registry_opt_positional(const struct command *c, int i);

/* Usage of any command node, named by its full path ("tension table set"):
 * "roll <expression> [label:text] [private:true|false]". */
void registry_usage_of(const struct command *const *path, char *buf, size_t len);
/* The same usage appended to out as a command reference, which each
 * platform writes as it is typed there. */
void registry_usage_add(const struct command *const *path, unsigned style, struct reply *out);

#endif
