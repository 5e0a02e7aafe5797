/* crc32: the checksum of state file lines, from zlib; see crc32.h. */
#include "bot/store/crc32.h"

#include <zlib.h>

uint32_t
crc32_of(const void *p, size_t n)
{
	return (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), p, n);
}
