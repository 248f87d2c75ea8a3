/* See COPYING file for copyright and license details. */
/*
 * datatab.c: the data objects of a binary as BOLT 19 knows them when
 * perf2bolt names a memory sample's data address (BinaryData in
 * bolt/lib/Core/BinaryContext.cpp):
 *
 *   - the registrations functab.c records while it discovers the binary
 *     as RewriteInstance::discoverFileObjects does (every symbol, whatever
 *     its section, under its unique name; the PLT entries and their GOT
 *     slots; the functions of .eh_frame), replayed in that order with
 *     registerNameAtAddress's rules: one object per address, named by its
 *     first name, and updateObjectNesting's, which makes an object the
 *     child of the top-level object before it that holds it, and the
 *     parent of those after it that it holds;
 *   - the objects BOLT makes where the code refers to data no object
 *     holds: SYMBOLat0x<address> for an absolute relocation against a
 *     section symbol (relocation mode: RewriteInstance::handleRelocation;
 *     none where a dynamic relocation is), then, function by function as
 *     the disassembly meets them, DATAat0x<address> for a PC-relative
 *     memory operand (BinaryContext::handleAddressRef), FUNCat0x<address>
 *     for a branch or call out of the function to an address no object
 *     starts at (handleExternalReference), __ENTRY_<function>@0x<address>
 *     for a reference into the middle of the function itself;
 *   - the jump tables (getOrCreateJumpTable) in the order the disassembly
 *     meets them: a new object JUMP_TABLE/<function>.<N> (the function's
 *     Nth table), or that name as an alias of an object BOLT made there
 *     (SYMBOLat, DATAat), which generateSymbolHashes puts first; their size
 *     once every function is disassembled (postProcessJumpTables);
 *   - the secondary entry points of references into other functions
 *     (processInterproceduralReferences) and of split tables' entries in
 *     another fragment (postProcessJumpTables), __ENTRY_ objects where
 *     no object starts;
 *   - fixBinaryDataHoles: in each allocatable section, a gap between
 *     top-level objects is given to a size-0 object at its start, else to
 *     a new object HOLEat0x<address>;
 *   - generateSymbolHashes: an object named by BOLT (SYMBOLat, DATAat,
 *     HOLEat) takes a jump table's name it has as an alias, else, when
 *     its size is not 0, is renamed <prefix>_<hash>, the hash of its
 *     size, section name, bytes and the objects its relocations to code
 *     name (BinarySection::hash, with its reading of the next
 *     relocation's offset) as llvm/ADT/Hashing.h of LLVM 19 computes it,
 *     unless another object has that name.
 */
#include <capstone/capstone.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "functab.h"
#include "x86dec.h"
#include "cfg.h"
#include "datatab.h"

/* ---- llvm/ADT/Hashing.h (LLVM 19): CityHash-based, fixed seed ---- */

#define K0	0xc3a5c85c97cb3127ULL
#define K1	0xb492b66fbe98f273ULL
#define K2	0x9ae16a3b2f90404fULL
#define K3	0xc949d7c7509e6557ULL
#define SEED	0xff51afd7ed558ccdULL	/* without ABI-breaking checks */

static uint64_t
f64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t
f32(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24;
}

static uint64_t
rotr(uint64_t v, unsigned n)
{
	return n == 0 ? v : v >> n | v << (64 - n);
}

static uint64_t
smix(uint64_t v)
{
	return v ^ (v >> 47);
}

static uint64_t
h16(uint64_t lo, uint64_t hi)
{
	const uint64_t m = 0x9ddfea08eb382d69ULL;
	uint64_t a = (lo ^ hi) * m, b;

	a ^= a >> 47;
	b = (hi ^ a) * m;
	b ^= b >> 47;
	return b * m;
}

static uint64_t
hshort(const uint8_t *s, size_t n, uint64_t seed)
{
	uint64_t a, b, c, d, z, vf, vs, wf, ws, r;

	if (n >= 4 && n <= 8)
		return h16(n + (f32(s) << 3), seed ^ f32(s + n - 4));
	if (n > 8 && n <= 16) {
		a = f64(s);
		b = f64(s + n - 8);
		return h16(seed ^ a, rotr(b + n, (unsigned)n)) ^ b;
	}
	if (n > 16 && n <= 32) {
		a = f64(s) * K1;
		b = f64(s + 8);
		c = f64(s + n - 8) * K2;
		d = f64(s + n - 16) * K0;
		return h16(rotr(a - b, 43) + rotr(c ^ seed, 30) + d,
		    a + rotr(b ^ K3, 20) - c + n + seed);
	}
	if (n > 32) {
		z = f64(s + 24);
		a = f64(s) + (n + f64(s + n - 16)) * K0;
		b = rotr(a + z, 52);
		c = rotr(a, 37);
		a += f64(s + 8);
		c += rotr(a, 7);
		a += f64(s + 16);
		vf = a + z;
		vs = b + rotr(a, 31) + c;
		a = f64(s + 16) + f64(s + n - 32);
		z = f64(s + n - 8);
		b = rotr(a + z, 52);
		c = rotr(a, 37);
		a += f64(s + n - 24);
		c += rotr(a, 7);
		a += f64(s + n - 16);
		wf = a + z;
		ws = b + rotr(a, 31) + c;
		r = smix((vf + ws) * K2 + (wf + vs) * K0);
		return smix((seed ^ (r * K0)) + vs) * K2;
	}
	if (n != 0) {
		uint32_t y = (uint32_t)s[0] + ((uint32_t)s[n >> 1] << 8);
		uint32_t zz = (uint32_t)n + ((uint32_t)s[n - 1] << 2);

		return smix((uint64_t)y * K2 ^ (uint64_t)zz * K3 ^ seed) * K2;
	}
	return K2 ^ seed;
}

struct hstate {
	uint64_t	h0, h1, h2, h3, h4, h5, h6;
};

static void
mix32(const uint8_t *s, uint64_t *a, uint64_t *b)
{
	uint64_t c, d;

	*a += f64(s);
	c = f64(s + 24);
	*b = rotr(*b + *a + c, 21);
	d = *a;
	*a += f64(s + 8) + f64(s + 16);
	*b += rotr(*a, 44) + d;
	*a += c;
}

static void
hmix(struct hstate *h, const uint8_t *s)
{
	uint64_t t;

	h->h0 = rotr(h->h0 + h->h1 + h->h3 + f64(s + 8), 37) * K1;
	h->h1 = rotr(h->h1 + h->h4 + f64(s + 48), 42) * K1;
	h->h0 ^= h->h6;
	h->h1 += h->h3 + f64(s + 40);
	h->h2 = rotr(h->h2 + h->h5, 33) * K1;
	h->h3 = h->h4 * K1;
	h->h4 = h->h0 + h->h5;
	mix32(s, &h->h3, &h->h4);
	h->h5 = h->h2 + h->h6;
	h->h6 = h->h1 + f64(s + 16);
	mix32(s + 32, &h->h5, &h->h6);
	t = h->h2;
	h->h2 = h->h0;
	h->h0 = t;
}

static void
hcreate(struct hstate *h, const uint8_t *s, uint64_t seed)
{
	h->h0 = 0;
	h->h1 = seed;
	h->h2 = h16(seed, K1);
	h->h3 = rotr(seed ^ K1, 49);
	h->h4 = seed * K1;
	h->h5 = smix(seed);
	h->h6 = h16(h->h4, h->h5);
	hmix(h, s);
}

static uint64_t
hfinal(const struct hstate *h, uint64_t n)
{
	return h16(h16(h->h3, h->h5) + smix(h->h1) * K1 + h->h2,
	    h16(h->h4, h->h6) + smix(n) * K1 + h->h0);
}

/* hash_value(StringRef): hash_combine_range over contiguous bytes */
static uint64_t
hash_bytes(const uint8_t *s, size_t n)
{
	struct hstate h;
	const uint8_t *p = s, *aend = s + (n & ~(size_t)63);

	if (n <= 64)
		return hshort(s, n, SEED);
	hcreate(&h, p, SEED);
	for (p += 64; p != aend; p += 64)
		hmix(&h, p);
	if (n & 63)
		hmix(&h, s + n - 64);
	return hfinal(&h, n);
}

/* hash_value of an integer */
static uint64_t
hash_int(uint64_t v)
{
	return h16(SEED + ((v & 0xffffffffu) << 3), v >> 32);
}

/* hash_combine of two hash codes: their 16 bytes, hashed short */
static uint64_t
hash_combine2(uint64_t a, uint64_t b)
{
	uint8_t buf[16];
	int i;

	for (i = 0; i < 8; i++) {
		buf[i] = (uint8_t)(a >> (8 * i));
		buf[8 + i] = (uint8_t)(b >> (8 * i));
	}
	return hshort(buf, 16, SEED);
}

/* ---- the objects ---- */

static int
fail(char *err, size_t errlen, const char *fmt, ...) PRINTFLIKE(3, 4);
static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *
keep(struct datatab *t, char *s)
{
	xgrow(&t->strs, &t->capstrs, t->nstrs + 1, sizeof(*t->strs));
	t->strs[t->nstrs++] = s;
	return s;
}

/* GlobalSymbols: the object of a name, or NULL */
static struct dobj *
by_name(const struct datatab *t, const char *name)
{
	long k = strtab_find(&t->names, name, strlen(name));

	return k < 0 ? NULL : t->nmobj[k];
}

static void
set_name(struct datatab *t, const char *name, struct dobj *o)
{
	uint32_t k = strtab_intern(&t->names, name, strlen(name));

	if (k >= t->capnmobj) {
		size_t old = t->capnmobj;

		xgrow(&t->nmobj, &t->capnmobj, (size_t)k + 1,
		    sizeof(*t->nmobj));
		memset(t->nmobj + old, 0,
		    (t->capnmobj - old) * sizeof(*t->nmobj));
	}
	t->nmobj[k] = o;
}

/* the position of the first object at or above a */
static size_t
lower(const struct datatab *t, uint64_t a)
{
	size_t lo = 0, hi = t->n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (t->o[m]->addr < a)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

static struct dobj *
at(const struct datatab *t, uint64_t a)
{
	size_t i = lower(t, a);

	return i < t->n && t->o[i]->addr == a ? t->o[i] : NULL;
}

/* BinarySection::containsAddress */
static int
sec_has(const struct fsec *s, uint64_t a)
{
	return (a >= s->addr && a - s->addr < s->size) ||
	    (s->size == 0 && a == s->addr);
}

/* BinaryContext::getSectionForAddress over the allocatable sections:
 * AddressToSection's upper_bound, then back while within a page */
static int
section_for(const struct functab *ft, uint64_t a)
{
	size_t i, best = SIZE_MAX;
	int found = -1;

	/* the sections at or below a, the last of equal start first (a
	 * multimap keeps insertion, here header, order) */
	for (i = 0; i < ft->nsecs; i++) {
		const struct fsec *s = &ft->secs[i];

		if (s->addr > a || !sec_has(s, a))
			continue;
		if (found < 0 || s->addr > ft->secs[found].addr ||
		    (s->addr == ft->secs[found].addr && i > best)) {
			found = (int)i;
			best = i;
		}
	}
	return found;
}

static int
holds(const struct dobj *o, uint64_t a)
{
	return (o->addr <= a && a < o->addr + o->size) ||
	    (o->addr == a && o->size == 0);
}

/* BinaryData::containsRange: an object of size 0 holds its own address
 * only */
static int
holds_range(const struct dobj *o, uint64_t a, uint64_t n)
{
	return holds(o, a) && a + n <= o->addr + o->size;
}

/* BinaryContext::updateObjectNesting for the object at position i */
static void
nest(struct datatab *t, size_t i)
{
	struct dobj *x = t->o[i], *p, *b;
	size_t k;

	/* fixParents: the object's old parent, then those after it that had
	 * the same parent, move to the new one */
#define FIX(np) do {							\
	struct dobj *old_ = x->parent;					\
	x->parent = (np);						\
	for (k = i + 1; k < t->n && old_ != NULL &&			\
	    t->o[k]->parent == old_; k++)				\
		t->o[k]->parent = (np);					\
} while (0)
	if (i > 0)
		for (p = t->o[i - 1]; p != NULL; p = p->parent) {
			if (p->sec == x->sec && holds_range(p, x->addr, x->size))
				FIX(p);
			else
				FIX(NULL);
		}
#undef FIX
	if (x->size != 0) {
		b = x->parent != NULL ? x->parent : x;
		for (k = i + 1; k < t->n &&
		    holds_range(b, t->o[k]->addr, t->o[k]->size); k++)
			t->o[k]->parent = b;
	}
}

/* isInternalSymbolName */
static int
internal_name(const char *n)
{
	return strncmp(n, "SYMBOLat", 8) == 0 || strncmp(n, "DATAat", 6) == 0 ||
	    strncmp(n, "HOLEat", 6) == 0;
}

/* registerNameAtAddress */
static struct dobj *
add(struct datatab *t, const struct functab *ft, const char *name,
    uint64_t addr, uint64_t size)
{
	struct dobj *o;
	size_t i = lower(t, addr);

	if (i < t->n && t->o[i]->addr == addr) {
		o = t->o[i];
		if (by_name(t, name) != o) {
			set_name(t, name, o);
			/* the first alias BOLT's own name would give way to */
			if (o->alias == NULL && !internal_name(name))
				o->alias = name;
		}
		return o;
	}
	o = xcalloc(1, sizeof(*o));
	o->addr = addr;
	o->size = size;
	o->name = name;
	o->sec = section_for(ft, addr);
	xgrow(&t->all, &t->capall, t->nall + 1, sizeof(*t->all));
	t->all[t->nall++] = o;
	xgrow(&t->o, &t->cap, t->n + 1, sizeof(*t->o));
	memmove(&t->o[i + 1], &t->o[i], (t->n - i) * sizeof(*t->o));
	t->o[i] = o;
	t->n++;
	set_name(t, name, o);
	nest(t, i);
	return o;
}

/* setBinaryDataSize: only an object without a size takes one */
static void
set_size(struct datatab *t, uint64_t addr, uint64_t size)
{
	size_t i = lower(t, addr);

	if (i >= t->n || t->o[i]->addr != addr || t->o[i]->size != 0)
		return;
	t->o[i]->size = size;
	nest(t, i);
}

/* getOrCreateGlobalSymbol: an object of size 0 named prefix0x<a>, unless
 * one is at a */
static void
global_symbol(struct datatab *t, const struct functab *ft, const char *prefix,
    uint64_t a)
{
	char nm[40];

	if (at(t, a) != NULL)
		return;
	snprintf(nm, sizeof(nm), "%s0x%llx", prefix, (unsigned long long)a);
	add(t, ft, keep(t, xstrdup(nm)), a, 0);
}

/* an address of a data section (not code, not outside every section) */
static int
data_address(const struct functab *ft, uint64_t a)
{
	int s = section_for(ft, a);

	return s >= 0 && !(ft->secs[s].flags & SHF_EXECINSTR);
}

/* the addresses of the dynamic relocations (.rela.dyn, .rela.plt,
 * .relr.dyn), sorted: BOLT ignores a static relocation where one is */
static int
u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
read_dyn(struct datatab *t, struct elfobj *eo)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	while ((scn = elf_nextscn(eo->elf, scn)) != NULL) {
		Elf_Data *d;
		size_t k, n;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL &&
		    sh.sh_type != 19 /* SHT_RELR */) ||
		    !(sh.sh_flags & SHF_ALLOC) ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		if (sh.sh_type == 19) {
			/* an address, then bitmaps of the 63 words after it */
			uint64_t base = 0, w;
			const uint8_t *p = d->d_buf;
			int b;

			for (k = 0; p != NULL && k + 8 <= d->d_size; k += 8) {
				memcpy(&w, p + k, 8);
				if (!(w & 1)) {
					xgrow(&t->dyn, &cap, t->ndyn + 1,
					    sizeof(*t->dyn));
					t->dyn[t->ndyn++] = w;
					base = w + 8;
					continue;
				}
				for (b = 1; b < 64; b++)
					if (w >> b & 1) {
						xgrow(&t->dyn, &cap, t->ndyn + 1,
						    sizeof(*t->dyn));
						t->dyn[t->ndyn++] = base +
						    (uint64_t)(b - 1) * 8;
					}
				base += 63 * 8;
			}
			continue;
		}
		if (sh.sh_entsize == 0)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < n; k++) {
			GElf_Rela ra;
			GElf_Rel rl;
			uint64_t off;

			if (sh.sh_type == SHT_RELA) {
				if (gelf_getrela(d, (int)k, &ra) == NULL)
					break;
				off = ra.r_offset;
			} else {
				if (gelf_getrel(d, (int)k, &rl) == NULL)
					break;
				off = rl.r_offset;
			}
			xgrow(&t->dyn, &cap, t->ndyn + 1, sizeof(*t->dyn));
			t->dyn[t->ndyn++] = off;
		}
	}
	if (t->ndyn > 1)
		qsort(t->dyn, t->ndyn, sizeof(*t->dyn), u64cmp);
}

/* a multiset by offset: equal offsets in the order they came */
static int
drelcmp(const void *a, const void *b)
{
	const struct drel *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
dyn_at(const struct datatab *t, uint64_t a)
{
	size_t lo = 0, hi = t->ndyn, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (t->dyn[m] < a)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < t->ndyn && t->dyn[lo] == a;
}

/* handleRelocation's relocations from data to code, which it adds to
 * the data section (BinaryContext::addRelocation) and BinarySection::hash
 * reads: an absolute relocation at r in a data section, against sym, to
 * an executable section.  Its object: the function it points at the
 * start of, or the object holding the symbol's address outside every
 * function; none into the middle of a function (a label) */
static void
data_reloc(struct datatab *t, struct elfobj *eo, const struct functab *ft,
    const GElf_Rela *r, uint32_t type, const GElf_Sym *sym)
{
	static const uint8_t rsize[15] = { [1] = 8, [10] = 4, [11] = 4,
	    [12] = 2, [14] = 1 };
	int s = section_for(ft, r->r_offset), ss, tocode;
	uint64_t sa = sym->st_value, a, v = 0, off;
	const struct bfunc *bf, *bs;
	uint8_t b[8] = { 0 };
	struct dobj *to = NULL;
	struct drel *d;
	size_t n = rsize[type], k;

	if (s < 0 || ft->secs[s].type == SHT_NOBITS)
		return;
	off = r->r_offset - ft->secs[s].addr;
	if (off > ft->secs[s].size || n > ft->secs[s].size - off ||
	    elfobj_read(eo, ft->secs[s].offset + off, b, n) == -1)
		return;
	for (k = n; k-- > 0;)
		v = v << 8 | b[k];
	if (type == 11)
		v = (uint64_t)(int64_t)(int32_t)v;
	/* the referenced section: the symbol's, else where its address is */
	if (sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE) {
		Elf_Scn *sc = elf_getscn(eo->elf, sym->st_shndx);
		GElf_Shdr sh;

		if (sc == NULL || gelf_getshdr(sc, &sh) == NULL)
			return;
		tocode = (sh.sh_flags & SHF_EXECINSTR) != 0;
	} else {
		ss = section_for(ft, sa);
		tocode = ss >= 0 && (ft->secs[ss].flags & SHF_EXECINSTR);
	}
	if (!tocode)
		return;		/* data to data: ignored */
	if (GELF_ST_TYPE(sym->st_info) == STT_SECTION) {
		ss = section_for(ft, sa);
		if (ss >= 0 && sec_has(&ft->secs[ss], v) && v >= ft->secs[ss].addr)
			sa = a = v;	/* the section relocation made plain */
		else
			a = sa + (v - sa);
	} else
		a = sa + (uint64_t)r->r_addend;
	/* getBinaryFunctionContainingAddress(a, CheckPastEnd) */
	bf = functab_find(ft, a);
	if (bf != NULL && a - bf->addr > bf->size)
		bf = NULL;
	if (bf == NULL && a > 0 && (bf = functab_find(ft, a - 1)) != NULL &&
	    a != bf->addr + bf->size)
		bf = NULL;
	if (bf != NULL && GELF_ST_TYPE(sym->st_info) != STT_SECTION &&
	    (bs = functab_find(ft, sa)) != NULL && sa - bs->addr < bs->size &&
	    bs != bf)
		bf = bs;	/* a reference to a function's address */
	if (bf != NULL) {
		if (a == bf->addr || a - bf->addr >= bf->maxsize)
			to = at(t, bf->addr);
	} else
		to = (struct dobj *)datatab_find(t, sa);
	xgrow(&t->drel[s], &t->capdrel[s], t->ndrel[s] + 1,
	    sizeof(**t->drel));
	d = &t->drel[s][t->ndrel[s]++];
	d->off = off;
	d->size = (uint32_t)n;
	d->to = to;
	d->seq = t->ndrel[s] - 1;
}

/* RewriteInstance::handleRelocation, for what it registers: an absolute
 * relocation against a section symbol (a reference to a local object the
 * symbol table does not name, kept by --emit-relocs) to data that no
 * object holds makes an object SYMBOLat0x<address>.  PC-relative ones are
 * left to the disassembly (DATAat), as BOLT does on x86 */
static int
relocations(struct datatab *t, struct elfobj *eo, const struct functab *ft)
{
	Elf *elf = eo->elf;
	Elf_Scn *scn = NULL, *target, *symscn;
	GElf_Shdr sh, tsh, ssh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *rd, *sd;
		size_t k, n;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    (sh.sh_flags & SHF_ALLOC) || sh.sh_entsize == 0)
			continue;
		if ((target = elf_getscn(elf, sh.sh_info)) == NULL ||
		    gelf_getshdr(target, &tsh) == NULL ||
		    !(tsh.sh_flags & SHF_ALLOC))
			continue;
		if ((symscn = elf_getscn(elf, sh.sh_link)) == NULL ||
		    gelf_getshdr(symscn, &ssh) == NULL ||
		    (rd = elf_getdata(scn, NULL)) == NULL ||
		    (sd = elf_getdata(symscn, NULL)) == NULL)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < n; k++) {
			GElf_Rela r;
			GElf_Sym sym;
			uint32_t type;
			uint64_t a;

			if (gelf_getrela(rd, (int)k, &r) == NULL)
				break;
			/* a dynamic relocation at the place wins */
			if (dyn_at(t, r.r_offset))
				continue;
			type = (uint32_t)GELF_R_TYPE(r.r_info);
			/* R_X86_64_64, _32, _32S, _16, _8 */
			if (type != 1 && type != 10 && type != 11 &&
			    type != 12 && type != 14)
				continue;
			if (gelf_getsym(sd, (int)GELF_R_SYM(r.r_info),
			    &sym) == NULL)
				continue;
			if (!(tsh.sh_flags & SHF_EXECINSTR) &&
			    GELF_R_SYM(r.r_info) != 0)
				data_reloc(t, eo, ft, &r, type, &sym);
			if (GELF_ST_TYPE(sym.st_info) != STT_SECTION ||
			    sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE)
				continue;
			a = sym.st_value + (uint64_t)r.r_addend;
			if (!data_address(ft, a) || datatab_find(t, a) != NULL)
				continue;
			global_symbol(t, ft, "SYMBOLat", a);
		}
	}
	free(t->dyn);
	t->dyn = NULL;
	return 0;
}

static int
code_address(const struct functab *ft, uint64_t a)
{
	int s = section_for(ft, a);

	return s >= 0 && (ft->secs[s].flags & SHF_EXECINSTR);
}

/* getBinaryFunctionContainingAddress: the function whose [addr, addr +
 * size) holds a, or NULL */
static const struct bfunc *
func_holding(const struct functab *ft, uint64_t a)
{
	const struct bfunc *f = functab_find(ft, a);

	return f != NULL && a - f->addr < f->size ? f : NULL;
}

/* addEntryPointAtOffset: a secondary entry point at a, of the function
 * holding it, is an object __ENTRY_<function>@0x<a> where none is */
static void
entry_point(struct datatab *t, const struct functab *ft, uint64_t a)
{
	const struct bfunc *f = func_holding(ft, a);
	char *name;
	size_t len;

	if (f == NULL || a == f->addr || at(t, a) != NULL)
		return;
	len = strlen(f->name) + 40;
	name = xmalloc(len);
	snprintf(name, len, "__ENTRY_%s@0x%llx", f->name,
	    (unsigned long long)a);
	add(t, ft, keep(t, name), a, 0);
}

/* getOrCreateJumpTable: the nth table function f makes, at jt->addr.
 * A table another function made is that one's; an object with a name
 * of its own there names it; else the table's name is a new object's
 * there or an alias of BOLT's own object there.  Its size comes later
 * (table_sizes) */
static void
jump_table(struct datatab *t, const struct functab *ft,
    const struct bfunc *f, const struct cfgdis_jt *jt, size_t n)
{
	struct dobj *o = at(t, jt->addr);
	char nm[64], *name;
	size_t len;

	if (o != NULL && o->jt)
		return;
	if (o == NULL || internal_name(o->name)) {
		snprintf(nm, sizeof(nm), ".%zu", n);
		len = strlen("JUMP_TABLE/") + strlen(f->name) + strlen(nm) + 1;
		name = xmalloc(len);
		snprintf(name, len, "JUMP_TABLE/%s%s", f->name, nm);
		o = add(t, ft, keep(t, name), jt->addr, 0);
	}
	o->jt = 1;
	xgrow(&t->jts, &t->capjts, t->njts + 1, sizeof(*t->jts));
	t->jts[t->njts].fi = (size_t)(f - ft->f);
	t->jts[t->njts].addr = jt->addr;
	t->jts[t->njts].size = jt->size;
	t->njts++;
}

/* postProcessJumpTables, function by function in address order, each
 * one's tables in address order: a table's object without a size gets
 * the table's */
static int
jtcmp(const void *a, const void *b)
{
	const struct djt *x = a, *y = b;

	if (x->fi != y->fi)
		return x->fi < y->fi ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void
table_sizes(struct datatab *t)
{
	size_t i;

	if (t->njts > 1)
		qsort(t->jts, t->njts, sizeof(*t->jts), jtcmp);
	for (i = 0; i < t->njts; i++)
		set_size(t, t->jts[i].addr, t->jts[i].size);
}

/* BinaryContext::handleAddressRef for the PC-relative memory operands
 * of the functions BOLT disassembles (every simple one, perf2bolt being
 * in no lite mode), in address order: a data address no object holds
 * makes an object DATAat0x<address> */
static int
references(struct datatab *t, struct elfobj *eo, const struct functab *ft,
    struct cfgdis *cd, char *err, size_t errlen)
{
	csh cs;
	cs_insn *ci;
	size_t i, k, cap = 0, njt, done, nfe = 0, capfe = 0, nxr = 0, capxr = 0;
	size_t nfr;
	uint8_t *buf = NULL;
	struct cfgdis_jt *jt = NULL;
	uint64_t *fe = NULL, *fr, *xr = NULL;	/* xr: function, address */

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return fail(err, errlen, "capstone: cannot open x86-64");
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	ci = cs_malloc(cs);
	for (i = 0; i < ft->n; i++) {
		const struct bfunc *f = &ft->f[i];
		const struct fsec *sec;
		uint64_t off = 0, pc, tgt;
		struct x86d x;

		if (f->flags & (BF_PLT | BF_PSEUDO | BF_NONSIMPLE) ||
		    f->size == 0 || f->size > ((uint64_t)1 << 28))
			continue;
		sec = functab_section(ft, f->addr);
		if (sec == NULL || sec->type == SHT_NOBITS ||
		    f->addr - sec->addr > sec->size ||
		    f->size > sec->size - (f->addr - sec->addr))
			continue;
		xgrow(&buf, &cap, (size_t)f->size, 1);
		if (elfobj_read(eo, sec->offset + (f->addr - sec->addr), buf,
		    (size_t)f->size) == -1)
			continue;
		free(jt);
		jt = NULL;
		njt = 0;
		if (cd != NULL) {
			njt = cfgdis_tables(cd, i, &jt, &fr, &nfr);
			xgrow(&fe, &capfe, nfe + nfr + 1, sizeof(*fe));
			if (nfr > 0)
				memcpy(fe + nfe, fr, nfr * sizeof(*fe));
			nfe += nfr;
			free(fr);
		}
		done = 0;
		while (off < f->size) {
			uint64_t ioff = off, btgt = 0;
			int isjt = 0, br = 0;

			pc = f->addr + off;
			tgt = 0;
			if (x86d_decode(buf + off, (size_t)(f->size - off), &x)) {
				if (x.mrip)
					tgt = pc + x.len + (uint64_t)x.mdisp;
				if (x.kind == X86D_JCC || x.kind == X86D_JMP ||
				    x.kind == X86D_CALL) {
					br = 1;
					btgt = pc + x.len + (uint64_t)x.disp;
				}
				off += x.len;
			} else {
				const uint8_t *p = buf + off;
				size_t left = (size_t)(f->size - off);
				uint64_t addr = pc;
				cs_x86 *d;
				uint8_t j;

				if (!cs_disasm_iter(cs, &p, &left, &addr, ci))
					break;	/* BOLT stops there too */
				d = &ci->detail->x86;
				for (j = 0; j < d->op_count; j++)
					if (d->operands[j].type == X86_OP_MEM &&
					    d->operands[j].mem.base == X86_REG_RIP)
						tgt = pc + ci->size + (uint64_t)
						    d->operands[j].mem.disp;
				/* a direct branch or call */
				if ((cs_insn_group(cs, ci, CS_GRP_JUMP) ||
				    cs_insn_group(cs, ci, CS_GRP_CALL)) &&
				    d->op_count == 1 &&
				    d->operands[0].type == X86_OP_IMM) {
					br = 1;
					btgt = (uint64_t)d->operands[0].imm;
				}
				off += ci->size;
			}
			/* a branch or call out of the function, but to its
			 * end within its padding (a NOP to BOLT): the
			 * target's object, FUNCat0x<target> if none
			 * (handleExternalReference) */
			if (br && (btgt < f->addr || btgt - f->addr >= f->size) &&
			    !(btgt == f->addr + f->size && f->size < f->maxsize)) {
				global_symbol(t, ft, "FUNCat", btgt);
				xgrow(&xr, &capxr, nxr + 2, sizeof(*xr));
				xr[nxr++] = i;
				xr[nxr++] = btgt;
			}
			/* a reference to code (handleAddressRef): into this
			 * function, an entry point; out of it, an
			 * interprocedural reference */
			if (tgt != 0 && code_address(ft, tgt)) {
				if (tgt - f->addr < f->size) {
					if (tgt != f->addr)
						entry_point(t, ft, tgt);
				} else {
					xgrow(&xr, &capxr, nxr + 2, sizeof(*xr));
					xr[nxr++] = i;
					xr[nxr++] = tgt;
				}
			}
			/* the tables made at this instruction; the one it
			 * names is no DATAat */
			for (k = 0; k < njt; k++)
				if (jt[k].site == ioff) {
					jump_table(t, ft, f, &jt[k], done++);
					isjt |= jt[k].addr == tgt;
				}
			if (tgt != 0 && !isjt && data_address(ft, tgt) &&
			    datatab_find(t, tgt) == NULL)
				global_symbol(t, ft, "DATAat", tgt);
		}
	}
	/* processInterproceduralReferences (but from functions BOLT
	 * ignores): a reference into another function is its entry */
	for (k = 0; k < nxr; k += 2) {
		const struct bfunc *tf = func_holding(ft, xr[k + 1]);

		if (xr[k + 1] == 0 || tf == NULL || tf == &ft->f[xr[k]] ||
		    (cd != NULL && cfgdis_get(cd, (size_t)xr[k])->ignored))
			continue;
		entry_point(t, ft, xr[k + 1]);
	}
	/* postProcessJumpTables: a table's entry in another fragment */
	for (k = 0; k < nfe; k++)
		entry_point(t, ft, fe[k]);
	free(fe);
	free(xr);
	free(jt);
	free(buf);
	cs_free(ci, 1);
	cs_close(&cs);
	return 0;
}

/* fixBinaryDataHoles */
static void
fill_holes(struct datatab *t, const struct functab *ft)
{
	size_t s, i, nh, caph = 0;
	uint64_t *hole = NULL, end;

	for (s = 0; s < ft->nsecs; s++) {
		const struct fsec *sec = &ft->secs[s];

		nh = 0;
		end = sec->addr;
		for (i = 0; i < t->n; i++) {
			const struct dobj *o = t->o[i];

			if (o->parent != NULL || o->sec != (int)s)
				continue;
			if (o->size == 0 &&
			    (strncmp(o->name, "SYMBOLat0x", 10) == 0 ||
			    strncmp(o->name, "DATAat0x", 8) == 0 ||
			    strncmp(o->name, "ANONYMOUS", 9) == 0))
				continue;
			if (o->addr > end) {
				xgrow(&hole, &caph, nh + 2, sizeof(*hole));
				hole[nh++] = end;
				hole[nh++] = o->addr - end;
			}
			end = o->addr + o->size;
		}
		if (end < sec->addr + sec->size) {
			xgrow(&hole, &caph, nh + 2, sizeof(*hole));
			hole[nh++] = end;
			hole[nh++] = sec->addr + sec->size - end;
		}
		for (i = 0; i < nh; i += 2) {
			struct dobj *o = at(t, hole[i]);

			if (o != NULL) {
				if (o->sec == (int)s)
					set_size(t, hole[i], hole[i + 1]);
			} else {
				char nm[40];

				snprintf(nm, sizeof(nm), "HOLEat0x%llx",
				    (unsigned long long)hole[i]);
				add(t, ft, keep(t, xstrdup(nm)), hole[i],
				    hole[i + 1]);
				t->nholes++;
			}
		}
	}
	free(hole);
}

/* BinarySection::hash for an object without relocations in it: its size
 * and section name, then its bytes (none for a NOBITS section) */
/* BinarySection::hash of object o by section s (its own for the
 * object hashed, and the same for the objects its relocations name, as
 * BOLT calls itself), with its cache of hashes (an object reached again
 * through a relocation is its hash so far) */
struct hctx {
	struct datatab	 *t;
	struct elfobj	 *eo;
	const struct functab *ft;
	const struct dobj **co;
	uint64_t	 *ch;
	size_t		  n, capo, caph;
};

static const uint8_t *
sec_contents(struct hctx *h, int s, uint64_t *len)
{
	struct datatab *t = h->t;
	const struct fsec *sec = &h->ft->secs[s];

	*len = sec->type == SHT_NOBITS ? 0 : sec->size;
	if (*len == 0)
		return NULL;
	if (t->secbuf[s] == NULL) {
		t->secbuf[s] = xmalloc((size_t)*len);
		if (elfobj_read(h->eo, sec->offset, t->secbuf[s],
		    (size_t)*len) == -1)
			memset(t->secbuf[s], 0, (size_t)*len);
	}
	return t->secbuf[s];
}

/* hash_value(Contents.substr(pos, n)) */
static uint64_t
hash_sub(const uint8_t *c, uint64_t len, uint64_t pos, uint64_t n)
{
	if (pos > len)
		pos = len;
	if (n > len - pos)
		n = len - pos;
	return hash_bytes(c != NULL ? c + pos : (const uint8_t *)"",
	    (size_t)n);
}

static uint64_t
obj_hash(struct hctx *h, int s, const struct dobj *o)
{
	const struct fsec *sec, *own;
	const struct drel *r;
	const uint8_t *c;
	uint64_t hv, off, end, len, nx;
	size_t i, me, b, e, nr, lo, hi, m;

	for (i = 0; i < h->n; i++)
		if (h->co[i] == o)
			return h->ch[i];
	sec = &h->ft->secs[s];
	own = o->sec >= 0 ? &h->ft->secs[o->sec] : NULL;
	hv = hash_combine2(hash_int(o->size), own != NULL ?
	    hash_bytes((const uint8_t *)own->name, strlen(own->name)) :
	    hash_bytes((const uint8_t *)"<absolute>", 10));
	xgrow(&h->co, &h->capo, h->n + 1, sizeof(*h->co));
	xgrow(&h->ch, &h->caph, h->n + 1, sizeof(*h->ch));
	me = h->n++;
	h->co[me] = o;
	h->ch[me] = hv;
	/* containsRange */
	if (o->addr < sec->addr ||
	    o->addr - sec->addr >= sec->size ||
	    o->size > sec->size - (o->addr - sec->addr))
		return hv;
	c = sec_contents(h, s, &len);
	off = o->addr - sec->addr;
	end = off + o->size;
	r = h->t->drel[s];
	nr = h->t->ndrel[s];
	for (lo = 0, hi = nr; lo < hi; ) {	/* lower_bound(off) */
		m = lo + (hi - lo) / 2;
		if (r[m].off < off)
			lo = m + 1;
		else
			hi = m;
	}
	b = lo;
	for (hi = nr; lo < hi; ) {		/* upper_bound(end) */
		m = lo + (hi - lo) / 2;
		if (r[m].off <= end)
			lo = m + 1;
		else
			hi = m;
	}
	e = lo;
	while (b != e) {
		const struct drel *rel = &r[b++];

		/* BOLT 19 reads the next relocation's offset, here as there:
		 * past the last one, the end node's field, which is where
		 * libstdc++ keeps the set's size */
		nx = b < nr ? r[b].off : (uint64_t)nr;
		hv = hash_combine2(hv, hash_sub(c, len, off, nx - off));
		if (rel->to != NULL)
			hv = hash_combine2(hv, obj_hash(h, s, rel->to));
		off = rel->off + rel->size;
	}
	hv = hash_combine2(hv, hash_sub(c, len, off, end - off));
	for (i = 0; i < h->n; i++)
		if (h->co[i] == o)
			h->ch[i] = hv;
	return hv;
}

/* generateSymbolHashes */
static void
hash_names(struct datatab *t, struct elfobj *eo, const struct functab *ft)
{
	struct hctx h;
	size_t i;

	memset(&h, 0, sizeof(h));
	h.t = t;
	h.eo = eo;
	h.ft = ft;

	for (i = 0; i < t->n; i++) {
		struct dobj *o = t->o[i];
		const char *x;
		char nm[64];
		size_t pre;

		if (!internal_name(o->name))
			continue;
		/* a name of its own (a jump table's) goes first */
		if (o->alias != NULL) {
			o->name = o->alias;
			continue;
		}
		if (o->size == 0 || o->sec < 0)
			continue;
		x = strstr(o->name, "0x");
		pre = x != NULL ? (size_t)(x - o->name) : strlen(o->name);
		h.n = 0;
		snprintf(nm, sizeof(nm), "%.*s_%llx", (int)pre, o->name,
		    (unsigned long long)obj_hash(&h, o->sec, o));
		if (by_name(t, nm) != NULL)
			continue;	/* a collision: the name stays */
		o->name = keep(t, xstrdup(nm));
		set_name(t, o->name, o);
		t->nhashed++;
	}
	free(h.co);
	free(h.ch);
}

int
datatab_load(struct datatab *t, struct elfobj *eo, const struct functab *ft,
    struct cfgdis *cd, char *err, size_t errlen)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	if (ft->nregs > ((size_t)1 << 26))
		return fail(err, errlen, "%s: %zu data objects", eo->path,
		    ft->nregs);
	for (i = 0; i < ft->nregs; i++) {
		const struct freg *r = &ft->regs[i];

		if (r->name == NULL)
			set_size(t, r->addr, r->size);
		else
			add(t, ft, r->name, r->addr, r->size);
	}
	t->drel = xcalloc(ft->nsecs + 1, sizeof(*t->drel));
	t->ndrel = xcalloc(ft->nsecs + 1, sizeof(*t->ndrel));
	t->capdrel = xcalloc(ft->nsecs + 1, sizeof(*t->capdrel));
	t->secbuf = xcalloc(ft->nsecs + 1, sizeof(*t->secbuf));
	t->nsecs = ft->nsecs;
	/* after discoverFileObjects: processRelocations, then the
	 * disassembly, then postProcessSymbolTable */
	if (ft->has_relocs) {
		read_dyn(t, eo);
		relocations(t, eo, ft);
		for (i = 0; i < ft->nsecs; i++)
			if (t->ndrel[i] > 1)
				qsort(t->drel[i], t->ndrel[i],
				    sizeof(*t->drel[i]), drelcmp);
	}
	if (references(t, eo, ft, cd, err, errlen) == -1) {
		datatab_free(t);
		return -1;
	}
	table_sizes(t);
	fill_holes(t, ft);
	hash_names(t, eo, ft);
	if (t->n > UINT32_MAX - 1)
		return fail(err, errlen, "%s: %zu data objects", eo->path,
		    t->n);
	for (i = 0; i < t->n; i++)
		t->o[i]->idx = (uint32_t)i;
	return 0;
}

/* getBinaryDataContainingAddressImpl */
const struct dobj *
datatab_find(const struct datatab *t, uint64_t a)
{
	size_t i = lower(t, a);
	const struct dobj *o;

	if (i < t->n && t->o[i]->addr == a)
		o = t->o[i];
	else if (i > 0)
		o = t->o[i - 1];
	else
		return NULL;
	if (holds(o, a))
		return o;
	for (o = o->parent; o != NULL; o = o->parent)
		if (holds(o, a))
			return o;
	return NULL;
}

void
datatab_free(struct datatab *t)
{
	size_t i;

	for (i = 0; i < t->nall; i++)
		free(t->all[i]);
	free(t->all);
	free(t->o);
	strtab_free(&t->names);
	free(t->nmobj);
	for (i = 0; i < t->nstrs; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->jts);
	for (i = 0; i < t->nsecs; i++) {
		free(t->drel[i]);
		free(t->secbuf[i]);
	}
	free(t->drel);
	free(t->ndrel);
	free(t->capdrel);
	free(t->secbuf);
	free(t->dyn);
	memset(t, 0, sizeof(*t));
}
