/* crc32: the checksum of state file lines, from libdeflate; see crc32.h. */
#include "bot/store/crc32.h"

#include <libdeflate.h>

uint32_t
crc32_of(const void *p, size_t n)
{
	return libdeflate_crc32(0, p, n);
}
