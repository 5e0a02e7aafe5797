/*
 * persist_read: records read back from the store into memory, for persist.c.
 *
 * At start, every user and the channels used recently (persist_read_all).
 * Afterwards a record not in memory is read when a command needs it:
 * - on SQLite at once, on the loop, through a read-only connection of its
 *   own (persist_read_channel_now, persist_read_user_now: the state's
 *   loaders);
 * - on other backends by key, asynchronously (struct fetch in
 *   persist_int.h): the request waits (persist_read_want, persist_queue.h)
 *   until the read is over, and the state's loaders then take the record
 *   from it (persist_read_fetched_channel, persist_read_fetched_user).
 * Users read and found to have no row are remembered as absent, bounded by
 * PERSIST_ABSENT_MAX.
 *
 * Nothing outside bot/store/persist*.c includes this header.
 */
#ifndef DELVER_PERSIST_READ_H
#define DELVER_PERSIST_READ_H

#include <stdbool.h>
#include <stddef.h>

struct persist;
struct fetch;
struct channel;
struct user;

/* Loads every user and the channels used within evict_after (all of them
 * when evict_after is 0). Returns 0, or -1 with one sentence in err naming
 * the record that cannot be read. */
int persist_read_all(struct persist *p, char *err, size_t errlen);

/* On SQLite, the set of the marks stored (struct persist's known_marks)
 * and the newest answers kept with them, read at open (on another backend
 * nothing). Returns 0, or -1 with one sentence in err and errno EIO. */
int persist_read_marks(struct persist *p, char *err, size_t errlen);

/* The state's loaders on SQLite (ctx: the persist). 1 loaded, 0 not
 * stored (a new record), -1 unreadable (logged). */
int persist_read_channel_now(struct channel *fresh, void *ctx);
int persist_read_user_now(struct user *fresh, void *ctx);

/* The state's loaders on other backends: as above from a finished read by
 * key; without one the read starts and -1 is returned. */
int persist_read_fetched_channel(struct channel *fresh, void *ctx);
int persist_read_fetched_user(struct user *fresh, void *ctx);

/* What persist_read_want may say besides 0 (in memory) and 1 (being read). */
#define PERSIST_WANT_CHANNEL (-1) /* the channel's last read failed */
#define PERSIST_WANT_USER    (-2) /* a user's last read failed */

/*
 * On a backend other than SQLite, whether the records a request needs are
 * in memory: the channel chan_key, the user user_key and, when not "", the
 * user legacy_key. Returns 0 when they are (or can be read at once); 1 when
 * a read by key is under way (started now when none was, or when restart
 * is set and the last one failed): the requests waiting run in the turn
 * after a read is over (persist_queue.h); PERSIST_WANT_CHANNEL or
 * PERSIST_WANT_USER when the last read of that record failed. ctx: the
 * persist.
 */
int persist_read_want(void *ctx, const char *chan_key, const char *user_key, const char *legacy_key,
                      bool restart);

/* Whether the mark of the handled event key was read (0: the read is over,
 * persist__marked takes it), is being read (1), or its last read failed
 * (-1). */
int persist_read_want_mark(struct persist *p, const char *key, bool restart);

/* Starts reading id ("c:KEY", "u:KEY" or the mark "h:KEY") back by key,
 * unless a read of it is under way. */
void persist_read_start(struct persist *p, const char *id);

/* Whether f is a user read and found absent. */
bool persist_read_absent(const struct fetch *f);

/* Frees f (owned by p's table of reads). */
void persist_read_free(struct persist *p, struct fetch *f);

/* Forgets that id is known absent: this process wrote its row. */
void persist_read_forget_absent(struct persist *p, const char *id);

#endif
