/* See COPYING file for copyright and license details. */
/*
 * binaries.c: the binaries to profile.  A directory stands for the ELF
 * files in it.  A binary BOLT optimized with --enable-bat is profiled as
 * perf2bolt profiles it, as its input binary through the tables
 * (batmap), which needs that input: --bat-input names it, else it is
 * found from the command line BOLT left in .note.bolt_info, and known by
 * its build-id, which BOLT gives the output with the last bit flipped
 * (RewriteInstance::patchBuildID).
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "p2b.h"
#include "elfobj.h"
#include "binlist.h"

static void
add_one(struct request *rq, const char *path)
{
	rq->bins = xreallocarray(rq->bins, rq->nbins + 1, sizeof(*rq->bins));
	memset(&rq->bins[rq->nbins], 0, sizeof(*rq->bins));
	rq->bins[rq->nbins++].path = xstrdup(path);
}

/* a binary, or a directory: its ELF files, by name (not its
 * subdirectories) */
void
bins_add(struct request *rq, const char *path)
{
	struct binlist bl;
	char err[512];
	size_t i;

	memset(&bl, 0, sizeof(bl));
	if (binlist_add(&bl, path, err, sizeof(err)) == -1)
		errx(1, "%s", err);
	if (bl.dirs)
		rq->multi = 1;
	for (i = 0; i < bl.n; i++)
		add_one(rq, bl.path[i]);
	binlist_free(&bl);
}

/* the build-id of path in hex, and whether it is the input of a binary
 * whose build-id is bid (bytes, len): the same but the last bit */
static int
is_input_of(const char *path, const struct elfobj *bolted)
{
	struct elfobj eo;
	char ebuf[256];
	int ok;

	if (access(path, R_OK) == -1 || !binlist_is_binary(path) ||
	    elfobj_open(&eo, path, ebuf, sizeof(ebuf)) == -1)
		return 0;
	if (bolted->buildid_len == 0)
		ok = 1;		/* nothing to check it by: batmap will */
	else
		ok = eo.buildid_len == bolted->buildid_len &&
		    memcmp(eo.buildid, bolted->buildid, eo.buildid_len - 1) == 0 &&
		    (eo.buildid[eo.buildid_len - 1] ^ 1) ==
		    bolted->buildid[eo.buildid_len - 1];
	elfobj_close(&eo);
	return ok;
}

/* the input binary of a BOLTed one, from .note.bolt_info's "command line:
 * llvm-bolt input -o output ...": each word that is no option, as given
 * (relative to here), beside the BOLTed binary, and by its base name
 * beside it */
static char *
find_input(struct elfobj *eo, const char *bolted)
{
	uint64_t off, size;
	char *note, *cl, *w, *save, *cand, *dir, *slash;
	int first = 1;

	if (elfobj_section(eo, ".note.bolt_info", NULL, &off, &size, NULL) != 1 ||
	    size > (1 << 20))
		return NULL;
	note = xmalloc((size_t)size + 1);
	if (elfobj_read(eo, off, note, (size_t)size) == -1) {
		free(note);
		return NULL;
	}
	note[size] = '\0';
	/* the note's descriptor follows its header and name: look for the
	 * text anywhere in it */
	for (cl = note; cl < note + size; cl += strlen(cl) + 1)
		if ((w = strstr(cl, "command line: ")) != NULL)
			break;
	if (cl >= note + size) {
		free(note);
		return NULL;
	}
	cl = w + strlen("command line: ");
	dir = xstrdup(bolted);
	if ((slash = strrchr(dir, '/')) != NULL)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	for (w = strtok_r(cl, " \n", &save); w != NULL;
	    w = strtok_r(NULL, " \n", &save)) {
		const char *base = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;

		if (first || w[0] == '-') {	/* llvm-bolt itself, options */
			first = 0;
			continue;
		}
		if (is_input_of(w, eo)) {
			cand = xstrdup(w);
			goto found;
		}
		if (w[0] != '/' && dir[0] != '\0') {
			if (asprintf(&cand, "%s%s", dir, w) == -1)
				err(1, NULL);
			if (is_input_of(cand, eo))
				goto found;
			free(cand);
			if (asprintf(&cand, "%s%s", dir, base) == -1)
				err(1, NULL);
			if (is_input_of(cand, eo))
				goto found;
			free(cand);
		}
	}
	free(dir);
	free(note);
	return NULL;
found:
	free(dir);
	free(note);
	return cand;
}

/* ELF, build-id and BAT of every binary; outputs of several */
void
bins_load(struct request *rq)
{
	size_t i, j;
	char ebuf[512];

	for (i = 0; i < rq->nbins; i++) {
		struct bin *b = &rq->bins[i];
		struct elfobj eo;

		if (elfobj_open(&eo, b->path, ebuf, sizeof(ebuf)) == -1)
			errx(1, "%s", ebuf);
		hex_encode(b->buildid, eo.buildid, eo.buildid_len);
		b->bat = elfobj_section(&eo, ".note.bolt_bat", NULL, NULL, NULL,
		    NULL) == 1;
		b->aarch64 = eo.machine == EM_AARCH64;
		if (b->bat) {
			if (rq->bat_input != NULL) {
				if (!is_input_of(rq->bat_input, &eo))
					errx(1, "%s: not the input of %s: its "
					    "build-id is not %s's with the last "
					    "bit flipped", rq->bat_input,
					    b->path, b->path);
				b->input = xstrdup(rq->bat_input);
			} else if ((b->input = find_input(&eo, b->path)) == NULL)
				errx(1, "%s: optimized by BOLT with address "
				    "translation, and the binary it was "
				    "optimized from, named in its "
				    ".note.bolt_info, is not found beside it "
				    "(its build-id differs in the last bit): "
				    "name it with --bat-input", b->path);
		} else if (rq->bat_input != NULL)
			errx(1, "%s: no BOLT address translation tables "
			    "(.note.bolt_bat): --bat-input does not apply",
			    b->path);
		elfobj_close(&eo);
	}
	if (rq->nbins > 1)
		rq->multi = 1;
	if (!rq->multi)
		return;
	if (rq->format == FMT_PREAGG && rq->save == NULL)
		return;		/* one stream, with build-id locations */
	/* several binaries: one profile each, in the -o (and -w)
	 * directory, named by the binary */
	for (i = 0; i < rq->nbins; i++) {
		struct bin *b = &rq->bins[i];
		const char *base = strrchr(b->path, '/') ?
		    strrchr(b->path, '/') + 1 : b->path;
		const char *ext = rq->format == FMT_YAML ? "yaml" :
		    rq->format == FMT_PREAGG ? "preagg" : "fdata";

		for (j = 0; j < i; j++) {
			const char *ob = strrchr(rq->bins[j].path, '/') ?
			    strrchr(rq->bins[j].path, '/') + 1 : rq->bins[j].path;

			if (strcmp(ob, base) == 0)
				errx(1, "%s and %s: two binaries of one name, "
				    "whose profiles would have one name",
				    rq->bins[j].path, b->path);
		}
		if (asprintf(&b->opath, "%s/%s.%s", rq->out, base, ext) == -1 ||
		    (rq->save != NULL && asprintf(&b->wpath, "%s/%s.yaml",
		    rq->save, base) == -1))
			err(1, NULL);
	}
}

/*
 * Before anything runs: no output is an input (a recording, a binary,
 * the input of a BOLTed one, the standard input when it is a file), nor
 * two outputs one file (out.c, by device and inode or by name); exit 2.
 * Then the directories of several profiles.
 */
void
bins_files(const struct request *rq)
{
	const char *o[2];
	size_t i, j, no = 0;

	for (i = 0; i < rq->nperfdata; i++)
		out_input(rq->perfdata[i]);
	for (i = 0; i < rq->nbins; i++) {
		out_input(rq->bins[i].path);
		if (rq->bins[i].input != NULL)
			out_input(rq->bins[i].input);
	}
	/* what plan() writes: -o and -w, or a profile per binary in each
	 * (the stream of several binaries is -o itself) */
	if (!rq->multi || rq->format == FMT_PREAGG)
		o[no++] = rq->out;
	if (!rq->multi && rq->save != NULL)
		o[no++] = rq->save;
	if (no == 2 && strcmp(o[0], "-") == 0 && strcmp(o[1], "-") == 0)
		prog_usage_error("-o and -w both name the standard output");
	for (j = 0; j < no; j++)
		out_plan(o[j]);
	for (i = 0; i < rq->nbins && rq->multi; i++) {
		if (rq->format != FMT_PREAGG)
			out_plan(rq->bins[i].opath);
		out_plan(rq->bins[i].wpath);
	}
	if (!rq->multi)
		return;
	if (rq->format != FMT_PREAGG && mkdir(rq->out, 0777) == -1 &&
	    errno != EEXIST)
		err(1, "%s", rq->out);
	if (rq->save != NULL && mkdir(rq->save, 0777) == -1 && errno != EEXIST)
		err(1, "%s", rq->save);
}
