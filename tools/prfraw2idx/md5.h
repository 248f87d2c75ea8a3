/* See COPYING file for copyright and license details. */
/* md5.h: MD5 (md5.c), for LLVM's name hashes. */
#ifndef PROFPIPE_MD5_H
#define PROFPIPE_MD5_H

#include <stddef.h>
#include <stdint.h>

/* md5.c: RFC 1321 */
struct md5 {
	uint32_t	a, b, c, d;
	uint64_t	len;
	uint8_t		buf[64];
};
void	 md5_init(struct md5 *);
void	 md5_update(struct md5 *, const void *, size_t);
void	 md5_final(struct md5 *, uint8_t digest[16]);
/* low 64 bits of MD5(s), the first 8 digest bytes read little-endian:
 * LLVM's MD5Hash(), used for PGO name references */
uint64_t md5_low64(const void *, size_t);

#endif
