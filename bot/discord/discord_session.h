/*
 * discord_session: the gateway session kept across restarts.
 *
 * A restart within Discord's resume window resumes the session instead of
 * starting a new one, so the events dispatched while delver was down
 * (interactions included) are replayed to it. The file holds the session
 * id, the resume URL, the last sequence number and the application id, as
 * one JSON object, with the GM role ids learnt from the guilds (a resume
 * does not send them again); never the token (a session id is useless without it).
 *
 * discord_session_save() writes a temporary file, fsyncs it, renames it
 * over the old one and fsyncs the directory, so a crash at any point leaves
 * the old file or the new one, whole. It blocks on the disk: call it off
 * the loop (uv_queue_work). discord_session_parse() takes untrusted bytes
 * (the file may be damaged or edited) and never aborts.
 */
#ifndef DELVER_DISCORD_SESSION_H
#define DELVER_DISCORD_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISCORD_SESSION_ROLES_MAX 8192 /* bytes of GM role ids kept */
#define DISCORD_SESSION_FILE_MAX  (DISCORD_SESSION_ROLES_MAX + 4096)

struct discord_session {
	char session_id[128];
	char resume_url[512]; /* ws:// or wss://, or "" */
	char app_id[24];      /* digits, or "" */
	int64_t seq;          /* >= 0 */
	/* what the session was identified with: a start with other intents or
	 * another shard count starts a new session */
	uint64_t intents;
	int shard_count;
	/* the GM role ids learnt (discord_roles_export(): a JSON object), or "":
	 * Discord does not replay GUILD_CREATE on a resume */
	char gm_roles[DISCORD_SESSION_ROLES_MAX];
};

/* Parses the file's bytes into *out. Returns 0, or -1 with one sentence in
 * err naming what is wrong. */
int discord_session_parse(const char *text, size_t len, struct discord_session *out, char *err,
                          size_t errlen);
/* The file's text for s; the caller frees it. */
char *discord_session_format(const struct discord_session *s);
/* Reads path into *out: 1 when a valid session was read, 0 when there is
 * no file, -1 with err when it cannot be read or is not valid. */
int discord_session_load(const char *path, struct discord_session *out, char *err, size_t errlen);
/* Writes s to path atomically and durably (see above). Returns 0, or -1
 * with err. */
int discord_session_save(const char *path, const struct discord_session *s, char *err,
                         size_t errlen);
/* Removes path (no file is no error), durably. Returns 0, or -1 with err. */
int discord_session_remove(const char *path, char *err, size_t errlen);
bool discord_session_equal(const struct discord_session *a, const struct discord_session *b);

#endif
