#include "heatmap.h"
void svg_write(const struct hmap *m, const struct hview *v, const struct svgopt *o, FILE *fp) { (void)m; (void)v; (void)o; (void)fp; }
