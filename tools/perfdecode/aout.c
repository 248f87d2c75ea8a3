/* See COPYING file for copyright and license details. */
/*
 * aout.c: output written by a second thread.  The decoder hands each
 * chunk of text to a FILE whose write function copies it into one of two
 * buffers; a writer thread sends the other buffer to the file
 * descriptor meanwhile, so that the kernel's copy into the page cache or
 * pipe overlaps decoding.  Write errors come back through ferror() and
 * fclose() on that FILE.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "perfdecode.h"

struct aout {
	int		 fd;
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	char		*buf[2];
	size_t		 len[2], cap[2];
	int		 full[2];
	int		 cur;		/* the buffer the decoder fills next */
	int		 err;		/* errno of a failed write */
	int		 done;
};

static void *
writer(void *arg)
{
	struct aout *a = arg;
	size_t off;
	ssize_t r;
	int i = 0;

	for (;;) {
		pthread_mutex_lock(&a->mu);
		while (!a->full[i] && !a->done)
			pthread_cond_wait(&a->cv, &a->mu);
		if (!a->full[i]) {
			pthread_mutex_unlock(&a->mu);
			return NULL;
		}
		pthread_mutex_unlock(&a->mu);
		for (off = 0; off < a->len[i]; off += (size_t)r) {
			r = write(a->fd, a->buf[i] + off, a->len[i] - off);
			if (r < 0 && errno == EINTR) {
				r = 0;
				continue;
			}
			if (r <= 0) {
				pthread_mutex_lock(&a->mu);
				a->err = r < 0 ? errno : EIO;
				pthread_mutex_unlock(&a->mu);
				break;
			}
		}
		pthread_mutex_lock(&a->mu);
		a->full[i] = 0;
		a->len[i] = 0;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
		i = !i;
	}
}

static ssize_t
aout_write(void *cookie, const char *p, size_t n)
{
	struct aout *a = cookie;
	int i = a->cur, err;

	pthread_mutex_lock(&a->mu);
	while (a->full[i])
		pthread_cond_wait(&a->cv, &a->mu);
	err = a->err;
	pthread_mutex_unlock(&a->mu);
	if (err != 0) {
		errno = err;
		return -1;
	}
	if (a->cap[i] < n) {
		free(a->buf[i]);
		a->buf[i] = xmalloc(n);
		a->cap[i] = n;
	}
	memcpy(a->buf[i], p, n);
	a->len[i] = n;
	pthread_mutex_lock(&a->mu);
	a->full[i] = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	a->cur = !i;
	return (ssize_t)n;
}

static int
aout_close(void *cookie)
{
	struct aout *a = cookie;
	int err;

	pthread_mutex_lock(&a->mu);
	a->done = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	err = a->err;
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a->buf[0]);
	free(a->buf[1]);
	free(a);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

/* a FILE writing to fd through a writer thread; NULL if none can start */
FILE *
pd_aout_open(int fd)
{
	cookie_io_functions_t io = { NULL, aout_write, NULL, aout_close };
	struct aout *a;
	FILE *fp;

	a = xcalloc(1, sizeof(*a));
	a->fd = fd;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	if (pthread_create(&a->th, NULL, writer, a) != 0) {
		pthread_mutex_destroy(&a->mu);
		pthread_cond_destroy(&a->cv);
		free(a);
		return NULL;
	}
	if ((fp = fopencookie(a, "w", io)) == NULL) {
		aout_close(a);
		return NULL;
	}
	/* our writes are 1 MiB already: no stdio copy */
	setvbuf(fp, NULL, _IONBF, 0);
	return fp;
}
