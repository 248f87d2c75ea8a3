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
 *     section symbol (relocation mode: RewriteInstance::handleRelocation)
 *     and DATAat0x<address> for a PC-relative memory operand of a simple
 *     function (BinaryContext::handleAddressRef), in that order;
 *   - fixBinaryDataHoles: in each allocatable section, a gap between
 *     top-level objects is given to a size-0 object at its start, else to
 *     a new object HOLEat0x<address>;
 *   - generateSymbolHashes: such an object of non-zero size is renamed
 *     HOLEat_<hash>, the hash of its size, section name and bytes
 *     (BinarySection::hash) as llvm/ADT/Hashing.h of LLVM 19 computes it,
 *     unless another object has that name.
 *
 * What BOLT also creates and this does not: jump tables
 * (JUMP_TABLE/<function>.<N>), FUNCat0x<address> for a reference into
 * the middle of a function, and the hash of a hole that holds
 * relocations.  fdatawrite(1) says so (CAVEATS).
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

/* BinaryData::containsRange / containsAddress */
static int
holds_range(const struct dobj *o, uint64_t a, uint64_t n)
{
	return o->addr <= a && a + n <= o->addr + o->size;
}

static int
holds(const struct dobj *o, uint64_t a)
{
	return (o->addr <= a && a < o->addr + o->size) ||
	    (o->addr == a && o->size == 0);
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

/* registerNameAtAddress */
static struct dobj *
add(struct datatab *t, const struct functab *ft, const char *name,
    uint64_t addr, uint64_t size)
{
	struct dobj *o;
	size_t i = lower(t, addr);

	if (i < t->n && t->o[i]->addr == addr) {
		o = t->o[i];
		if (by_name(t, name) != o)
			set_name(t, name, o);
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

static int
internal_name(const char *n)
{
	return strncmp(n, "SYMBOLat", 8) == 0 || strncmp(n, "DATAat", 6) == 0 ||
	    strncmp(n, "HOLEat", 6) == 0;
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
			type = (uint32_t)GELF_R_TYPE(r.r_info);
			/* R_X86_64_64, _32, _32S, _16, _8 */
			if (type != 1 && type != 10 && type != 11 &&
			    type != 12 && type != 14)
				continue;
			if (gelf_getsym(sd, (int)GELF_R_SYM(r.r_info),
			    &sym) == NULL ||
			    GELF_ST_TYPE(sym.st_info) != STT_SECTION ||
			    sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE)
				continue;
			a = sym.st_value + (uint64_t)r.r_addend;
			if (!data_address(ft, a) || datatab_find(t, a) != NULL)
				continue;
			global_symbol(t, ft, "SYMBOLat", a);
		}
	}
	return 0;
}

/* BinaryContext::handleAddressRef for the PC-relative memory operands
 * of the functions BOLT disassembles (every simple one, perf2bolt being
 * in no lite mode), in address order: a data address no object holds
 * makes an object DATAat0x<address> */
static int
references(struct datatab *t, struct elfobj *eo, const struct functab *ft,
    char *err, size_t errlen)
{
	csh cs;
	cs_insn *ci;
	size_t i, cap = 0;
	uint8_t *buf = NULL;

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
		while (off < f->size) {
			pc = f->addr + off;
			tgt = 0;
			if (x86d_decode(buf + off, (size_t)(f->size - off), &x)) {
				if (x.mrip)
					tgt = pc + x.len + (uint64_t)x.mdisp;
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
				off += ci->size;
			}
			if (tgt != 0 && data_address(ft, tgt) &&
			    datatab_find(t, tgt) == NULL)
				global_symbol(t, ft, "DATAat", tgt);
		}
	}
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
static uint64_t
obj_hash(struct elfobj *eo, const struct fsec *sec, const struct dobj *o)
{
	uint64_t h, off = o->addr - sec->addr, n = o->size;
	uint8_t *buf;

	h = hash_combine2(hash_int(o->size),
	    hash_bytes((const uint8_t *)sec->name, strlen(sec->name)));
	if (sec->type == SHT_NOBITS || off > sec->size)
		n = 0;
	else if (n > sec->size - off)
		n = sec->size - off;
	buf = xmalloc(n ? n : 1);
	if (n > 0 && elfobj_read(eo, sec->offset + off, buf, n) == -1)
		n = 0;
	h = hash_combine2(h, hash_bytes(buf, n));
	free(buf);
	return h;
}

/* generateSymbolHashes */
static void
hash_names(struct datatab *t, struct elfobj *eo, const struct functab *ft)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct dobj *o = t->o[i];
		const char *x;
		char nm[64];
		size_t pre;

		if (!internal_name(o->name) || o->size == 0 || o->sec < 0)
			continue;
		x = strstr(o->name, "0x");
		pre = x != NULL ? (size_t)(x - o->name) : strlen(o->name);
		snprintf(nm, sizeof(nm), "%.*s_%llx", (int)pre, o->name,
		    (unsigned long long)obj_hash(eo, &ft->secs[o->sec], o));
		if (by_name(t, nm) != NULL)
			continue;	/* a collision: the name stays */
		o->name = keep(t, xstrdup(nm));
		set_name(t, o->name, o);
		t->nhashed++;
	}
}

int
datatab_load(struct datatab *t, struct elfobj *eo, const struct functab *ft,
    char *err, size_t errlen)
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
	/* after discoverFileObjects: processRelocations, then the
	 * disassembly, then postProcessSymbolTable */
	if (ft->has_relocs)
		relocations(t, eo, ft);
	if (references(t, eo, ft, err, errlen) == -1) {
		datatab_free(t);
		return -1;
	}
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
	memset(t, 0, sizeof(*t));
}
