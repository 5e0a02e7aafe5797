/*
 * libFuzzer target for bot/store/walcheck: any bytes go through
 * walcheck_scan, as a damaged SQLite log would. The counts it gives must
 * hold together: no more frames read or lost than the log holds, the first
 * unreadable frame where reading stopped, and "damaged" exactly when a bad
 * header or such a frame was found.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bot/store/walcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct walcheck c;
	bool damaged = walcheck_scan(data, size, &c);

	if (damaged != c.damaged || damaged != (c.bad_header || c.first_bad >= 0))
		abort();
	if (c.page_size == 0 && (c.frames != 0 || c.first_bad != -1))
		abort();
	if (c.readable > c.frames || c.commits > c.readable || c.lost_frames > c.frames ||
	    c.lost_commits > c.lost_frames || c.readable + c.lost_frames > c.frames)
		abort();
	if (c.first_bad >= 0 && (c.first_bad != c.readable || c.lost_frames == 0))
		abort();
	if (c.page_size != 0 &&
	    (size_t)c.frames * (WALCHECK_FRAME_HDR + c.page_size) + WALCHECK_HDR > size)
		abort();
	return 0;
}
