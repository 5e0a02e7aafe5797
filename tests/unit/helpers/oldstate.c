/* oldstate: the old state format, written for tests; see oldstate.h. */
#include "tests/unit/helpers/oldstate.h"

#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "bot/store/crc32.h"
#include "bot/store/journal.h"
#include "bot/store/store_record.h"
#include "bot/store/snapshot.h"
#include "rules/base/buf.h"

/* Writes o as one framed line and frees it. */
static void
put_object(FILE *f, cJSON *o)
{
	char *json = cJSON_PrintUnformatted(o);

	if (json == NULL ||
	    fprintf(f, "%08x %s\n", (unsigned)crc32_of(json, strlen(json)), json) < 0)
		fail_msg("cannot write an old-format line");
	free(json);
	cJSON_Delete(o);
}

static void
put_record(FILE *f, const struct store_record *r)
{
	struct buf b;

	buf_init(&b, STORE_RECORD_LINE_MAX);
	if (store_record_encode(r, store_record_builtin_mods(), &b) < 0)
		fail_msg("cannot encode the record of '%s'", r->key);
	oldstate_append(f, b.p, b.len);
	buf_free(&b);
}

static FILE *
create(const char *path)
{
	FILE *f = fopen(path, "wx");

	if (f == NULL)
		fail_msg("cannot create %s", path);
	return f;
}

struct snap {
	FILE *f;
	uint64_t n;
};

static void
snap_channel(struct channel *ch, void *ctx)
{
	struct snap *s = ctx;
	struct store_record r;

	store_record_of_channel(&r, ch);
	if (store_record_is_empty(&r))
		return;
	put_record(s->f, &r);
	s->n++;
}

static void
snap_user(struct user *u, void *ctx)
{
	struct snap *s = ctx;
	struct store_record r;

	store_record_of_user(&r, u);
	put_record(s->f, &r); /* the old store kept every user */
	s->n++;
}

void
oldstate_snapshot(const char *dir, struct state *st, int64_t taken, uint64_t next_journal)
{
	char path[4096];
	struct snap s = {0};
	cJSON *o = cJSON_CreateObject();

	snapshot_path(path, sizeof(path), dir);
	s.f = create(path);
	cJSON_AddStringToObject(o, "format", STORE_RECORD_FORMAT);
	cJSON_AddNumberToObject(o, "version", 1); /* what that store wrote */
	cJSON_AddStringToObject(o, "file", "snapshot");
	cJSON_AddNumberToObject(o, "taken", (double)taken);
	cJSON_AddNumberToObject(o, "next_journal", (double)next_journal);
	put_object(s.f, o);
	state_each_channel(st, snap_channel, &s);
	state_each_user(st, snap_user, &s);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "t", "end");
	cJSON_AddNumberToObject(o, "records", (double)s.n);
	put_object(s.f, o);
	if (fclose(s.f) != 0)
		fail_msg("cannot write %s", path);
}

FILE *
oldstate_journal(const char *dir, uint64_t seq)
{
	char path[4096];
	cJSON *o = cJSON_CreateObject();
	FILE *f;

	journal_path(path, sizeof(path), dir, seq);
	f = create(path);
	cJSON_AddStringToObject(o, "format", STORE_RECORD_FORMAT);
	cJSON_AddNumberToObject(o, "version", 1); /* what that store wrote */
	cJSON_AddStringToObject(o, "file", "journal");
	cJSON_AddNumberToObject(o, "seq", (double)seq);
	put_object(f, o);
	fflush(f);
	return f;
}

void
oldstate_append(FILE *j, const char *lines, size_t len)
{
	if (fwrite(lines, 1, len, j) != len || fflush(j) != 0)
		fail_msg("cannot append to a journal");
}

void
oldstate_channel(FILE *j, const struct channel *ch)
{
	struct store_record r;

	store_record_of_channel(&r, ch);
	put_record(j, &r);
}

void
oldstate_user(FILE *j, const struct user *u)
{
	struct store_record r;

	store_record_of_user(&r, u);
	put_record(j, &r);
}
