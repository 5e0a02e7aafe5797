/*
 * draft: a long text typed line by line, on the platforms whose users type
 * commands as lines (IRC, the console), when a command asked for one
 * (reply_ask, commands/core/reply.h: "/table set loot" alone).
 *
 * A draft belongs to one user in one channel. It opens when the reply that
 * asks reaches the transport; then each line that user sends there and
 * that is no command joins it (lines of others, and the user's commands,
 * are left alone: a command runs as ever). "<word> end" (the first word of
 * the asking line: "table end") takes the text for the command, "<word>
 * cancel" drops it; so does opening another draft there, a text past the
 * ask's limit, DRAFT_IDLE_MS without a line, and a restart (drafts live in
 * memory only). A draft dropped for its size leaves a spent one in its
 * place, which takes the user's lines there and keeps none, until "<word>
 * end" or "<word> cancel" (both then drop it) or DRAFT_IDLE_MS: the rest of
 * a paste that was too long is never read as commands. At most DRAFT_MAX drafts are kept at once,
 * the one idle longest dropped for a new one. Nothing here does I/O.
 *
 * Ownership: the drafts are the struct drafts'; a taken draft (drafts_take)
 * is the caller's until draft_free.
 */
#ifndef DELVER_DRAFT_H
#define DELVER_DRAFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/registry.h"
#include "commands/core/reply.h"

#define DRAFT_MAX     64               /* drafts kept at once */
#define DRAFT_IDLE_MS (10 * 60 * 1000) /* a draft with no line for this long is dropped */
#define DRAFT_LINES   200              /* lines of one draft */

struct drafts;
struct draft;

struct drafts *drafts_new(void);
void drafts_free(struct drafts *ds);

/* How many drafts are open (a transport skips its look-ups at 0). */
size_t drafts_count(const struct drafts *ds);

/* Opens the draft of user in chan for ask (copied), holding ask's text
 * when it has one (a refused draft kept open). A draft the user had
 * open there is dropped: its asking line goes to replaced (size bytes),
 * else replaced is "". */
void drafts_open(struct drafts *ds, const char *chan, const char *user, const struct reply_ask *ask,
                 int64_t now_ms, char *replaced, size_t size);

/* What a command's reply r (to user in chan) does to the drafts: one it
 * asks for is opened (drafts_open), and one its command was given inline
 * instead (reply_ask_was_given) is dropped; either way a draft the user had
 * open there is dropped, and r says so. */
void drafts_answered(struct drafts *ds, const char *chan, const char *user, struct reply *r,
                     int64_t now_ms);

enum draft_feed {
	DRAFT_NONE,    /* no draft of this user here: the line is not the draft's */
	DRAFT_TAKEN,   /* the line joined the draft (or a spent one: it is dropped) */
	DRAFT_TOO_BIG, /* the text passed the ask's limit: the draft is dropped and a
	                  spent one takes its place */
};

/* A line user sent in chan that is no command (len bytes, no line break).
 * A draft dropped for its size goes to *dropped (the caller's to free,
 * for draft_reply_dropped); dropped may be NULL. */
enum draft_feed drafts_feed(struct drafts *ds, const char *chan, const char *user, const char *text,
                            size_t len, int64_t now_ms, struct draft **dropped);

enum draft_word {
	DRAFT_WORD_NONE,   /* not the end or the cancel of a draft of this user here */
	DRAFT_WORD_END,    /* "<word> end": take the text */
	DRAFT_WORD_CANCEL, /* "<word> cancel": drop it */
};

/* Whether a command line (its prefix removed: "table end") ends or drops
 * user's draft in chan. */
enum draft_word drafts_word(struct drafts *ds, const char *chan, const char *user, const char *line,
                            int64_t now_ms);

/* Takes user's draft in chan out of ds, or NULL when there is none. */
struct draft *drafts_take(struct drafts *ds, const char *chan, const char *user, int64_t now_ms);

/* A taken draft's asking line ("table set loot"), option ("entries"), text
 * (its lines joined by line breaks) and number of lines. */
const char *draft_line(const struct draft *d);
const char *draft_opt(const struct draft *d);
const char *draft_text(const struct draft *d);
size_t draft_lines(const struct draft *d);
size_t draft_max(const struct draft *d); /* bytes its option takes */
void draft_free(struct draft *d);

/*
 * Binds an ask's answer to inv: the asking line parsed against table (the
 * command table, or a test's), and text as its option opt (the registry's
 * checks and limits apply, as to any value). The one way an answered ask
 * becomes a command, whatever brought the text: a draft here, or a form on
 * Discord. Returns 0, or -1 with an error reply (inv then holds nothing).
 */
int draft_bind(const struct command *const *table, const char *line, const char *opt,
               const char *text, struct invocation *inv, struct reply *out);

enum draft_drop {
	DRAFT_CANCELLED, /* by "<word> cancel" */
	DRAFT_BIG,       /* its text passed the ask's limit */
	DRAFT_REPLACED,  /* another draft opened there */
};

/* Adds the sentence that says a draft (its asking line, its lines so far,
 * its limit in bytes) was dropped, and why, to r. */
void draft_reply_dropped(struct reply *r, const char *line, size_t lines, size_t max,
                         enum draft_drop why);

#endif
