/*
 * record: channel and user records as lines of text: the rec column of the
 * database's rows (persist.h) and of the snapshot files, which are copies
 * of the database.
 *
 * A line is "<crc> <json>\n" (a row holds it without the newline): the CRC-32 of the JSON text as 8
 * lowercase hex digits, one space, then one JSON object on one line. The checksum makes a flipped
 * byte anywhere a clear error instead of a different value. The records are
 *   {"t":"c","key":K,"last_used":N,"gm":G,"gm_name":NAME,"mods":{"<module>":{...}}}
 *   {"t":"u","key":K,"name":NAME,"style":{"colour":"red","mark":"*"},"saved":[...]}
 * ("gm", "gm_name", "mods", "style" and "saved" are left out when unset). A
 * channel's "mods" member holds every non-empty module slot under its
 * chanmod name, as that module's save() wrote it; this code knows no
 * module by name.
 *
 * A module that keeps a log (struct chanmod's log_*: the roll log) has its
 * entries in rows of their own, one line each, framed as a record's:
 * "<crc> <json>" with the JSON array its log_save() wrote.
 *
 * Format version. Each row carries the version of its record's format;
 * STORE_RECORD_VERSION is the one this code writes; it reads it and the
 * versions from STORE_RECORD_OLDEST on: a newer version is refused (never
 * guessed at), and so is an older one. Adding a channel module needs no
 * new version: its state is a new member of "mods". A change that does
 * needs a new version and, for the rows already written, a decoder for the
 * version before it (a row read at an older version is written back at
 * this one when it next changes).
 *
 * Ownership: a decoded record owns its module states until store_record_clear()
 * or until store_record_to_channel() hands them to a channel.
 */
#ifndef DELVER_STORE_RECORD_H
#define DELVER_STORE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands/core/state.h"
#include "rules/base/buf.h"

/* The format version of the records this code writes (3: a user's saved
 * rolls, undo history as deltas, commands/core/undo.h; 4: the Fungeon state
 * as a dungeon with its room, commands/fungeon/fungeon_save.c, which a
 * delver that knows only 3 would misread, and the roll log in rows of its
 * own, not in the record, which it would take for an empty log; 5: a
 * table's mark behind the GM's screen, commands/tables/tables_state.h,
 * which a delver that knows only 4 would drop, showing the players a
 * table the GM keeps from them). A version-3 record differs only in the
 * Fungeon module's form, which that module reads itself
 * (commands/fungeon/fungeon_save_old.c), and in the roll log it holds,
 * which the roll module still loads, so version 3 is read as it is. A
 * version-4 record holds no mark; the tables module marks on loading the
 * tables the names and references then put behind the screen, as version
 * 4 screened them, and writes them back in the same bytes. */
#define STORE_RECORD_VERSION  5
#define STORE_RECORD_OLDEST   3
#define STORE_RECORD_LINE_MAX (1u << 20) /* bytes in one line, with its newline */
#define STORE_RECORD_MODS_MAX 32         /* module slots one record can carry */

enum store_record_kind {
	STORE_RECORD_CHANNEL,
	STORE_RECORD_USER,
};

/* A table of channel modules: the program's chanmod_table, or a test's. */
struct store_record_mods {
	const struct chanmod *const *table; /* n entries; NULL ones are unused */
	size_t n;
};

/* One record, decoded or about to be encoded. */
struct store_record {
	enum store_record_kind kind;
	char key[KEY_MAX];
	/* channel */
	char gm[KEY_MAX]; /* "" when nobody is GM */
	char gm_name[NAME_MAX_LEN];
	int64_t last_used;
	void *mods[STORE_RECORD_MODS_MAX]; /* indexed like the module table */
	/* A module's text when it is known already (the channel's kept text,
	 * channel_kept_text()): written as it is instead of encoding mods[i].
	 * Borrowed; NULL: encode. */
	const char *texts[STORE_RECORD_MODS_MAX];
	size_t text_len[STORE_RECORD_MODS_MAX];
	bool owns_mods;
	/* user */
	char name[NAME_MAX_LEN];
	struct thwacko_style style;
	bool style_set;
	size_t nsaved; /* the player's own saved rolls ("saved", optional) */
	struct user_saved saved[USER_SAVED_MAX];
};

/* The program's module table (chanmod_table, CHANMOD_COUNT slots). */
const struct store_record_mods *store_record_builtin_mods(void);

/* Views of live records for encoding; module states and the channel's
 * kept texts are borrowed (valid until the channel next changes). */
void store_record_of_channel(struct store_record *r, const struct channel *ch);
void store_record_of_user(struct store_record *r, const struct user *u);
/* True for a channel record with no GM and no module state, and for a user
 * record with no style and no saved roll: saving it would say nothing that a missing record
 * does not (the name alone is not kept: the platform gives it again). */
bool store_record_is_empty(const struct store_record *r);

/* Appends r (a channel or user) as one line to out. Returns 0, or -1 when a
 * module could not save its state or the line would pass STORE_RECORD_LINE_MAX
 * bytes (out is then left as it was). */
int store_record_encode(const struct store_record *r, const struct store_record_mods *m,
                        struct buf *out);

/* Checks the version (STORE_RECORD_OLDEST to STORE_RECORD_VERSION), then checks, parses and
 * validates one record line without its newline (module states are loaded
 * into fresh states). Returns 0, or -1 with the reason in err and nothing
 * left to free. */
int store_record_decode(const char *line, size_t len, int version,
                        const struct store_record_mods *m, struct store_record *r, char *err,
                        size_t errlen);

/* The module of m's table that keeps a log, its slot in *slot; NULL when
 * none does. */
const struct chanmod *store_record_log_mod(const struct store_record_mods *m, size_t *slot);
/* Appends entry seq of the log that state (the state of m's log module:
 * store_record_log_mod) keeps as one line without its newline to out.
 * Returns 0, or -1 (out as it was) when state is NULL or holds no such
 * entry, or out's cap was reached. */
int store_record_encode_log(const struct store_record_mods *m, const void *state, uint64_t seq,
                            struct buf *out);
/* Checks and parses one log line (without its newline) and adds it to the
 * log of r (a decoded channel; a record that holds no state of the log's
 * module gets the module's fresh state). Lines come oldest first. Returns
 * 0, or -1 with the reason in err (r then still owns what it holds). */
int store_record_decode_log(struct store_record *r, const struct store_record_mods *m, uint64_t seq,
                            const char *line, size_t len, char *err, size_t errlen);
/* Frees the module states r still owns. */
void store_record_clear(struct store_record *r, const struct store_record_mods *m);

/* Makes ch hold exactly what r says (r must use the builtin module table);
 * r's module states move to ch. */
void store_record_to_channel(struct store_record *r, struct channel *ch);
void store_record_to_user(const struct store_record *r, struct user *u);

/* The colour's name in records ("gray", "red", ...), and back (-1: none). */
const char *store_record_colour_name(enum ucolour c);
int store_record_colour_parse(const char *name);

#endif
