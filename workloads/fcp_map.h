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
/* Shared by both pools: a channel's use count under the pool's lock (-1
 * when not open), and closing every registered channel at destroy. */
int fcp_map_uses(struct fcp_map *m, pthread_mutex_t *mu, const char *name);
void fcp_map_close_all(struct fcp_map *m, const struct wl_io *io);

#endif /* FCTRACE_FCP_MAP_H */
