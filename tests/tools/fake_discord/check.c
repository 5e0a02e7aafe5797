/* fake_discord/check: what Discord accepts in a message, a command list
 * and an autocomplete answer (limits from Discord's documentation). */
#include "tests/tools/fake_discord/fake.h"

#include <string.h>

size_t
utf16_len(const char *s)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p & 0xC0) != 0x80)
			n++;
		if (*p >= 0xF0)
			n++;
	}
	return n;
}

static int
bad(const char *where, const char *what)
{
	fake_violation("%s: %s", where, what);
	return -1;
}

static const char *
str(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static bool
len_in(const char *s, size_t lo, size_t hi)
{
	return s != NULL && utf16_len(s) >= lo && utf16_len(s) <= hi;
}

static int
check_embeds(const cJSON *embeds, const char *where)
{
	const cJSON *e;
	size_t total = 0;

	if (!cJSON_IsArray(embeds) || cJSON_GetArraySize(embeds) > 10)
		return bad(where, "embeds must be an array of at most 10");
	cJSON_ArrayForEach(e, embeds)
	{
		const cJSON *fields = cJSON_GetObjectItemCaseSensitive(e, "fields"), *f;
		const char *t = str(e, "title"), *d = str(e, "description");
		const char *foot = str(cJSON_GetObjectItemCaseSensitive(e, "footer"), "text");

		if (t != NULL && !len_in(t, 0, 256))
			return bad(where, "an embed title is over 256 characters");
		if (d != NULL && !len_in(d, 0, 4096))
			return bad(where, "an embed description is over 4096 characters");
		if (foot != NULL && !len_in(foot, 0, 2048))
			return bad(where, "an embed footer is over 2048 characters");
		total +=
		    (t ? utf16_len(t) : 0) + (d ? utf16_len(d) : 0) + (foot ? utf16_len(foot) : 0);
		if (fields != NULL && (!cJSON_IsArray(fields) || cJSON_GetArraySize(fields) > 25))
			return bad(where, "an embed has more than 25 fields");
		cJSON_ArrayForEach(f, fields)
		{
			if (!len_in(str(f, "name"), 1, 256) || !len_in(str(f, "value"), 1, 1024))
				return bad(where,
				           "an embed field's name or value is out of bounds");
			total += utf16_len(str(f, "name")) + utf16_len(str(f, "value"));
		}
	}
	if (total > 6000)
		return bad(where, "the embeds hold more than 6000 characters");
	return 0;
}

static int
check_components(const cJSON *rows, const char *where)
{
	const cJSON *row, *c;

	if (!cJSON_IsArray(rows) || cJSON_GetArraySize(rows) > 5)
		return bad(where, "components must be at most 5 action rows");
	cJSON_ArrayForEach(row, rows)
	{
		const cJSON *inner = cJSON_GetObjectItemCaseSensitive(row, "components");
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(row, "type");

		if (!cJSON_IsNumber(type) || type->valueint != DISCORD_COMPONENT_ACTION_ROW ||
		    !cJSON_IsArray(inner) || cJSON_GetArraySize(inner) < 1 ||
		    cJSON_GetArraySize(inner) > 5)
			return bad(where, "an action row must hold 1 to 5 components");
		cJSON_ArrayForEach(c, inner)
		{
			const cJSON *ct = cJSON_GetObjectItemCaseSensitive(c, "type");
			const cJSON *style = cJSON_GetObjectItemCaseSensitive(c, "style");
			const char *label = str(c, "label"), *id = str(c, "custom_id");

			if (!cJSON_IsNumber(ct) || ct->valueint != DISCORD_COMPONENT_BUTTON)
				return bad(where, "only buttons are expected in an action row");
			if (!cJSON_IsNumber(style) || style->valueint < DISCORD_BUTTON_PRIMARY ||
			    style->valueint > DISCORD_BUTTON_LINK)
				return bad(where, "a button's style must be 1 to 5");
			if (label != NULL && !len_in(label, 0, 80))
				return bad(where, "a button label is over 80 characters");
			if (style->valueint != DISCORD_BUTTON_LINK && !len_in(id, 1, 100))
				return bad(where,
				           "a button's custom_id must be 1 to 100 characters");
		}
	}
	return 0;
}

int
check_message(const cJSON *msg, const char *where)
{
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(msg, "content");
	const cJSON *am = cJSON_GetObjectItemCaseSensitive(msg, "allowed_mentions");
	const cJSON *flags = cJSON_GetObjectItemCaseSensitive(msg, "flags");
	const cJSON *embeds = cJSON_GetObjectItemCaseSensitive(msg, "embeds");
	const cJSON *comps = cJSON_GetObjectItemCaseSensitive(msg, "components");
	const cJSON *parse = cJSON_GetObjectItemCaseSensitive(am, "parse"), *p;

	if (!cJSON_IsObject(msg))
		return bad(where, "the message is not a JSON object");
	if (content != NULL && !cJSON_IsString(content))
		return bad(where, "content is not a string");
	if (content != NULL && utf16_len(content->valuestring) > 2000)
		return bad(where, "content is over 2000 characters");
	if ((content == NULL || content->valuestring[0] == '\0') && embeds == NULL && comps == NULL)
		return bad(where, "the message is empty");
	if (!cJSON_IsObject(am) || !cJSON_IsArray(parse))
		return bad(where, "allowed_mentions with a parse list is missing");
	cJSON_ArrayForEach(p, parse)
	{
		if (cJSON_IsString(p) && strcmp(p->valuestring, "everyone") == 0)
			return bad(where, "allowed_mentions lets @everyone ping");
	}
	if (flags != NULL &&
	    (!cJSON_IsNumber(flags) ||
	     ((int)flags->valuedouble & ~(DISCORD_FLAG_SUPPRESS_EMBEDS | DISCORD_FLAG_EPHEMERAL |
	                                  DISCORD_FLAG_SUPPRESS_NOTIFICATIONS))))
		return bad(where, "flags may only combine 4, 64 and 4096");
	if (embeds != NULL && check_embeds(embeds, where) < 0)
		return -1;
	if (comps != NULL && check_components(comps, where) < 0)
		return -1;
	return 0;
}

/* A text input (type 4) as Discord's Component Reference has it: a
 * custom_id of 1-100, a style of 1 (short) or 2 (paragraph), lengths
 * 0-4000 and 1-4000 with min <= max, a placeholder of at most 100 and a
 * pre-filled value of at most 4000 characters; a label (at most 45) in an
 * action row, none inside a Label component. */
static int
check_text_input(const cJSON *c, bool in_label, const char *where)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(c, "type");
	const cJSON *style = cJSON_GetObjectItemCaseSensitive(c, "style");
	const cJSON *min = cJSON_GetObjectItemCaseSensitive(c, "min_length");
	const cJSON *max = cJSON_GetObjectItemCaseSensitive(c, "max_length");
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(c, "required");
	const char *label = str(c, "label"), *ph = str(c, "placeholder"), *v = str(c, "value");

	if (!cJSON_IsNumber(type) || type->valueint != DISCORD_COMPONENT_TEXT_INPUT)
		return bad(where, "a modal's field is not a text input (type 4)");
	if (!len_in(str(c, "custom_id"), 1, 100))
		return bad(where, "a text input's custom_id must be 1 to 100 characters");
	if (!cJSON_IsNumber(style) ||
	    (style->valueint != DISCORD_TEXT_SHORT && style->valueint != DISCORD_TEXT_PARAGRAPH))
		return bad(where, "a text input's style must be 1 (short) or 2 (paragraph)");
	if (in_label && cJSON_GetObjectItemCaseSensitive(c, "label") != NULL)
		return bad(where, "a text input inside a Label component cannot have a label");
	if (!in_label && !len_in(label, 1, DISCORD_MODAL_LABEL_MAX))
		return bad(where, "a text input in an action row needs a label of 1 to 45 "
		                  "characters");
	if (min != NULL &&
	    (!cJSON_IsNumber(min) || min->valueint < 0 || min->valueint > DISCORD_TEXT_INPUT_MAX))
		return bad(where, "a text input's min_length must be 0 to 4000");
	if (max != NULL &&
	    (!cJSON_IsNumber(max) || max->valueint < 1 || max->valueint > DISCORD_TEXT_INPUT_MAX))
		return bad(where, "a text input's max_length must be 1 to 4000");
	if (min != NULL && max != NULL && min->valueint > max->valueint)
		return bad(where, "a text input's min_length is above its max_length");
	if (ph != NULL && !len_in(ph, 0, DISCORD_PLACEHOLDER_MAX))
		return bad(where, "a text input's placeholder is over 100 characters");
	if (v != NULL && !len_in(v, 0, DISCORD_TEXT_INPUT_MAX))
		return bad(where, "a text input's value is over 4000 characters");
	if (req != NULL && !cJSON_IsBool(req))
		return bad(where, "a text input's required is not a boolean");
	return 0;
}

int
check_modal(const cJSON *data, const char *where)
{
	const cJSON *comps = cJSON_GetObjectItemCaseSensitive(data, "components"), *c;
	int n = 0;

	if (!cJSON_IsObject(data))
		return bad(where, "a modal's data is not an object");
	if (!len_in(str(data, "custom_id"), 1, 100))
		return bad(where, "a modal's custom_id must be 1 to 100 characters");
	if (!len_in(str(data, "title"), 1, DISCORD_MODAL_TITLE_MAX))
		return bad(where, "a modal's title must be 1 to 45 characters");
	if (!cJSON_IsArray(comps) || cJSON_GetArraySize(comps) < 1 ||
	    cJSON_GetArraySize(comps) > DISCORD_MODAL_ROWS_MAX)
		return bad(where, "a modal holds 1 to 5 components");
	cJSON_ArrayForEach(c, comps)
	{
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(c, "type");
		int t = cJSON_IsNumber(type) ? type->valueint : 0;

		n++;
		if (t == DISCORD_COMPONENT_LABEL) {
			const char *d = str(c, "description");

			if (!len_in(str(c, "label"), 1, DISCORD_MODAL_LABEL_MAX))
				return bad(where, "a Label component's label must be 1 to 45 "
				                  "characters");
			if (d != NULL && !len_in(d, 0, 100))
				return bad(where, "a Label component's description is over 100 "
				                  "characters");
			if (check_text_input(cJSON_GetObjectItemCaseSensitive(c, "component"), true,
			                     where) < 0)
				return -1;
		} else if (t == DISCORD_COMPONENT_ACTION_ROW) {
			const cJSON *inner = cJSON_GetObjectItemCaseSensitive(c, "components");

			if (!cJSON_IsArray(inner) || cJSON_GetArraySize(inner) != 1)
				return bad(where,
				           "a modal's action row holds exactly one text input");
			if (check_text_input(inner->child, false, where) < 0)
				return -1;
		} else {
			return bad(where, "a modal's component is neither a Label (18) nor an "
			                  "action row (1)");
		}
	}
	return n > 0 ? 0 : -1;
}

static bool
valid_name(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n >= 1 && n <= 32 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static int
check_options(const cJSON *opts, int depth, const char *where)
{
	const cJSON *o;
	bool optional = false;
	int kinds = 0; /* 1: subcommands, 2: values */

	if (opts == NULL)
		return 0;
	if (!cJSON_IsArray(opts) || cJSON_GetArraySize(opts) > 25)
		return bad(where, "options must be an array of at most 25");
	cJSON_ArrayForEach(o, opts)
	{
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
		const cJSON *choices = cJSON_GetObjectItemCaseSensitive(o, "choices"), *c;
		const cJSON *min = cJSON_GetObjectItemCaseSensitive(o, "min_value");
		const cJSON *max = cJSON_GetObjectItemCaseSensitive(o, "max_value");
		const cJSON *maxlen = cJSON_GetObjectItemCaseSensitive(o, "max_length");
		int t = cJSON_IsNumber(type) ? type->valueint : 0;

		if (!valid_name(str(o, "name")))
			return bad(where, "an option name is not 1-32 lowercase characters");
		if (!len_in(str(o, "description"), 1, 100))
			return bad(where, "an option description is not 1-100 characters");
		if (t < DISCORD_OPTION_SUB_COMMAND || t > DISCORD_OPTION_ATTACHMENT)
			return bad(where, "an option type is not 1-11");
		kinds |= (t <= DISCORD_OPTION_SUB_COMMAND_GROUP) ? 1 : 2;
		if (kinds == 3)
			return bad(where, "subcommands and plain options are mixed");
		if (t <= DISCORD_OPTION_SUB_COMMAND_GROUP) {
			if (depth >= 2 || (t == DISCORD_OPTION_SUB_COMMAND_GROUP && depth >= 1))
				return bad(where, "subcommands are nested too deep");
			if (check_options(cJSON_GetObjectItemCaseSensitive(o, "options"), depth + 1,
			                  where) < 0)
				return -1;
			continue;
		}
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "required"))) {
			if (optional)
				return bad(where, "a required option follows an optional one");
		} else {
			optional = true;
		}
		if ((min != NULL || max != NULL) && t != DISCORD_OPTION_INTEGER &&
		    t != DISCORD_OPTION_NUMBER)
			return bad(where, "min_value/max_value on a non-numeric option");
		if (min != NULL && max != NULL && min->valuedouble > max->valuedouble)
			return bad(where, "min_value is over max_value");
		if (maxlen != NULL && (t != DISCORD_OPTION_STRING || maxlen->valuedouble < 1 ||
		                       maxlen->valuedouble > 6000))
			return bad(where, "max_length must be 1-6000 on a string option");
		if (choices == NULL)
			continue;
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "autocomplete")))
			return bad(where, "an option has both choices and autocomplete");
		if (!cJSON_IsArray(choices) || cJSON_GetArraySize(choices) > 25)
			return bad(where, "choices must be an array of at most 25");
		cJSON_ArrayForEach(c, choices)
		{
			if (!len_in(str(c, "name"), 1, 100) ||
			    cJSON_GetObjectItemCaseSensitive(c, "value") == NULL)
				return bad(where,
				           "a choice needs a name of 1-100 characters and a value");
		}
	}
	return 0;
}

/* What Discord counts against a command's 8000 characters: every name,
 * description and value, down through options and choices. */
static size_t
counted(const cJSON *o)
{
	static const char *const keys[] = {"name", "description", "value"};
	const cJSON *c;
	size_t n = 0;

	for (size_t k = 0; k < 3; k++)
		n += str(o, keys[k]) != NULL ? utf16_len(str(o, keys[k])) : 0;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(o, "options")) n += counted(c);
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(o, "choices")) n += counted(c);
	return n;
}

int
check_commands(const cJSON *arr, const char *where)
{
	const cJSON *c;

	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > 100)
		return bad(where, "the command list must be an array of at most 100");
	cJSON_ArrayForEach(c, arr)
	{
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(c, "type");
		const cJSON *perms =
		    cJSON_GetObjectItemCaseSensitive(c, "default_member_permissions");

		if (counted(c) > 8000)
			return bad(where, "a command is over 8000 characters");
		if (!valid_name(str(c, "name")))
			return bad(where, "a command name is not 1-32 lowercase characters");
		if (!len_in(str(c, "description"), 1, 100))
			return bad(where, "a command description is not 1-100 characters");
		if (type != NULL &&
		    (!cJSON_IsNumber(type) || type->valueint != DISCORD_COMMAND_CHAT_INPUT))
			return bad(where, "a command type is not 1 (CHAT_INPUT)");
		if (perms != NULL && !cJSON_IsNull(perms) &&
		    (!cJSON_IsString(perms) ||
		     strspn(perms->valuestring, "0123456789") != strlen(perms->valuestring)))
			return bad(where, "default_member_permissions is not a bitset string");
		if (check_options(cJSON_GetObjectItemCaseSensitive(c, "options"), 0, where) < 0)
			return -1;
	}
	return 0;
}

int
check_autocomplete(const cJSON *data, const char *where)
{
	const cJSON *choices = cJSON_GetObjectItemCaseSensitive(data, "choices"), *c;

	if (!cJSON_IsArray(choices) || cJSON_GetArraySize(choices) > 25)
		return bad(where, "autocomplete choices must be an array of at most 25");
	cJSON_ArrayForEach(c, choices)
	{
		if (!len_in(str(c, "name"), 1, 100) ||
		    cJSON_GetObjectItemCaseSensitive(c, "value") == NULL)
			return bad(where, "an autocomplete choice needs a name and a value");
	}
	return 0;
}
