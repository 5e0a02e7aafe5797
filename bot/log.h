/*
 * log: the one logging module (after OpenBSD ntpd's log.h).
 *
 * One line per event on stderr, prefixed with the level, so journald (or a
 * terminal) captures it; outside journald, once log_set_time is on, with
 * the time before the level. Secrets registered with log_secret() are replaced by
 * "[redacted]" in every line before it is written, as a second line of
 * defence: code must still never pass a secret to these functions.
 */
#ifndef DELVER_LOG_H
#define DELVER_LOG_H

#include <stdarg.h>
#include <stdbool.h>

enum log_level {
	LOG_LEVEL_ERROR = 0,
	LOG_LEVEL_WARN,
	LOG_LEVEL_INFO,
	LOG_LEVEL_DEBUG,
};

/* Calls before(ctx) ahead of writing each line and after(ctx) once it is
 * written (both NULL: none). The interactive console erases the line being
 * typed and redraws it under the log line, so the two do not mix. */
void log_set_around(void (*before)(void *ctx), void (*after)(void *ctx), void *ctx);

/* Sets the level below which lines are dropped (default: info). */
void log_set_level(enum log_level level);
enum log_level log_get_level(void);
/* Parses "error", "warn", "info" or "debug". Returns 0, or -1. */
int log_parse_level(const char *s, enum log_level *out);
/* When stderr is the journal stream $JOURNAL_STREAM names (a service
 * under systemd), prefixes every line with its syslog priority ("<3>error:
 * ...") so journald records each line's level. */
void log_detect_journal(void);
/* Whether log_detect_journal found the journal. */
bool log_to_journal(void);
/* With on, every later line not going to the journal starts with the time
 * it was written, UTC, ISO 8601 to the millisecond, and a space
 * ("2026-12-02T00:20:01.123Z warn: ..."): a daemon run by hand or under a
 * supervisor other than systemd, whose log has no time of its own.
 * Default off (a line of a command's answer, or a test's). */
void log_set_time(bool on);
/* Remembers a secret (copied) to scrub from every later line: wherever it
 * occurs, and so does any start of it 8 bytes or longer (a message cut in
 * the middle of a secret); a secret shorter than 4 bytes (an IRC channel
 * key) only where it stands as a word. Encoded forms that may be echoed
 * (a SASL payload in base64) are registered as secrets of their own. */
void log_secret(const char *secret);
/* Forgets every remembered secret (on config reload). */
void log_forget_secrets(void);

/* log_warn and fatal append ": " and strerror(errno). */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void log_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void log_fatalx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
