/* See COPYING file for copyright and license details. */
/*
 * cfgdis.c: control-flow graphs by disassembly, with BOLT 19's rules as
 * perf2bolt-19 applies them (bolt/lib/Core/BinaryFunction.cpp in LLVM
 * 19: disassemble, buildCFG, postProcessIndirectBranches): what BOLT
 * learns from the whole binary (relocations, interprocedural entry
 * points) is read once in cfgdis_open; each function's graph is built on
 * first use (cfgbuild.c).  The instruction set is the struct cfg_arch
 * of the binary's machine (cfgint.h).
 */
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "bat.h"
#include "cfgint.h"
#include "search.h"

/* cfgdis_get drops the file's pages after the graphs built touched
 * about this much of it */
#define CD_RELEASE_WINDOW	((uint64_t)4 << 20)

/* ------------------------------------------------------------------ */

const uint8_t *
cd_sec_bytes(struct cfgdis *d, uint64_t a, uint64_t *avail)
{
	const struct fsec *s = d->lastsec;
	size_t i;

	/* most look-ups are in the section of the one before (kept when
	 * no section after it overlaps it: functab_section's choice) */
	if (s == NULL || a < s->addr || a - s->addr >= s->size) {
		if ((s = functab_section(d->ft, a)) == NULL)
			return NULL;
		i = (size_t)(s - d->ft->secs);
		d->lastsec = i + 1 == d->ft->nsecs ||
		    d->ft->secs[i + 1].addr >= s->addr + s->size ? s : NULL;
	}
	i = (size_t)(s - d->ft->secs);
	if (d->secdata[i] == NULL)
		return NULL;
	*avail = s->size - (a - s->addr);
	return d->secdata[i] + (a - s->addr);
}

void
cd_push64(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	xgrow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = x;
}

static int
relcmp(const void *a, const void *b)
{
	const struct reloc *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

#define SORT_NAME	sort_relocs
#define SORT_TYPE	struct reloc
#define SORT_LESS(a, b)	(relcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

/* pairs of uint64_t by the first */
/* the first relocation at or after off (d->nrel if none) */
static size_t
reloc_from(const struct cfgdis *d, uint64_t off)
{
	size_t a = 0, b = d->nrel, m;

	while (a < b) {
		m = a + (b - a) / 2;
		if (d->rel[m].off < off)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* the relocation at off or NULL, from the first at or after a lower
 * offset, *i (cd_reloc_from): *i moves to the first at or after off, so
 * that a walk up the addresses costs no search at each */
const struct reloc *
cd_reloc_next(const struct cfgdis *d, size_t *i, uint64_t off)
{
	while (*i < d->nrel && d->rel[*i].off < off)
		(*i)++;
	return *i < d->nrel && d->rel[*i].off == off ? &d->rel[*i] : NULL;
}

size_t
cd_reloc_from(const struct cfgdis *d, uint64_t off)
{
	return reloc_from(d, off);
}

const struct reloc *
cd_reloc_at(const struct cfgdis *d, uint64_t off)
{
	size_t i = reloc_from(d, off);

	return i < d->nrel && d->rel[i].off == off ? &d->rel[i] : NULL;
}

/* the addresses dynamic relocations (.rela.dyn, .rela.plt) patch,
 * sorted: BOLT ignores a static relocation at such an address
 * (RewriteInstance::readRelocations), so the data references of a PIE's
 * .data.rel.ro are not labels */
static uint64_t *
dyn_reloc_offsets(Elf *elf, size_t *np)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t *v = NULL;
	size_t n = 0, cap = 0, k, m;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *rd;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    !(sh.sh_flags & SHF_ALLOC) || sh.sh_entsize == 0 ||
		    (rd = elf_getdata(scn, NULL)) == NULL)
			continue;
		m = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < m; k++) {
			GElf_Rela ra;

			if (gelf_getrela(rd, (int)k, &ra) == NULL)
				break;
			cd_push64(&v, &n, &cap, ra.r_offset);
		}
	}
	*np = cd_uniq(v, n);
	return v;
}

static void
read_relocs(struct cfgdis *d)
{
	Elf *elf = d->eo->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, tsh, ssh;
	size_t shstrndx, cap = 0, k, n, ndyn;
	uint64_t *dyn;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	dyn = dyn_reloc_offsets(elf, &ndyn);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Scn *ts, *ss;
		Elf_Data *rd, *sd;
		const char *tn;
		int fromcode;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    (sh.sh_flags & SHF_ALLOC) || sh.sh_entsize == 0)
			continue;
		if ((ts = elf_getscn(elf, sh.sh_info)) == NULL ||
		    gelf_getshdr(ts, &tsh) == NULL || !(tsh.sh_flags & SHF_ALLOC))
			continue;
		tn = elf_strptr(elf, shstrndx, tsh.sh_name);
		if (tn == NULL || strcmp(tn, ".plt") == 0 ||
		    strcmp(tn, ".rela.plt") == 0 || strcmp(tn, ".got.plt") == 0 ||
		    strcmp(tn, ".eh_frame") == 0 ||
		    strcmp(tn, ".gcc_except_table") == 0)
			continue;
		fromcode = (tsh.sh_flags & SHF_EXECINSTR) != 0;
		if ((ss = elf_getscn(elf, sh.sh_link)) == NULL ||
		    gelf_getshdr(ss, &ssh) == NULL ||
		    (sd = elf_getdata(ss, NULL)) == NULL ||
		    (rd = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < n; k++) {
			GElf_Rela ra;
			GElf_Sym sy;
			uint64_t s = 0;
			uint32_t t;
			size_t si;
			uint8_t secsym = 0, global = 0;

			if (gelf_getrela(rd, (int)k, &ra) == NULL)
				break;
			t = (uint32_t)GELF_R_TYPE(ra.r_info);
			if (d->arch->reloc_skip(t) || (!d->arch->keep_dynrel &&
			    sorted_has(dyn, ndyn, ra.r_offset)))
				continue;
			si = GELF_R_SYM(ra.r_info);
			if (si != 0) {
				if (gelf_getsym(sd, (int)si, &sy) == NULL)
					continue;
				/* an undefined symbol with a value is a
				 * function's canonical PLT entry (a non-PIE
				 * takes its address): BOLT's relocation names
				 * that entry (analyzeRelocation takes the
				 * symbol's address); AArch64's GOT accesses
				 * are read against any (reloc_keep_undef) */
				if (sy.st_shndx == SHN_UNDEF && sy.st_value == 0 &&
				    (d->arch->reloc_keep_undef == NULL ||
				    !d->arch->reloc_keep_undef(t)))
					continue;
				s = sy.st_value;
				secsym = GELF_ST_TYPE(sy.st_info) == STT_SECTION;
				global = GELF_ST_BIND(sy.st_info) != STB_LOCAL;
			}
			xgrow(&d->rel, &cap, d->nrel + 1, sizeof(*d->rel));
			d->rel[d->nrel++] = (struct reloc){ ra.r_offset,
			    s + (uint64_t)ra.r_addend, s, ra.r_addend, t,
			    (uint8_t)d->arch->reloc_pcrel(t), (uint8_t)fromcode, secsym,
			    global };
		}
	}
	free(dyn);
	/* a linker writes them in address order: sort only if not */
	for (k = 1; k < d->nrel && d->rel[k - 1].off <= d->rel[k].off; k++)
		;
	if (k < d->nrel)
		sort_relocs(d->rel, d->nrel);
}

/* the function whose [addr, addr + size] holds a (CheckPastEnd) */
const struct bfunc *
cd_func_past_end(const struct functab *ft, uint64_t a)
{
	const struct bfunc *f = functab_find(ft, a);

	if (f != NULL)
		return a - f->addr <= f->size ? f : NULL;
	if (a > 0 && (f = functab_find(ft, a - 1)) != NULL &&
	    a - f->addr == f->size)
		return f;
	return NULL;
}


struct cfgdis *
cfgdis_open(struct elfobj *eo, const struct functab *ft, char *err,
    size_t errlen)
{
	/* the architectures with a decoder (cfgint.h: struct cfg_arch) */
	static const struct cfg_arch *const arches[] = { &cfg_arch_x86_64,
	    &cfg_arch_aarch64 };
	const struct cfg_arch *arch = NULL;
	struct cfgdis *d;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i;

	for (i = 0; i < NELEM(arches); i++)
		if (arches[i]->machine == eo->machine)
			arch = arches[i];
	if (arch == NULL) {
		snprintf(err, errlen, "%s: machine %u: only x86-64 and "
		    "AArch64 are supported", eo->path, (unsigned)eo->machine);
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->ft = ft;
	d->eo = eo;
	d->arch = arch;
	cfgdis_set_llvm(d, LLVMREL_DEFAULT);
	/* HasBATSection: a BOLTed binary that llvm-bolt --enable-bat wrote */
	d->bat = elfobj_section(eo, BAT_SECTION, NULL, NULL, NULL, NULL) == 1;
	if (arch->open(d, err, errlen) == -1) {
		free(d);
		return NULL;
	}
	d->secdata = xcalloc(ft->nsecs + 1, sizeof(*d->secdata));
	while ((scn = elf_nextscn(eo->elf, scn)) != NULL) {
		Elf_Data *dd;

		if (gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		for (i = 0; i < ft->nsecs; i++)
			if (ft->secs[i].addr == sh.sh_addr &&
			    ft->secs[i].size == sh.sh_size &&
			    ft->secs[i].offset == sh.sh_offset)
				break;
		if (i == ft->nsecs || d->secdata[i] != NULL)
			continue;
		dd = elf_getdata(scn, NULL);
		if (dd != NULL && dd->d_buf != NULL && dd->d_size == sh.sh_size)
			d->secdata[i] = dd->d_buf;
	}
	d->g = xcalloc(ft->n + 1, sizeof(*d->g));
	d->xent = xcalloc(ft->n + 1, sizeof(*d->xent));
	d->nxent = xcalloc(ft->n + 1, sizeof(*d->nxent));
	d->capxent = xcalloc(ft->n + 1, sizeof(*d->capxent));
	d->xref = xcalloc(ft->n + 1, sizeof(*d->xref));
	d->nxref = xcalloc(ft->n + 1, sizeof(*d->nxref));
	d->capxref = xcalloc(ft->n + 1, sizeof(*d->capxref));
	d->jt = xcalloc(ft->n + 1, sizeof(*d->jt));
	d->njt = xcalloc(ft->n + 1, sizeof(*d->njt));
	d->jtknown = xcalloc(ft->n + 1, 1);
	d->padrel = xcalloc(ft->n + 1, 1);
	d->selfref = xcalloc(ft->n + 1, 1);
	d->xlab = xcalloc(ft->n + 1, sizeof(*d->xlab));
	d->nxlab = xcalloc(ft->n + 1, sizeof(*d->nxlab));
	d->capxlab = xcalloc(ft->n + 1, sizeof(*d->capxlab));
	d->need = xcalloc(ft->n + 1, 1);
	d->done = xcalloc(ft->n + 1, 1);
	/* whatever the profile: before the input, while the stages before
	 * this one still work; cfgdis_reloc_at reads them too.  An
	 * architecture's own reading of them (AArch64's) also drops those
	 * a linker relaxed away, for every function: it runs here, x86-64's
	 * for the functions a profile asks for (gather) */
	if (ft->has_relocs) {
		read_relocs(d);
		if (arch->scan_relocs != NULL)
			arch->scan_relocs(d);
	}
	/* the symbols, frames and relocations are read: their pages of the
	 * file go (the caller's function table holds what it needs) */
	elfobj_release(eo);
	return d;
}

void
cfgdis_close(struct cfgdis *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->ft->n; i++) {
		if (d->g[i] != NULL) {
			cfg_free(d->g[i]);
			free(d->g[i]);
		}
		free(d->xent[i]);
		free(d->xref[i]);
		free(d->xlab[i]);
		free(d->jt[i]);
	}
	free(d->ahead);
	free(d->isahead);
	free(d->undec);
	free(d->emdone);
	free(d->xlab);
	free(d->nxlab);
	free(d->capxlab);
	free(d->jt);
	free(d->njt);
	free(d->jtknown);
	free(d->cref);
	free(d->dsym);
	free(d->scratch);
	cd_fbuild_free_spare(d);
	free(d->g);
	free(d->xent);
	free(d->nxent);
	free(d->capxent);
	free(d->xref);
	free(d->nxref);
	free(d->capxref);
	free(d->padrel);
	free(d->selfref);
	free(d->need);
	free(d->done);
	free(d->ltabs);
	free(d->rel);
	free(d->secdata);
	d->arch->close(d);
	free(d->error);
	free(d);
}

const uint8_t *
cfgdis_bytes(struct cfgdis *d, uint64_t a, uint64_t *avail)
{
	return cd_sec_bytes(d, a, avail);
}

const struct cfg_reloc *
cfgdis_reloc_at(const struct cfgdis *d, uint64_t off)
{
	return cd_reloc_at(d, off);
}

const struct cfg_reloc *
cfgdis_reloc_in(const struct cfgdis *d, uint64_t lo, uint64_t hi)
{
	size_t i = reloc_from(d, lo);

	return i < d->nrel && d->rel[i].off < hi ? &d->rel[i] : NULL;
}

size_t
cfgdis_relocs_in(const struct cfgdis *d, uint64_t lo, uint64_t hi,
    const struct cfg_reloc **first)
{
	size_t i = reloc_from(d, lo), j;

	for (j = i; j < d->nrel && d->rel[j].off < hi; j++)
		;
	*first = j > i ? &d->rel[i] : NULL;
	return j - i;
}

int
cfgdis_in_island(struct cfgdis *d, uint64_t a)
{
	return d->arch->in_island != NULL && d->arch->in_island(d, a);
}

int
cfgdis_veneer_at(struct cfgdis *d, uint64_t a)
{
	return d->arch->veneer_at != NULL && d->arch->veneer_at(d, a);
}

const struct cfg *
cfgdis_built(const struct cfgdis *d, size_t fi)
{
	return fi < d->ft->n ? d->g[fi] : NULL;
}

void
cfgdis_drop(struct cfgdis *d, size_t fi)
{
	if (fi < d->ft->n && d->g[fi] != NULL) {
		cfg_free(d->g[fi]);
		free(d->g[fi]);
		d->g[fi] = NULL;
		if (d->isahead != NULL)
			d->isahead[fi] = 0;
	}
}

const struct cfgdis_stats *
cfgdis_stats(const struct cfgdis *d)
{
	return &d->stats;
}

int
cfgdis_insn_ref(struct cfgdis *d, const uint8_t *p, size_t left, uint64_t pc,
    struct cfg_iref *r)
{
	if (d->arch->insn_ref == NULL)
		return -1;
	memset(r, 0, sizeof(*r));
	return left == 0 ? 0 : d->arch->insn_ref(d, p, left, pc, r);
}

const char *
cfgdis_arch_name(const struct cfgdis *d)
{
	return d->arch->name;
}

const char *
cfgdis_decoder(const struct cfgdis *d)
{
	return d->decoder;
}

void
cfgdis_set_llvm(struct cfgdis *d, enum llvm_rel rel)
{
	d->llvm = rel;
	snprintf(d->decoder, sizeof(d->decoder), d->arch->decoder,
	    llvmrel_name(rel));
}

const char *
cfgdis_error(const struct cfgdis *d)
{
	return d->error;
}

long
cd_insn_at(const struct fbuild *b, uint64_t off)
{
	size_t lo;

	SEARCH_FIRST(lo, b->nin, m, b->in[m].off < off);
	return lo < b->nin && b->in[lo].off == off ? (long)lo : -1;
}

/* size bytes of code were read (a graph built, a function's tables
 * found): the file's pages read are of no more use once decoded, and
 * what stays in memory of the file is a window of the code read last,
 * not all the code of the functions a profile touches */
void
cd_code_read(struct cfgdis *d, uint64_t size)
{
	/* the pages it touched: a function of a few bytes maps a page */
	d->unreleased += size + 4096;
	if (d->unreleased >= CD_RELEASE_WINDOW) {
		elfobj_release(d->eo);
		d->unreleased = 0;
	}
}

static void
need_all(struct cfgdis *d)
{
	memset(d->need, 1, d->ft->n);
	d->nneed = d->ft->n;
}

void
cfgdis_need(struct cfgdis *d, size_t fi)
{
	if (fi < d->ft->n && !d->need[fi]) {
		d->need[fi] = 1;
		d->nneed++;
	}
}

void
cfgdis_prepare(struct cfgdis *d)
{
	if (d->scanned)
		return;
	if (d->nneed == 0)
		need_all(d);
	cd_gather(d);
}

void
cfgdis_prepare_ahead(struct cfgdis *d)
{
	if (d->scanned || !d->ft->has_relocs)
		return;
	d->undec = xcalloc(d->ft->n + 1, 1);
	need_all(d);
	d->aheadgather = 1;
	cd_gather(d);
	d->aheadgather = 0;
	/* the functions asked for are those asked from now on */
	memset(d->need, 0, d->ft->n);
	d->nneed = 0;
}

int
cfgdis_gather_waiting(struct cfgdis *d, const char *in)
{
	struct pollfd p;
	struct stat st;

	if (d->scanned || !d->ft->has_relocs || strcmp(in, "-") != 0 ||
	    fstat(0, &st) == -1 || !(S_ISFIFO(st.st_mode) ||
	    S_ISSOCK(st.st_mode)))
		return 0;
	p.fd = 0;
	p.events = POLLIN;
	p.revents = 0;
	if (poll(&p, 1, 0) != 0)
		return 0;
	cfgdis_prepare_ahead(d);
	return 1;
}

/* after cfgdis_prepare_ahead, function fi is asked for: the functions
 * whose facts the gathers of cfgdis_prepare and ensure would have taken
 * in by now count their decoder failures, as those gathers count them
 * (the first: the functions asked for, or all if none was; then all,
 * once a function outside them is asked for) */
static void
ahead_count(struct cfgdis *d, size_t fi)
{
	size_t i, n = d->ft->n;

	if (d->emdone == NULL) {
		d->emdone = xcalloc(n + 1, 1);
		for (i = 0; i < n; i++)
			if (d->nneed == 0 || d->need[i]) {
				d->emdone[i] = 1;
				d->stats.undecodable += d->undec[i];
			}
	}
	if (!d->emdone[fi])
		for (i = 0; i < n; i++)
			if (!d->emdone[i]) {
				d->emdone[i] = 1;
				d->stats.undecodable += d->undec[i];
			}
}

/* function fi's facts are gathered: a function nobody asked for before
 * cfgdis_prepare brings all the others along (the cost of the old way,
 * at most once) */
static void
ensure(struct cfgdis *d, size_t fi)
{
	if (d->undec != NULL) {
		ahead_count(d, fi);
		return;
	}
	cfgdis_prepare(d);
	if (!d->done[fi]) {
		need_all(d);
		cd_gather(d);
	}
}

const struct cfg *
cfgdis_get(struct cfgdis *d, size_t fi)
{
	if (fi >= d->ft->n)
		return NULL;
	ensure(d, fi);
	if (d->g[fi] == NULL) {
		d->g[fi] = cd_build(d, fi);
		cd_code_read(d, d->ft->f[fi].size);
	} else if (d->isahead != NULL && d->isahead[fi]) {
		const struct cfgdis_stats *a = &d->ahead[fi];

		d->isahead[fi] = 0;
		cfgdis_stats_add(&d->stats, a, 1);
	}
	return d->g[fi];
}

void
cfgdis_stats_add(struct cfgdis_stats *a, const struct cfgdis_stats *b,
    int sign)
{
	uint64_t m = sign < 0 ? UINT64_MAX : 1;	/* -1, modulo 2^64 */

	a->simple += m * b->simple;
	a->nonsimple += m * b->nonsimple;
	a->ignored += m * b->ignored;
	a->undecodable += m * b->undecodable;
	a->jtcut += m * b->jtcut;
}

/* function fi's graph built, its counts (and with with_facts those of
 * gathering its facts) kept apart until cfgdis_get takes it: the stats
 * say what was got */
static const struct cfg *
build_apart(struct cfgdis *d, size_t fi, int with_facts)
{
	struct cfgdis_stats st;

	if (d->g[fi] != NULL)
		return d->g[fi];
	if (d->ahead == NULL) {
		d->ahead = xcalloc(d->ft->n + 1, sizeof(*d->ahead));
		d->isahead = xcalloc(d->ft->n + 1, sizeof(*d->isahead));
	}
	st = d->stats;
	if (with_facts)
		ensure(d, fi);
	d->g[fi] = cd_build(d, fi);
	d->ahead[fi] = d->stats;
	cfgdis_stats_add(&d->ahead[fi], &st, -1);
	d->isahead[fi] = 1;
	d->stats = st;
	cd_code_read(d, d->ft->f[fi].size);
	return d->g[fi];
}

const struct cfg *
cfgdis_build_ahead(struct cfgdis *d, size_t fi)
{
	if (fi >= d->ft->n || d->undec == NULL)
		return NULL;
	return build_apart(d, fi, 0);
}

const struct cfg *
cfgdis_peek(struct cfgdis *d, size_t fi)
{
	if (fi >= d->ft->n)
		return NULL;
	return build_apart(d, fi, 1);
}

/* the jump tables BOLT creates while it disassembles function fi, in
 * the order it creates them (getOrCreateJumpTable: at the PC-relative
 * address computation that names a PIC table in relocation mode,
 * handleAddressRef, or at the indirect jump that reads it,
 * processIndirectBranch), with the size postProcessJumpTables gives
 * their data object: populateJumpTables' entries, none when the
 * function was not disassembled */
size_t
cfgdis_tables(struct cfgdis *d, size_t fi, struct cfgdis_jt **out,
    uint64_t **frag, size_t *nfrag)
{
	const struct functab *ft = d->ft;
	struct fbuild b;
	struct cfgdis_jt *v = NULL;
	uint64_t *tg = NULL;
	size_t i, k, n = 0, cap = 0, ntg = 0, captg = 0;
	const struct cfg *g;
	int sized;

	*out = NULL;
	*frag = NULL;
	*nfrag = 0;
	if (fi >= ft->n || (ft->f[fi].flags & (BF_PLT | BF_PSEUDO)))
		return 0;
	g = cfgdis_get(d, fi);
	sized = !g->ignored && !(ft->f[fi].flags & BF_NONSIMPLE) &&
	    !d->padrel[fi];
	cd_fbuild_init(&b, d, fi);
	if (d->arch->decode(d, fi, &b.in, &b.capin, &b.nin, 0) == -1)
		goto out;
	cd_find_tables(&b);	/* b.tables: the bounds of the final analysis */
	for (i = 0; i < b.nin; i++) {
		const struct insn *in = &b.in[i];
		const struct fsec *sec;
		uint64_t t = 0;
		int pic = 1, ok = 0;

		ntg = 0;
		if (in->riplea && ft->has_relocs &&
		    sorted_has(b.tables, b.ntables, in->target) &&
		    cd_data_section(d, in->target, &sec) &&
		    sec->type != SHT_NOBITS) {
			t = in->target;
			ok = cd_analyze_table(&b, t, 1, 0, &tg, &ntg, &captg);
		} else if (in->kind == IK_IJMP &&
		    d->arch->jump_table(&b, (long)i, &t, &pic) == IB_TABLE)
			ok = cd_analyze_table(&b, t, pic, 0, &tg, &ntg, &captg);
		if (!ok)
			continue;
		for (k = 0; k < n && v[k].addr != t; k++)
			;
		if (k < n)
			continue;
		xgrow(&v, &cap, n + 1, sizeof(*v));
		v[n].addr = t;
		v[n].site = in->off;
		v[n].pic = pic;
		v[n].size = 0;
		ntg = 0;
		b.wantfrag = 1;
		if (sized && cd_analyze_table(&b, t, pic, 1, &tg, &ntg, &captg))
			v[n].size = b.jtent * (pic ? 4 : 8);
		b.wantfrag = 0;
		n++;
	}
out:
	free(tg);
	cd_fbuild_done(&b);
	*out = v;
	*frag = b.fragent;
	*nfrag = b.nfragent;
	return n;
}

uint32_t
cfgdis_entry_id(struct cfgdis *d, size_t fi, uint64_t off)
{
	const struct functab *ft = d->ft;
	const struct bfunc *f;
	uint64_t *v = NULL;
	size_t n = 0, cap = 0, k;
	uint32_t id = 0;

	if (fi >= ft->n || off == 0)
		return 0;
	ensure(d, fi);
	f = &ft->f[fi];
	for (k = functab_entries_from(ft, f->addr); k < ft->nsyms &&
	    ft->syms[k].addr < f->addr + f->maxsize; k++)
		if (ft->syms[k].addr > f->addr)
			cd_push64(&v, &n, &cap, ft->syms[k].addr - f->addr);
	for (k = 0; k < d->nxent[fi]; k++)
		cd_push64(&v, &n, &cap, d->xent[fi][k] - f->addr);
	n = cd_uniq(v, n);
	for (k = 0; k < n; k++)
		if (v[k] == off) {
			id = (uint32_t)k + 1;
			break;
		}
	free(v);
	return id;
}

/* DataAggregator::doBranch (19): a function BOLT disassembled answers
 * by the instruction it has at the offset (getInstructionAtOffset: a
 * return keeps its offset), so bytes inside an instruction that read as
 * a return are none; only a function it did not disassemble is decoded
 * at the address (disassembleInstructionAtOffset) */
int
cfgdis_is_return(struct cfgdis *d, uint64_t a)
{
	const struct bfunc *f;
	const struct cfg *g;
	const struct cfg_site *s;

	if (!d->arch->bytes_return(d, a))
		return 0;
	if ((f = functab_find(d->ft, a)) == NULL ||
	    (g = cfgdis_get(d, (size_t)(f - d->ft->f)))->ignored)
		return 1;
	return (s = cfg_site_at(g, a - f->addr)) != NULL &&
	    s->kind == CFG_SITE_RET;
}

/* ------------------------------------------------------------------ */
/* cfg.h's helpers */

long
cfg_block_at(const struct cfg *g, uint64_t off)
{
	size_t lo;

	SEARCH_FIRST(lo, g->nblocks, m, g->blocks[m].start <= off);
	if (lo == 0)
		return -1;
	return off < g->blocks[lo - 1].end ? (long)lo - 1 : -1;
}

int
cfg_is_succ(const struct cfg *g, size_t i, size_t j)
{
	uint32_t k;

	for (k = 0; k < g->blocks[i].nsucc; k++)
		if (g->succs[g->blocks[i].succ + k] == j)
			return 1;
	return 0;
}

size_t
cfg_site_from(const struct cfg *g, uint64_t off)
{
	size_t lo;

	SEARCH_FIRST(lo, g->nsites, m, g->sites[m].off < off);
	return lo;
}

const struct cfg_site *
cfg_site_at(const struct cfg *g, uint64_t off)
{
	size_t k = cfg_site_from(g, off);

	return k < g->nsites && g->sites[k].off == off ? &g->sites[k] : NULL;
}

int
cfg_source_kept(const struct cfg *g, uint64_t off)
{
	long b;

	if ((b = cfg_block_at(g, off)) < 0)
		return 0;
	return g->blocks[b].last == off || cfg_site_at(g, off) != NULL ||
	    sorted_has(g->srcs, g->nsrcs, off);
}

void
cfg_free(struct cfg *g)
{
	free(g->blocks);
	free(g->succs);
	free(g->sites);
	free(g->srcs);
	free(g->jts);
	g->blocks = NULL;
	g->succs = NULL;
	g->sites = NULL;
	g->srcs = NULL;
	g->jts = NULL;
	g->nblocks = g->nsuccs = g->nsites = g->nsrcs = g->njts = 0;
}
