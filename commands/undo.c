/* undo: /undo and the channel's undo history; see undo.h. */
#include "commands/undo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "commands/registry.h"
#include "rules/base/mem.h"
#include "rules/base/utf8.h"

/* The game modules a step may restore, and how a reply names them. */
static const enum chanmod_id undo_ids[UNDO_NMODS] = {CHANMOD_TENSION, CHANMOD_FUNGEON,
                                                     CHANMOD_PROC};
static const char *const undo_labels[UNDO_NMODS] = {"Tension", "Fungeon", "dungeon procedure"};

/* Top-level commands that never change game state (never recorded). */
static const char *const not_undoable[] = {"roll",     "gmroll", "log",  "save", "saved",
                                           "settings", "gm",     "help", "undo", NULL};

struct undo_step {
	char who[KEY_MAX];
	char name[NAME_MAX_LEN];
	char path[UNDO_PATH_MAX]; /* "fungeon damage" */
	char args[UNDO_WHAT_MAX]; /* "Alba 12" as typed, or "who:Alba hits:12" */
	bool has[UNDO_NMODS];     /* the module changed in this step */
	char *before[UNDO_NMODS]; /* its previous encoding (owned), NULL: none */
};

struct undo_hist {
	size_t n; /* steps, oldest first */
	struct undo_step steps[UNDO_STEPS];
	/* The modules' encodings after the last command (memory only): the
	 * "before" of the next change, so a command that changes nothing
	 * encodes nothing. Valid when cached; every change to a module is
	 * followed by channel_touch(), after which undo_after() refreshes it. */
	bool cached;
	char *cur[UNDO_NMODS]; /* owned, NULL: no state */
};

static void
copy_bounded(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = utf8_cut(src, n, size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void
step_clear(struct undo_step *s)
{
	for (int m = 0; m < UNDO_NMODS; m++)
		free(s->before[m]);
	memset(s, 0, sizeof(*s));
}

static size_t
step_bytes(const struct undo_step *s)
{
	size_t n = 0;

	for (int m = 0; m < UNDO_NMODS; m++)
		if (s->before[m] != NULL)
			n += strlen(s->before[m]);
	return n;
}

static void
hist_drop_oldest(struct undo_hist *h)
{
	step_clear(&h->steps[0]);
	memmove(&h->steps[0], &h->steps[1], (h->n - 1) * sizeof(h->steps[0]));
	h->n--;
	memset(&h->steps[h->n], 0, sizeof(h->steps[0]));
}

static void
cache_clear(struct undo_hist *h)
{
	for (int m = 0; m < UNDO_NMODS; m++) {
		free(h->cur[m]);
		h->cur[m] = NULL;
	}
	h->cached = false;
}

static void
hist_clear(struct undo_hist *h)
{
	for (size_t i = 0; i < h->n; i++)
		step_clear(&h->steps[i]);
	h->n = 0;
}

/* Adds s (taken over) as the newest step, keeping the bounds. */
static void
hist_push(struct undo_hist *h, struct undo_step *s)
{
	size_t total = step_bytes(s);

	if (total > UNDO_BYTES) {
		hist_clear(h);
		step_clear(s);
		return;
	}
	for (size_t i = 0; i < h->n; i++)
		total += step_bytes(&h->steps[i]);
	while (h->n > 0 && (h->n == UNDO_STEPS || total > UNDO_BYTES)) {
		total -= step_bytes(&h->steps[0]);
		hist_drop_oldest(h);
	}
	h->steps[h->n++] = *s;
	memset(s, 0, sizeof(*s));
}

/* --- the module slot --- */

static void *
hist_create(void)
{
	return xcalloc(1, sizeof(struct undo_hist));
}

static void
hist_destroy(void *p)
{
	struct undo_hist *h = p;

	if (h == NULL)
		return;
	hist_clear(h);
	cache_clear(h);
	free(h);
}

static cJSON *
hist_save(const void *p)
{
	const struct undo_hist *h = p;
	cJSON *o = cJSON_CreateObject(), *steps = cJSON_AddArrayToObject(o, "steps");

	for (size_t i = 0; i < h->n; i++) {
		const struct undo_step *s = &h->steps[i];
		cJSON *so = cJSON_CreateObject(), *mods;

		cJSON_AddStringToObject(so, "who", s->who);
		cJSON_AddStringToObject(so, "name", s->name);
		cJSON_AddStringToObject(so, "path", s->path);
		cJSON_AddStringToObject(so, "args", s->args);
		mods = cJSON_AddObjectToObject(so, "mods");
		for (int m = 0; m < UNDO_NMODS; m++) {
			const char *key = chanmod_table[undo_ids[m]]->name;

			if (!s->has[m])
				continue;
			if (s->before[m] != NULL)
				cJSON_AddStringToObject(mods, key, s->before[m]);
			else
				cJSON_AddNullToObject(mods, key);
		}
		cJSON_AddItemToArray(steps, so);
	}
	return o;
}

static int
load_text(const cJSON *o, const char *name, char *dst, size_t size, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!cJSON_IsString(v) || strlen(v->valuestring) >= size ||
	    !utf8_valid(v->valuestring, strlen(v->valuestring))) {
		snprintf(err, errlen,
		         "An undo step's \"%s\" is not a UTF-8 string of at most %zu bytes.", name,
		         size - 1);
		return -1;
	}
	memcpy(dst, v->valuestring, strlen(v->valuestring) + 1);
	return 0;
}

static int
load_step(const cJSON *so, struct undo_step *s, char *err, size_t errlen)
{
	const cJSON *mods, *v;
	bool any = false;

	if (!cJSON_IsObject(so)) {
		snprintf(err, errlen, "An undo step is not an object.");
		return -1;
	}
	if (load_text(so, "who", s->who, sizeof(s->who), err, errlen) < 0 ||
	    load_text(so, "name", s->name, sizeof(s->name), err, errlen) < 0 ||
	    load_text(so, "path", s->path, sizeof(s->path), err, errlen) < 0 ||
	    load_text(so, "args", s->args, sizeof(s->args), err, errlen) < 0)
		return -1;
	mods = cJSON_GetObjectItemCaseSensitive(so, "mods");
	if (!cJSON_IsObject(mods)) {
		snprintf(err, errlen, "An undo step's \"mods\" is not an object.");
		return -1;
	}
	cJSON_ArrayForEach(v, mods)
	{
		int m = 0;

		while (m < UNDO_NMODS && strcmp(chanmod_table[undo_ids[m]]->name, v->string) != 0)
			m++;
		if (m == UNDO_NMODS || s->has[m]) {
			snprintf(err, errlen,
			         "An undo step names module \"%.40s\" that is unknown or repeated; "
			         "allowed once each: tension, fungeon, procedure.",
			         v->string);
			return -1;
		}
		if (!cJSON_IsNull(v) && !cJSON_IsString(v)) {
			snprintf(err, errlen,
			         "An undo step's \"%.40s\" is neither a string nor null.",
			         v->string);
			return -1;
		}
		s->has[m] = any = true;
		s->before[m] = cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
	}
	if (!any) {
		snprintf(err, errlen, "An undo step restores no module.");
		return -1;
	}
	return 0;
}

static int
hist_load(void *p, const cJSON *o, char *err, size_t errlen)
{
	struct undo_hist *h = p;
	const cJSON *steps = cJSON_GetObjectItemCaseSensitive(o, "steps"), *so;
	size_t total = 0;

	if (!cJSON_IsArray(steps) || cJSON_GetArraySize(steps) > UNDO_STEPS) {
		snprintf(err, errlen, "The undo history's \"steps\" is not an array of at most %d.",
		         UNDO_STEPS);
		return -1;
	}
	cJSON_ArrayForEach(so, steps)
	{
		struct undo_step *s = &h->steps[h->n++];

		if (load_step(so, s, err, errlen) < 0)
			return -1;
		total += step_bytes(s);
	}
	if (total > UNDO_BYTES) {
		snprintf(err, errlen, "The undo history holds %zu bytes; at most %d are allowed.",
		         total, UNDO_BYTES);
		return -1;
	}
	return 0;
}

/* Moves the steps made by from onto to (so they may still undo them). The
 * previous encodings are left as they were: undoing a step made before
 * the adoption brings back the legacy key in what it restores. */
static int
hist_rekey(void *mod, const char *from, const char *to)
{
	struct undo_hist *h = mod;
	int moved = 0;

	for (size_t i = 0; i < h->n; i++) {
		if (strcmp(h->steps[i].who, from) == 0) {
			copy_bounded(h->steps[i].who, sizeof(h->steps[i].who), to);
			moved++;
		}
	}
	cache_clear(h);
	return moved;
}

const struct chanmod undo_mod = {
    .name = "undo",
    .create = hist_create,
    .destroy = hist_destroy,
    .save = hist_save,
    .load = hist_load,
    .rekey = hist_rekey,
};

size_t
undo_depth(const struct channel *ch)
{
	const struct undo_hist *h = channel_mod_peek(ch, CHANMOD_UNDO);

	return h != NULL ? h->n : 0;
}

/* --- recording --- */

static char *
encode_mod(const struct channel *ch, int m)
{
	const void *mod = channel_mod_peek(ch, undo_ids[m]);
	cJSON *o;
	char *p, *s;

	if (mod == NULL)
		return NULL;
	o = chanmod_table[undo_ids[m]]->save(mod);
	p = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (p == NULL)
		abort(); /* out of memory, like xmalloc */
	s = xstrdup(p);
	cJSON_free(p);
	return s;
}

static bool
undoable(const struct invocation *inv)
{
	for (size_t i = 0; not_undoable[i] != NULL; i++)
		if (strcmp(inv->path[0]->name, not_undoable[i]) == 0)
			return false;
	return true;
}

void
undo_before(struct invocation *inv, struct undo_snap *snap)
{
	struct undo_hist *h;

	snap->active = false;
	if (inv->path[0] == NULL || !undoable(inv))
		return;
	snap->active = true;
	h = channel_mod(inv->chan, CHANMOD_UNDO);
	if (h->cached)
		return;
	for (int m = 0; m < UNDO_NMODS; m++)
		h->cur[m] = encode_mod(inv->chan, m);
	h->cached = true;
}

/* Appends the command path's names to buf ("fungeon damage"). */
static void
describe_path(const struct invocation *inv, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < 3 && inv->path[i] != NULL && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", inv->path[i]->name);
}

/* Whether word (len bytes) names the command c (or its alias). */
static bool
names(const struct command *c, const char *word, size_t len)
{
	return (strlen(c->name) == len && strncasecmp(c->name, word, len) == 0) ||
	       (c->alias != NULL && strlen(c->alias) == len &&
	        strncasecmp(c->alias, word, len) == 0);
}

/* The values as typed after the command's path ("Alba 12"), or for a
 * bound invocation each value given as name:value. */
static void
describe_args(const struct invocation *inv, char *buf, size_t len)
{
	size_t n = 0;
	const struct command *c = inv->cmd;

	buf[0] = '\0';
	if (inv->line != NULL) {
		const char *p = inv->line, *end = inv->line + inv->line_len;

		for (int i = 0; i < 3 && inv->path[i] != NULL; i++) {
			const char *w;

			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			w = p;
			while (p < end && *p != ' ' && *p != '\t')
				p++;
			if (!names(inv->path[i], w, (size_t)(p - w))) {
				p = w;
				break;
			}
		}
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		n = (size_t)snprintf(buf, len, "%.*s", (int)(end - p), p);
	} else {
		for (size_t i = 0; c->opts != NULL && c->opts[i].name != NULL && n < len; i++) {
			const struct cmd_arg *a = &inv->args[i];
			const char *name = c->opts[i].name, *sep = n > 0 ? " " : "";

			if (!a->set)
				continue;
			if (c->opts[i].type == OPT_INT)
				n += (size_t)snprintf(buf + n, len - n, "%s%s:%lld", sep, name,
				                      (long long)a->i);
			else if (c->opts[i].type == OPT_BOOL)
				n += (size_t)snprintf(buf + n, len - n, "%s%s:%s", sep, name,
				                      a->b ? "true" : "false");
			else if (a->s != NULL)
				n += (size_t)snprintf(buf + n, len - n, "%s%s:%s", sep, name, a->s);
		}
	}
	if (n >= len) /* cut: keep whole UTF-8 characters and mark it */
		copy_bounded(buf + utf8_cut(buf, strlen(buf), len - 4), 4, "...");
}

/* "/fungeon damage Alba 12" as the platform writes commands. */
static void
put_what(struct reply *out, unsigned style, const struct undo_step *s)
{
	reply_cmd(out, style, s->path, NULL);
	if (s->args[0] != '\0')
		reply_add(out, style, " %s", s->args);
}

void
undo_after(struct invocation *inv, struct undo_snap *snap)
{
	struct undo_hist *h = channel_mod_peek(inv->chan, CHANMOD_UNDO);
	struct undo_step s;
	bool any = false;

	if (!snap->active || h == NULL || !h->cached || !channel_touched(inv->chan))
		return;
	memset(&s, 0, sizeof(s));
	for (int m = 0; m < UNDO_NMODS; m++) {
		char *now = encode_mod(inv->chan, m), *was = h->cur[m];

		if (was == NULL ? now != NULL : now == NULL || strcmp(was, now) != 0) {
			s.has[m] = any = true;
			s.before[m] = was;
			h->cur[m] = now;
		} else
			free(now);
	}
	if (!any)
		return;
	copy_bounded(s.who, sizeof(s.who), inv->from->user_key);
	copy_bounded(s.name, sizeof(s.name), inv->from->user_name);
	describe_path(inv, s.path, sizeof(s.path));
	describe_args(inv, s.args, sizeof(s.args));
	hist_push(h, &s);
}

/* --- /undo --- */

/* Decodes the step's previous states into fresh[] (NULL: no state), or
 * returns -1 with err set. */
static int
decode_step(const struct undo_step *s, void *fresh[UNDO_NMODS], char *err, size_t errlen)
{
	for (int m = 0; m < UNDO_NMODS; m++) {
		const struct chanmod *cm = chanmod_table[undo_ids[m]];
		cJSON *o;
		int r;

		fresh[m] = NULL;
		if (!s->has[m] || s->before[m] == NULL)
			continue;
		o = cJSON_Parse(s->before[m]);
		fresh[m] = cm->create();
		r = o != NULL ? cm->load(fresh[m], o, err, errlen) : -1;
		if (o == NULL)
			snprintf(err, errlen, "its saved %s state is not JSON", undo_labels[m]);
		cJSON_Delete(o);
		if (r < 0) {
			for (int k = 0; k <= m; k++)
				if (fresh[k] != NULL)
					chanmod_table[undo_ids[k]]->destroy(fresh[k]);
			return -1;
		}
	}
	return 0;
}

static void
undo_fn(struct invocation *inv, struct reply *out)
{
	struct undo_hist *h = channel_mod_peek(inv->chan, CHANMOD_UNDO);
	struct undo_step *s;
	void *fresh[UNDO_NMODS];
	char err[256];
	bool first = true;

	if (h == NULL || h->n == 0) {
		reply_error(out,
		            "There is nothing to undo here: no change to Tension, Fungeon or "
		            "procedure state is kept (a channel keeps its last %d).",
		            UNDO_STEPS);
		return;
	}
	s = &h->steps[h->n - 1];
	if (strcmp(s->who, inv->from->user_key) != 0 && !inv->is_gm) {
		reply_error(out, "The last change here is %s's ", s->name);
		put_what(out, RS_BAD, s);
		reply_add(out, RS_BAD, "; only %s or the GM can undo it.", s->name);
		return;
	}
	if (decode_step(s, fresh, err, sizeof(err)) < 0) {
		reply_error(out, "%s's ", s->name);
		put_what(out, RS_BAD, s);
		reply_add(out, RS_BAD, " cannot be undone: %s", err);
		return;
	}
	reply_add(out, 0, "Undid %s's ", s->name);
	put_what(out, RS_BOLD, s);
	reply_add(out, 0, ": ");
	for (int m = 0; m < UNDO_NMODS; m++) {
		if (!s->has[m])
			continue;
		channel_mod_set(inv->chan, undo_ids[m], fresh[m]);
		reply_add(out, 0, "%s%s", first ? "" : ", ", undo_labels[m]);
		first = false;
	}
	reply_add(out, 0, " state is as it was before.");
	reply_nl(out);
	step_clear(s);
	h->n--;
	cache_clear(h); /* the restored states are encoded again when next needed */
	channel_touch(inv->chan);
	if (h->n > 0) {
		reply_add(out, 0, "%zu more change%s can be undone; the next is %s's ", h->n,
		          h->n == 1 ? "" : "s", h->steps[h->n - 1].name);
		put_what(out, 0, &h->steps[h->n - 1]);
		reply_add(out, 0, ".");
		reply_nl(out);
	} else
		reply_line(out, 0, "Nothing more can be undone here.");
}

const struct command cmd_undo = {
    .name = "undo",
    .desc = "Take back the channel's last change to the game (by its maker or the GM)",
    .help = "Restores the Tension, Fungeon and procedure state (turn, lights, hazards, "
            "wandering, vendors) as it was before the last command that changed it, and "
            "names that command. Only the one who made the change or the GM can undo it. "
            "Repeat to go further back: the channel keeps its last 10 changes (and at most "
            "256 KiB of earlier state), across restarts. Rolls, {/log}, saved rolls, the channel's "
            "settings and the GM seat are not undone.",
    .fn = undo_fn,
};
