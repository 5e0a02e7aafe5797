/* crc32: table-driven CRC-32; see crc32.h. */
#include "bot/crc32.h"

#include <pthread.h>

static uint32_t table[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
crc32_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

uint32_t
crc32_of(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint32_t c = 0xffffffffu;

	pthread_once(&once, crc32_init);
	for (size_t i = 0; i < n; i++)
		c = table[(c ^ s[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}
