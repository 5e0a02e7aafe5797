/*
 * channel: a channel record (see state.h for the table that holds them).
 *
 * Each game keeps its per-channel state in a *module slot* of the channel
 * record: a module (struct chanmod) says how to create, free, save and load
 * its state, and channel_mod() creates a slot's state on first use. The
 * persistence layer walks the modules generically, so adding a game never
 * touches the store.
 *
 * Every change to a channel must be followed by channel_touch(), or, when
 * a module only appended entries to its log (struct chanmod's log_*: the
 * roll log), by channel_append(): the dispatcher makes touched records
 * durable before the reply that acknowledges the change is sent; after
 * channel_append() the store writes the new entries alone, not the record.
 *
 * Ownership: the state owns every record (state.h); the strings returned
 * here belong to the record and change with it.
 */
#ifndef DELVER_CHANNEL_H
#define DELVER_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;
struct cJSON;
struct channel;
struct invocation;
struct reply;

/* The module slots of a channel record. Add a game's slot here and its
 * struct chanmod to chanmod_table in commands/core/commands.c. */
enum chanmod_id {
	CHANMOD_TENSION, /* commands/tension_state.h */
	CHANMOD_FUNGEON, /* Fungeon: party, floor, designs (commands/fungeon/fungeon_save.c) */
	CHANMOD_PROC,    /* dungeon procedure: turn, lights, hazard and wander settings */
	CHANMOD_ROLL,    /* /roll settings and the roll log (commands/dice/rollchan.h) */
	CHANMOD_UNDO,    /* the last changes /undo can take back (commands/core/undo.h) */
	CHANMOD_TABLES,  /* the GM's own named tables (commands/tables/tables_state.h) */
	CHANMOD_PANEL, /* the message showing the channel's panel (commands/panel/panel_state.h) */
	CHANMOD_COUNT
};

struct chanmod {
	const char *name;      /* the key of this state in saved records */
	void *(*create)(void); /* fresh state for a new channel; never NULL */
	void (*destroy)(void *);
	/* A JSON object holding the whole state (caller frees with cJSON_Delete). */
	struct cJSON *(*save)(const void *);
	/* Appends the text of save()'s object to out, byte for byte what
	 * json_write() makes of it, without building the tree; returns 0, or -1
	 * when out's cap was reached. NULL: chanmod_write() writes save()'s
	 * tree. A module with write() may build save()'s tree from its text. */
	int (*write)(const void *, struct buf *out);
	/* Fills a fresh state from save()'s output. Returns 0, or -1 with one
	 * sentence in err naming what is wrong; the state may then be partly
	 * filled and is destroyed by the caller. */
	int (*load)(void *, const struct cJSON *, char *err, size_t errlen);
	/* Moves every reference to user key from onto user key to (an upgrade
	 * of the key format), leaving any the state already holds under to
	 * alone. Returns how many moved. NULL: the state holds no user keys. */
	int (*rekey)(void *, const char *from, const char *to);
	/* Names each player the state holds by user key by the name the
	 * platform knows them by now (invocation_name_now(): an IRC nick after
	 * a NICK), or keeps the old name where the state cannot take the new
	 * one, saying so in out (the command's reply, empty yet) when that
	 * concerns the invoker. Returns whether a name changed. The dispatcher
	 * calls it once before each command in the channel, where it renames
	 * the GM seat, and touches the channel when it returns true. NULL: the
	 * state names no player. */
	bool (*names_now)(void *, const struct invocation *inv, struct reply *out);
	/* Whether a channel holding this state is to be in memory from every
	 * start, however long it was idle (a transport looks after it then:
	 * a live panel). The store keeps the answer beside the record, so a
	 * start finds those channels without reading every record. NULL:
	 * never. */
	bool (*at_start)(const void *);
	/*
	 * A log the module keeps apart from its record (0 and NULLs: none; at
	 * most one module of a table has one): entries are appended and never
	 * changed, and the store writes each new one as a row of its own and
	 * keeps the newest log_keep, so an entry costs a row, not the whole
	 * record. save() leaves the log out.
	 */
	unsigned log_keep;
	/* How many entries were ever appended: the newest one's number, 0
	 * when none. */
	uint64_t (*log_count)(const void *);
	/* Appends entry number seq (one of the newest log_keep) to out as one
	 * JSON array. Returns 0, or -1 when out's cap was reached. */
	int (*log_save)(const void *, uint64_t seq, struct buf *out);
	/* Adds entry seq, read back from the store (oldest first, after load()
	 * when the record holds the module's state). An entry the state holds
	 * already is skipped: a record of delver 0.1 kept its log inside, and
	 * the store's rows then hold the same entries under the same numbers.
	 * Returns 0, or -1 with one sentence in err. */
	int (*log_load)(void *, uint64_t seq, const struct cJSON *entry, char *err, size_t errlen);
};

/* Defined in commands/core/commands.c; NULL entries are unused slots. */
extern const struct chanmod *const chanmod_table[];

/* Appends the JSON text of state (a state of m) to out: m's write(), else
 * its save() tree written by json_write(). The one road from a module's
 * state to its text: the store's records and the undo history's encodings
 * both take it. Returns 0, or -1 when m could not save or out's cap was
 * reached (out then holds a prefix). */
int chanmod_write(const struct chanmod *m, const void *state, struct buf *out);

/*
 * A module's text kept with its channel: what chanmod_write() made of the
 * module's state after a command (the undo history's encoding), kept so
 * that the store's record of that change, and a command that comes before
 * it is stored, take it instead of encoding the state once more. A kept
 * text is valid until the channel next changes (channel_touch()) or the
 * module's state is replaced (channel_mod_set()); every change is followed
 * by channel_touch() (state.h), so a valid text is the state's text. Texts
 * go when the record is stored (channel_set_changes_saved()): memory stays
 * with the changes in flight, not with every channel. Texts are kept only
 * for states that exist, and up to CHANNEL_TEXT_MAX bytes each.
 */
#define CHANNEL_TEXT_MAX (64u << 10)
/* Module id's valid kept text (NUL-terminated, *len bytes; it belongs to
 * the channel and stays until the next channel_keep_text(),
 * channel_take_text() or channel_touch() of ch), or NULL when none is
 * valid. */
const char *channel_kept_text(const struct channel *ch, enum chanmod_id id, size_t *len);
/* The same, handed to the caller (who frees it with free()): the channel
 * keeps no text of id afterwards. NULL when none is valid. */
char *channel_take_text(struct channel *ch, enum chanmod_id id, size_t *len);
/* Keeps text (len bytes, NUL-terminated, from malloc: taken, or freed when
 * not kept) as module id's text now. The caller vouches that it is
 * chanmod_write()'s text of the module's current state; nothing is kept
 * when the channel holds no state of id or text passes CHANNEL_TEXT_MAX. */
void channel_keep_text(struct channel *ch, enum chanmod_id id, char *text, size_t len);

const char *channel_key(const struct channel *ch);
/* The GM's user key and display name, or NULL when no one claimed it. */
const char *channel_gm(const struct channel *ch);
const char *channel_gm_name(const struct channel *ch);
void channel_set_gm(struct channel *ch, const char *user_key, const char *name);
void channel_clear_gm(struct channel *ch);
/* The module's state, created on first use. */
void *channel_mod(struct channel *ch, enum chanmod_id id);
/* The module's state, or NULL when it was never created or ch is NULL (a
 * channel with no record yet, as autocomplete sees one). */
void *channel_mod_peek(const struct channel *ch, enum chanmod_id id);
/* Replaces the module's state (for loading); frees the old one. */
void channel_mod_set(struct channel *ch, enum chanmod_id id, void *mod);
/* The record changed (see above). */
void channel_touch(struct channel *ch);
/* A module appended entries to its log and changed nothing else. */
void channel_append(struct channel *ch);
/* True after either, until the dispatcher has handed the channel to the
 * store. */
bool channel_touched(const struct channel *ch);
/* For the store: how many times the record was touched (a counter that
 * wraps), the count its stored row holds (setting it drops the kept
 * texts), and whether they are equal (the row is current, its log
 * aside). */
uint32_t channel_changes(const struct channel *ch);
void channel_set_changes_saved(struct channel *ch, uint32_t changes);
bool channel_record_saved(const struct channel *ch);
/* For the store: the newest log entry its rows hold (0: none). */
uint64_t channel_log_saved(const struct channel *ch);
void channel_set_log_saved(struct channel *ch, uint64_t seq);
/* Whether any module state of ch asks for it at every start (struct
 * chanmod's at_start). */
bool channel_at_start(const struct channel *ch);
/* When the channel was last used by a command (unix seconds). */
int64_t channel_last_used(const struct channel *ch);
void channel_set_last_used(struct channel *ch, int64_t when);
/* The generation of the channel's stored row as the store last saw it (0:
 * never stored); kept for the store, never a change. */
uint64_t channel_generation(const struct channel *ch);
void channel_set_generation(struct channel *ch, uint64_t generation);

#endif
