/*
 * record: channel and user records as lines of text: the rec column of the
 * database's rows (persist.h), and the lines of the journal-and-snapshot
 * files of older versions, which delver only reads now (restore.h imports
 * them once).
 *
 * A line is "<crc> <json>\n": the CRC-32 of the JSON text as 8 lowercase
 * hex digits, one space, then one JSON object on one line. The checksum
 * makes a flipped byte anywhere a clear error instead of a different value.
 * Every file starts with a header line
 *   {"format":"delver-state","version":1,"file":"snapshot","taken":T,"next_journal":J}
 *   {"format":"delver-state","version":1,"file":"journal","seq":S}
 * followed by records
 *   {"t":"c","key":K,"last_used":N,"gm":G,"gm_name":NAME,"mods":{"<module>":{...}}}
 *   {"t":"u","key":K,"name":NAME,"style":{"colour":"red","mark":"*"}}
 * ("gm", "gm_name", "mods" and "style" are left out when unset) and, in a
 * snapshot only, a last line {"t":"end","records":N}. A channel's "mods"
 * member holds every non-empty module slot under its chanmod name, as that
 * module's save() wrote it; this code knows no module by name.
 *
 * Format versions and migration. STORE_RECORD_VERSION is the version this code
 * writes; it reads every version from 1 up to it. To change the format:
 * bump STORE_RECORD_VERSION to N+1, write a function that turns one version-N
 * record (the parsed JSON object, changed in place) into a version-N+1
 * record, and put it at index N-1 of the steps table in store_record.c. A record
 * read at version V (a row's version column, a file's header) then goes
 * through steps V-1 .. N-1 before it is validated, so old rows and files
 * keep loading, and a row is written back in the new version when it next
 * changes. A version newer than STORE_RECORD_VERSION is refused (never guessed
 * at). Adding a channel module needs no new version:
 * its state is a new member of "mods".
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

/* 1: the first format; 2: a user record may hold "saved" (a player's saved
 * rolls), so a delver that knows only 1 refuses such a record rather than
 * dropping them when it writes the user back; 3: a channel's undo history
 * keeps deltas, not whole earlier encodings (commands/core/undo.h), which a
 * delver that knows only 2 could not read. */
#define STORE_RECORD_VERSION  3
#define STORE_RECORD_FORMAT   "delver-state"
#define STORE_RECORD_LINE_MAX (1u << 20) /* bytes in one line, with its newline */
#define STORE_RECORD_MODS_MAX 32         /* module slots one record can carry */

struct cJSON;

enum store_record_kind {
	STORE_RECORD_CHANNEL,
	STORE_RECORD_USER,
	STORE_RECORD_END, /* the last line of a snapshot */
};

enum store_record_file {
	STORE_RECORD_SNAPSHOT,
	STORE_RECORD_JOURNAL,
};

struct store_record_header {
	int version;
	enum store_record_file file;
	int64_t taken;         /* snapshot: when its image was taken (unix seconds) */
	uint64_t next_journal; /* snapshot: the first journal file it does not hold */
	uint64_t seq;          /* journal: the file's sequence number */
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
	bool owns_mods;
	/* user */
	char name[NAME_MAX_LEN];
	struct thwacko_style style;
	bool style_set;
	size_t nsaved; /* the player's own saved rolls ("saved", optional) */
	struct user_saved saved[USER_SAVED_MAX];
	/* end */
	uint64_t count;
};

/* Turns a version-N record object into a version-N+1 one, in place.
 * Returns 0, or -1 with one sentence in err. */
typedef int store_record_step_fn(struct cJSON *rec, char *err, size_t errlen);

/* The program's module table (chanmod_table, CHANMOD_COUNT slots). */
const struct store_record_mods *store_record_builtin_mods(void);

/* Views of live records for encoding; module states are borrowed. */
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

/* Checks the checksum of one line (without its newline) and parses its
 * header. Returns 0, or -1 with the reason in err (a version newer than
 * STORE_RECORD_VERSION is such a reason). */
int store_record_decode_header(const char *line, size_t len, struct store_record_header *h,
                               char *err, size_t errlen);
/* Checks, parses, migrates from version to STORE_RECORD_VERSION and validates one
 * record line (module states are loaded into fresh states). Returns 0, or
 * -1 with the reason in err and nothing left to free. */
int store_record_decode(const char *line, size_t len, int version,
                        const struct store_record_mods *m, struct store_record *r, char *err,
                        size_t errlen);
/* Frees the module states r still owns. */
void store_record_clear(struct store_record *r, const struct store_record_mods *m);

/* Makes ch hold exactly what r says (r must use the builtin module table);
 * r's module states move to ch. */
void store_record_to_channel(struct store_record *r, struct channel *ch);
void store_record_to_user(const struct store_record *r, struct user *u);

/* Runs steps[from-1] .. steps[to-2] on rec. Returns 0, or -1 with err. */
int store_record_migrate(struct cJSON *rec, int from, int to, store_record_step_fn *const *steps,
                         char *err, size_t errlen);

/* The colour's name in records ("gray", "red", ...), and back (-1: none). */
const char *store_record_colour_name(enum ucolour c);
int store_record_colour_parse(const char *name);

#endif
