/*
 * Unit tests for what IRC users see of every command, with the settings a
 * network gets by default: each reply arrives within the flood burst (all
 * of it can be written at once when the bucket is full), a roll is one
 * line and a hazard turn two at most, no line holds a control code that
 * common clients cannot show (RENDER_IRC_CODES), the roller is addressed
 * ("alice: ...") and no other nick in a channel reply can notify anyone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/config/config.h"
#include "bot/irc/irc.h"
#include "bot/irc/render_irc.h"
#include "commands/core/dispatch.h"
#include "commands/core/registry.h"
#include "rules/base/mem.h"
#include "rules/base/rng.h"
#include "tests/unit/helpers/ircdrain.h"
#include "tests/unit/helpers/ircfix.h"

#define ZWJ "\xe2\x80\x8d"

static void
feed(struct ircfix *f, const char *line)
{
	ircfix_feed(f, line);
}

static int
setup(void **state)
{
	struct ircfix *f = calloc(1, sizeof(*f));

	config_irc_init(&f->cfg, "net");
	f->cfg.nick = xstrdup("delver");
	f->cfg.channels[0] = xstrdup("#a");
	f->cfg.nchannels = 1;
	ircfix_start(f, 7);
	feed(f, ":delver!~delver@irc.example.net JOIN #a");
	feed(f, ":irc.test 353 delver = #a :delver alice bob carol_ ma");
	ircdrain(f->c, f->now);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct ircfix *f = *state;

	ircfix_stop(f);
	config_irc_clear(&f->cfg);
	free(f);
	return 0;
}

/* The lines one command gets, written at once with a full bucket; fails
 * when some of them must wait for the bucket. The bucket is full again
 * for the next command. */
static const char *
answer(struct ircfix *f, const char *who, const char *text)
{
	char line[600];
	const char *out;

	snprintf(line, sizeof(line), ":%s!u@h PRIVMSG #a :%s", who, text);
	feed(f, line);
	out = ircdrain(f->c, f->now);
	if (irc_conn_pending(f->c) != 0)
		fail_msg("%s: %zu lines wait past the burst of %d", text, irc_conn_pending(f->c),
		         f->cfg.flood_burst);
	f->now += (int64_t)f->cfg.flood_burst * f->cfg.flood_interval_ms + 20000;
	return out;
}

static size_t
count_lines(const char *s)
{
	size_t n = 0;

	for (const char *p = s; (p = strchr(p, '\n')) != NULL; p++)
		n++;
	return n;
}

/* Every byte below 0x20 is one of RENDER_IRC_CODES, or the CR LF that
 * ends a line. */
static void
assert_codes(const char *cmd, const char *s)
{
	for (const char *p = s; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '\r' && p[1] == '\n') {
			p++;
			continue;
		}
		if ((c < 0x20 || c == 0x7f) && (c == '\0' || strchr(RENDER_IRC_CODES, c) == NULL))
			fail_msg("%s: control byte 0x%02x in %s", cmd, c, s);
	}
}

/* Whether word occurs in s as a whole word (no letter, digit or nick
 * character on either side). */
static bool
has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = s; (p = strstr(p, word)) != NULL; p++) {
		bool before =
		    p > s && (strchr("[]\\`_^{|}-", p[-1]) != NULL ||
		              (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9'));
		char c = p[n];
		bool after = c != '\0' && (strchr("[]\\`_^{|}-", c) != NULL ||
		                           (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'));

		if (!before && !after)
			return true;
	}
	return false;
}

/* No channel line names bob or carol_ so that their clients would take it
 * for a mention, and alice only as "alice: " at the start. */
static void
assert_no_mention(const char *cmd, const char *s)
{
	char copy[65536];
	char *line, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", s);
	for (line = strtok_r(copy, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		const char *text;

		if (strncmp(line, "PRIVMSG #a :", 12) != 0)
			continue;
		text = line + 12;
		if (strncmp(text, "alice: ", 7) == 0)
			text += 7;
		if (has_word(text, "alice") || has_word(text, "bob") || has_word(text, "carol_"))
			fail_msg("%s: a nick a client would highlight: %s", cmd, line);
	}
}

/* What every command below shows: the lines it takes, and what it may not
 * hold. lines is the most a reply of it may take (0: the burst). */
static const struct {
	const char *who, *text;
	size_t lines;
} commands[] = {
    {"alice", "!roll 4d6kh3", 1},
    {"alice", "!roll 1d20+5 # Stealth", 1},
    {"alice", "!r 2d20kl1+3 # bob's stealth", 1},
    {"alice", "!roll 6x 4d6kh3", 0},
    {"alice", "!roll 1d6; 1d8; 1d10", 0},
    {"alice", "!roll 1d1000000r<=999999", 0},
    {"alice", "!roll 100d6", 0},
    {"alice", "!roll 1d6 private:true", 1},
    {"bob", "!gm claim", 1},
    {"alice", "!gmroll 1d20+5 # stealth", 0},
    {"bob", "!gmroll 2d6", 0},
    {"bob", "!hazard", 2},
    {"bob", "!hazard", 2},
    {"bob", "!light add torch 2", 0},
    {"bob", "!hazard", 2},
    {"bob", "!hazard table delving", 0},
    {"bob", "!hazard", 2},
    {"bob", "!hazard", 2},
    {"bob", "!turn", 0},
    {"bob", "!rest", 0},
    {"bob", "!wander corridor", 0},
    {"bob", "!wander tension", 0},
    {"bob", "!surprise", 0},
    {"bob", "!tension raise combat", 0},
    {"bob", "!tension roll exits:3", 0},
    {"bob", "!tension", 0},
    {"bob", "!procedure", 0},
    {"bob", "!procedure light", 1},
    {"bob", "!procedure rooms vendors", 1},
    {"bob", "!vendor", 0},
    {"alice", "!encumbrance 1 40", 0},
    {"alice", "!xp", 0},
    {"alice", "!fungeon join Alba fighter 1", 0},
    {"carol_", "!fungeon join Brin rogue 1", 0},
    {"alice", "!fungeon party", 0},
    {"alice", "!fungeon pain Alba rat", 0},
    {"alice", "!save fireball 8d6 # fire", 0},
    {"alice", "!roll fireball", 1},
    {"alice", "!saved", 0},
    {"alice", "!log", 0},
    {"bob", "!settings", 0},
    {"bob", "!undo", 0},
    {"alice", "!thwacko show", 0},
    {"alice", "!help", 0},
    {"alice", "!help roll", 0},
    {"alice", "!help hazard", 0},
    {"alice", "!help fungeon", 0},
    {"alice", "!help tension", 0},
    {"alice", "!roll 4d6 kh3", 0},
    {"alice", "!gm dance", 0},
};

static void
test_every_reply(void **state)
{
	struct ircfix *f = *state;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const char *out = answer(f, commands[i].who, commands[i].text);
		size_t n = count_lines(out);
		size_t max = commands[i].lines > 0 ? commands[i].lines : (size_t)f->cfg.flood_burst;

		if (getenv("SHOW") != NULL)
			printf("<%s> %s\n%s", commands[i].who, commands[i].text, out);
		if (n == 0 || n > max)
			fail_msg("%s: %zu lines, at most %zu wanted:\n%s", commands[i].text, n, max,
			         out);
		if (strstr(out, "not shown (too long for IRC)") != NULL)
			fail_msg("%s: cut short:\n%s", commands[i].text, out);
		assert_codes(commands[i].text, out);
		assert_no_mention(commands[i].text, out);
	}
}

/*
 * Help on every command, subcommand and topic, asked in a channel: none is
 * cut, none holds a code clients cannot show, each arrives within the
 * burst, and the help a newcomer asks first (/help, /help roll, /help
 * gmroll and their topics) takes at most two lines.
 */
static int
help_fits(struct ircfix *f, const char *topic, size_t most)
{
	char text[200];
	const char *out;
	size_t n;

	snprintf(text, sizeof(text), "!help %s", topic);
	out = answer(f, "alice", text);
	n = count_lines(out);
	if (getenv("SHOW") != NULL)
		printf("%zu <alice> %s\n%s", n, text, out);
	assert_codes(text, out);
	if (n == 0 || n > most) {
		print_message("%s: %zu lines, at most %zu wanted:\n%s", text, n, most, out);
		return 1;
	}
	if (strstr(out, "not shown (too long for IRC)") != NULL) {
		print_message("%s: cut short:\n%s", text, out);
		return 1;
	}
	return 0;
}

/* The commands a newcomer asks about first, whose help and topics take
 * two lines at most. */
static bool
short_help(const char *name)
{
	return strcmp(name, "roll") == 0 || strcmp(name, "gmroll") == 0;
}

static void
test_every_help(void **state)
{
	struct ircfix *f = *state;
	size_t burst = (size_t)f->cfg.flood_burst;
	char topic[120];

	int bad = help_fits(f, "", 2);

	for (size_t i = 0; command_table[i] != NULL; i++) {
		const struct command *c = command_table[i];

		bad += help_fits(f, c->name, short_help(c->name) ? 2 : burst);
		for (const struct command *s = c->subs; s != NULL && s->name != NULL; s++) {
			snprintf(topic, sizeof(topic), "%s %s", c->name, s->name);
			bad += help_fits(f, topic, burst);
		}
		for (const struct help_topic *t = c->topics; t != NULL && t->name != NULL; t++) {
			snprintf(topic, sizeof(topic), "%s %s", c->name, t->name);
			bad += help_fits(f, topic, short_help(c->name) ? 2 : burst);
		}
	}
	if (bad > 0)
		fail_msg("%d help replies do not fit (above)", bad);
}

/* private_replies = privmsg: what is for one person goes as a private
 * message (a query window, a notification) instead of a NOTICE: errors,
 * help, private rolls and the GM's copy of a secret roll. */
static void
test_private_replies_privmsg(void **state)
{
	struct ircfix *f = *state;
	const char *out;

	f->cfg.private_replies = IRC_PRIVATE_PRIVMSG;
	irc_bot_set_config(f->b, &f->cfg);
	out = answer(f, "alice", "!gm dance");
	assert_memory_equal(out, "PRIVMSG alice :", 15);
	out = answer(f, "alice", "!help gm");
	assert_memory_equal(out, "PRIVMSG alice :", 15);
	out = answer(f, "alice", "!roll 1d6 private:true");
	assert_memory_equal(out, "PRIVMSG alice :", 15);
	answer(f, "bob", "!gm claim");
	out = answer(f, "alice", "!gmroll 1d20");
	assert_non_null(strstr(out, "\r\nPRIVMSG bob :\x02"
	                            "alice\x0f rolls in secret · "));
	assert_null(strstr(out, "NOTICE"));
	/* The default, NOTICE, for the same. */
	f->cfg.private_replies = IRC_PRIVATE_NOTICE;
	irc_bot_set_config(f->b, &f->cfg);
	out = answer(f, "alice", "!gmroll 1d20");
	assert_non_null(strstr(out, "\r\nNOTICE bob :\x02"
	                            "alice\x0f rolls in secret · "));
	out = answer(f, "alice", "!gm dance");
	assert_memory_equal(out, "NOTICE alice :", 14);
}

/* newcomer F1: a roll labelled both by label: and after '#' is refused. */
static void
test_label_given_once(void **state)
{
	struct ircfix *f = *state;

	assert_string_equal(answer(f, "alice", "!roll 3d6 label:fire # more"),
	                    "NOTICE alice :\x03"
	                    "04\x02\x02The label is given twice, as label:fire "
	                    "and as '# more' in the expression; give it once, as label: or after "
	                    "' # '; usage: !roll <expression> [label:text] "
	                    "[private:true|false]\x0f\r\n");
}

/* newcomer F17: an empty label: is no label. */
static void
test_empty_label_is_none(void **state)
{
	struct ircfix *f = *state;

	assert_string_equal(answer(f, "alice", "!roll 1d1 label:"), "PRIVMSG #a :alice: \x03"
	                                                            "10\x02\x02"
	                                                            "1d1\x0f: [1] = \x02\x03"
	                                                            "07\x02\x02"
	                                                            "1\x0f\r\n");
}

/* newcomer F5: /log says one roll as one. */
static void
test_log_one_roll(void **state)
{
	struct ircfix *f = *state;

	answer(f, "alice", "!roll 1d1");
	assert_string_equal(answer(f, "alice", "!log"),
	                    "PRIVMSG #a :\x02The last roll here\x0f · just now: who a" ZWJ
	                    "lice, roll 1d1, result 1\r\n");
}

/* newcomer F28: a Thwack-O mark another die of the party has is refused
 * in words that read. */
static void
test_mark_taken(void **state)
{
	struct ircfix *f = *state;

	answer(f, "alice", "!fungeon join Alba fighter 1");
	answer(f, "bob", "!fungeon join Brin rogue 1");
	/* bob's die has the first mark, ★ */
	assert_string_equal(answer(f, "alice", "!thwacko style red ★"),
	                    "NOTICE alice :\x03"
	                    "04\x02\x02The mark ★ is taken in this party: it is "
	                    "on bob's Thwack-O die (cyan); choose another mark, so that the dice "
	                    "can be told apart where colour does not show.\x0f\r\n");
}

/* newcomer F6: an unquoted vendor of several words, read with the
 * channel's vendors, is shown quoted in the channel's own prefix. */
static void
test_bargain_quote_hint(void **state)
{
	struct ircfix *f = *state;

	answer(f, "alice", "!vendor Old Gus");
	assert_non_null(strstr(answer(f, "alice", "!bargain Old Gus sword sell"),
	                       "The vendor 'Old Gus' (met here) is several words; quote it: "));
	assert_non_null(strstr(answer(f, "alice", "!bargain Old Gus sword sell"),
	                       "!bargain \"Old Gus\" sword sell"));
}

/* newcomer F11: a table breakdown cut short says how many it left out. */
static void
test_breakdown_cut(void **state)
{
	struct ircfix *f = *state;

	answer(f, "alice", "!table set deep1 1-4: [[deep2]] [[deep2]] [[deep2]]");
	answer(f, "alice", "!table set deep2 1-4: [[deep3]] [[deep3]] [[deep3]]");
	answer(f, "alice", "!table set deep3 1-4: [[deep4]] [[deep4]] [[deep4]]");
	assert_non_null(strstr(answer(f, "alice", "!table roll deep1"),
	                       "23 more [[references]] not listed: the lines above list at most "
	                       "16."));
}

/* s without the formatting codes (RENDER_IRC_CODES, a colour's digits
 * with its \x03), into out (size bytes). */
static const char *
uncoded(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (const char *p = s; *p != '\0' && n + 1 < size; p++) {
		if (*p == '\x03') {
			for (int d = 0; d < 2 && p[1] >= '0' && p[1] <= '9'; d++)
				p++;
			continue;
		}
		if (strchr(RENDER_IRC_CODES, *p) == NULL)
			out[n++] = *p;
	}
	out[n] = '\0';
	return out;
}

/* recheck9 F19: a long !turn advance cut for the room folds the rest
 * reminders before the last into one line, and keeps the lights going
 * out, the darkness and the turn line. */
static void
test_turn_advance_cut(void **state)
{
	struct ircfix *f = *state;
	char text[4096];

	answer(f, "bob", "!gm claim");
	answer(f, "bob", "!light add torch");
	answer(f, "bob", "!light add lantern");
	assert_string_equal(
	    uncoded(answer(f, "bob", "!turn advance 40"), text, sizeof(text)),
	    "PRIVMSG #a :40 turns pass without a hazard roll · Turn 5: Torch #1 has 1 turn left: "
	    "it goes out at the end of the next turn. · Turn 6: Torch #1 burns out. · Turn 35: "
	    "Lantern #2 has 1 turn left: it goes out at the end of the next turn. · Turns 6-34: 9 "
	    "rest lines not shown; the rest was skipped 4 times (turns 7 to 28): each time, each "
	    "character makes a CON save DC 12; on a failure gain 1 Fatigue.\r\n"
	    "PRIVMSG #a :Turn 35: The rest was skipped: each character makes a CON save DC 12; on "
	    "a failure gain 1 Fatigue. · Turn 36: Lantern #2 burns out. · Darkness: nothing is "
	    "lit. Without light the party is effectively blind: a setback on all rolls, movement "
	    "halved, no reading, searching or spotting danger (darkvision sees darkness as dim "
	    "light); !light add lights a source.\r\n"
	    "PRIVMSG #a :Turn 40 (6 h 40 min in the dungeon); 40 turns since the last rest.\r\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_every_reply, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_private_replies_privmsg, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_every_help, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_label_given_once, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty_label_is_none, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_log_one_roll, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_mark_taken, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_breakdown_cut, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bargain_quote_hint, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_turn_advance_cut, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
