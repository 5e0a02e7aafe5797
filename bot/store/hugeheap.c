/* hugeheap: transparent huge pages for a large malloc heap; see hugeheap.h. */
#include "bot/store/hugeheap.h"

#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define STEP      ((size_t)64 << 20)    /* the heap grows by this much at a time */
#define WORTH     ((uintptr_t)16 << 20) /* below this fork is cheap: leave it be */
#define HUGE_PAGE ((uintptr_t)2 << 20)

static bool enabled;
static uintptr_t start; /* the heap's end when hugeheap_init ran */
static uintptr_t seen;  /* advised up to here */

/* True when the kernel gives huge pages to advised memory. */
static bool
thp_available(void)
{
	FILE *fp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";

	if (fp == NULL)
		return false;
	if (fgets(line, sizeof(line), fp) == NULL)
		line[0] = '\0';
	fclose(fp);
	return strstr(line, "[always]") != NULL || strstr(line, "[madvise]") != NULL;
}

void
hugeheap_init(void)
{
	if (enabled || !thp_available())
		return;
	enabled = mallopt(M_TOP_PAD, (int)STEP) == 1;
	start = seen = (uintptr_t)sbrk(0);
}

void
hugeheap_advise(void)
{
	uintptr_t end, from;

	if (!enabled)
		return;
	end = (uintptr_t)sbrk(0);
	if (end <= seen || end < start + WORTH)
		return;
	from = seen > start + WORTH ? seen : start + WORTH;
	from = (from + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	if (end > from)
		madvise((void *)from, end - from, MADV_HUGEPAGE);
	seen = end;
}
