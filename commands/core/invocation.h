/*
 * invocation: one parsed command as its handler sees it: the command, its
 * option values, who ran it where (struct origin, filled by the
 * transport), the records it runs on, and the helpers a handler asks it
 * through: option values by name, the GM check, the channel a user
 * names, and the clean-up.
 *
 * Ownership: string values belong to the invocation until
 * invocation_clear().
 */
#ifndef DELVER_INVOCATION_H
#define DELVER_INVOCATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/state.h"
#include "rules/procedure/odds.h"

#define CMD_MAX_OPTS 16 /* options of one command */

struct command;
struct registry_words;
struct reply;
struct rng;

/* Where a command came from, filled by the transport. */
struct origin {
	const char *platform;   /* "console", "discord", "irc" */
	char chan_key[KEY_MAX]; /* platform-qualified channel key */
	/* A thread's (or forum post's) parent channel key, "" elsewhere: the
	 * thread keeps its own state, and while its own GM seat is empty the
	 * parent's seat is in force there (invocation_seat). */
	char parent_key[KEY_MAX];
	char user_key[KEY_MAX]; /* platform-qualified user key */
	/* The key older versions gave this user, when it differs ("" when
	 * none): records under it are adopted on use (state_adopt). */
	char legacy_user_key[KEY_MAX];
	char user_name[NAME_MAX_LEN];
	bool platform_admin; /* Discord manage rights, IRC channel operator, ... */
	bool direct;         /* a private conversation with the bot */
	/* The name the platform knows user_key by now, or NULL when it cannot
	 * tell (IRC: the nick that identity uses now, after a NICK); NULL on
	 * platforms whose names stay as the user last gave them. The GM seat
	 * is renamed by it (an IRC GM who changed nick is named by the new
	 * one before running a command again). */
	const char *(*name_now)(void *ctx, const char *user_key);
	void *name_ctx; /* the transport's: name_now's ctx, read by channel_named and
	                 * unreachable too */
	/* Reads text (a user's words naming a channel, as this platform writes
	 * one) as the key of that channel into key (KEY_MAX bytes); returns
	 * false when text names no channel. o is this origin (its keys tell the network, its
	 * name_ctx the connection, whose case folding an IRC server sets). Filled by the transport;
	 * NULL where no channel can be named. */
	bool (*channel_named)(const struct origin *o, const char *text, char *key);
	/* Whether user_key (the GM) is known to refuse what the transport
	 * sends one user alone (Discord: a GM who takes no direct messages
	 * from the bot, known from a recent refusal), so that what goes to
	 * the GM reaches nobody. o is this origin (its name_ctx the
	 * transport's). NULL where the transport cannot tell. */
	bool (*unreachable)(const struct origin *o, const char *user_key);
};

struct cmd_arg {
	bool set;
	/* Typed by position where an earlier option could not take it
	 * (registry_parse.c route(): "join Shade Shadow Mage 3" puts Mage in type:). */
	bool routed;
	/* Given by its name (name:value typed, or an option Discord names):
	 * the user said which option the value is for. */
	bool named;
	/* Typed by position as one word in double quotes ("two"): the user
	 * said the value is text, as typed, not a number or a word the bot
	 * reads. */
	bool quoted;
	int64_t i;
	bool b;
	char *s; /* owned by the invocation */
	/* An OPT_ODDS value the registry read as odds (odds_read, into
	 * odds); false where the first option's value takes no odds (struct
	 * cmd_opt's when: s is kept as typed). */
	bool odds_read;
	struct odds odds;
};

struct invocation {
	const struct command *cmd;     /* the leaf command that runs */
	const struct command *path[3]; /* root .. leaf, NULL-padded */
	struct cmd_arg args[CMD_MAX_OPTS];
	const struct origin *from;
	struct state *state;
	struct channel *chan;
	/* The channel whose GM seat is in force here: chan, or the parent of
	 * a thread whose own seat is empty (invocation_seat). Read it for who
	 * the GM is; claim and release chan's own seat. */
	struct channel *seat;
	struct user *user;
	struct rng *rng;
	int64_t now; /* unix seconds */
	bool is_gm;  /* the invoker may run GM commands here */
	/* The typed line without its prefix, when the command was typed
	 * (console, IRC); NULL for a bound invocation (Discord). Valid while
	 * the command runs. */
	const char *line;
	size_t line_len;
	/* The registry refused the typed line and the command reads refused
	 * lines again (struct command's misread): the runner asks it, and the
	 * registry's refusal stands unless it gives a better one; the handler
	 * never runs. */
	bool misread;
	/* The command's first option takes the channel's default when not
	 * given (struct cmd_opt's channel_default): the typed line names the
	 * command (cmd, path) and its options are read once the channel's
	 * records are loaded (registry_parse_before_channel). */
	bool read_later;
	/* Its words, split before the channel was known, until
	 * registry_parse_later() binds them (registry_parse.h); owned by the
	 * invocation, NULL when none are kept. */
	struct registry_words *words;
	/* Made behind the GM's screen: the undo history keeps a step for it
	 * whatever it changed and names it to players as made behind the
	 * screen (commands/core/undo.h), so that neither the step's words nor
	 * its being there tell them what the GM's roll or check found. False
	 * when the handler starts; invocation_screen() sets it, and so does a
	 * handler some of whose outcome goes behind the screen while the rest
	 * is the channel's (a player's wandering check that meets what the GM
	 * alone may know). */
	bool screened;
	/* The command kept a roll in the channel's log (/log, /log secret;
	 * set by roll_log_keep, commands/dice/roll_log.h): when the store
	 * cannot keep it, the refusal names a roll, not a change
	 * (commands/core/request.h). False when the handler starts. */
	bool rolled;
	/* That roll was secret, kept in the GM's /log secret alone: its
	 * refusal names a secret roll, and no /log the player reads. */
	bool rolled_secret;
	/* The asked option's text was typed line by line (a draft, on the
	 * console and IRC: bot/draft/draft.h), so a refusal may keep it open
	 * (struct reply_ask's text). Set by the transport that bound it. */
	bool drafted;
};

/* Frees the option values and the words kept (the invocation may then be
 * parsed again). */
void invocation_clear(struct invocation *inv);

/* Values by option name; a name the command lacks is a programmer error. */
bool invocation_has(const struct invocation *inv, const char *name);
const char *invocation_str(const struct invocation *inv, const char *name);
int64_t invocation_int(const struct invocation *inv, const char *name, int64_t dflt);
/* The odds of an OPT_ODDS option (registry.h) into *out, as the registry
 * read them; false, *out untouched, when none were given or read (given
 * where the first option's value takes none: struct cmd_arg's odds_read). */
bool invocation_odds(const struct invocation *inv, const char *name, struct odds *out);
bool invocation_bool(const struct invocation *inv, const char *name, bool dflt);
/* Whether option name was typed by position in the place of an earlier
 * option that could not take it (struct cmd_arg's routed). */
bool invocation_routed(const struct invocation *inv, const char *name);
/* Whether option name was given by its name (struct cmd_arg's named),
 * not by position. */
bool invocation_named(const struct invocation *inv, const char *name);
/* Whether option name was typed by position in double quotes (struct
 * cmd_arg's quoted). */
bool invocation_quoted(const struct invocation *inv, const char *name);
/* The name user_key goes by on the platform now: the invoker's, the name
 * this command came under; another's, the transport's name_now (an IRC
 * nick after a NICK); NULL or "" when not known. */
const char *invocation_name_now(const struct invocation *inv, const char *user_key);

/*
 * Sets inv->seat (inv->chan must be set) and inv->is_gm from it: the
 * invoker is GM here when a platform admin or the seat's holder. A thread
 * (from->parent_key set) whose own seat is empty takes its parent
 * channel's seat when that record is in memory or can be read now (the
 * dispatcher asked the store for it); else its own, empty one.
 */
void invocation_seat(struct invocation *inv);

/*
 * The reply of something the GM does behind the screen (Tension hidden):
 * the channel reads the line what (in style) and nothing more; what
 * follows goes to the invoker alone (REPLY_INVOKER). Marks inv screened.
 */
void invocation_screen(struct invocation *inv, struct reply *out, unsigned style, const char *what);

/* Writes the refusal for a non-GM and returns false, or returns true. */
bool invocation_require_gm(struct invocation *inv, struct reply *out);

/*
 * Ends a GM-only refusal whose text so far has opened a parenthesis (the
 * command that would change who may do it) by naming who holds the seat
 * in force: "); the GM is X." or "), and nobody is GM yet; /gm claim makes
 * you the GM.", with "here" after "GM" when here is true, in the
 * refusal's style.
 */
void invocation_gm_tail(const struct invocation *inv, struct reply *out, bool here);

/* The channel key that text (a user's words) names on the invoker's
 * platform, into key (KEY_MAX bytes). Returns false when text names none,
 * or the platform names no channels. */
bool invocation_channel_named(const struct invocation *inv, const char *text, char *key);

/* Ends a refusal that says nobody holds the GM seat: "/gm claim makes you
 * the GM." (the command as the invoker's platform types it), in the
 * refusal's style. Every GM check that finds the seat empty ends so. */
void invocation_claim_hint(struct reply *out);

#endif
