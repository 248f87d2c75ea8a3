/* See COPYING file for copyright and license details. */
/*
 * ftplt.c: PLT entries as RewriteInstance::disassemblePLT names them
 * (name@PLT from the dynamic relocation of the slot each entry jumps
 * through; __BOLT_PSEUDO_ for a section's head).
 */
#include <stdlib.h>
#include <string.h>

#include "ftint.h"
#include "a64dec.h"

int
ft_is_plt_section(const char *n)
{
	return strcmp(n, ".plt") == 0 || strcmp(n, ".plt.got") == 0 ||
	    strcmp(n, ".plt.sec") == 0;
}

/* ------------------------------------------------------------------ */
/* PLT (disassemblePLTSectionX86): a small decoder for the instructions
 * linkers put in PLT entries.  Returns the length, 0 if unknown; *ind is
 * set with the GOT slot for an indirect jmp through a RIP-relative slot. */
static size_t
plt_insn(const uint8_t *p, size_t n, uint64_t pc, int *ind, uint64_t *slot,
    int *endbr)
{
	size_t k = 0;

	*ind = 0;
	*endbr = 0;
	if (n >= 4 && p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e &&
	    (p[3] == 0xfa || p[3] == 0xfb)) {
		*endbr = 1;
		return 4;
	}
	if (n > 0 && p[0] == 0xf2)	/* bnd */
		k = 1;
	if (n >= k + 6 && p[k] == 0xff && (p[k + 1] == 0x25 || p[k + 1] == 0x35)) {
		int32_t disp = (int32_t)ld32(p + k + 2, 0);

		if (p[k + 1] == 0x25) {
			*ind = 1;
			*slot = pc + k + 6 + (uint64_t)(int64_t)disp;
		}
		return k + 6;
	}
	if (n >= k + 5 && p[k] == 0xe9)
		return k + 5;
	if (k == 0 && n >= 5 && p[0] == 0x68)
		return 5;
	if (k == 0 && n >= 1 && (p[0] == 0x90 || p[0] == 0xcc))
		return 1;
	if (k == 0 && n >= 2 && p[0] == 0x66 && p[1] == 0x90)
		return 2;
	/* multi-byte NOPs: [66]* [2e] 0f 1f modrm [sib] [disp] */
	{
		size_t j = 0, m;
		uint8_t modrm, mod, rm;

		while (j < n && j < 8 && (p[j] == 0x66 || p[j] == 0x2e))
			j++;
		if (n < j + 3 || p[j] != 0x0f || p[j + 1] != 0x1f)
			return 0;
		modrm = p[j + 2];
		mod = modrm >> 6;
		rm = modrm & 7;
		m = j + 3;
		if (mod != 3 && rm == 4)
			m++;
		if (mod == 1)
			m += 1;
		else if (mod == 2 || (mod == 0 && rm == 5))
			m += 4;
		return m <= n ? m : 0;
	}
}

static int
dynrelcmp(const void *a, const void *b)
{
	const struct dynrel *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

void
ft_discover_plt(struct disc *d, Elf *elf, struct dynrel *rels, size_t nrels)
{
	struct functab *ft = d->ft;
	size_t i;

	if (ft->nsecs == 0)
		return;
	for (i = 0; i < ft->nsecs; i++) {
		const struct fsec *sec = &ft->secs[i];
		uint64_t esz, eo;
		uint8_t *buf;
		struct dfunc *f;

		if (!ft_is_plt_section(sec->name) || sec->type == SHT_NOBITS)
			continue;
		esz = strcmp(sec->name, ".plt") == 0 ? 16 : 8;
		if (sec->size > (64u << 20))
			continue;
		buf = xmalloc(sec->size + 1);
		{
			Elf_Scn *scn = NULL;
			int ok = 0;
			GElf_Shdr sh;

			while ((scn = elf_nextscn(elf, scn)) != NULL)
				if (gelf_getshdr(scn, &sh) != NULL &&
				    sh.sh_addr == sec->addr &&
				    sh.sh_size == sec->size &&
				    (sh.sh_flags & SHF_ALLOC)) {
					Elf_Data *dd = elf_getdata(scn, NULL);

					if (dd != NULL && dd->d_size == sec->size &&
					    dd->d_buf != NULL) {
						memcpy(buf, dd->d_buf, sec->size);
						ok = 1;
					}
					break;
				}
			if (!ok) {
				free(buf);
				continue;
			}
		}
		for (eo = 0; eo + esz <= sec->size; eo += esz) {
			uint64_t io = eo, slot = 0;
			size_t n = 0;
			int ind = 0, endbr;

			while (io < eo + esz) {
				n = plt_insn(buf + io, sec->size - io,
				    sec->addr + io, &ind, &slot, &endbr);
				if (n == 0)
					break;
				if (eo == 0 && endbr && esz == 8)
					esz = 16;
				if (ind)
					break;
				io += n;
			}
			if (n == 0 || !ind || io + n > eo + esz)
				continue;
			/* createPLTBinaryFunction */
			{
				struct dynrel key = { slot, 0, NULL, 0 }, *r;
				const char *sym;
				const char *name;

				if (slot == 0 || nrels == 0)
					continue;
				r = bsearch(&key, rels, nrels, sizeof(*rels),
				    dynrelcmp);
				if (r == NULL)
					continue;
				/* LLVM 19 makes no function of an IRELATIVE
				 * slot (no symbol) */
				sym = r->sym;
				if (sym == NULL)
					continue;
				name = ft_cat(ft, sym, "@PLT", NULL);
				f = ft_df_at(d, sec->addr + eo, NULL);
				if (f == NULL) {
					f = ft_df_create(d, sec->addr + eo, 0, name,
					    (int)i);
					f->maxsize = esz;
					f->flags |= BF_PLT;
					ft_reg(ft, name, sec->addr + eo, esz);
				} else
					ft_df_addname(f, name);
				/* setPLTSymbol: its GOT slot */
				ft_reg(ft, ft_cat(ft, sym, "@GOT", NULL), slot,
				    8);
			}
		}
		free(buf);
		f = ft_df_at(d, sec->addr, NULL);
		if (f == NULL) {
			f = ft_df_create(d, sec->addr, 0,
			    ft_keepf(ft, "__BOLT_PSEUDO_%s", sec->name), (int)i);
			f->maxsize = esz;
			/* the section's entry size, not the one the first
			 * entry adjusted */
			ft_reg(ft, f->name0, sec->addr,
			    strcmp(sec->name, ".plt") == 0 ? 16 : 8);
		}
		f->flags |= BF_PSEUDO;
	}
}

/* a section's contents, copied (NULL if it has none) */
static uint8_t *
sec_copy(Elf *elf, const struct fsec *sec)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint8_t *buf;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_addr == sec->addr &&
		    sh.sh_size == sec->size && (sh.sh_flags & SHF_ALLOC)) {
			Elf_Data *dd = elf_getdata(scn, NULL);

			if (dd == NULL || dd->d_size != sec->size ||
			    dd->d_buf == NULL)
				return NULL;
			buf = xmalloc(sec->size + 1);
			memcpy(buf, dd->d_buf, sec->size);
			return buf;
		}
	return NULL;
}

/* disassemblePLTSectionAArch64: an entry is the instructions up to an
 * indirect branch, its GOT slot the load that branch's register comes
 * from, at the page of the adrp that load's base register comes from
 * (AArch64MCPlusBuilder::analyzePLTEntry); the NOPs after an entry are
 * skipped.  createPLTBinaryFunction: a function already at the entry
 * keeps its name (an IFUNC trampoline), else the entry is name@PLT by
 * the slot's dynamic relocation; one without (the header) is none. */
void
ft_discover_plt_a64(struct disc *d, Elf *elf, struct dynrel *rels, size_t nrels)
{
	struct functab *ft = d->ft;
	size_t i;

	for (i = 0; i < ft->nsecs; i++) {
		const struct fsec *sec = &ft->secs[i];
		uint64_t o = 0;
		uint8_t *buf;


		if (strcmp(sec->name, ".plt") != 0 || sec->type == SHT_NOBITS ||
		    sec->size > (64u << 20) ||
		    (buf = sec_copy(elf, sec)) == NULL)
			continue;
		while (o + 4 <= sec->size) {
			/* the last writer of each register: its index in the
			 * entry + 1 (0: none); the words; for each load, the
			 * writer of its base register then (computeLocalUDChain) */
			uint32_t def[32] = { 0 }, words[64], base[64];
			uint64_t start = o, slot = 0;
			size_t n = 0;
			struct a64d a;
			int ended = 0;

			while (o + 4 <= sec->size && n < 64) {
				uint32_t w = a64d_word(buf + o);

				a64d_decode(w, sec->addr + o, &a);
				words[n++] = w;
				o += 4;
				if (a.kind == A64K_IJMP) {
					ended = 1;
					break;
				}
				/* the writers a PLT entry has: adrp, ldr
				 * (unsigned offset), add (immediate) */
				if (a.adrp)
					def[a.rd] = (uint32_t)n;
				else if ((w & 0xffc00000u) == 0xf9400000u) {
					base[n - 1] = def[(w >> 5) & 31];
					def[w & 31] = (uint32_t)n;
				}
				else if (a.addxi && a.rd != 31)
					def[a.rd] = (uint32_t)n;
			}
			if (!ended)
				break;
			/* br xT: xT from ldr xT, [xN, #imm], xN from adrp */
			if (a.rd < 31 && def[a.rd] != 0) {
				uint32_t li = def[a.rd] - 1, l = words[li];

				if ((l & 0xffc00000u) == 0xf9400000u &&
				    base[li] != 0) {
					uint32_t ap = base[li] - 1;
					struct a64d pg;

					a64d_decode(words[ap], sec->addr + start +
					    4 * (uint64_t)ap, &pg);
					if (pg.adrp)
						slot = pg.ref +
						    (uint64_t)((l >> 10) & 0xfff) * 8;
				}
			}
			if (slot != 0) {
				struct dynrel key = { slot, 0, NULL, 0 }, *r = NULL;
				struct dfunc *f = ft_df_at(d, sec->addr + start, NULL);
				uint64_t esz = o - start;

				if (nrels > 0)
					r = bsearch(&key, rels, nrels,
					    sizeof(*rels), dynrelcmp);
				if (f != NULL)
					f->flags |= BF_PLT;	/* keeps its name */
				else if (r != NULL && r->sym != NULL) {
					f = ft_df_create(d, sec->addr + start, 0,
					    ft_keepf(ft, "%s@PLT", r->sym), (int)i);
					f->maxsize = esz;
					f->flags |= BF_PLT;
				}
			}
			while (o + 4 <= sec->size &&
			    a64d_word(buf + o) == 0xd503201fu)
				o += 4;
		}
		free(buf);
		/* disassemblePLT: the header, with no relocation at its slot,
		 * is no entry: the section's pseudo function, made after
		 * them (its number follows theirs: YAML's ids) */
		if (ft_df_at(d, sec->addr, NULL) == NULL)
			ft_df_create(d, sec->addr, 0, ft_keepf(ft,
			    "__BOLT_PSEUDO_%s", sec->name), (int)i)->flags |=
			    BF_PSEUDO;
	}
}

/* the dynamic relocations (.rela.dyn and .rela.plt), sorted by offset */
struct dynrel *
ft_read_dynrels(struct functab *ft, Elf *elf, size_t *nout)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, lsh;
	struct dynrel *r = NULL;
	size_t n = 0, cap = 0, k, cnt;

	(void)ft;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *dd;
		Elf_Scn *ls;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    !(sh.sh_flags & SHF_ALLOC) || sh.sh_entsize == 0)
			continue;
		if ((dd = elf_getdata(scn, NULL)) == NULL)
			continue;
		ls = elf_getscn(elf, sh.sh_link);
		if (ls == NULL || gelf_getshdr(ls, &lsh) == NULL)
			ls = NULL;
		cnt = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < cnt; k++) {
			GElf_Rela ra;
			GElf_Sym sy;
			const char *nm = NULL;
			size_t si;

			if (gelf_getrela(dd, (int)k, &ra) == NULL)
				break;
			si = GELF_R_SYM(ra.r_info);
			if (si != 0 && ls != NULL) {
				Elf_Data *sd = elf_getdata(ls, NULL);

				if (sd != NULL && gelf_getsym(sd, (int)si, &sy) != NULL)
					nm = elf_strptr(elf, lsh.sh_link, sy.st_name);
				if (nm != NULL && *nm == '\0')
					nm = NULL;
				/* (libelf's: it lives as long as the table) */
			}
			xgrow(&r, &cap, n + 1, sizeof(*r));
			r[n++] = (struct dynrel){ ra.r_offset,
			    (uint64_t)ra.r_addend, nm,
			    (uint32_t)GELF_R_TYPE(ra.r_info) };
		}
	}
	if (n > 1) {
		/* keep the first relocation at each offset */
		struct dynrel *t;
		size_t i, j;

		for (i = 0; i < n; i++)
			r[i].addend = r[i].addend;	/* stable by index below */
		t = xreallocarray(NULL, n, sizeof(*t));
		memcpy(t, r, n * sizeof(*t));
		qsort(r, n, sizeof(*r), dynrelcmp);
		for (i = j = 0; i < n; i++)
			if (j == 0 || r[j - 1].off != r[i].off)
				r[j++] = r[i];
		n = j;
		free(t);
	}
	*nout = n;
	return r;
}
