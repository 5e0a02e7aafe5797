/* log: levelled one-line logging to stderr with secret scrubbing. */
#include "bot/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rules/base/buf.h"
#include "rules/base/mem.h"

#define LOG_LINE_MAX    4096
#define LOG_SECRETS_MAX 400 /* tokens, passwords, SASL payloads, 8 x 32 IRC channel keys */
#define SCRUB_PREFIX    8   /* bytes of a secret's start that are scrubbed alone */
#define SCRUB_SHORT     4   /* secrets shorter than this go as whole words only */

static enum log_level level = LOG_LEVEL_INFO;
static bool journal; /* prefix lines with "<priority>" */
static bool stamped; /* else, prefix them with the time (log_set_time) */
static char *secrets[LOG_SECRETS_MAX];
static size_t nsecrets;

static const char *const names[] = {"error", "warn", "info", "debug"};
/* The syslog priority of each level, for journald (sd-daemon(3)). */
static const int priorities[] = {3, 4, 6, 7};

void
log_set_level(enum log_level l)
{
	level = l;
}

enum log_level
log_get_level(void)
{
	return level;
}

int
log_parse_level(const char *s, enum log_level *out)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = (enum log_level)i;
			return 0;
		}
	}
	return -1;
}

void
log_detect_journal(void)
{
	const char *v = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	char *end;

	journal = false;
	if (v == NULL || fstat(STDERR_FILENO, &st) < 0)
		return;
	dev = strtoull(v, &end, 10);
	if (*end != ':')
		return;
	ino = strtoull(end + 1, &end, 10);
	journal = *end == '\0' && dev == (unsigned long long)st.st_dev &&
	          ino == (unsigned long long)st.st_ino;
}

bool
log_to_journal(void)
{
	return journal;
}

void
log_set_time(bool on)
{
	stamped = on;
}

/* Appends the time now, UTC, ISO 8601 to the millisecond, and a space. */
static void
add_time(struct buf *line)
{
	struct timespec ts;
	struct tm tm;
	char s[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	buf_addf(line, "%s.%03ldZ ", s, ts.tv_nsec / 1000000);
}

void
log_secret(const char *secret)
{
	if (secret == NULL || *secret == '\0' || nsecrets == LOG_SECRETS_MAX)
		return;
	for (size_t i = 0; i < nsecrets; i++)
		if (strcmp(secrets[i], secret) == 0)
			return;
	secrets[nsecrets++] = xstrdup(secret);
}

void
log_forget_secrets(void)
{
	while (nsecrets > 0)
		free(secrets[--nsecrets]);
}

static bool
word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/*
 * How many bytes of secret s (n bytes long) start at p, or 0: the whole of
 * it or, for a secret of SCRUB_PREFIX bytes or more, any prefix at least
 * that long (a message cut mid-secret); a secret shorter than SCRUB_SHORT
 * only as a whole word, lest every such string in a line go.
 */
static size_t
secret_at(const char *line, const char *p, const char *s, size_t n)
{
	size_t m = 0;

	while (m < n && p[m] == s[m])
		m++;
	if (m == n && n < SCRUB_SHORT)
		return (p == line || !word_char(p[-1])) && !word_char(p[n]) ? n : 0;
	return m == n || (n >= SCRUB_PREFIX && m >= SCRUB_PREFIX) ? m : 0;
}

/* Replaces every occurrence of each secret in line by "[redacted]". */
static void
scrub(struct buf *line)
{
	for (size_t i = 0; i < nsecrets; i++) {
		const char *s = secrets[i], *p = buf_str(line);
		size_t n = strlen(s);
		struct buf out;

		if (strchr(p, s[0]) == NULL)
			continue;
		buf_init(&out, LOG_LINE_MAX + 16);
		while (*p != '\0') {
			size_t m = *p == s[0] ? secret_at(buf_str(line), p, s, n) : 0;

			if (m > 0) {
				buf_adds(&out, "[redacted]");
				p += m;
			} else {
				buf_addc(&out, *p++);
			}
		}
		buf_free(line);
		*line = out;
	}
}

static void (*around_before)(void *);
static void (*around_after)(void *);
static void *around_ctx;

void
log_set_around(void (*before)(void *ctx), void (*after)(void *ctx), void *ctx)
{
	around_before = before;
	around_after = after;
	around_ctx = ctx;
}

static void
vlog(enum log_level l, int errnum, const char *fmt, va_list ap)
{
	struct buf line;

	if (l > level)
		return;
	buf_init(&line, LOG_LINE_MAX);
	if (journal)
		buf_addf(&line, "<%d>", priorities[l]);
	else if (stamped)
		add_time(&line);
	buf_addf(&line, "%s: ", names[l]);
	buf_vaddf(&line, fmt, ap);
	if (errnum != 0)
		buf_addf(&line, ": %s", strerror(errnum));
	if (line.toobig)
		buf_adds(&line, " [line cut]");
	/* One line per event: a newline inside a message cannot fake a line. */
	for (size_t i = 0; i < line.len; i++)
		if (line.p[i] == '\n' || line.p[i] == '\r')
			line.p[i] = ' ';
	scrub(&line);
	buf_addc(&line, '\n');
	if (around_before != NULL)
		around_before(around_ctx);
	fputs(buf_str(&line), stderr);
	fflush(stderr);
	if (around_after != NULL)
		around_after(around_ctx);
	buf_free(&line);
}

#define LOGFN(fn, lvl, witherr)                                                                    \
	void fn(const char *fmt, ...)                                                              \
	{                                                                                          \
		int saved = errno;                                                                 \
		va_list ap;                                                                        \
		va_start(ap, fmt);                                                                 \
		vlog(lvl, (witherr) ? saved : 0, fmt, ap);                                         \
		va_end(ap);                                                                        \
		errno = saved;                                                                     \
	}

LOGFN(log_warn, LOG_LEVEL_WARN, 1)
LOGFN(log_warnx, LOG_LEVEL_WARN, 0)
LOGFN(log_error, LOG_LEVEL_ERROR, 0)
LOGFN(log_info, LOG_LEVEL_INFO, 0)
LOGFN(log_debug, LOG_LEVEL_DEBUG, 0)

void
log_fatal(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LEVEL_ERROR, saved, fmt, ap);
	va_end(ap);
	exit(1);
}

void
log_fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_LEVEL_ERROR, 0, fmt, ap);
	va_end(ap);
	exit(1);
}
