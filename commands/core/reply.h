/*
 * reply: what a command answers, independent of any platform.
 *
 * A reply holds up to three messages: one for the channel, one for the
 * invoker alone (a private roll, hidden Tension) and one for the channel's
 * GM alone (a player's blind roll), whom the reply names. Each message is a title,
 * a sequence of blocks and optional buttons. A block is either a line of
 * styled spans or a table with at most one highlighted row. Renderers for
 * the terminal, plain text, Discord and IRC walk the read-only structs
 * below; nothing here knows any platform.
 *
 * Ownership: the reply owns every string added to it (they are copied). The
 * structs returned by reply_msg() live until reply_free().
 */
#ifndef DELVER_REPLY_H
#define DELVER_REPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Span styles; combine with |. Meaning never rests on colour alone: the
 * text of a span already says what matters (renderers add colour). */
#define RS_BOLD      0x001u /* a number or word to see at a glance */
#define RS_DIM       0x002u /* background: the rows not rolled */
#define RS_STRUCK    0x004u /* dropped or rerolled dice: shown crossed out */
#define RS_CRIT      0x008u /* a critical (maximum) die */
#define RS_FUMBLE    0x010u /* a fumble (minimum) die */
#define RS_CODE      0x020u /* notation or command text */
#define RS_ITALIC    0x040u /* flavour, labels */
#define RS_USER      0x080u /* drawn in span.user: a player's Thwack-O style */
#define RS_GOOD      0x100u /* a success, a good outcome */
#define RS_BAD       0x200u /* a failure, a bad outcome */
#define RS_HIGHLIGHT 0x400u /* the one thing rolled or chosen */
#define RS_CMD       0x800u /* a command as a user types it: span.cmd */
/* A channel: the text is its key ("discord:123"), which a renderer shows
 * as its platform refers to a channel (Discord: <#123>, a link). */
#define RS_CHANNEL 0x1000u
/* Detail a renderer short of room may shorten (a roll's dice between
 * their brackets): it keeps whole entries (", " apart) from the start and
 * writes "…" where it cut; the spans around say what counts (the total). */
#define RS_DETAIL 0x2000u

/* The colours every platform can show (Discord's ANSI palette). */
enum ucolour {
	UC_GRAY = 0,
	UC_RED,
	UC_GREEN,
	UC_YELLOW,
	UC_BLUE,
	UC_PINK,
	UC_CYAN,
	UC_WHITE,
	UC_COUNT
};

/* Bytes of a Thwack-O mark, with the NUL: 4 letters of 4 bytes, each with
 * an accent. */
#define THWACKO_STYLE_MARK_MAX 25

/* A player's personal style: a colour and a mark (a short symbol or emoji)
 * that identifies the player where colour does not render. */
struct thwacko_style {
	enum ucolour colour;
	char mark[THWACKO_STYLE_MARK_MAX]; /* UTF-8, NUL-terminated, may be "" */
};

/* One option of a command reference, with the value to type. */
struct reply_cmd_opt {
	char *name;  /* as declared in the command table ("" in a usage: the subcommands) */
	char *value; /* e.g. "pit", "Alba", or a placeholder such as "NAME" */
	bool named;  /* written name:value where options may be positional too */
	/* In a usage only: */
	bool optional; /* shown in [ ], else in < > */
	char *kind;    /* what a named value is: "N", "text", "a|b", ... */
};

/*
 * A command as a user would type it: where commands are typed as text
 * (console, IRC) the values follow the path in order, positionally unless
 * named; where options are named (Discord) each is name:value. The span's
 * text holds the console's form ("/fungeon annoy pit Alba"), so a renderer
 * that knows nothing of references still shows something typeable.
 */
struct reply_cmdref {
	char *path; /* command and subcommand names: "fungeon annoy" */
	size_t nopts;
	struct reply_cmd_opt *opts;
	bool usage; /* a usage: every option, placeholders, [optional] */
};

/* An option of a usage, for reply_usage. */
struct reply_usage_opt {
	const char *name;  /* "" for the list of subcommands */
	const char *value; /* the positional placeholder: "who", "red|green" */
	const char *kind;  /* the named placeholder: "N", "text", "red|green" */
	bool named;        /* written name:kind on text platforms too */
	bool optional;
};

struct reply_span {
	unsigned style;
	struct thwacko_style user; /* meaningful only when style has RS_USER */
	char *text;
	size_t len;                     /* strlen(text) */
	const struct reply_cmdref *cmd; /* when style has RS_CMD, else NULL */
};

struct reply_row {
	bool highlight;
	char **cells;               /* ncols strings */
	struct thwacko_style *user; /* ncols styles, or NULL when no cell has one */
	uint32_t user_cols;         /* bit c: cell c is drawn in user[c] */
};

enum reply_block_kind {
	RB_LINE,
	RB_TABLE,
};

struct reply_block {
	enum reply_block_kind kind;
	/* RB_LINE */
	size_t nspans;
	struct reply_span *spans;
	/* RB_TABLE */
	int ncols;
	char **header; /* ncols strings, or NULL for no header */
	size_t nrows;
	struct reply_row *rows;
	/* How a result was reached (a conflict's dice, its rank table), which a
	 * renderer short of room may leave out: the lines that say the result
	 * stay (reply_working). */
	bool working;
	/* A line that stands for the working lines where a renderer short of
	 * room leaves them out ("5 rest reminders not shown"); a renderer that
	 * shows the working skips it (reply_brief). */
	bool brief;
	/* RB_TABLE: each row is a record whose first column does not name it
	 * (a log's "when"): a renderer short of room keeps whole rows and says
	 * how many it left out, rather than listing the first column
	 * (reply_table_records). */
	bool records;
};

struct reply_button {
	char *label;  /* what the button says, e.g. "Roll again" */
	char *action; /* the command line it runs, e.g. "roll 4d6kh3" */
	bool update;  /* its reply replaces the message it is on (reply_button_update) */
	bool panel;   /* a button of the channel's panel (reply_button_panel) */
};

struct reply_msg {
	char *title; /* NULL for none */
	size_t nblocks;
	struct reply_block *blocks;
	size_t nbuttons;
	struct reply_button *buttons;
	/* The message ends in its results (a combat turn's hits, deaths and
	 * XP): a renderer that must cut it keeps its first line and its end,
	 * cutting from the middle (reply_results_last). */
	bool results_last;
};

enum reply_audience {
	REPLY_CHANNEL = 0, /* everyone in the channel */
	REPLY_INVOKER = 1, /* the invoking user alone */
	REPLY_GM = 2,      /* the GM named by reply_to_gm() alone */
};

#define REPLY_AUDIENCES 3

struct reply;

struct reply *reply_new(void);
void reply_free(struct reply *r);

/* Directs everything added afterwards to the given message. New replies
 * start with REPLY_CHANNEL. */
void reply_to(struct reply *r, enum reply_audience a);

/* Directs everything added afterwards to the GM's message, and names its
 * recipient: the GM's user key and display name (both copied). A transport
 * delivers that message to this user alone (Discord: a direct message; IRC:
 * a NOTICE; console: a line marked as the GM's). */
void reply_to_gm(struct reply *r, const char *user_key, const char *name);
/* The GM's message's recipient, or NULL when reply_to_gm() was not called. */
const char *reply_gm_key(const struct reply *r);
const char *reply_gm_name(const struct reply *r);
/* A channel (its key, copied) where the GM reads the GM's message when the
 * platform cannot deliver it privately (Discord: the GM takes no direct
 * messages from the bot); the invoker is then told it went there. */
void reply_gm_fallback(struct reply *r, const char *chan_key);
/* That channel's key, or NULL. */
const char *reply_gm_fallback_key(const struct reply *r);
/*
 * Marks the GM's message an aside to the rest of the reply, which stands
 * without it (a hazard roll whose creature is behind the screen), and says
 * what it is for the invoker ("what your hazard roll put behind the GM's
 * screen", copied): when the GM's message cannot be delivered, a transport
 * still sends the rest and tells the invoker that this did not reach the
 * GM. Without it the GM's message is the point of the reply (a secret
 * roll): undeliverable, the reply is not sent.
 */
void reply_gm_aside(struct reply *r, const char *what);
/* What the GM's message is, as the invoker is told: the aside's words, or
 * "your secret roll". */
const char *reply_gm_what(const struct reply *r);
bool reply_gm_is_aside(const struct reply *r);

/*
 * A long text the command still needs, asked of the invoker (a table's
 * entries, after "/table set loot" alone): the command line to run with it
 * (line, "table set loot", whose first word also names the lines that end
 * or drop the text: "table end", "table cancel"), the option the text goes
 * to, a label for a form's field (at most 45 characters) and a sample of
 * what to write (at most 100). The transport asks as its platform can: a
 * form (Discord's modal) whose text is then bound to the option; on text
 * platforms the invoker's next lines in that channel, up to "<word> end".
 * The rest of the reply says so for text platforms; a platform with forms
 * shows the form instead.
 */
struct reply_ask {
	const char *line;
	const char *opt;
	const char *label;
	const char *sample;
	size_t max; /* bytes of the text the option takes */
	/* NULL, or the text typed line by line that the command refused: the
	 * ask then keeps it open, for more lines and "<word> end" again (an
	 * error reply may carry such an ask; a form never gets one). */
	const char *text;
};

/* Makes the reply ask (the strings, the handler's own and never a user's
 * text as typed, are copied). */
void reply_ask(struct reply *r, const struct reply_ask *ask);
/* The reply's ask, or NULL (an error reply's too, when it keeps a text). */
const struct reply_ask *reply_asked(const struct reply *r);
/* Marks the reply of a command that could have asked (a table's entries)
 * but was given its text on the command line: the text the invoker was
 * entering line by line in that channel, if any, is dropped then, as a new
 * ask drops it, and the transport says so. */
void reply_ask_given(struct reply *r);
bool reply_ask_was_given(const struct reply *r);

/* Sets the current message's title. */
void reply_title(struct reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a span to the current line, starting a line when none is open.
 * Unstyled text (style 0) right after an unstyled span joins that span:
 * renderers see the same text in fewer pieces. */
void reply_add(struct reply *r, unsigned style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends a span drawn in a player's style (RS_USER is added). */
void reply_add_user(struct reply *r, const struct thwacko_style *us, unsigned style,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * Appends a command reference (RS_CMD is added): path names the
 * command and subcommand ("tension raise"); then pairs of option name and
 * value, ended by NULL. A name written with a trailing colon ("reason:") is
 * name:value on every platform; the others are positional where commands
 * are typed as text, so give them in their declared order, none skipped. A
 * value with a space is quoted on text platforms unless it is the last.
 */
void reply_cmd(struct reply *r, unsigned style, const char *path, ...) __attribute__((sentinel));

/* Appends a command's usage as a reference (RS_CMD is added): on text
 * platforms "/pick <who> [n] [size:small|large]", where options are named
 * "/pick who:text [n:N] [size:small|large]". */
void reply_usage(struct reply *r, unsigned style, const char *path,
                 const struct reply_usage_opt *opts, size_t n);

/*
 * Appends trusted text (a command's help, never user input) in which each
 * "{/path opt=value name:value}" is a command reference as reply_cmd makes
 * it (opt=value positional on text platforms, name:value named everywhere;
 * a value may be "quoted" to hold spaces), the rest plain text in style.
 */
void reply_text(struct reply *r, unsigned style, const char *text);

/* What goes before item i of a list of n items: "" before the first,
 * last (" or ", " and ") before the last, ", " before the others; so
 * "a", "a or b", "a, b or c". For a list written item by item, whether as
 * text or as command references (reply_cmd). */
const char *reply_list_sep(size_t i, size_t n, const char *last);

/* Ends the current line; the next span starts a new one. A call with no
 * open line adds an empty line. */
void reply_nl(struct reply *r);
/* Marks the block last ended (a line after reply_nl, or a table) as
 * working (struct reply_block.working); nothing when there is none. */
void reply_working(struct reply *r);
/* Marks the block last ended as brief (struct reply_block.brief): shown
 * only in place of the working lines; nothing when there is none. */
void reply_brief(struct reply *r);
/* Marks the current message as ending in its results
 * (struct reply_msg.results_last). */
void reply_results_last(struct reply *r);
/* A whole line of one style: reply_add then reply_nl. */
void reply_line(struct reply *r, unsigned style, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Starts a table of ncols columns (1..16); header may be NULL. Rows added
 * with reply_row go to the newest table. */
void reply_table(struct reply *r, int ncols, const char *const *header);
/* Marks the newest table's rows as records (struct reply_block.records). */
void reply_table_records(struct reply *r);
void reply_row(struct reply *r, bool highlight, const char *const *cells);
/* Draws cell col of the newest row in a player's style (a Thwack-O die in
 * a rank table); the cell's text should already carry the player's mark. */
void reply_cell_user(struct reply *r, int col, const struct thwacko_style *us);

/* A button under the current message that runs a command line when
 * pressed; its reply is a new message ("Roll again": another roll). */
void reply_button(struct reply *r, const char *label, const char *action);
/* A button whose press changes what the message it is on shows (a state
 * toggled, a view turned): its reply's message for the channel replaces
 * that message where the platform can (Discord), and is a new one
 * elsewhere; an error, or a reply only for the presser, leaves the message
 * as it is and goes to the presser alone. */
void reply_button_update(struct reply *r, const char *label, const char *action);
/* A button of the channel's panel (reply_panel): its reply is a new
 * message, as reply_button's, and where the platform keeps the panel
 * current (Discord) the press also shows the panel it is on anew; an
 * error, or a reply only for the presser, goes to the presser alone and
 * leaves the panel as it is. */
void reply_button_panel(struct reply *r, const char *label, const char *action);

/*
 * Marks the reply as the channel's panel (commands/panel): its channel
 * message shows the channel's state at a glance, and message (copied) is
 * the platform's id of the message that shows the panel now, "" when none
 * does. A transport that can change a message it posted (Discord) keeps
 * the panel there, current; the others show the reply as any other.
 */
void reply_panel(struct reply *r, const char *message);
/* The message id given to reply_panel, or NULL when r is not a panel. */
const char *reply_panel_message(const struct reply *r);

/*
 * Makes the reply an error: the channel message is replaced by one line,
 * the sentence given (which should say what is wrong and what is allowed),
 * and the reply is marked private to the invoker where the platform allows.
 * The line stays open: spans added next (a command reference with
 * reply_cmd, the rest of the sentence) continue it and the error's text.
 */
void reply_error(struct reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* reply_error from trusted text (a module's own sentence, never user
 * input) in which each "{/path ...}" is a command reference, as for
 * reply_text. */
void reply_error_refs(struct reply *r, const char *text);
/* reply_error whose text begins with a lower-level module's words ("a
 * subcommand is needed"): its first letter is made a capital. The line
 * stays open, as reply_error's. */
void reply_error_capital(struct reply *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* reply_error of a lower-level error text (the dice parser's) made a
 * sentence: its first letter a capital, a full stop at its end if it has
 * none. */
void reply_error_sentence(struct reply *r, const char *text);
bool reply_is_error(const struct reply *r);
/* The error sentence, or NULL. */
const char *reply_error_text(const struct reply *r);

/* The message for an audience, or NULL when nothing was added to it. */
const struct reply_msg *reply_msg(const struct reply *r, enum reply_audience a);

/* Drops everything added so far (every message, the GM's name, the error flag); one
 * chunk of memory is kept for the next reply built in r. */
void reply_clear(struct reply *r);

/* Joins every span of the channel message (then the invoker's, then the
 * GM's) into plain text, one line per line, rows as cells joined by " | ": for tests and
 * logs. The caller frees the result. */
char *reply_plain(const struct reply *r);

#endif
