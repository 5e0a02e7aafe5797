/* faultsql: a VFS whose writes and syncs go through faultio; see faultsql.h. */
#include "tests/unit/helpers/faultsql.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "tests/unit/helpers/faultio.h"

struct ffile {
	sqlite3_file base;
	sqlite3_file *real; /* follows this struct in the same allocation */
};

static sqlite3_vfs vfs;
static sqlite3_vfs *real_vfs;
static pthread_mutex_t hold_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cv = PTHREAD_COND_INITIALIZER;
static bool held;
static int waiting;

void
faultsql_hold_syncs(bool hold)
{
	pthread_mutex_lock(&hold_mu);
	held = hold;
	pthread_cond_broadcast(&hold_cv);
	pthread_mutex_unlock(&hold_mu);
}

int
faultsql_syncs_waiting(void)
{
	int n;

	pthread_mutex_lock(&hold_mu);
	n = waiting;
	pthread_mutex_unlock(&hold_mu);
	return n;
}

#define REAL(f) (((struct ffile *)(f))->real)

static int
f_close(sqlite3_file *f)
{
	return REAL(f)->pMethods->xClose(REAL(f));
}

static int
f_read(sqlite3_file *f, void *p, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xRead(REAL(f), p, n, off);
}

static int
f_write(sqlite3_file *f, const void *p, int n, sqlite3_int64 off)
{
	if (faultio_check(FAULTIO_WRITE))
		return errno == 0        ? SQLITE_OK /* lost: faultio.h */
		       : errno == ENOSPC ? SQLITE_FULL
		                         : SQLITE_IOERR_WRITE;
	return REAL(f)->pMethods->xWrite(REAL(f), p, n, off);
}

static int
f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int
f_sync(sqlite3_file *f, int flags)
{
	pthread_mutex_lock(&hold_mu);
	waiting++;
	while (held)
		pthread_cond_wait(&hold_cv, &hold_mu);
	waiting--;
	pthread_mutex_unlock(&hold_mu);
	if (faultio_check(FAULTIO_FSYNC))
		return SQLITE_IOERR_FSYNC;
	return REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int
f_size(sqlite3_file *f, sqlite3_int64 *size)
{
	return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int
f_lock(sqlite3_file *f, int l)
{
	return REAL(f)->pMethods->xLock(REAL(f), l);
}

static int
f_unlock(sqlite3_file *f, int l)
{
	return REAL(f)->pMethods->xUnlock(REAL(f), l);
}

static int
f_reserved(sqlite3_file *f, int *out)
{
	return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int
f_control(sqlite3_file *f, int op, void *arg)
{
	return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int
f_sector(sqlite3_file *f)
{
	return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int
f_device(sqlite3_file *f)
{
	return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int
f_shm_map(sqlite3_file *f, int pg, int pgsz, int extend, void volatile **pp)
{
	return REAL(f)->pMethods->xShmMap(REAL(f), pg, pgsz, extend, pp);
}

static int
f_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
	return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}

static void
f_shm_barrier(sqlite3_file *f)
{
	REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int
f_shm_unmap(sqlite3_file *f, int del)
{
	return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

static const sqlite3_io_methods methods = {
    .iVersion = 2,
    .xClose = f_close,
    .xRead = f_read,
    .xWrite = f_write,
    .xTruncate = f_truncate,
    .xSync = f_sync,
    .xFileSize = f_size,
    .xLock = f_lock,
    .xUnlock = f_unlock,
    .xCheckReservedLock = f_reserved,
    .xFileControl = f_control,
    .xSectorSize = f_sector,
    .xDeviceCharacteristics = f_device,
    .xShmMap = f_shm_map,
    .xShmLock = f_shm_lock,
    .xShmBarrier = f_shm_barrier,
    .xShmUnmap = f_shm_unmap,
};

static int
v_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags, int *out)
{
	struct ffile *ff = (struct ffile *)f;
	int rc;

	ff->real = (sqlite3_file *)(ff + 1);
	rc = real_vfs->xOpen(real_vfs, name, ff->real, flags, out);
	f->pMethods = rc == SQLITE_OK && ff->real->pMethods != NULL ? &methods : NULL;
	return rc;
}

static int
v_delete(sqlite3_vfs *v, const char *name, int sync)
{
	return real_vfs->xDelete(real_vfs, name, sync);
}

static int
v_access(sqlite3_vfs *v, const char *name, int flags, int *out)
{
	return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int
v_full(sqlite3_vfs *v, const char *name, int n, char *out)
{
	return real_vfs->xFullPathname(real_vfs, name, n, out);
}

static int
v_random(sqlite3_vfs *v, int n, char *out)
{
	return real_vfs->xRandomness(real_vfs, n, out);
}

static int
v_sleep(sqlite3_vfs *v, int us)
{
	return real_vfs->xSleep(real_vfs, us);
}

static int
v_time(sqlite3_vfs *v, double *out)
{
	return real_vfs->xCurrentTime(real_vfs, out);
}

static int
v_error(sqlite3_vfs *v, int n, char *out)
{
	return real_vfs->xGetLastError(real_vfs, n, out);
}

void
faultsql_install(void)
{
	if (real_vfs != NULL)
		return;
	real_vfs = sqlite3_vfs_find(NULL);
	vfs.iVersion = 1;
	vfs.szOsFile = (int)sizeof(struct ffile) + real_vfs->szOsFile;
	vfs.mxPathname = real_vfs->mxPathname;
	vfs.zName = "faultsql";
	vfs.xOpen = v_open;
	vfs.xDelete = v_delete;
	vfs.xAccess = v_access;
	vfs.xFullPathname = v_full;
	vfs.xDlOpen = NULL;
	vfs.xRandomness = v_random;
	vfs.xSleep = v_sleep;
	vfs.xCurrentTime = v_time;
	vfs.xGetLastError = v_error;
	sqlite3_vfs_register(&vfs, 1);
}
