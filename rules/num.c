/* num: small numbers in user text; see num.h. */
#include "num.h"

#include <ctype.h>

int
num_read(const char **p, int *out)
{
	int v = 0, digits = 0;

	while (isdigit((unsigned char)**p)) {
		if (++digits > 3)
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	if (digits == 0)
		return -1;
	*out = v;
	return 0;
}
