/*
 * cmd_fungeon_design: /fungeon cost, trap, monster and treasure: designs
 * priced against the room's budget and made for the room. The subcommand
 * tables are static data for the /fungeon table in cmd_fungeon.c; the
 * pieces belong to the channel's Fungeon state.
 */
#ifndef DELVER_CMD_FUNGEON_DESIGN_H
#define DELVER_CMD_FUNGEON_DESIGN_H

#include "commands/core/registry.h"
#include "rules/fungeon/fungeon_cost.h"

extern const struct command cmd_fungeon_design_cost_subs[];
extern const struct command cmd_fungeon_design_trap_subs[];
extern const struct command cmd_fungeon_design_monster_subs[];
extern const struct command cmd_fungeon_design_treasure_subs[];

/* Parses, prices and bounds the design of kind k in the "design" option.
 * Returns 0, or -1 with an error reply. */
int cmd_fungeon_design_of(struct invocation *inv, enum fungeon_kind k, struct fungeon_design *d,
                          struct fungeon_price *p, struct reply *out);

#define CMD_FUNGEON_DESIGN_STR_(x) #x
#define CMD_FUNGEON_DESIGN_STR(x)  CMD_FUNGEON_DESIGN_STR_(x)
/* The rules of names and class types, for cmd_fungeon_design_word(). */
#define CMD_FUNGEON_DESIGN_NAME_RULE                                                               \
	"name is 1 to " CMD_FUNGEON_DESIGN_STR(                                                    \
	    FUNGEON_NAME_CHARS) " characters with no spaces or "                                   \
	                        ": , > / \" #"
#define CMD_FUNGEON_DESIGN_TYPE_RULE                                                               \
	"a class type is one word of 1 to " CMD_FUNGEON_DESIGN_STR(                                \
	    FUNGEON_TYPE_CHARS) " characters (fire, frost, poison) with no spaces or : , > / \" #"

/* Whether word is a name or word of 1 to chars characters
 * (fungeon_name_word_valid()); else an error reply and false: rule (a
 * sentence without its capital and its period, "a name is 1 to 24
 * characters ...") after the word quoted when it is too long, alone
 * otherwise. */
bool cmd_fungeon_design_word(const char *word, size_t chars, const char *rule, struct reply *out);

/* Whether text the invoker gives now shows as it is typed
 * (fungeon_name_shows()); else an error reply that starts with what
 * ("A name", "A class") and false. */
bool cmd_fungeon_design_shows(const char *what, const char *text, struct reply *out);
/* Whether a new name reads one way only (fungeon_name_reserved());
 * else an error reply and false. */
bool cmd_fungeon_design_name_free(const char *name, struct reply *out);

#endif
