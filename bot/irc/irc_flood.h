/*
 * irc_flood: the outgoing queue of one IRC connection, paced by a token
 * bucket so the server never sees a flood.
 *
 * The bucket holds `burst` sends and refills one every `interval_ms`: a
 * burst of lines goes at once, then one line per interval. Lines wait in a
 * FIFO per lane (a name the caller chooses: the user a reply answers, a
 * channel or nick, or "" for lines addressed to no one: JOIN, MODE, NICK,
 * own PINGs), so one lane's lines keep their order while lanes take turns;
 * the "" lane goes first. A group (the lines of one reply) is queued whole
 * or not at all and, once its first line is sent, the others follow before
 * any other lane's: lanes take turns reply by reply, so a reply is never
 * interleaved with another and one busy lane delays the others by at most
 * one reply. A new lane joins the turn next (after the other new ones):
 * someone who was not waiting is not put behind those who were. A lane
 * that empties keeps its place until its turn comes round again empty
 * (then it leaves): a flooder whose commands trickle in is not new each
 * time. Urgent lines (PONG, registration, QUIT) bypass the bucket and
 * every queue: a server's PING is answered at once even behind a long
 * backlog.
 *
 * Times are milliseconds on any monotonic clock the caller chooses; nothing
 * here reads a clock. Ownership: the flood queue copies every line it is
 * given and frees them itself.
 */
#ifndef DELVER_IRC_FLOOD_H
#define DELVER_IRC_FLOOD_H

#include <stddef.h>
#include <stdint.h>

#define IRC_FLOOD_TARGET_MAX 256  /* lines waiting in one lane */
#define IRC_FLOOD_TOTAL_MAX  2048 /* lines waiting in all */

struct irc_flood;

/* A bucket of burst sends (at least 1) refilled every interval_ms (0: no
 * pacing at all). It starts full. */
struct irc_flood *irc_flood_new(int burst, int interval_ms);
void irc_flood_free(struct irc_flood *f);
/* Changes the rate (as irc_flood_new), keeping the queued lines and the
 * sends the bucket holds (at most the new burst). */
void irc_flood_set_rate(struct irc_flood *f, int burst, int interval_ms);

/* Queues line[0..len) (with its CRLF) in lane. Returns 0, or -1 when the
 * lane or the whole queue is full: the line is then dropped. */
int irc_flood_push(struct irc_flood *f, const char *lane, const char *line, size_t len);

/*
 * Queues the n lines (each with its CRLF, NUL-terminated) in lane as one
 * group, whole: returns 0, or -1 when they do not all fit with `reserve`
 * more lines to spare in the lane and in the whole queue; nothing is queued
 * then (the reserve keeps room for the NOTICE that says so).
 */
int irc_flood_push_group(struct irc_flood *f, const char *lane, const char *const *lines, size_t n,
                         size_t reserve);

/* irc_flood_push_group() for a reply sent in parts: lines[starts[k]]
 * (starts ascending, each in 1..n-1) begins a part of its own, a group that
 * takes its turn among the lanes as another reply would; the parts are
 * queued all or none. */
int irc_flood_push_parts(struct irc_flood *f, const char *lane, const char *const *lines, size_t n,
                         const size_t *starts, size_t nstarts, size_t reserve);

/* Queues a line ahead of everything, outside the bucket. Returns 0, or -1
 * when the urgent queue is full (IRC_FLOOD_TARGET_MAX lines). */
int irc_flood_push_urgent(struct irc_flood *f, const char *line, size_t len);

/*
 * Takes the next line that may be sent at now and copies it into out (size
 * bytes, NUL-terminated; a longer line is dropped, which cannot happen with
 * size > IRC_LINE_MAX). Returns its length, or 0 when nothing may be sent
 * now (empty, or the bucket is dry).
 */
size_t irc_flood_pop(struct irc_flood *f, int64_t now, char *out, size_t size);

/* When the next queued line may be sent (now when it may go at once), or
 * -1 when nothing is queued. */
int64_t irc_flood_next(struct irc_flood *f, int64_t now);

/* Lines waiting, urgent ones included. */
size_t irc_flood_pending(const struct irc_flood *f);

/* Before QUIT: the rest of the group being sent (a reply half written)
 * becomes urgent, so it goes out whole at once; every other waiting line
 * is dropped. */
void irc_flood_finish(struct irc_flood *f);

/* Drops every waiting line (the link went down) and refills the bucket. */
void irc_flood_clear(struct irc_flood *f);

#endif
