/*
 * dice_adv: the advantage shorthand, a rewrite of chat notation before it
 * is parsed. See dice_advantage() in dice.h.
 */
#include "rules/dice/dice.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* Whether c may end a dice term that adv/dis can double: an operator, a
 * space, a label or the end. */
static bool
term_end(int c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == '+' || c == '-' || c == '*' || c == '/' ||
	       c == ')' || c == ';' || c == '[' || c == '#';
}

/* The first plain d20 term of expr before stop ("d20" or "1d20", not part
 * of a longer number or word), or NULL. */
static const char *
first_d20(const char *expr, const char *stop)
{
	for (const char *p = expr; p < stop; p++) {
		const char *d = p;

		if (*p == '1' && (p == expr || !isdigit((unsigned char)p[-1])))
			d = p + 1;
		else if (p > expr &&
		         (isdigit((unsigned char)p[-1]) || isalpha((unsigned char)p[-1])))
			continue;
		if ((*d == 'd' || *d == 'D') && d[1] == '2' && d[2] == '0' && term_end(d[3]))
			return p;
	}
	return NULL;
}

const char *
dice_advantage(const char *expr, char *buf, size_t len, const char **err)
{
	const char *hash = strchr(expr, '#'), *end = hash != NULL ? hash : expr + strlen(expr);
	const char *w, *p, *rest;
	size_t pre, mid, tail;
	bool adv;

	while (end > expr && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end - expr < 4 || (end[-4] != ' ' && end[-4] != '\t'))
		return expr;
	w = end - 3;
	if (strncasecmp(w, "adv", 3) == 0)
		adv = true;
	else if (strncasecmp(w, "dis", 3) == 0)
		adv = false;
	else
		return expr;
	if ((p = first_d20(expr, w)) == NULL) {
		*err = adv ? "Adv rolls a plain d20 twice and this roll has none; write it as in "
		             "1d20+5 adv."
		           : "Dis rolls a plain d20 twice and this roll has none; write it as in "
		             "1d20+5 dis.";
		return NULL;
	}
	rest = p + (*p == '1' ? 4 : 3);
	pre = (size_t)(p - expr);
	mid = (size_t)(w - rest);
	tail = hash != NULL ? strlen(hash) : 0;
	if (len == 0 || pre + 7 + mid + tail > len - 1)
		return expr; /* the dice engine names the length limit */
	memcpy(buf, expr, pre);
	memcpy(buf + pre, adv ? "2d20kh1" : "2d20kl1", 7);
	memcpy(buf + pre + 7, rest, mid);
	memcpy(buf + pre + 7 + mid, hash != NULL ? hash : "", tail);
	buf[pre + 7 + mid + tail] = '\0';
	return buf;
}
