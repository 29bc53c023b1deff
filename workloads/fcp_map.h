/*
 * fcp_map.h - what both pools share: the channel record and the
 * name -> channel hash (Java used a HashMap). Records come from a slab
 * made at create time, so a get never calls malloc inside the window.
 */
#ifndef FCTRACE_FCP_MAP_H
#define FCTRACE_FCP_MAP_H

#include "wl_internal.h"

struct fcp_chan {
	const char *name;
	uint64_t hash;
	int fd;
	unsigned uses;			/* callers holding it now */
	struct fcp_chan *hnext;		/* hash chain; free list */
	struct fcp_chan *prev, *next;	/* idle list */
};

struct fcp_map {
	struct fcp_chan **bucket;
	uint64_t mask;
	struct fcp_chan *slab, *free;
	uint64_t count;			/* channels registered */
};

int fcp_map_init(struct fcp_map *m, unsigned capacity);
void fcp_map_fini(struct fcp_map *m);
uint64_t fcp_hash(const char *name);
struct fcp_chan *fcp_map_find(struct fcp_map *m, const char *name, uint64_t h);
/* a free record for name, not yet registered; NULL when the slab is dry */
struct fcp_chan *fcp_chan_new(struct fcp_map *m, const char *name, uint64_t h,
			      int fd);
void fcp_map_add(struct fcp_map *m, struct fcp_chan *ch);
void fcp_map_del(struct fcp_map *m, struct fcp_chan *ch);
void fcp_chan_free(struct fcp_map *m, struct fcp_chan *ch);
int fcp_chan_fd(const struct fcp_chan *ch);
/*
 * What both pools are made of first: their lock, capacity, io and map.
 * Each pool's struct begins with one, so the pool's pointer is the
 * core's, and the fcp_core_* functions serve as either pool's ops.
 */
struct fcp_core {
	pthread_mutex_t mu;
	unsigned capacity;
	struct wl_io io;
	int dirfd;			/* names are relative to it */
	struct fcp_map map;
};

int fcp_core_init(struct fcp_core *c, unsigned capacity, const struct wl_io *io, int dirfd);
/* a channel's use count under the pool's lock, -1 when not open */
int fcp_core_uses(void *pool, const char *name);
pthread_mutex_t *fcp_core_mutex(void *pool);
/* close every registered channel, idle or not, and free the pool */
void fcp_core_destroy(void *pool);

#endif /* FCTRACE_FCP_MAP_H */
