/* undo: /undo and the channel's undo history; see undo.h. */
#include "commands/core/undo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "commands/core/registry.h"
#include "commands/core/undo_delta.h"
#include "commands/core/undo_hist.h"
#include "commands/tension/tension_state.h"
#include "commands/core/undo_screen.h"
#include "rules/base/buf.h"
#include "rules/base/json.h"
#include "rules/base/num.h"
#include "rules/base/rng.h"
#include "rules/base/utf8.h"

/* The game modules a step may restore, and how a reply names them. */
const enum chanmod_id undo_ids[UNDO_NMODS] = {CHANMOD_TENSION, CHANMOD_FUNGEON, CHANMOD_PROC,
                                              CHANMOD_TABLES};
const char *const undo_labels[UNDO_NMODS] = {"Tension", "Fungeon", "dungeon procedure", "tables"};

/* The bytes a command adds to a module's text, as a rule (a history
 * entry): the room made for its text after beyond the text before. */
#define UNDO_GROWTH 256

/* Top-level commands that never change game state (never recorded). */
static const char *const not_undoable[] = {"roll",     "gmroll", "log",  "save", "saved",
                                           "settings", "gm",     "help", "undo", NULL};

/* --- recording --- */

/* Module m's text now (len bytes; NULL: the channel holds no state of
 * it), the caller's to free: the channel's kept text when it is valid,
 * else a fresh encoding, made in room for hint bytes at first. */
static char *
take_mod(struct channel *ch, int m, size_t hint, size_t *len)
{
	const void *mod = channel_mod_peek(ch, undo_ids[m]);
	char *text;
	struct buf b;

	*len = 0;
	if (mod == NULL)
		return NULL;
	if ((text = channel_take_text(ch, undo_ids[m], len)) != NULL)
		return text;
	buf_init(&b, SIZE_MAX);
	if (hint > 0)
		buf_reserve(&b, hint);
	if (chanmod_write(chanmod_table[undo_ids[m]], mod, &b) < 0)
		abort(); /* b has no cap: only a module state JSON cannot carry fails */
	*len = b.len;
	return buf_take(&b);
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
	memset(snap, 0, sizeof(*snap));
	/* A command that only reads cannot leave a step: its encodings would
	 * be made for nothing (registry.h, read_only). */
	if (inv->path[0] == NULL || inv->cmd->read_only || !undoable(inv))
		return;
	snap->active = true;
	snap->draws = inv->rng != NULL ? rng_draws(inv->rng) : 0;
	for (int m = 0; m < UNDO_NMODS; m++)
		snap->before[m] = take_mod(inv->chan, m, 0, &snap->before_len[m]);
}

/* Writes the k bytes at s (no NUL among them) at buf + n, cut to the room
 * left in buf (len bytes, the NUL included), as snprintf(buf + n, len - n,
 * ...) would; nothing when n >= len. Returns n + k: the length of the
 * whole text, cut or not, as snprintf's counts add up. */
static size_t
put(char *buf, size_t len, size_t n, const char *s, size_t k)
{
	if (n < len) {
		size_t fit = k < len - n - 1 ? k : len - n - 1;

		memcpy(buf + n, s, fit);
		buf[n + fit] = '\0';
	}
	return n + k;
}

/* put() of the string s. */
static size_t
put_str(char *buf, size_t len, size_t n, const char *s)
{
	return put(buf, len, n, s, strlen(s));
}

/* Appends the command path's names to buf ("fungeon damage"). */
static void
describe_path(const struct invocation *inv, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < 3 && inv->path[i] != NULL && n < len; i++) {
		n = put_str(buf, len, n, i ? " " : "");
		n = put_str(buf, len, n, inv->path[i]->name);
	}
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
		n = put(buf, len, 0, p, strnlen(p, (size_t)(end - p)));
	} else {
		for (size_t i = 0; c->opts != NULL && c->opts[i].name != NULL && n < len; i++) {
			const struct cmd_arg *a = &inv->args[i];
			char num[NUM_TEXT_MAX];
			const char *value;

			if (!a->set)
				continue;
			if (c->opts[i].type == OPT_INT) {
				num_text((long long)a->i, num);
				value = num;
			} else if (c->opts[i].type == OPT_BOOL) {
				value = a->b ? "true" : "false";
			} else if ((value = a->s) == NULL) {
				continue;
			}
			n = put_str(buf, len, n, n > 0 ? " " : "");
			n = put_str(buf, len, n, c->opts[i].name);
			n = put_str(buf, len, n, ":");
			n = put_str(buf, len, n, value);
		}
	}
	if (n >= len) /* cut: keep whole UTF-8 characters and mark it */
		utf8_copy(buf + utf8_cut(buf, strlen(buf), len - 4), 4, "...");
}

/* "/fungeon damage Alba 12" as the platform writes commands. */
static void
put_what(struct reply *out, unsigned style, const struct undo_step *s)
{
	reply_cmd(out, style, undo_step_text(s, UNDO_PATH), NULL);
	if (undo_step_text(s, UNDO_ARGS)[0] != '\0')
		reply_add(out, style, " %s", undo_step_text(s, UNDO_ARGS));
}

/* Whether the channel read all of the change p (UNDO_PUBLIC): not made
 * behind the screen, nothing in its reply out for the invoker or the GM
 * alone, and neither Tension nor the tables changed (their hidden parts
 * are the GM's, and a step keeps no table's name). */
static bool
fully_public(const struct undo_parts *p, bool screened, const struct reply *out)
{
	for (int m = 0; m < UNDO_NMODS; m++)
		if ((p->has >> m & 1) &&
		    (undo_ids[m] == CHANMOD_TENSION || undo_ids[m] == CHANMOD_TABLES))
			return false;
	return !screened && reply_msg(out, REPLY_INVOKER) == NULL &&
	       reply_msg(out, REPLY_GM) == NULL;
}

void
undo_after(struct invocation *inv, struct undo_snap *snap, const struct reply *out)
{
	struct undo_parts p;
	char *now[UNDO_NMODS] = {NULL};
	size_t now_len[UNDO_NMODS] = {0};
	char who[KEY_MAX], name[NAME_MAX_LEN], path[UNDO_PATH_MAX], args[UNDO_WHAT_MAX];
	char screen[KEY_MAX];
	bool changed = snap->active && channel_touched(inv->chan), screened;

	memset(&p, 0, sizeof(p));
	if (changed) {
		for (int m = 0; m < UNDO_NMODS; m++) {
			const char *was = snap->before[m];
			size_t was_len = snap->before_len[m];

			/* About as long as the text before: room for it and a change. */
			now[m] = take_mod(inv->chan, m, was_len + UNDO_GROWTH, &now_len[m]);
			if (was == NULL ? now[m] == NULL
			                : now[m] != NULL && was_len == now_len[m] &&
			                      memcmp(was, now[m], was_len) == 0)
				continue;
			p.has |= (uint8_t)(1u << m);
			if (was == NULL)
				p.none |= (uint8_t)(1u << m);
			else if (now[m] == NULL) /* against no state: the empty encoding */
				undo_delta_make(was, was_len, "", 0, &p.d[m]);
			else
				undo_delta_make(was, was_len, now[m], now_len[m], &p.d[m]);
		}
	}
	/* Made behind the screen: kept even when it changed nothing. */
	screened = inv->screened && snap->active;
	if (p.has != 0 || screened) {
		struct undo_step *s;
		size_t size;

		const char *gm = channel_gm(inv->seat);

		utf8_copy(who, sizeof(who), inv->from->user_key);
		utf8_copy(name, sizeof(name), inv->from->user_name);
		describe_path(inv, path, sizeof(path));
		describe_args(inv, args, sizeof(args));
		/* Behind the screen: whoever acts as GM, else the seat's holder. */
		utf8_copy(screen, sizeof(screen),
		          inv->is_gm   ? inv->from->user_key
		          : gm != NULL ? gm
		                       : "");
		p.text[UNDO_WHO] = who;
		p.text[UNDO_NAME] = name;
		p.text[UNDO_PATH] = path;
		p.text[UNDO_ARGS] = args;
		p.text[UNDO_SCREEN] = screen;
		/* Whether the one behind the screen held the seat: a roll is
		 * taken back only by the GM who held it then. */
		if (gm != NULL && strcmp(screen, gm) == 0)
			p.flags |= UNDO_SEATED;
		/* Dice drawn while it ran: its outcome came from them. */
		if (inv->rng != NULL && rng_draws(inv->rng) != snap->draws)
			p.flags |= UNDO_ROLLED;
		if (screened)
			p.flags |= UNDO_SCREENED;
		if (fully_public(&p, screened, out))
			p.flags |= UNDO_PUBLIC;
		p.flags |= tension_state_hidden(inv->chan) ? UNDO_SHUT : UNDO_OPEN;
		s = undo_step_pack(&p, &size);
		undo_hist_push(channel_mod(inv->chan, CHANMOD_UNDO), s, size);
		/* A screened step of nothing is still a change of the channel:
		 * saved with it, and seen by whatever follows its changes (a live
		 * panel) as any step is. */
		if (!channel_touched(inv->chan))
			channel_touch(inv->chan);
	}
	/* The texts of the states as they are now stay with the channel for
	 * whoever needs them next (its record, the next command's image):
	 * those just made, or, when nothing changed, those taken before. */
	for (int m = 0; m < UNDO_NMODS; m++) {
		undo_delta_free(&p.d[m]);
		if (changed) {
			channel_keep_text(inv->chan, undo_ids[m], now[m], now_len[m]);
			free(snap->before[m]);
		} else {
			channel_keep_text(inv->chan, undo_ids[m], snap->before[m],
			                  snap->before_len[m]);
		}
		snap->before[m] = NULL;
	}
}

/* --- /undo --- */

/* Rebuilds the step's previous states from the channel's current ones into
 * fresh[] (NULL: no state), or returns -1 with err set. */
static int
decode_step(struct channel *ch, const struct undo_step *s, void *fresh[UNDO_NMODS], char *err,
            size_t errlen)
{
	struct undo_delta d[UNDO_NMODS];

	undo_step_deltas(s, d);
	for (int m = 0; m < UNDO_NMODS; m++)
		fresh[m] = NULL;
	for (int m = 0; m < UNDO_NMODS; m++) {
		const struct chanmod *cm = chanmod_table[undo_ids[m]];
		char *cur, *prev = NULL;
		size_t cur_len, prev_len;
		cJSON *o = NULL;
		int r = -1;

		if (!undo_step_has_delta(s, m))
			continue;
		cur = take_mod(ch, m, 0, &cur_len);
		if (undo_delta_apply(&d[m], cur != NULL ? cur : "", cur_len, &prev, &prev_len) < 0)
			snprintf(err, errlen,
			         "its saved %s change does not fit the current %s state",
			         undo_labels[m], undo_labels[m]);
		channel_keep_text(ch, undo_ids[m], cur, cur_len); /* still the state's */
		if (prev != NULL) {
			o = cJSON_Parse(prev);
			if (o == NULL)
				snprintf(err, errlen, "its saved %s state is not JSON",
				         undo_labels[m]);
		}
		fresh[m] = cm->create();
		if (o != NULL)
			r = cm->load(fresh[m], o, err, errlen);
		cJSON_Delete(o);
		free(prev);
		if (r < 0) {
			for (int k = 0; k <= m; k++)
				if (fresh[k] != NULL)
					chanmod_table[undo_ids[k]]->destroy(fresh[k]);
			return -1;
		}
	}
	return 0;
}

/* Step s as undo_screen reads it. */
static struct undo_screen_step
screen_step(const struct undo_step *s)
{
	uint8_t f = undo_step_flags(s);

	return (struct undo_screen_step){
	    .path = undo_step_text(s, UNDO_PATH),
	    .changed_tension = (undo_step_has(s) & 1) != 0, /* undo_ids[0] */
	    .screened = (f & UNDO_SCREENED) != 0,
	    .seated = undo_step_text(s, UNDO_SCREEN)[0] != '\0',
	    .public = (f & UNDO_PUBLIC) != 0,
	};
}

/* Whether what /undo says of step s stays behind the GM's screen. */
static bool
hidden_step(const struct invocation *inv, const struct undo_step *s)
{
	struct undo_screen_step ss = screen_step(s);

	return undo_screen_hides(inv->chan, &ss);
}

/* Whether what /undo says of step s stays behind the GM's screen once
 * every newer step is undone: Tension's mode then is as it was once s was
 * made (as the current one for a step saved without it). */
static bool
hidden_then(const struct invocation *inv, const struct undo_step *s)
{
	uint8_t f = undo_step_flags(s);
	struct undo_screen_step ss = screen_step(s);

	return undo_screen_hides_when(f & UNDO_OPEN   ? false
	                              : f & UNDO_SHUT ? true
	                                              : tension_state_hidden(inv->chan),
	                              &ss);
}

/* Whether what s is stays out of what the invoker is told (hidden: s is
 * behind the screen, hidden_step): a hidden step is told to the GM behind
 * whose screen it was made alone, and only in the GM's private part
 * (gm_part), never in the channel's. */
static bool
veiled(const struct invocation *inv, const struct undo_step *s, bool hidden, bool gm_part)
{
	if (!hidden)
		return false;
	return !gm_part || strcmp(undo_step_text(s, UNDO_SCREEN), inv->from->user_key) != 0;
}

static bool
rolled(const struct undo_step *s)
{
	return (undo_step_flags(s) & UNDO_ROLLED) != 0;
}

/* Whether s stands for good: it rolled dice while nobody held the GM
 * seat, so nobody may undo it (may_undo), nor any step beneath it. */
static bool
stands(const struct undo_step *s)
{
	return rolled(s) && !(undo_step_flags(s) & UNDO_SEATED);
}

/* How many of h's oldest n steps can still be undone: steps go back
 * newest first, so the count stops at the newest one that stands. */
static size_t
undoable_left(const struct undo_hist *h, size_t n)
{
	size_t k = 0;

	while (k < n && !stands(undo_hist_step(h, n - 1 - k)))
		k++;
	return k;
}

/* Whether any of the left undoable steps beneath the newest remaining
 * one is veiled to the reader of a part (gm_part: the GM's private one).
 * Such a part tells no count of them, so that nobody learns how many
 * changes were made behind a screen they may not look behind. */
static bool
left_veiled(const struct invocation *inv, const struct undo_hist *h, size_t n, size_t left,
            bool first_hidden, bool gm_part)
{
	for (size_t k = 0; k < left; k++) {
		const struct undo_step *s = undo_hist_step(h, n - 1 - k);

		if (veiled(inv, s, k == 0 ? first_hidden : hidden_then(inv, s), gm_part))
			return true;
	}
	return false;
}

/* "gm's /tension set 8", or, when veiled, what the channel may know of it. */
static void
put_step(struct reply *out, unsigned style, const struct undo_step *s, bool veil)
{
	if (veil) {
		reply_add(out, style, "a change made behind the GM's screen");
		return;
	}
	reply_add(out, style, "%s's ", undo_step_text(s, UNDO_NAME));
	put_what(out, style, s);
}

/* What /undo says once s is undone (next: the step now newest, or NULL;
 * h's n steps remain beneath s, next the newest of them;
 * left: how many of them can be undone, undoable_left, told unless
 * left_veiled;
 * s_hidden, next_hidden: whether each is
 * behind the screen), in the channel's part or the GM's. */
static void
say_undone(struct reply *out, const struct invocation *inv, const struct undo_hist *h, size_t n,
           const struct undo_step *s, const struct undo_step *next, size_t left, bool s_hidden,
           bool next_hidden, bool gm_part)
{
	bool first = true, tables = false;

	if (veiled(inv, s, s_hidden, gm_part)) {
		reply_line(out, 0, "%s undid %s.", inv->from->user_name,
		           "a change made behind the GM's screen");
	} else {
		reply_add(out, 0, "Undid %s's ", undo_step_text(s, UNDO_NAME));
		put_what(out, RS_BOLD, s);
		if (rolled(s))
			reply_add(out, 0, " and the dice it rolled");
		reply_add(out, 0, ": ");
		/* "Tension, Fungeon state is", "the channel's tables are" */
		for (int m = 0; m < UNDO_NMODS; m++) {
			if (!(undo_step_has(s) >> m & 1) || undo_ids[m] == CHANMOD_TABLES)
				continue;
			reply_add(out, 0, "%s%s", first ? "" : ", ", undo_labels[m]);
			first = false;
		}
		if (!first)
			reply_add(out, 0, " state");
		for (int m = 0; m < UNDO_NMODS; m++)
			if ((undo_step_has(s) >> m & 1) && undo_ids[m] == CHANMOD_TABLES) {
				reply_add(out, 0, "%sthe channel's tables", first ? "" : " and ");
				first = false;
				tables = true;
			}
		if (first) /* made behind the screen, it changed nothing */
			reply_add(out, 0, "it had changed nothing that is kept.");
		else
			reply_add(out, 0, "%s",
			          tables ? " are as they were before." : " is as it was before.");
		reply_nl(out);
	}
	if (next == NULL) {
		reply_line(out, 0, "Nothing more can be undone here.");
		return;
	}
	if (left == 0) {
		reply_add(out, 0, "Nothing more can be undone here: the next change, ");
		put_step(out, 0, next, veiled(inv, next, next_hidden, gm_part));
		reply_add(out, 0, ", rolled dice while nobody held the GM seat, so it stands.");
		reply_nl(out);
		return;
	}
	if (left_veiled(inv, h, n, left, next_hidden, gm_part))
		reply_add(out, 0, "More can be undone; the next is ");
	else
		reply_add(out, 0, "%zu more change%s can be undone; the next is ", left,
		          left == 1 ? "" : "s");
	put_step(out, 0, next, veiled(inv, next, next_hidden, gm_part));
	reply_add(out, 0, ".");
	reply_nl(out);
}

/*
 * Whether the invoker may undo s, else the refusal. Rolls stand: a step
 * that rolled dice is undone only by the GM who held the seat when it was
 * made (its screen, UNDO_SEATED) and holds it still; by nobody when the
 * seat was empty then, so that no one claims an empty seat to roll again
 * by undoing. Any other step, by its maker or whoever acts as GM. A step
 * made behind the GM's screen is undone only by the GM behind whose
 * screen it was made.
 */
static bool
may_undo(const struct invocation *inv, const struct undo_step *s, struct reply *out)
{
	const char *holder = channel_gm(inv->seat), *key = inv->from->user_key;
	const char *then = undo_step_text(s, UNDO_SCREEN);
	bool mine = strcmp(undo_step_text(s, UNDO_WHO), key) == 0;
	bool seated = (undo_step_flags(s) & UNDO_SEATED) != 0;

	if (hidden_step(inv, s)) {
		if (!inv->is_gm) {
			reply_error(out, "The last change here was made behind the GM's screen; "
			                 "only the GM can undo it.");
			return false;
		}
		if (strcmp(then, key) != 0) {
			reply_error(out, "The last change here was made behind another GM's "
			                 "screen, so only that GM can undo it.");
			return false;
		}
	}
	if (rolled(s) &&
	    !(seated && holder != NULL && strcmp(holder, key) == 0 && strcmp(then, key) == 0)) {
		if (mine)
			reply_error(out, "Your ");
		else
			reply_error(out, "The last change here, %s's ",
			            undo_step_text(s, UNDO_NAME));
		put_what(out, RS_BAD, s);
		reply_add(out, RS_BAD, "%s rolled dice, and rolls stand: ", mine ? "" : ",");
		if (!seated)
			reply_add(out, RS_BAD,
			          "nobody held the GM seat when it was made, so nobody can take it "
			          "back.");
		else if (holder != NULL && strcmp(holder, then) == 0)
			reply_add(out, RS_BAD, "ask the GM, %s, to undo it.",
			          channel_gm_name(inv->seat));
		else
			reply_add(
			    out, RS_BAD,
			    "only the GM who held the seat when it was made may take it back, "
			    "while holding it.");
		return false;
	}
	if (!mine && !inv->is_gm) {
		reply_error(out, "The last change here is %s's ", undo_step_text(s, UNDO_NAME));
		put_what(out, RS_BAD, s);
		reply_add(out, RS_BAD, "; only %s or the GM can undo it.",
		          undo_step_text(s, UNDO_NAME));
		return false;
	}
	return true;
}

static void
undo_fn(struct invocation *inv, struct reply *out)
{
	struct undo_hist *h = channel_mod_peek(inv->chan, CHANMOD_UNDO);
	size_t n = undo_hist_count(h), left;
	struct undo_step *s, *next;
	void *fresh[UNDO_NMODS];
	char err[256];
	bool s_hidden, next_hidden;

	if (n == 0) {
		reply_error(
		    out,
		    "There is nothing to undo here: no change to Tension, Fungeon, the "
		    "procedure or the channel's tables is kept (a channel keeps its last %d).",
		    UNDO_STEPS);
		return;
	}
	s = undo_hist_step(h, n - 1);
	if (!may_undo(inv, s, out))
		return;
	if (decode_step(inv->chan, s, fresh, err, sizeof(err)) < 0) {
		if (veiled(inv, s, hidden_step(inv, s), false)) {
			reply_error(out,
			            "The last change here, made behind the GM's screen, cannot "
			            "be undone: %s",
			            err);
			return;
		}
		reply_error(out, "%s's ", undo_step_text(s, UNDO_NAME));
		put_what(out, RS_BAD, s);
		reply_add(out, RS_BAD, " cannot be undone: %s", err);
		return;
	}
	next = n > 1 ? undo_hist_step(h, n - 2) : NULL;
	/* s is read while Tension's state is still the step's: the channel
	 * hears of it as it was when it was made. Undoing may change the mode
	 * (undoing /tension mode open hides Tension again): next is read once
	 * s is undone, as the next /undo will tell it. */
	s_hidden = hidden_step(inv, s);
	for (int m = 0; m < UNDO_NMODS; m++)
		if (undo_step_has(s) >> m & 1)
			channel_mod_set(inv->chan, undo_ids[m], fresh[m]);
	next_hidden = next != NULL && hidden_step(inv, next);
	left = undoable_left(h, n - 1);
	say_undone(out, inv, h, n - 1, s, next, left, s_hidden, next_hidden, false);
	if ((s_hidden || next_hidden) && inv->is_gm) {
		reply_to(out, REPLY_INVOKER);
		say_undone(out, inv, h, n - 1, s, next, left, s_hidden, next_hidden, true);
	}
	undo_hist_pop(h);
	channel_touch(inv->chan);
}

const struct command cmd_undo = {
    .name = "undo",
    .desc = "Take back the channel's last change to the game (by its maker or the GM)",
    .help = "Restores the Tension, Fungeon and procedure state (turn, lights, hazards, "
            "wandering, vendors) as it was before the last command that changed it, and "
            "names that command. Only the one who made the change or the GM can undo it. "
            "Rolls stand: a change that rolled dice (a hazard roll, a bargain, a tension "
            "roll, a vendor met, a Fungeon conflict...) only the GM who held the seat when "
            "it was made, and holds it still, can undo, and the channel is told; one made "
            "while nobody held the seat, nobody can (claiming the seat afterwards does not "
            "help). "
            "Repeat to go further back: the channel keeps its last 10 changes (and at most "
            "256 KiB of earlier state), across restarts. Rolls, {/log}, saved rolls, the channel's "
            "settings and the GM seat are not undone. While Tension is hidden, a change made "
            "behind the GM's screen is named to that GM alone, and only that GM can undo it "
            "(a GM who takes the seat later cannot); a roll or check made behind the screen "
            "always leaves a step, even one that changed nothing.",
    .fn = undo_fn,
};
