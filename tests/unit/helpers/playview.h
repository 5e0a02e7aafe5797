/*
 * playview: one channel played on one platform through that platform's own
 * layer (the console's line handler, IRC's bot layer behind a connection,
 * Discord's interaction layer), and what one member sees of each command:
 * the hidden-information tests run the same play on each and compare or
 * search what a player, the channel or the GM was shown.
 *
 * Members are named by the tests: "gm", "alice", "bob" (their Discord user
 * ids are fixed); on IRC all three are in the channel #walk.
 */
#ifndef DELVER_TEST_PLAYVIEW_H
#define DELVER_TEST_PLAYVIEW_H

#include <stdint.h>

#include <cJSON.h>

#include "rules/base/buf.h"
#include "tests/unit/helpers/cmdwalk.h"

enum playview_kind {
	PLAYVIEW_CONSOLE,
	PLAYVIEW_IRC,
	PLAYVIEW_DISCORD,
	PLAYVIEW_NKINDS
};
extern const char *const playview_names[PLAYVIEW_NKINDS];

/* Whose view of a command is kept. */
enum playview_view {
	/* The invoker's: every part but those sent to another (the GM). */
	PLAYVIEW_INVOKER,
	/* The channel's: only what everyone there reads. */
	PLAYVIEW_CHANNEL,
	/* Every part (the console only: the GM's view of the play). */
	PLAYVIEW_ALL,
};

struct playview;

/* Called with the custom_id of each button a public Discord message shows. */
typedef void (*playview_button_fn)(void *ctx, const char *custom_id);

/* A fresh state and a dispatcher whose RNG is seeded with seed, behind
 * the platform's layer (an IRC session that has joined #walk with gm,
 * alice and bob). Free with playview_free. */
struct playview *playview_new(enum playview_kind kind, uint64_t seed);
void playview_free(struct playview *w);

enum playview_kind playview_kind(const struct playview *w);
struct dispatch *playview_dispatch(struct playview *w);

/* Public Discord messages' buttons go to fn (NULL: nowhere). */
void playview_on_button(struct playview *w, playview_button_fn fn, void *ctx);

/*
 * Runs line (without a prefix) typed by who and appends to seen what view
 * shows of it: the console's output (cut where a part not the viewer's
 * begins), IRC's lines (PLAYVIEW_CHANNEL: those to the channel; else every
 * line but those to the GM). On Discord the line runs through the
 * dispatcher as that member and nothing is appended (an interaction is
 * playview_event's).
 */
void playview_line(struct playview *w, const char *who, const char *line, enum playview_view view,
                   struct buf *seen);

/* An IRC line from the server (":gm!gm@h NICK gmx"), on an IRC view. */
void playview_irc(struct playview *w, const char *line);

/*
 * Discord: an interaction of type (2 command, 3 component, 4 autocomplete)
 * with data (taken) from who, and the loop turn that answers it. Appends
 * each callback and follow-up body view shows: the invoker's ephemeral
 * ones too unless view is PLAYVIEW_CHANNEL.
 */
void playview_event(struct playview *w, const char *who, int type, cJSON *data,
                    enum playview_view view, struct buf *seen);

/* A walk's case as the Discord command data that binds the same options. */
cJSON *playview_discord_data(const struct cmdwalk_case *c);

#endif
