/*
 * statedir: the state directory made and checked before delver keeps
 * anything in it, and the private modes of what delver creates there.
 *
 * delver keeps its state only where it can keep it safely. Before anything
 * is read or written, statedir_prepare() makes the directory (and its
 * missing parents) and refuses, with one sentence naming the path, what is
 * wrong and what is needed:
 * - a directory others may write (the write bit for "other" set): another
 *   user could replace the database or plant files delver would trust;
 * - a directory delver cannot write: its mode or owner, an immutable
 *   attribute (chattr +i), a read-only file system;
 * - a file of the state (statedir_check_file) delver cannot write for the
 *   same reasons: a database that cannot be written would refuse every
 *   change at the first command instead of at start.
 *
 * Failures carry errno STATEDIR_UNSAFE, which bot/store/store_service.c
 * turns into the exit status APP_EXIT_STORE_UNSAFE.
 *
 * Every directory delver makes is 0700 and every file 0600, whatever the
 * umask (statedir_mkdir, statedir_create_file): the state holds what
 * players hid from each other. A state directory or file of delver's own
 * user that others could read is made so at start, and the log says so.
 *
 * delver never follows a symbolic link inside the state directory: a link
 * there (lock, delver.db and its log files, snapshots/, a session file)
 * would make delver read, write or chmod whatever it points to. The checks
 * refuse one with a sentence naming it; what delver opens or makes there
 * goes through statedir_open / statedir_mkdir, which fail with ELOOP on a
 * link (statedir_strerror says so) and change modes on the opened file,
 * never through a name. The state directory itself, and its parents, may
 * be links: they are the path the operator named (systemd's DynamicUser=
 * makes /var/lib/NAME a link to /var/lib/private/NAME).
 */
#ifndef DELVER_STATEDIR_H
#define DELVER_STATEDIR_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

/* The errno of a refusal: the state cannot be kept there safely. */
#define STATEDIR_UNSAFE EACCES

/*
 * Makes dir and each missing parent (0700) and checks dir as above.
 * Returns 0, or -1 with one sentence in err and errno STATEDIR_UNSAFE (or,
 * when dir cannot be made for another reason, that reason's errno).
 */
int statedir_prepare(const char *dir, char *err, size_t errlen);

/*
 * Checks that delver may write path, a file of the state, when it exists;
 * what names it in err ("the database"). A file delver owns whose mode
 * lets others in is made 0600. Returns 0 (also when path does not
 * exist), or -1 with one sentence in err and errno STATEDIR_UNSAFE.
 */
int statedir_check_file(const char *path, const char *what, char *err, size_t errlen);

/* mkdir(path, 0700) whatever the umask, in the state directory. Returns 0
 * (also when path is already a directory), or -1 with errno set (ELOOP
 * when path is a symbolic link, even to a directory). */
int statedir_mkdir(const char *path);
/* The same for a directory that must be new: -1 with EEXIST when path
 * exists, whatever it is. */
int statedir_mkdir_new(const char *path);
/* The same for each missing directory on the way to path, then path; as
 * the path the operator named, each of them may be a link to a directory. */
int statedir_mkdirs(const char *path);

/* Creates path, which must not exist, as an empty file of mode 0600
 * whatever the umask. Returns 0, or -1 with errno set. */
int statedir_create_file(const char *path);

/* open(2) of a file in the state directory: never through a symbolic link
 * (ELOOP), close-on-exec, no controlling terminal; with O_CREAT, mode 0600
 * whatever the umask (also for a file that was there). Returns the
 * descriptor, or -1 with errno set. */
int statedir_open(const char *path, int flags);

/* strerror(e), but for ELOOP (what statedir_open and statedir_mkdir give
 * for a link) the clause that says delver refuses a link there and what to
 * do: "cannot write PATH: %s" reads as one sentence. */
const char *statedir_strerror(int e);

/* Below this many bytes free, the file system holding the state directory
 * counts as full: SQLite cannot open its log files (a WAL and its 32 KiB
 * index) with less. */
#define STATEDIR_FULL_BYTES (256u * 1024u)

/*
 * Whether the file system holding dir is full (statvfs: fewer than
 * STATEDIR_FULL_BYTES free to delver's user; root's own reserve counts for
 * root). Always writes into mnt the directory that file system is mounted
 * on (the highest directory on the way to dir on the same device; dir when
 * it cannot tell) and into free_kb the KiB free there (0 when unknown).
 */
bool statedir_full(const char *dir, char *mnt, size_t mntlen, unsigned long long *free_kb);

#endif
