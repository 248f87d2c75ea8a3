/* See COPYING file for copyright and license details. */
/*
 * pawalk.c: a pre-aggregated entry cut into DataAggregator's branch and
 * trace (pawalk.h).  The rules are those fdatawrite was checked with
 * against perf2bolt-19; fdatawrite and yamlwrite both walk entries here.
 */
#include <string.h>

#include "util.h"
#include "functab.h"
#include "pawalk.h"
#include "cfg.h"

/* a location as an address of the binary, or 0 if it is elsewhere */
static int
loc_addr(const struct pawalk *w, const struct pa_loc *l, uint64_t *a)
{
	if (l->obj == PA_OBJ_X)
		return 0;
	if (l->obj != PA_OBJ_SELF) {
		const char *b = pa_buildid(w->r, l->obj);

		if (b == NULL || w->bid == NULL || w->bid[0] == '\0' ||
		    strcmp(b, w->bid) != 0)
			return 0;
	}
	*a = l->addr + w->base;
	return 1;
}

/* extorigin: 1 external (f, r), 0 internal (F), -1 from the branch
 * source kfrom/from (T, R): Intern when it lies in the function of the
 * fall-through's start, else Extern (parseLBRSample) */
static void
trace(struct pawalk *w, int kfrom, uint64_t from, int extorigin, uint64_t s,
    uint64_t e, uint64_t count)
{
	int external;

	if (extorigin >= 0)
		external = extorigin;
	else if (!kfrom)
		external = 1;
	else {
		const struct bfunc *bf = functab_find(w->ft, from);
		const struct bfunc *sf = functab_find(w->ft, s);

		external = bf == NULL || bf != sf ||
		    from - bf->addr >= bf->size;
	}
	w->ops->trace(w->arg, s, e, external, count);
}

void
pawalk_entry(struct pawalk *w, const struct pa_entry *e)
{
	uint64_t a0 = 0, a1 = 0, a2 = 0;
	int k0, k1, k2;

	w->nentries++;
	switch (e->type) {
	case PA_E:
		if (w->ops->event != NULL)
			w->ops->event(w->arg, pa_event(w->r, e->event));
		return;
	case PA_S:
		w->nsamples++;
		if (!loc_addr(w, &e->loc[0], &a0)) {
			w->nsampout++;
			return;
		}
		if (w->ops->sample != NULL)
			w->ops->sample(w->arg, a0, e->count, e->event);
		return;
	default:
		break;
	}
	w->lbr = 1;
	k0 = e->nloc > 0 && loc_addr(w, &e->loc[0], &a0);
	k1 = e->nloc > 1 && loc_addr(w, &e->loc[1], &a1);
	k2 = e->nloc > 2 && loc_addr(w, &e->loc[2], &a2);
	switch (e->type) {
	case PA_B:
		/* a plain address outside every function stays itself, as
		 * perf2bolt --pa writes it */
		w->ops->branch(w->arg, k0, a0, k1, a1, e->count, e->mis);
		break;
	case PA_F:
		if (k0 && k1)
			trace(w, 0, 0, 0, a0, a1, e->count);
		break;
	case PA_f:
	case PA_r:
		if (k0 && k1)
			trace(w, 0, 0, 1, a0, a1, e->count);
		break;
	case PA_T:
	case PA_R: {
		uint64_t br = e->loc[0].addr;
		int special = e->loc[0].obj == PA_OBJ_SELF &&
		    (br == PA_BR_ONLY || br == PA_FT_EXTERNAL_ORIGIN ||
		    br == PA_FT_EXTERNAL_RETURN);
		int bronly = e->loc[2].obj == PA_OBJ_SELF &&
		    e->loc[2].addr == PA_BR_ONLY;

		if (!special && !(e->type == PA_R && k0 && br == 0)) {
			/* the branch; an end outside every function is 0,
			 * as perf2bolt -p writes it */
			const struct bfunc *ff = k0 ? functab_find(w->ft, a0) :
			    NULL;
			const struct bfunc *tf = k1 ? functab_find(w->ft, a1) :
			    NULL;

			w->ops->branch(w->arg, ff != NULL, ff ? a0 : 0,
			    tf != NULL, tf ? a1 : 0, e->count,
			    e->has_mis ? e->mis : 0);
		}
		if (bronly || !k1 || !k2)
			break;
		if (special)
			trace(w, 0, 0, br != PA_BR_ONLY, a1, a2, e->count);
		else if (e->type == PA_R && br == 0)
			trace(w, 0, 0, 1, a1, a2, e->count);
		else
			trace(w, k0, a0, -1, a1, a2, e->count);
		break;
	}
	default:
		break;
	}
}

int
pawalk_trace_blocks(const struct cfg *g, uint64_t fs, uint64_t fe,
    int external, long *fbp, long *tbp)
{
	long fb, tb, i;

	if (fs > fe || (fb = cfg_block_at(g, fs)) < 0 ||
	    (tb = cfg_block_at(g, fe)) < 0)
		return -1;
	if (external && fs == g->blocks[fb].start && fb > 0 &&
	    !(g->blocks[fb].flags & (CFG_ENTRY | CFG_LPAD)) &&
	    cfg_is_succ(g, (size_t)fb - 1, (size_t)fb) &&
	    (g->blocks[fb - 1].flags & (CFG_ENDS_CALL | CFG_ENDS_TAIL)))
		fb--;
	for (i = fb; i < tb; i++)
		if (!cfg_is_succ(g, (size_t)i, (size_t)i + 1))
			return -1;
	*fbp = fb;
	*tbp = tb;
	return 0;
}
