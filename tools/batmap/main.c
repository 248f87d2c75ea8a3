/* See COPYING file for copyright and license details. */
/*
 * batmap: BOLT address translation.  --dump prints the .note.bolt_bat
 * tables of a BOLTed binary as text (profpipe-bat(5)), checked against
 * the binary itself; otherwise a pre-aggregated profile of the BOLTed
 * binary is translated into one of its input binary (translate.c).
 */
#include <gelf.h>
#include <errno.h>
#include <getopt.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"
#include "bat.h"
#include "functab.h"
#include "pa.h"

#include "batmap.h"

int	 vflag;

static void	 load_bolted(struct bolted *, const char *);
static void	 dump(FILE *, const struct bolted *);
static noreturn void usage(int);

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "dump",	no_argument,	   NULL, 'd' },
		{ "output",	required_argument, NULL, 'o' },
		{ "verbose",	no_argument,	   NULL, 'v' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "version",	no_argument,	   NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct output out;
	struct bolted b;
	const char *ofile = NULL;
	int ch, dflag = 0;

	prog_init(argc, argv);
	while ((ch = getopt_long(argc, argv, ":do:vh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			dflag = 1;
			break;
		case 'o':
			ofile = optarg;
			break;
		case 'v':
			vflag = 1;
			break;
		case 'h':
			usage(0);
		case 'V':
			prog_version();
		default:
			prog_option_error(ch, longopts, argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (dflag && argc != 1)
		prog_usage_error("--dump takes one BOLTed binary");
	if (!dflag && (argc < 2 || argc > 3))
		prog_usage_error("expected a BOLTed binary, its input binary "
		    "and at most one profile");
	load_bolted(&b, argv[0]);
	out_open(&out, ofile);
	if (dflag)
		dump(out.fp, &b);
	else
		translate(out.fp, &b, argv[1], argc > 2 ? argv[2] : NULL);
	out_commit(&out);
	bat_free(&b.bat);
	elfobj_close(&b.eo);
	free(b.xs);
	free(b.name);
	return 0;
}

noreturn void
die(const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", progname, path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* a BAT error at section offset off */
static noreturn void PRINTFLIKE(3, 4)
batdie(const struct bolted *b, size_t off, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: offset 0x%llx (%s+0x%zx): ", progname,
	    b->path, (unsigned long long)(b->secoff + off), BAT_SECTION, off);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (b->producer[0] != '\0')
		fprintf(stderr, " (written by %s)", b->producer);
	fputc('\n', stderr);
	exit(1);
}

static void
load_xsecs(struct bolted *b)
{
	Elf *elf = b->eo.elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			die(b->path, "bad section header");
		if ((sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS)
			continue;
		xgrow(&b->xs, &cap, b->nxs + 1, sizeof(*b->xs));
		b->xs[b->nxs++] = (struct xsec){ sh.sh_addr, sh.sh_size };
	}
}

/* the first sized function symbol at addr, else any, else NULL */
static const struct elf_sym *
sym_at(const struct elfobj *eo, uint64_t addr)
{
	size_t lo = 0, hi = eo->nsyms, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (eo->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < eo->nsyms && eo->syms[lo].addr == addr ? &eo->syms[lo] :
	    NULL;
}

/* is name the symbol of some function at addr */
static int
has_name_at(const struct elfobj *eo, uint64_t addr, const char *name,
    size_t len)
{
	const struct elf_sym *s = sym_at(eo, addr);

	for (; s != NULL && s < eo->syms + eo->nsyms && s->addr == addr; s++)
		if (strlen(s->name) == len && memcmp(s->name, name, len) == 0)
			return 1;
	return 0;
}

/* "foo.cold.3" or "foo.cold": length of "foo", 0 if no such suffix */
static size_t
cold_stem(const char *name)
{
	const char *p = strstr(name, ".cold");
	const char *q;

	while (p != NULL) {
		q = p + 5;
		if (*q == '\0')
			return (size_t)(p - name);
		if (*q == '.' && q[1] != '\0') {
			for (q++; *q >= '0' && *q <= '9'; q++)
				;
			if (*q == '\0')
				return (size_t)(p - name);
		}
		p = strstr(p + 1, ".cold");
	}
	return 0;
}

/* how many cold fragments' names agree with their BAT parents */
static size_t
names_agree(const struct bolted *b)
{
	const struct bat *t = &b->bat;
	size_t i, stem, n = 0;

	for (i = t->nhot; i < t->nfrag; i++) {
		if (b->name[i] == NULL || (stem = cold_stem(b->name[i])) == 0)
			continue;
		if (has_name_at(&b->eo, t->frag[t->frag[i].parent].addr,
		    b->name[i], stem))
			n++;
	}
	return n;
}

static int
in_xsec(const struct bolted *b, uint64_t a, int atend)
{
	size_t j;

	for (j = 0; j < b->nxs; j++)
		if (a >= b->xs[j].addr && (a < b->xs[j].addr + b->xs[j].size ||
		    (atend && a == b->xs[j].addr + b->xs[j].size)))
			return 1;
	return 0;
}

/* the checks that need the binary: each fragment at a function symbol
 * in an executable section, each block within its fragment (or at its
 * end: BOLT's entries for deleted blocks), each branch entry within its
 * fragment or another fragment of the same function (BOLT 19 puts in
 * the hot map branches it duplicated into a cold fragment), cold
 * parents as the names say */
static void
check_bolted(struct bolted *b)
{
	struct bat *t = &b->bat;
	const struct bat_frag *f, *g;
	const struct bat_entry *x;
	const struct elf_sym *s;
	uint64_t a, *size;
	size_t i, j, stem;

	b->name = xcalloc(t->nfrag ? t->nfrag : 1, sizeof(*b->name));
	size = xcalloc(t->nfrag ? t->nfrag : 1, sizeof(*size));
	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		if (!in_xsec(b, f->addr, 0))
			batdie(b, f->secoff, "%s fragment at 0x%llx lies in no "
			    "executable section", f->cold ? "cold" : "hot",
			    (unsigned long long)f->addr);
		if (b->eo.nsyms == 0)
			continue;
		if ((s = sym_at(&b->eo, f->addr)) == NULL)
			batdie(b, f->secoff, "no function symbol at fragment "
			    "address 0x%llx", (unsigned long long)f->addr);
		b->name[i] = s->name;
		size[i] = s->size;
	}
	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		for (j = 0; j < f->nent; j++) {
			x = &f->ent[j];
			a = bat_entry_addr(f, x);
			if (!in_xsec(b, a, !x->branch))
				batdie(b, f->secoff, "entry at 0x%llx of the "
				    "fragment at 0x%llx lies in no executable "
				    "section", (unsigned long long)a,
				    (unsigned long long)f->addr);
			if (b->eo.nsyms == 0 || size[i] == 0 || (a >= f->addr &&
			    (a - f->addr < size[i] || (a - f->addr == size[i] &&
			    !x->branch))))
				continue;
			g = x->branch ? bat_find_le(t, a) : NULL;
			if (g != NULL && g->parent == f->parent &&
			    (size[g - t->frag] == 0 ||
			    a < g->addr + size[g - t->frag]))
				continue;
			batdie(b, f->secoff, "%s entry at 0x%llx beyond the end "
			    "of %s (0x%llx, %llu bytes)", x->branch ? "branch" :
			    "block", (unsigned long long)a, b->name[i],
			    (unsigned long long)f->addr,
			    (unsigned long long)size[i]);
		}
	}
	free(size);
	if (t->ambiguous) {
		/* the two readings of the cold parents both hold: take the
		 * one the symbol names agree with */
		size_t nmain, n19;

		bat_set_coldidx(t, BAT_COLD_MAIN);
		nmain = names_agree(b);
		bat_set_coldidx(t, BAT_COLD_V19);
		n19 = names_agree(b);
		if (nmain >= n19)
			bat_set_coldidx(t, BAT_COLD_MAIN);
	}
	for (i = t->nhot; i < t->nfrag; i++) {
		f = &t->frag[i];
		if (b->name[i] == NULL || (stem = cold_stem(b->name[i])) == 0)
			continue;
		if (!has_name_at(&b->eo, t->frag[f->parent].addr, b->name[i],
		    stem))
			batdie(b, f->secoff, "cold fragment %s at 0x%llx has the "
			    "parent 0x%llx (%s) in the tables", b->name[i],
			    (unsigned long long)f->addr,
			    (unsigned long long)t->frag[f->parent].addr,
			    b->name[f->parent] ? b->name[f->parent] : "no symbol");
	}
}

static void
load_bolted(struct bolted *b, const char *path)
{
	char err[512];
	uint64_t off, size, isize, ioff;
	uint32_t type;
	uint8_t *buf, *info;
	struct bat_err e;
	struct stat st;
	int rc;

	memset(b, 0, sizeof(*b));
	b->path = path;
	if (elfobj_open(&b->eo, path, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", progname, err);
		exit(1);
	}
	if (elfobj_load_syms(&b->eo, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", progname, err);
		exit(1);
	}
	rc = elfobj_section(&b->eo, BAT_INFO_SECTION, NULL, &ioff, &isize,
	    &type);
	if (rc == 1 && type == SHT_NOTE && isize <= 4096) {
		info = xmalloc(isize ? isize : 1);
		if (elfobj_read(&b->eo, ioff, info, isize) == 0)
			bat_producer(info, isize, b->producer,
			    sizeof(b->producer));
		free(info);
	}
	rc = elfobj_section(&b->eo, BAT_SECTION, NULL, &off, &size, &type);
	if (rc == -1)
		die(path, "bad section headers");
	if (rc == 0)
		die(path, "no %s section: not written by llvm-bolt "
		    "--enable-bat", BAT_SECTION);
	b->secoff = off;
	if (type != SHT_NOTE)
		die(path, "%s is not a note section (type %u)", BAT_SECTION,
		    type);
	if (fstat(b->eo.fd, &st) == -1)
		die(path, "%s", strerror(errno));
	if (off > (uint64_t)st.st_size || size > (uint64_t)st.st_size - off)
		die(path, "%s (offset 0x%llx, %llu bytes) runs past the end of "
		    "the file (%llu bytes)", BAT_SECTION, (unsigned long long)off,
		    (unsigned long long)size, (unsigned long long)st.st_size);
	buf = xmalloc(size ? (size_t)size : 1);
	if (elfobj_read(&b->eo, off, buf, (size_t)size) == -1)
		die(path, "%s (offset 0x%llx, %llu bytes) runs past the end of "
		    "the file", BAT_SECTION, (unsigned long long)off,
		    (unsigned long long)size);
	if (bat_decode(&b->bat, buf, (size_t)size, &e) == -1)
		batdie(b, e.off, "%s", e.msg);
	free(buf);
	load_xsecs(b);
	check_bolted(b);
}

static void
dump(FILE *fp, const struct bolted *b)
{
	const struct bat *t = &b->bat;
	const struct bat_frag *f;
	const struct bat_entry *x;
	size_t i, j;
	static const char *cold[] = { "none", "same", "main", "19" };

	fprintf(fp, "# profpipe-bat 1\n");
	fprintf(fp, "# producer=%s\n", b->producer[0] ? b->producer : "-");
	fprintf(fp, "# hot=%zu cold=%zu entries=%zu bytes=%zu "
	    "cold-index=%s\n", t->nhot, t->nfrag - t->nhot, t->nentries,
	    t->end, cold[t->coldidx]);
	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		if (f->cold)
			fprintf(fp, "cold %llx %llx %x %zu %s\n",
			    (unsigned long long)f->addr,
			    (unsigned long long)t->frag[f->parent].addr,
			    f->skew, f->nent, b->name[i] ? b->name[i] : "-");
		else
			fprintf(fp, "hot %llx %016llx %llu %zu %zu %s\n",
			    (unsigned long long)f->addr,
			    (unsigned long long)f->hash,
			    (unsigned long long)f->nblocks, f->nent, f->nsec,
			    b->name[i] ? b->name[i] : "-");
		for (j = 0; j < f->nent; j++) {
			x = &f->ent[j];
			if (x->branch)
				fprintf(fp, "branch %llx %x %x\n",
				    (unsigned long long)bat_entry_addr(f, x),
				    x->out, x->in);
			else
				fprintf(fp, "block %llx %x %x %u %016llx\n",
				    (unsigned long long)bat_entry_addr(f, x),
				    x->out, x->in, x->index,
				    (unsigned long long)x->hash);
		}
		for (j = 0; j < f->nsec; j++)
			fprintf(fp, "entry %x\n", f->sec[j]);
	}
}

static noreturn void
usage(int status)
{
	printf("usage: %s [-v] [-o file] bolted-binary input-binary [profile]\n"
	    "       %s --dump [-o file] bolted-binary\n"
	    "Translate a pre-aggregated profile of a binary written by llvm-bolt\n"
	    "--enable-bat into one of its input binary, through the BOLT address\n"
	    "translation tables (.note.bolt_bat); or print the tables.\n"
	    "  -d, --dump                 print the tables (profpipe-bat(5))\n"
	    "  -o, --output=FILE          write FILE instead of the standard output\n"
	    "  -h, --help                 this help\n"
	    "  -v, --verbose              counts of translated and dropped entries\n"
	    "      --version              print the version\n",
	    progname, progname);
	xclose_stdout();
	exit(status);
}
