/*
 * crc32: the CRC-32 checksum (IEEE 802.3, the one zlib and PNG use) that
 * guards every line of the state files, so that a flipped byte anywhere is
 * found at restore instead of being read as a different value.
 */
#ifndef DELVER_CRC32_H
#define DELVER_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The checksum of n bytes. crc32_of("123456789", 9) is 0xcbf43926. */
uint32_t crc32_of(const void *p, size_t n);

#endif
