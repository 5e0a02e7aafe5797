/* light: light sources; see light.h. */
#include "rules/procedure/light.h"

#include "rules/base/num.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const kind_names[LIGHT_KIND_COUNT] = {
    [LIGHT_TORCH] = "torch",
    [LIGHT_LANTERN] = "lantern",
    [LIGHT_CANDLE] = "candle",
};

static const char *const kind_plurals[LIGHT_KIND_COUNT] = {
    [LIGHT_TORCH] = "torches",
    [LIGHT_LANTERN] = "lanterns",
    [LIGHT_CANDLE] = "candles",
};

/* Turns each kind lasts, per procedure; 0: until a Burn. */
static const int lives[PROC_COUNT][LIGHT_KIND_COUNT] = {
    [PROC_EXPLORATION] = {[LIGHT_TORCH] = 6, [LIGHT_LANTERN] = 36, [LIGHT_CANDLE] = 6},
    [PROC_DELVING] =
        {[LIGHT_TORCH] = 0, [LIGHT_LANTERN] = LIGHT_EXPEDITION, [LIGHT_CANDLE] = LIGHT_EXPEDITION},
};

const char *
light_kind_name(enum light_kind k)
{
	return (unsigned)k < LIGHT_KIND_COUNT ? kind_names[k] : "?";
}

int
light_kind_parse(const char *name)
{
	for (int i = 0; i < LIGHT_KIND_COUNT; i++)
		if (strcasecmp(name, kind_names[i]) == 0 || strcasecmp(name, kind_plurals[i]) == 0)
			return i;
	return -1;
}

int
light_life(enum light_kind k, enum procedure p)
{
	return lives[p][k];
}

int
light_left(const struct light *l, enum procedure p)
{
	int life = light_life(l->kind, p);

	if (life == 0)
		return -1;
	return life > l->burned ? life - l->burned : 0;
}

int
light_add(struct lights *ls, enum light_kind k, int count, const char *who, char *err,
          size_t errlen)
{
	if (count < 1 || (size_t)count > LIGHT_MAX - ls->n) {
		snprintf(err, errlen,
		         "%zu sources are lit and %d more would pass the limit of %d; put some out "
		         "first.",
		         ls->n, count, LIGHT_MAX);
		return -1;
	}
	if (ls->n == 0)
		ls->next_id = 1;
	for (int i = 0; i < count; i++) {
		struct light *l = &ls->l[ls->n++];

		memset(l, 0, sizeof(*l));
		l->id = ls->next_id++;
		l->kind = k;
		snprintf(l->who, sizeof(l->who), "%s", who != NULL ? who : "");
	}
	return 0;
}

int
light_select(const struct lights *ls, const char *which, size_t *idx, char *err, size_t errlen)
{
	const char *p = which[0] == '#' ? which + 1 : which;
	size_t n = 0;
	int kind = -1;

	if (isdigit((unsigned char)*p)) {
		int id = 0;

		if (num_read(&p, &id) < 0)
			p = "?";
		for (size_t i = 0; *p == '\0' && i < ls->n; i++) {
			if (ls->l[i].id == id) {
				idx[0] = i;
				return 1;
			}
		}
		snprintf(err, errlen, "No lit source is numbered '%.20s'; /light list shows them.",
		         which);
		return -1;
	}
	if (strcasecmp(which, "all") == 0) {
		for (size_t i = 0; i < ls->n; i++)
			idx[n++] = i;
	} else if ((kind = light_kind_parse(which)) >= 0) {
		for (size_t i = 0; i < ls->n; i++)
			if ((int)ls->l[i].kind == kind)
				idx[n++] = i;
	} else {
		snprintf(err, errlen,
		         "'%.20s' names no light; give a number from /light list, torch, lantern, "
		         "candle or all.",
		         which);
		return -1;
	}
	if (n == 0) {
		snprintf(err, errlen, "No %s is lit.", kind >= 0 ? kind_names[kind] : "source");
		return -1;
	}
	return (int)n;
}

void
light_remove(struct lights *ls, size_t i)
{
	if (i >= ls->n)
		return;
	memmove(&ls->l[i], &ls->l[i + 1], (ls->n - i - 1) * sizeof(ls->l[0]));
	ls->n--;
}

int
light_restore(struct lights *ls, const struct light *l)
{
	struct light copy = *l;
	size_t at = 0;

	if (ls->n == LIGHT_MAX)
		return -1;
	if (ls->n == 0)
		ls->next_id = 1;
	for (size_t i = 0; i < ls->n; i++) {
		if (ls->l[i].id == copy.id) {
			copy.id = ls->next_id;
			break;
		}
	}
	if (copy.id >= ls->next_id)
		ls->next_id = copy.id + 1;
	while (at < ls->n && ls->l[at].id < copy.id)
		at++;
	memmove(&ls->l[at + 1], &ls->l[at], (ls->n - at) * sizeof(ls->l[0]));
	ls->l[at] = copy;
	ls->n++;
	return (int)at;
}

size_t
light_burn(struct lights *ls, enum procedure p, struct light_change *ch)
{
	size_t nch = 0, i = 0;

	while (i < ls->n) {
		struct light *l = &ls->l[i];
		int left;

		l->burned++;
		left = light_left(l, p);
		if (left == 0) {
			ch[nch++] = (struct light_change){*l, true};
			light_remove(ls, i);
			continue;
		}
		if (left == 1)
			ch[nch++] = (struct light_change){*l, false};
		i++;
	}
	return nch;
}

/* Puts out every source for which goes(source, arg) holds, keeping the
 * order of the others; copies of those put out go to out (room for
 * LIGHT_MAX). Returns how many. */
static size_t
put_out_if(struct lights *ls, struct light *out, bool (*goes)(const struct light *, int), int arg)
{
	size_t n = 0, i = 0;

	while (i < ls->n) {
		if (goes(&ls->l[i], arg)) {
			out[n++] = ls->l[i];
			light_remove(ls, i);
			continue;
		}
		i++;
	}
	return n;
}

static bool
is_spent(const struct light *l, int p)
{
	return light_left(l, (enum procedure)p) == 0;
}

static bool
is_kind(const struct light *l, int kind)
{
	return l->kind == (enum light_kind)kind;
}

size_t
light_spent(struct lights *ls, enum procedure p, struct light *out)
{
	return put_out_if(ls, out, is_spent, (int)p);
}

size_t
light_burn_torches(struct lights *ls, struct light *out)
{
	return put_out_if(ls, out, is_kind, LIGHT_TORCH);
}

size_t
light_blow_candles(struct lights *ls, struct light *out)
{
	return put_out_if(ls, out, is_kind, LIGHT_CANDLE);
}

enum light_flag
light_flag_oldest(struct lights *ls, enum procedure p, int low, struct light *before)
{
	struct light *l;
	int life;

	if (ls->n == 0)
		return LIGHT_FLAG_NONE;
	l = &ls->l[0];
	*before = *l;
	if (l->burned <= 1)
		return LIGHT_FLAG_FLICKER;
	if (l->kind != LIGHT_LANTERN) {
		light_remove(ls, 0);
		return LIGHT_FLAG_OUT;
	}
	life = light_life(l->kind, p);
	if (low < 1)
		low = 1;
	if (life - l->burned > low)
		l->burned = life - low;
	return LIGHT_FLAG_LOW;
}
