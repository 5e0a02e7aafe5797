/* Unit tests for bot/record.c: lines, checksums, versions, modules. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <zlib.h>

#include "bot/store/crc32.h"
#include "bot/store/store_record.h"
#include "commands/dice/rollchan.h"
#include "commands/tables/tables_state.h"
#include "rules/base/mem.h"

/* --- two test-only channel modules --- */

struct counter {
	int n;
	char note[32];
};

static void *
counter_create(void)
{
	return xcalloc(1, sizeof(struct counter));
}

static void
counter_destroy(void *m)
{
	free(m);
}

static cJSON *
counter_save(const void *m)
{
	const struct counter *c = m;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "n", c->n);
	cJSON_AddStringToObject(o, "note", c->note);
	return o;
}

static int
counter_load(void *m, const cJSON *o, char *err, size_t errlen)
{
	struct counter *c = m;
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "n");
	const cJSON *note = cJSON_GetObjectItemCaseSensitive(o, "note");

	if (!cJSON_IsNumber(n) || n->valuedouble < 0) {
		snprintf(err, errlen, "'n' must be a number from 0");
		return -1;
	}
	c->n = n->valueint;
	if (cJSON_IsString(note))
		snprintf(c->note, sizeof(c->note), "%s", note->valuestring);
	return 0;
}

static const struct chanmod counter_mod = {.name = "counter",
                                           .create = counter_create,
                                           .destroy = counter_destroy,
                                           .save = counter_save,
                                           .load = counter_load};
static const struct chanmod tally_mod = {.name = "tally",
                                         .create = counter_create,
                                         .destroy = counter_destroy,
                                         .save = counter_save,
                                         .load = counter_load};
static const struct chanmod *const test_table[] = {&counter_mod, NULL, &tally_mod};
static const struct store_record_mods test_mods = {test_table, 3};

/* Encodes r and returns the line without its newline (static buffer). */
static const char *
encode(const struct store_record *r, const struct store_record_mods *m)
{
	static char line[4096];
	struct buf b;

	buf_init(&b, STORE_RECORD_LINE_MAX);
	assert_int_equal(store_record_encode(r, m, &b), 0);
	assert_true(b.len > 0 && b.p[b.len - 1] == '\n');
	assert_true(b.len < sizeof(line));
	memcpy(line, b.p, b.len - 1);
	line[b.len - 1] = '\0';
	buf_free(&b);
	return line;
}

/* Frames json with its checksum, as a writer would. */
static const char *
framed(const char *json)
{
	static char line[4096];

	snprintf(line, sizeof(line), "%08x %s", (unsigned)crc32_of(json, strlen(json)), json);
	return line;
}

static void
test_crc32_known_value(void **state)
{
	assert_int_equal(crc32_of("123456789", 9), 0xcbf43926u);
	assert_int_equal(crc32_of("", 0), 0);
}

/* The checksum is zlib's crc32 for every length up to 4 KB (a channel
 * record's usual size) at every alignment of the first byte within 8. */
static void
test_crc32_is_zlibs(void **state)
{
	static unsigned char bytes[4096 + 8];
	uint32_t x = 12345;

	(void)state;
	for (size_t i = 0; i < sizeof(bytes); i++) {
		x = x * 1103515245u + 12345u;
		bytes[i] = (unsigned char)(x >> 16);
	}
	for (size_t off = 0; off < 8; off++)
		for (size_t n = 0; n <= 4096; n++)
			if (crc32_of(bytes + off, n) !=
			    (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), bytes + off, n))
				fail_msg("crc32_of differs from zlib's at offset %zu, length %zu",
				         off, n);
}

/* Lines copied from a state database written while the checksum came from
 * zlib (a channel record and a roll-log entry) still read, and are written
 * back the same, their checksums included. */
static void
test_lines_written_before_read(void **state)
{
	static const char rec[] =
	    "9d45347d {\"t\":\"c\",\"key\":\"discord:1300000000000000000\",\"last_used\":"
	    "1796087964,\"mods\":{\"roll\":{\"natural\":true}}}";
	static const char entry[] = "d6cb7803 [1796087966,\"Player 50\",\"4d6kh3\",\"9\"]";
	const struct store_record_mods *m = store_record_builtin_mods();
	struct store_record back;
	struct buf out;
	char err[256];

	(void)state;
	if (store_record_decode(rec, strlen(rec), STORE_RECORD_VERSION, m, &back, err,
	                        sizeof(err)) != 0)
		fail_msg("the record did not read: %s", err);
	buf_init(&out, 1 << 16);
	assert_int_equal(store_record_encode(&back, m, &out), 0);
	assert_memory_equal(buf_str(&out), rec, sizeof(rec) - 1);
	assert_string_equal(buf_str(&out) + sizeof(rec) - 1, "\n");
	buf_reset(&out);
	if (store_record_decode_log(&back, m, 2, entry, strlen(entry), err, sizeof(err)) != 0)
		fail_msg("the log entry did not read: %s", err);
	assert_int_equal(store_record_encode_log(m, back.mods[CHANMOD_ROLL], 2, &out), 0);
	assert_string_equal(buf_str(&out), entry);
	store_record_clear(&back, m);
	buf_free(&out);
}

static void
test_channel_round_trip_with_modules(void **state)
{
	struct store_record r = {.kind = STORE_RECORD_CHANNEL, .last_used = 1700000000};
	struct counter c = {.n = 7, .note = "the \"crypt\"\n"}, t = {.n = 0, .note = ""};
	struct store_record back;
	char err[256], first[4096];

	snprintf(r.key, sizeof(r.key), "irc:libera:#dnd");
	snprintf(r.gm, sizeof(r.gm), "irc:libera:alice");
	snprintf(r.gm_name, sizeof(r.gm_name), "Alice ✓");
	r.mods[0] = &c;
	r.mods[2] = &t;
	snprintf(first, sizeof(first), "%s", encode(&r, &test_mods));
	assert_non_null(strstr(first, "\"mods\":{\"counter\":{\"n\":7,\"note\":\"the "
	                              "\\\"crypt\\\"\\n\"},\"tally\":{\"n\":0,\"note\":\"\"}}"));

	assert_int_equal(store_record_decode(first, strlen(first), STORE_RECORD_VERSION, &test_mods,
	                                     &back, err, sizeof(err)),
	                 0);
	assert_int_equal(back.kind, STORE_RECORD_CHANNEL);
	assert_string_equal(back.key, "irc:libera:#dnd");
	assert_string_equal(back.gm, "irc:libera:alice");
	assert_string_equal(back.gm_name, "Alice ✓");
	assert_int_equal(back.last_used, 1700000000);
	assert_non_null(back.mods[0]);
	assert_null(back.mods[1]);
	assert_int_equal(((struct counter *)back.mods[2])->n, 0);
	assert_string_equal(((struct counter *)back.mods[0])->note, "the \"crypt\"\n");
	/* save -> text -> load -> save gives the same text */
	assert_string_equal(encode(&back, &test_mods), first);
	store_record_clear(&back, &test_mods);
	assert_null(back.mods[0]);
}

static void
test_channel_without_gm_or_modules(void **state)
{
	struct store_record r = {.kind = STORE_RECORD_CHANNEL, .last_used = 5}, back;
	char err[256];
	const char *line;

	snprintf(r.key, sizeof(r.key), "console:table");
	assert_true(store_record_is_empty(&r));
	line = encode(&r, &test_mods);
	assert_non_null(strstr(line, " {\"t\":\"c\",\"key\":\"console:table\",\"last_used\":5}"));
	assert_int_equal(store_record_decode(line, strlen(line), STORE_RECORD_VERSION, &test_mods,
	                                     &back, err, sizeof(err)),
	                 0);
	assert_string_equal(back.gm, "");
	assert_true(store_record_is_empty(&back));
}

static void
test_user_round_trip_styles(void **state)
{
	for (int c = 0; c < UC_COUNT; c++) {
		struct store_record r = {.kind = STORE_RECORD_USER, .style_set = true}, back;
		char err[256], first[1024];

		snprintf(r.key, sizeof(r.key), "discord:80351110224678912");
		snprintf(r.name, sizeof(r.name), "Nelly");
		r.style.colour = (enum ucolour)c;
		snprintf(r.style.mark, sizeof(r.style.mark), "🗡");
		snprintf(first, sizeof(first), "%s", encode(&r, &test_mods));
		assert_int_equal(store_record_decode(first, strlen(first), STORE_RECORD_VERSION,
		                                     &test_mods, &back, err, sizeof(err)),
		                 0);
		assert_int_equal(back.kind, STORE_RECORD_USER);
		assert_true(back.style_set);
		assert_int_equal(back.style.colour, c);
		assert_string_equal(back.style.mark, "🗡");
		assert_string_equal(back.name, "Nelly");
		assert_string_equal(encode(&back, &test_mods), first);
	}
	/* newcomer F25: a mark of 4 letters at the most bytes a mark has */
	{
		struct store_record r = {.kind = STORE_RECORD_USER, .style_set = true}, back;
		const char *mark = "𐐨\xcc\x81𐐨\xcc\x81𐐨\xcc\x81𐐨\xcc\x81";
		char err[256], first[1024];

		assert_int_equal(strlen(mark), THWACKO_STYLE_MARK_MAX - 1);
		snprintf(r.key, sizeof(r.key), "console:al");
		snprintf(r.style.mark, sizeof(r.style.mark), "%s", mark);
		snprintf(first, sizeof(first), "%s", encode(&r, &test_mods));
		assert_int_equal(store_record_decode(first, strlen(first), STORE_RECORD_VERSION,
		                                     &test_mods, &back, err, sizeof(err)),
		                 0);
		assert_string_equal(back.style.mark, mark);
	}
	assert_string_equal(store_record_colour_name(UC_PINK), "pink");
	assert_int_equal(store_record_colour_parse("cyan"), UC_CYAN);
	assert_int_equal(store_record_colour_parse("mauve"), -1);
}

/* A player's saved rolls travel in the user record, in order; a record
 * without them (as every earlier version wrote) has none. */
static void
test_user_saved_rolls(void **state)
{
	struct store_record r = {.kind = STORE_RECORD_USER}, back;
	char err[256], first[2048];
	const char *none = framed("{\"t\":\"u\",\"key\":\"console:al\",\"name\":\"al\"}");

	snprintf(r.key, sizeof(r.key), "discord:80351110224678912");
	snprintf(r.name, sizeof(r.name), "Nelly");
	r.nsaved = 2;
	snprintf(r.saved[0].name, sizeof(r.saved[0].name), "fireball");
	snprintf(r.saved[0].roll, sizeof(r.saved[0].roll), "8d6 # fire");
	snprintf(r.saved[1].name, sizeof(r.saved[1].name), "atk");
	snprintf(r.saved[1].roll, sizeof(r.saved[1].roll), "1d20+5 adv");
	snprintf(first, sizeof(first), "%s", encode(&r, &test_mods));
	assert_non_null(strstr(first, "\"saved\":[{\"name\":\"fireball\",\"roll\":\"8d6 # fire\"},"
	                              "{\"name\":\"atk\",\"roll\":\"1d20+5 adv\"}]"));
	assert_int_equal(store_record_decode(first, strlen(first), STORE_RECORD_VERSION, &test_mods,
	                                     &back, err, sizeof(err)),
	                 0);
	assert_int_equal(back.nsaved, 2);
	assert_string_equal(back.saved[1].name, "atk");
	assert_string_equal(back.saved[1].roll, "1d20+5 adv");
	assert_string_equal(encode(&back, &test_mods), first);
	assert_int_equal(store_record_decode(none, strlen(none), STORE_RECORD_VERSION, &test_mods,
	                                     &back, err, sizeof(err)),
	                 0);
	assert_int_equal(back.nsaved, 0);
	assert_null(strstr(encode(&back, &test_mods), "saved"));
	/* newcomer F25: a name of 24 letters of 4 bytes each reads back */
	r.nsaved = 1;
	snprintf(r.saved[0].name, sizeof(r.saved[0].name), "%s", "𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨𐐨");
	assert_int_equal(strlen(r.saved[0].name), USER_SAVED_NAME_MAX - 1);
	assert_true(rollchan_name_ok(r.saved[0].name));
	snprintf(first, sizeof(first), "%s", encode(&r, &test_mods));
	assert_int_equal(store_record_decode(first, strlen(first), STORE_RECORD_VERSION, &test_mods,
	                                     &back, err, sizeof(err)),
	                 0);
	assert_string_equal(back.saved[0].name, r.saved[0].name);
}

static void
test_flipped_byte_is_a_checksum_error(void **state)
{
	struct store_record r = {.kind = STORE_RECORD_CHANNEL, .last_used = 9}, back;
	char line[1024], err[256];

	snprintf(r.key, sizeof(r.key), "console:table");
	snprintf(r.gm, sizeof(r.gm), "console:gm");
	snprintf(r.gm_name, sizeof(r.gm_name), "gm");
	snprintf(line, sizeof(line), "%s", encode(&r, &test_mods));
	for (size_t i = 0; line[i] != '\0'; i++) {
		line[i] ^= 0x01;
		assert_int_equal(store_record_decode(line, strlen(line), STORE_RECORD_VERSION,
		                                     &test_mods, &back, err, sizeof(err)),
		                 -1);
		line[i] ^= 0x01;
	}
	line[12] ^= 0x04;
	store_record_decode(line, strlen(line), STORE_RECORD_VERSION, &test_mods, &back, err,
	                    sizeof(err));
	assert_string_equal(err, "checksum mismatch: the record was changed or damaged");
}

/* A version-3 channel record holds the Fungeon state as it was before the
 * room model; it reads into today's state (a party in its room), and is
 * written back in today's form. */
static void
test_version_3_fungeon_reads(void **state)
{
	static const char fungeon[] =
	    "{\"floor\":2,\"xp_rule\":\"table\",\"rooms\":1,\"holders\":{\"traps\":\"console:a\","
	    "\"monsters\":\"console:a\",\"treasure\":\"console:a\"},\"party\":[{\"user\":"
	    "\"console:a\",\"player\":\"alice\",\"name\":\"Alba\",\"class\":\"wizard\",\"level\":"
	    "2,\"hits\":10,\"xp\":3,\"dead\":false,\"fresh\":false,\"credit\":0,\"wander\":0,"
	    "\"items\":[],\"effects\":[]}],\"designs\":{\"traps\":[{\"name\":\"pit\",\"design\":"
	    "\"annoy 2 pain 2 type spikes\",\"room\":true,\"hits\":0,\"taken\":\"\"}],"
	    "\"monsters\":[],\"treasure\":[]}}";
	char json[2048], line[2200], err[256];
	struct store_record back;
	struct buf out;

	(void)state;
	snprintf(json, sizeof(json),
	         "{\"t\":\"c\",\"key\":\"console:t\",\"last_used\":5,\"mods\":{\"fungeon\":%s}}",
	         fungeon);
	snprintf(line, sizeof(line), "%08x %s", crc32_of(json, strlen(json)), json);
	assert_int_equal(store_record_decode(line, strlen(line), 3, store_record_builtin_mods(),
	                                     &back, err, sizeof(err)),
	                 0);
	buf_init(&out, 1 << 20);
	assert_int_equal(store_record_encode(&back, store_record_builtin_mods(), &out), 0);
	assert_non_null(strstr(buf_str(&out), "\"fungeon\":{\"v\":2,"));
	assert_non_null(strstr(buf_str(&out), "\"phase\":\"room\""));
	assert_non_null(strstr(buf_str(&out), "\"name\":\"pit\",\"maker\":\"console:a\""));
	buf_free(&out);
	store_record_clear(&back, store_record_builtin_mods());
}

/* A channel record saved before a table entry's dice were limited to 8
 * (the channel's own table, Tension's encounter table, a custom hazard
 * die's) is read, and written back as it was: a limit that came later is
 * checked when a table is set, never when a record is read. */
static void
test_tables_past_a_later_limit_read(void **state)
{
	static const char nine[] = "1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 1d6 gems";
	char json[2048], line[2200], err[256], want[200];
	struct store_record back;
	struct buf out;

	(void)state;
	snprintf(json, sizeof(json),
	         "{\"t\":\"c\",\"key\":\"console:t\",\"last_used\":5,\"mods\":{"
	         "\"tension\":{\"value\":1,\"mode\":\"open\",\"history\":[],\"encounter\":"
	         "{\"text\":\"1-20 %s\",\"struck\":[]},\"effects\":{\"text\":\"1-20 calm\","
	         "\"struck\":[]}},"
	         "\"procedure\":{\"turn\":0,\"since_rest\":0,\"rest_mark\":0,\"fatigue_due\":"
	         "false,\"lights\":[],\"next_light\":1,\"table\":\"custom\",\"procedure\":"
	         "\"exploration\",\"chance\":[1,6],\"who\":\"anyone\",\"custom_die\":6,"
	         "\"custom\":\"1-6 Encounter: %s\",\"wander\":\"corridor\",\"wander_chance\":"
	         "[1,6],\"safe\":false},"
	         "\"tables\":{\"tables\":[{\"name\":\"old\",\"text\":\"1-6: %s\"}]}}}",
	         nine, nine, nine);
	snprintf(line, sizeof(line), "%08x %s", (unsigned)crc32_of(json, strlen(json)), json);
	if (store_record_decode(line, strlen(line), STORE_RECORD_VERSION,
	                        store_record_builtin_mods(), &back, err, sizeof(err)) != 0)
		fail_msg("the record did not read: %s", err);
	buf_init(&out, 1 << 20);
	assert_int_equal(store_record_encode(&back, store_record_builtin_mods(), &out), 0);
	snprintf(want, sizeof(want), "\"text\":\"1-20 %s\"", nine);
	assert_non_null(strstr(buf_str(&out), want));
	snprintf(want, sizeof(want), "\"custom\":\"1-6 Encounter: %s\"", nine);
	assert_non_null(strstr(buf_str(&out), want));
	snprintf(want, sizeof(want), "\"text\":\"1-6: %s\"", nine);
	assert_non_null(strstr(buf_str(&out), want));
	buf_free(&out);
	store_record_clear(&back, store_record_builtin_mods());
}

/* A channel record as delver 0.1 wrote it at version 4 (Tension with a
 * screen, a struck entry, reasons with quotes, a backslash, a tab and
 * non-ASCII text; a roll module; an undo history of deltas, some made
 * behind the screen), framed with its checksum. */
static const char old_record[] =
    "d76b97cb {\"t\":\"c\",\"key\":\"console:table\",\"last_used\":1795995838,\"gm\":\"cons"
    "ole:root\",\"gm_name\":\"root\",\"mods\":{\"tension\":{\"value\":8,\"mode\":\"open\","
    "\"screen\":1,\"screen_gm\":\"console:root\",\"history\":[{\"kind\":\"adjust\",\"from\""
    ":1,\"to\":2,\"amount\":1,\"clamped\":false,\"reason\":\"breaking down a stuck or locke"
    "d door\"},{\"kind\":\"adjust\",\"from\":2,\"to\":4,\"amount\":2,\"clamped\":false,\"re"
    "ason\":\"the \\\"crypt\\\" door\\\\ creaks — ✓\"},{\"kind\":\"adjust\",\"from\":4,"
    "\"to\":3,\"amount\":-1,\"clamped\":false,\"reason\":\"discovering a secret\"},{\"kind"
    "\":\"adjust\",\"from\":3,\"to\":5,\"amount\":2,\"clamped\":false,\"reason\":\"normal c"
    "ombat\"},{\"kind\":\"set\",\"from\":5,\"to\":7,\"amount\":2,\"clamped\":false,\"reason"
    "\":\"GM's choice\"},{\"kind\":\"adjust\",\"from\":7,\"to\":8,\"amount\":1,\"clamped\":"
    "false,\"reason\":\"tab here\"}],\"encounter\":{\"text\":\"1-4 a lost adventurer; 5-8 1"
    "d4 goblins; 9-12 2d4 goblins; 13-16 2d6 orcs; 17-20 4d6 orcs\",\"struck\":[\"1-4\"]},"
    "\"effects\":{\"text\":\"1-2 2d6 hidden gold pieces glimmer in a corner; 3-4 tracks lea"
    "d toward a pre-set encounter; 5-6 a fresh breeze shows the way to the nearest exit; 7-"
    "8 slime tracks on the walls hint at oozes nearby; 9-10 an unnatural draft makes torche"
    "s flicker; 11-12 a pocket of toxic gas, CON save or 1d6 poison damage; 13-14 a tremor "
    "drops roof tiles, DEX save or 1d8 bludgeoning damage; 15-16 a sudden drop in temperatu"
    "re, something approaches; 17-18 gas makes the air unbreathable, everyone must move; 19"
    "-20 a structural collapse blocks an exit\",\"struck\":[]}},\"roll\":{\"natural\":true}"
    ",\"undo\":{\"steps\":[{\"who\":\"console:root\",\"name\":\"root\",\"path\":\"tension r"
    "aise\",\"args\":\"door\",\"screen\":\"console:root\",\"seated\":true,\"deltas\":{\"ten"
    "sion\":null}},{\"who\":\"console:root\",\"name\":\"root\",\"path\":\"tension raise\","
    "\"args\":\"amount:2 reason:the \\\"crypt\\\" door\\\\ creaks — ✓\",\"screen\":\"co"
    "nsole:root\",\"seated\":true,\"deltas\":{\"tension\":{\"after\":944,\"sum\":289003823,"
    "\"ops\":[[0,9],\"2\",[10,134],[252,692]]}}},{\"who\":\"console:root\",\"name\":\"root"
    "\",\"path\":\"tension strike\",\"args\":\"2\",\"screen\":\"console:root\",\"seated\":t"
    "rue,\"deltas\":{\"tension\":{\"after\":949,\"sum\":3961802837,\"ops\":[[0,375],[380,56"
    "9]]}}},{\"who\":\"console:root\",\"name\":\"root\",\"path\":\"tension lower\",\"args\""
    ":\"secret\",\"screen\":\"console:root\",\"seated\":true,\"deltas\":{\"tension\":{\"aft"
    "er\":1043,\"sum\":2149245188,\"ops\":[[0,9],\"4\",[10,242],[346,697]]}}},{\"who\":\"co"
    "nsole:root\",\"name\":\"root\",\"path\":\"tension mode\",\"args\":\"hidden\",\"screen"
    "\":\"console:root\",\"seated\":true,\"deltas\":{\"tension\":{\"after\":1045,\"sum\":42"
    "0101256,\"ops\":[[0,19],\"op\",[23,1022]]}}},{\"who\":\"console:root\",\"name\":\"root"
    "\",\"path\":\"tension raise\",\"args\":\"combat\",\"screen\":\"console:root\",\"seated"
    "\":true,\"screened\":true,\"deltas\":{\"tension\":{\"after\":1180,\"sum\":733738814,\""
    "ops\":[[0,9],\"3\",[10,18],[66,320],\"]\",[484,696]]}}},{\"who\":\"console:root\",\"na"
    "me\":\"root\",\"path\":\"tension set\",\"args\":\"7\",\"screen\":\"console:root\",\"se"
    "ated\":true,\"screened\":true,\"deltas\":{\"tension\":{\"after\":1272,\"sum\":16751641"
    "8,\"ops\":[[0,9],\"5\",[10,473],\"]\",[576,696]]}}},{\"who\":\"console:root\",\"name\""
    ":\"root\",\"path\":\"tension roll\",\"args\":\"\",\"screen\":\"console:root\",\"seated"
    "\":true,\"rolled\":true,\"screened\":true},{\"who\":\"console:root\",\"name\":\"root\""
    ",\"path\":\"tension mode\",\"args\":\"open\",\"screen\":\"console:root\",\"seated\":tr"
    "ue,\"deltas\":{\"tension\":{\"after\":1248,\"sum\":585475828,\"ops\":[[0,19],\"hidd\","
    "[21,448],[24,11],[181,11],[480,70],[24,11],[550,698]]}}},{\"who\":\"console:root\",\"n"
    "ame\":\"root\",\"path\":\"tension raise\",\"args\":\"amount:1 reason:tab here\",\"scre"
    "en\":\"console:root\",\"seated\":true,\"deltas\":{\"tension\":{\"after\":1329,\"sum\":"
    "863186161,\"ops\":[[0,9],\"7\",[10,541],[632,697]]}}}]}}}";

/* An old record is read and written back byte for byte: the modules' texts
 * are what they were (the undo history's deltas were made against them
 * and check their sums), and the record's checksum is the same. */
static void
test_old_record_writes_back_the_same(void **state)
{
	struct store_record back;
	struct buf out;
	char err[256];

	(void)state;
	if (store_record_decode(old_record, strlen(old_record), 4, store_record_builtin_mods(),
	                        &back, err, sizeof(err)) != 0)
		fail_msg("the record did not read: %s", err);
	buf_init(&out, 1 << 20);
	assert_int_equal(store_record_encode(&back, store_record_builtin_mods(), &out), 0);
	assert_int_equal(out.len, strlen(old_record) + 1);
	assert_memory_equal(out.p, old_record, strlen(old_record));
	buf_free(&out);
	store_record_clear(&back, store_record_builtin_mods());
}

/* A channel record as delver wrote it at version 4, before tables kept
 * their mark behind the GM's screen: Tension hidden, encounter naming
 * [[lair]], loot open, and the undo steps that made them. */
static const char tables_v4_record[] =
    "ff6b69e5 {\"t\":\"c\",\"key\":\"console:crypt\",\"last_used\":1796170006,\"gm\":\"co"
    "nsole:gm\",\"gm_name\":\"gm\",\"mods\":{\"tension\":{\"value\":1,\"mode\":\"hidden\""
    ",\"history\":[],\"encounter\":{\"text\":\"1-4 a lost adventurer; 5-8 1d4 goblins; 9-"
    "12 2d4 goblins; 13-16 2d6 orcs; 17-20 4d6 orcs\",\"struck\":[]},\"effects\":{\"text"
    "\":\"1-2 2d6 hidden gold pieces glimmer in a corner; 3-4 tracks lead toward a pre-se"
    "t encounter; 5-6 a fresh breeze shows the way to the nearest exit; 7-8 slime tracks "
    "on the walls hint at oozes nearby; 9-10 an unnatural draft makes torches flicker; 11"
    "-12 a pocket of toxic gas, CON save or 1d6 poison damage; 13-14 a tremor drops roof "
    "tiles, DEX save or 1d8 bludgeoning damage; 15-16 a sudden drop in temperature, somet"
    "hing approaches; 17-18 gas makes the air unbreathable, everyone must move; 19-20 a s"
    "tructural collapse blocks an exit\",\"struck\":[]}},\"undo\":{\"steps\":[{\"who\":\""
    "console:gm\",\"name\":\"gm\",\"path\":\"tension mode\",\"args\":\"hidden\",\"screen"
    "\":\"console:gm\",\"seated\":true,\"deltas\":{\"tension\":null}},{\"who\":\"console:"
    "gm\",\"name\":\"gm\",\"path\":\"table set\",\"args\":\"encounter 1-4: [[lair]]; 5-6:"
    " rats\",\"screen\":\"console:gm\",\"seated\":true,\"screened\":true,\"deltas\":{\"ta"
    "bles\":null}},{\"who\":\"console:gm\",\"name\":\"gm\",\"path\":\"table set\",\"args"
    "\":\"lair 1-2: a wyrm; 3-4: a drake\",\"screen\":\"console:gm\",\"seated\":true,\"sc"
    "reened\":true,\"deltas\":{\"tables\":{\"after\":118,\"sum\":1805821897,\"ops\":[[0,6"
    "5],[116,2]]}}},{\"who\":\"console:gm\",\"name\":\"gm\",\"path\":\"table set\",\"args"
    "\":\"loot 1-6: gold\",\"screen\":\"console:gm\",\"seated\":true,\"deltas\":{\"tables"
    "\":{\"after\":153,\"sum\":2272557449,\"ops\":[[0,116],[151,2]]}}}]},\"tables\":{\"ta"
    "bles\":[{\"name\":\"encounter\",\"text\":\"1-4: [[lair]]\\n5-6: rats\"},{\"name\":\""
    "lair\",\"text\":\"1-2: a wyrm\\n3-4: a drake\"},{\"name\":\"loot\",\"text\":\"1-6: g"
    "old\"}]}}}";

/* The tables state of a decoded channel record. */
static struct tables_state *
tables_of(struct store_record *r)
{
	return r->mods[CHANMOD_TABLES];
}

/* A version-4 record loads with the tables today's rule put behind the
 * screen marked (encounter by its name, lair by its reference), writes
 * back the same bytes (its undo steps still fit), and keeps lair's mark
 * once encounter no longer names it: written as "screened", read back
 * from version 5, refused by a delver that knows only 5 at version 6. */
static void
test_v4_tables_load_with_their_marks(void **state)
{
	struct store_record back;
	struct tables_state *s;
	struct roll_table *t = malloc(sizeof(*t));
	struct buf out;
	char err[256];

	(void)state;
	if (store_record_decode(tables_v4_record, strlen(tables_v4_record), 4,
	                        store_record_builtin_mods(), &back, err, sizeof(err)) != 0)
		fail_msg("the record did not read: %s", err);
	s = tables_of(&back);
	assert_int_equal(s->n, 3);
	assert_string_equal(s->v[0].name, "encounter");
	assert_true(s->v[0].screened);
	assert_string_equal(s->v[1].name, "lair");
	assert_true(s->v[1].screened);
	assert_string_equal(s->v[2].name, "loot");
	assert_false(s->v[2].screened);
	buf_init(&out, 1 << 20);
	assert_int_equal(store_record_encode(&back, store_record_builtin_mods(), &out), 0);
	assert_int_equal(out.len, strlen(tables_v4_record) + 1);
	assert_memory_equal(out.p, tables_v4_record, strlen(tables_v4_record));
	/* encounter replaced: lair keeps its mark, now written */
	assert_int_equal(roll_table_parse_die("1-6: rats", t, err, sizeof(err)), 0);
	assert_int_equal(tables_state_put(s, "encounter", t, err, sizeof(err)), 0);
	assert_true(s->v[1].screened);
	assert_false(s->v[2].screened);
	buf_reset(&out);
	assert_int_equal(store_record_encode(&back, store_record_builtin_mods(), &out), 0);
	assert_non_null(strstr(buf_str(&out), "{\"name\":\"lair\",\"text\":\"1-2: a wyrm\\n3-4: a "
	                                      "drake\",\"screened\":true}"));
	store_record_clear(&back, store_record_builtin_mods());
	if (store_record_decode(buf_str(&out), out.len - 1, STORE_RECORD_VERSION,
	                        store_record_builtin_mods(), &back, err, sizeof(err)) != 0)
		fail_msg("the record did not read back: %s", err);
	s = tables_of(&back);
	assert_true(s->v[0].screened);
	assert_true(s->v[1].screened);
	assert_false(s->v[2].screened);
	store_record_clear(&back, store_record_builtin_mods());
	assert_int_equal(store_record_decode(buf_str(&out), out.len - 1, STORE_RECORD_VERSION + 1,
	                                     store_record_builtin_mods(), &back, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "format version 6 is newer than this delver understands (5); "
	                         "run a newer delver");
	buf_free(&out);
	free(t);
}

/* The versions this code reads: its own, 4 and 3; a newer one is
 * never guessed at, and an older one is refused too, before the line is
 * looked at. */
static void
test_other_versions_are_refused(void **state)
{
	struct store_record r = {.kind = STORE_RECORD_CHANNEL, .last_used = 9}, back;
	char line[1024], err[256];

	snprintf(r.key, sizeof(r.key), "console:table");
	snprintf(line, sizeof(line), "%s", encode(&r, &test_mods));
	assert_int_equal(store_record_decode(line, strlen(line), STORE_RECORD_VERSION, &test_mods,
	                                     &back, err, sizeof(err)),
	                 0);
	assert_string_equal(back.key, "console:table");
	assert_int_equal(
	    store_record_decode(line, strlen(line), 3, &test_mods, &back, err, sizeof(err)), 0);
	assert_int_equal(store_record_decode(line, strlen(line), STORE_RECORD_VERSION + 4,
	                                     &test_mods, &back, err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "format version 9 is newer than this delver understands (5); "
	                         "run a newer delver");
	assert_int_equal(
	    store_record_decode(line, strlen(line), 2, &test_mods, &back, err, sizeof(err)), -1);
	assert_string_equal(err, "format version 2 is older than any this delver reads; it reads "
	                         "versions 3 to 5");
	assert_int_equal(
	    store_record_decode(line, strlen(line), 0, &test_mods, &back, err, sizeof(err)), -1);
}

static void
test_bad_records_name_the_reason(void **state)
{
	static const struct {
		const char *json, *why;
	} cases[] = {
	    {"{\"t\":\"x\",\"key\":\"a\"}", "'t' must be \"c\" (channel) or \"u\" (user)"},
	    {"{\"t\":\"c\",\"key\":\"\",\"last_used\":1}", "'key' must be text of 1 to 127 bytes"},
	    {"{\"t\":\"c\",\"key\":\"a\",\"last_used\":-1}",
	     "'last_used' must be a whole number from 0 to 2^53"},
	    {"{\"t\":\"c\",\"key\":\"a\",\"last_used\":1,\"colour\":2}", "unknown field 'colour'"},
	    /* a name from the file never breaks the message's line (found by fuzzing) */
	    {"{\"t\":\"c\",\"key\":\"a\",\"last_used\":1,\"ta\\nk\":2}", "unknown field 'ta?k'"},
	    {"{\"t\":\"c\",\"key\":\"a\",\"last_used\":1,\"gm_name\":\"x\"}",
	     "'gm_name' without 'gm'"},
	    {"{\"t\":\"c\",\"key\":\"a\",\"last_used\":1,\"mods\":{\"fungeon\":{}}}",
	     "unknown module 'fungeon' (a newer delver wrote it?)"},
	    {"{\"t\":\"c\",\"key\":\"a\",\"last_used\":1,\"mods\":{\"counter\":{\"n\":-2}}}",
	     "module 'counter': 'n' must be a number from 0"},
	    {"{\"t\":\"c\",\"key\":\"a\",\"last_used\":1,\"mods\":{\"counter\":{\"n\":1},"
	     "\"counter\":{\"n\":2}}}",
	     "module 'counter' appears twice"},
	    {"{\"t\":\"u\",\"key\":\"a\",\"name\":\"b\",\"style\":{\"colour\":\"mauve\","
	     "\"mark\":\"x\"}}",
	     "'style' must hold a known 'colour' and a 'mark'"},
	    {"{\"t\":\"u\",\"key\":\"a\",\"name\":\"b\",\"saved\":{}}",
	     "'saved' must be a list of at most 50 saved rolls"},
	    {"{\"t\":\"u\",\"key\":\"a\",\"name\":\"b\",\"saved\":[{\"name\":\"x\"}]}",
	     "'roll' must be text of 1 to 200 bytes"},
	    /* an entry that is not an object is named (found by fuzzing: it
	     * was refused with no reason) */
	    {"{\"t\":\"u\",\"key\":\"a\",\"name\":\"b\",\"saved\":[\"u\"]}",
	     "each of 'saved' must be an object with a 'name' and a 'roll'"},
	    {"{\"t\":\"u\",\"key\":\"a\",\"name\":\"b\",\"saved\":[{\"name\":\"x\",\"roll\":"
	     "\"1\",\"owner\":\"\"}]}",
	     "unknown field 'owner'"},
	    {"{\"t\":\"u\",\"key\":\"a\",\"name\":\"b\",\"saved\":[{\"name\":\"x\",\"roll\":"
	     "\"1\"},{\"name\":\"X\",\"roll\":\"2\"}]}",
	     "two saved rolls have the same name"},
	    {"[1,2]", "the record is not one JSON object"},
	};
	struct store_record r;
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *line = framed(cases[i].json);

		assert_int_equal(store_record_decode(line, strlen(line), STORE_RECORD_VERSION,
		                                     &test_mods, &r, err, sizeof(err)),
		                 -1);
		assert_string_equal(err, cases[i].why);
	}
	/* A module's sentence that quotes the record stays one line (found by
	 * fuzzing). */
	{
		const char *line =
		    framed("{\"t\":\"c\",\"key\":\"a\",\"last_used\":1,\"mods\":{\"procedure\":"
		           "{\"turn\":0,\"since_rest\":0,\"rest_mark\":0,\"fatigue_due\":false,"
		           "\"lights\":[],\"next_light\":1,\"table\":\"explo\\nration\"}}}");

		assert_int_equal(store_record_decode(line, strlen(line), STORE_RECORD_VERSION,
		                                     store_record_builtin_mods(), &r, err,
		                                     sizeof(err)),
		                 -1);
		assert_string_equal(err, "module 'procedure': procedure state: 'table' has an "
		                         "unknown value 'explo?ration'.");
	}
	assert_int_equal(store_record_decode("deadbeef", 8, STORE_RECORD_VERSION, &test_mods, &r,
	                                     err, sizeof(err)),
	                 -1);
	assert_string_equal(err, "the record does not start with a checksum and a space");
}

/* A channel's log (the roll module's) goes out one entry a line and comes
 * back into a decoded record, each entry once, in order; a damaged line is
 * one sentence naming the entry. */
static void
test_log_entries_round_trip(void **state)
{
	const struct store_record_mods *m = store_record_builtin_mods();
	struct state *st = state_new();
	struct channel *ch = state_channel(st, "console:log");
	struct rollchan *rc = rollchan_of(ch);
	struct store_record r, back;
	struct buf b;
	char lines[3][512], err[256], rec[256];
	size_t slot;

	assert_non_null(store_record_log_mod(m, &slot));
	assert_int_equal(slot, CHANMOD_ROLL);
	rollchan_log(rc, 1700000000, "ann", "1d20 # \"quoted\"", "17");
	rollchan_log(rc, 1700000001, "bob", "2d6", "7");
	rollchan_log(rc, 1700000002, "cat", "3d8", "12");
	store_record_of_channel(&r, ch);
	buf_init(&b, 4096);
	for (uint64_t seq = 1; seq <= 3; seq++) {
		buf_reset(&b);
		assert_int_equal(store_record_encode_log(m, r.mods[slot], seq, &b), 0);
		snprintf(lines[seq - 1], sizeof(lines[0]), "%s", buf_str(&b));
	}
	assert_int_equal(store_record_encode_log(m, r.mods[slot], 4, &b), -1);
	assert_string_equal(lines[0] + 9, "[1700000000,\"ann\",\"1d20 # \\\"quoted\\\"\",\"17\"]");
	/* A record that holds no roll state: the entries make a fresh one. */
	snprintf(rec, sizeof(rec), "%s", "{\"t\":\"c\",\"key\":\"console:log\",\"last_used\":1}");
	snprintf(lines[2] + 256, 200, "%08x %s", (unsigned)crc32_of(rec, strlen(rec)), rec);
	assert_int_equal(store_record_decode(lines[2] + 256, strlen(lines[2] + 256),
	                                     STORE_RECORD_VERSION, m, &back, err, sizeof(err)),
	                 0);
	for (uint64_t seq = 1; seq <= 3; seq++)
		assert_int_equal(store_record_decode_log(&back, m, seq, lines[seq - 1],
		                                         strlen(lines[seq - 1]), err, sizeof(err)),
		                 0);
	/* The same entry again (held already): skipped. */
	assert_int_equal(
	    store_record_decode_log(&back, m, 2, lines[1], strlen(lines[1]), err, sizeof(err)), 0);
	rc = back.mods[CHANMOD_ROLL];
	assert_int_equal(rc->count, 3);
	assert_int_equal(rc->nlog, 3);
	assert_string_equal(rollchan_entry(rc, 0)->who, "cat");
	assert_string_equal(rollchan_entry(rc, 2)->what, "1d20 # \"quoted\"");
	/* A flipped byte. */
	lines[0][20] ^= 1;
	assert_int_equal(
	    store_record_decode_log(&back, m, 5, lines[0], strlen(lines[0]), err, sizeof(err)), -1);
	assert_string_equal(err,
	                    "log entry 5: checksum mismatch: the record was changed or damaged");
	store_record_clear(&back, m);
	buf_free(&b);
	state_free(st);
}

/* A log entry whose text 0.1.0 cut inside a character (a long label: its
 * last bytes "\xe8\xb5" and then "…"), or one past the length the log
 * keeps, is read back cut on a character with "…": it never stops a
 * start, as it did for every channel of the bot. */
static void
test_log_entries_cut_badly_read(void **state)
{
	const struct store_record_mods *m = store_record_builtin_mods();
	static const char empty[] = "{\"t\":\"c\",\"key\":\"console:log\",\"last_used\":1}";
	static const char bad[] =
	    "[1700000000,\"al\",\"1d20 + 5 # \xe7\x8a\xac\xe8\xb5\xe2\x80\xa6\",\"11\"]";
	struct store_record back;
	const struct rollchan *rc;
	char line[1024], json[700], err[256];
	size_t n;

	snprintf(line, sizeof(line), "%08x %s", (unsigned)crc32_of(empty, strlen(empty)), empty);
	assert_int_equal(store_record_decode(line, strlen(line), STORE_RECORD_VERSION, m, &back,
	                                     err, sizeof(err)),
	                 0);
	snprintf(line, sizeof(line), "%08x %s", (unsigned)crc32_of(bad, strlen(bad)), bad);
	assert_int_equal(store_record_decode_log(&back, m, 1, line, strlen(line), err, sizeof(err)),
	                 0);
	/* 200 bytes of é. */
	n = (size_t)snprintf(json, sizeof(json), "[1700000001,\"al\",\"");
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(json + n, sizeof(json) - n, "é");
	snprintf(json + n, sizeof(json) - n, "\",\"3\"]");
	snprintf(line, sizeof(line), "%08x %s", (unsigned)crc32_of(json, strlen(json)), json);
	assert_int_equal(store_record_decode_log(&back, m, 2, line, strlen(line), err, sizeof(err)),
	                 0);
	rc = back.mods[CHANMOD_ROLL];
	assert_int_equal(rc->nlog, 2);
	assert_string_equal(rollchan_entry(rc, 1)->what, "1d20 + 5 # \xe7\x8a\xac…");
	n = strlen(rollchan_entry(rc, 0)->what);
	assert_int_equal(n, 62 * 2 + strlen("…"));
	assert_string_equal(rollchan_entry(rc, 0)->what + n - strlen("…"), "…");
	store_record_clear(&back, m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_crc32_known_value),
	    cmocka_unit_test(test_crc32_is_zlibs),
	    cmocka_unit_test(test_lines_written_before_read),
	    cmocka_unit_test(test_channel_round_trip_with_modules),
	    cmocka_unit_test(test_channel_without_gm_or_modules),
	    cmocka_unit_test(test_user_round_trip_styles),
	    cmocka_unit_test(test_user_saved_rolls),
	    cmocka_unit_test(test_flipped_byte_is_a_checksum_error),
	    cmocka_unit_test(test_old_record_writes_back_the_same),
	    cmocka_unit_test(test_v4_tables_load_with_their_marks),
	    cmocka_unit_test(test_other_versions_are_refused),
	    cmocka_unit_test(test_version_3_fungeon_reads),
	    cmocka_unit_test(test_tables_past_a_later_limit_read),
	    cmocka_unit_test(test_bad_records_name_the_reason),
	    cmocka_unit_test(test_log_entries_round_trip),
	    cmocka_unit_test(test_log_entries_cut_badly_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
