/* plot.c — `--plot FILE.svg`: a hand-written SVG of two panels, transfer bandwidth (GB/s) versus
 * transfer size and SGEMM GFLOP/s versus n, one polyline per series (device, direction and kind;
 * or device and library), log2 x axes. Every text is XML-escaped; the file is written atomically.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "util/fs.h"
#include "util/strbuf.h"

#define GP_PLOT_MAX_SERIES 32
#define GP_PLOT_MAX_POINTS 32

typedef struct gp_plot_series {
    char label[128];
    double x[GP_PLOT_MAX_POINTS], y[GP_PLOT_MAX_POINTS];
    int n;
} gp_plot_series;

/* Collects the series of one panel: results whose name starts with `prefix`; the series label is
 * the spec plus the name without prefix and its last component (the size). */
static int gp_plot_collect(const gp_bench_run *runs, size_t nruns, const char *prefix,
                           gp_plot_series *s, int cap)
{
    int ns = 0;
    size_t pl = strlen(prefix);
    for (size_t r = 0; r < nruns; r++)
        for (size_t i = 0; i < runs[r].count; i++) {
            const gp_bench_result *res = &runs[r].results[i];
            if (strncmp(res->name, prefix, pl) != 0 || isnan(res->median) || res->size <= 0)
                continue;
            char label[128];
            const char *dot = strrchr(res->name, '.');
            int len = (int)(dot - res->name - (int)pl);
            snprintf(label, sizeof label, "%s %.*s", runs[r].dev.info.spec, len < 0 ? 0 : len,
                     res->name + pl);
            int k = 0;
            while (k < ns && strcmp(s[k].label, label) != 0)
                k++;
            if (k == ns) {
                if (ns == cap) continue;
                memset(&s[ns], 0, sizeof s[ns]);
                snprintf(s[ns].label, sizeof s[ns].label, "%s", label);
                ns++;
            }
            if (s[k].n < GP_PLOT_MAX_POINTS) {
                s[k].x[s[k].n] = log2(res->size);
                s[k].y[s[k].n] = res->median;
                s[k].n++;
            }
        }
    return ns;
}

static const char *const gp_plot_colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                             "#9467bd", "#8c564b", "#e377c2", "#17becf"};

static void gp_plot_panel(gp_strbuf *sb, double ox, const char *title, const char *xlabel,
                          const char *ylabel, bool bytes, const gp_plot_series *s, int ns)
{
    const double w = 440, h = 300, oy = 50;
    double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
    for (int k = 0; k < ns; k++)
        for (int i = 0; i < s[k].n; i++) {
            xmin = fmin(xmin, s[k].x[i]);
            xmax = fmax(xmax, s[k].x[i]);
            ymax = fmax(ymax, s[k].y[i]);
        }
    gp_strbuf_printf(sb, "<g transform=\"translate(%.0f,%.0f)\">\n", ox, oy);
    gp_strbuf_printf(sb, "<text x=\"%.0f\" y=\"-20\" text-anchor=\"middle\" font-weight=\"bold\">",
                     w / 2);
    gp_strbuf_put_xml(sb, title);
    gp_strbuf_puts(sb, "</text>\n");
    gp_strbuf_printf(sb,
                     "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
                     "stroke=\"#888\"/>\n",
                     w, h);
    gp_strbuf_printf(sb, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">", w / 2, h + 40);
    gp_strbuf_put_xml(sb, xlabel);
    gp_strbuf_puts(sb, "</text>\n");
    gp_strbuf_printf(sb,
                     "<text transform=\"translate(-48,%.0f) rotate(-90)\" "
                     "text-anchor=\"middle\">",
                     h / 2);
    gp_strbuf_put_xml(sb, ylabel);
    gp_strbuf_puts(sb, "</text>\n");
    if (ns == 0) {
        gp_strbuf_printf(sb,
                         "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">no data</text>\n"
                         "</g>\n",
                         w / 2, h / 2);
        return;
    }
    if (xmax <= xmin) {
        xmin -= 1;
        xmax += 1;
    }
    if (ymax <= 0) ymax = 1;
    ymax *= 1.1;
    for (int t = 0; t <= 4; t++) { /* y ticks */
        double v = ymax * t / 4, y = h - h * t / 4;
        gp_strbuf_printf(sb,
                         "<line x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                         "<text x=\"-4\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%.3g"
                         "</text>\n",
                         y, w, y, y + 3, v);
    }
    for (double e = ceil(xmin); e <= xmax; e += (xmax - xmin > 12 ? 2 : 1)) { /* x ticks */
        double x = (e - xmin) / (xmax - xmin) * w;
        double v = exp2(e);
        char lab[32];
        if (bytes)
            snprintf(lab, sizeof lab, v >= 1048576 ? "%.0fM" : "%.0fK",
                     v >= 1048576 ? v / 1048576 : v / 1024);
        else
            snprintf(lab, sizeof lab, "%.0f", v);
        gp_strbuf_printf(sb,
                         "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" "
                         "font-size=\"10\">%s</text>\n",
                         x, h + 14, lab);
    }
    for (int k = 0; k < ns; k++) {
        const char *col = gp_plot_colors[k % 8];
        gp_strbuf_printf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                         col);
        for (int i = 0; i < s[k].n; i++)
            gp_strbuf_printf(sb, "%s%.1f,%.1f", i ? " " : "",
                             (s[k].x[i] - xmin) / (xmax - xmin) * w, h - s[k].y[i] / ymax * h);
        gp_strbuf_puts(sb, "\"/>\n");
        for (int i = 0; i < s[k].n; i++)
            gp_strbuf_printf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
                             (s[k].x[i] - xmin) / (xmax - xmin) * w, h - s[k].y[i] / ymax * h, col);
        gp_strbuf_printf(sb,
                         "<rect x=\"10\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                         "<text x=\"24\" y=\"%d\" font-size=\"11\">",
                         10 + 14 * k, col, 19 + 14 * k);
        gp_strbuf_put_xml(sb, s[k].label);
        gp_strbuf_puts(sb, "</text>\n");
    }
    gp_strbuf_puts(sb, "</g>\n");
}

char *gp_bench_plot_svg(const gp_bench_run *runs, size_t nruns)
{
    gp_plot_series *s = calloc(2 * GP_PLOT_MAX_SERIES, sizeof *s);
    if (!s) return NULL;
    int nt = gp_plot_collect(runs, nruns, "transfer.", s, GP_PLOT_MAX_SERIES);
    int ng = gp_plot_collect(runs, nruns, "gemm.", s + GP_PLOT_MAX_SERIES, GP_PLOT_MAX_SERIES);
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_puts(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1100\" height=\"420\" "
                        "viewBox=\"0 0 1100 420\" font-family=\"sans-serif\" font-size=\"12\">\n"
                        "<title>gpuport bench</title>\n"
                        "<rect width=\"1100\" height=\"420\" fill=\"white\"/>\n");
    gp_plot_panel(&sb, 70, "Host-device transfer", "transfer size (bytes)", "GB/s (median)", true,
                  s, nt);
    gp_plot_panel(&sb, 630, "SGEMM", "n (n x n x n)", "GFLOP/s (median)", false,
                  s + GP_PLOT_MAX_SERIES, ng);
    gp_strbuf_puts(&sb, "</svg>\n");
    free(s);
    return gp_strbuf_take(&sb);
}

int gp_bench_plot_write(const char *path, const gp_bench_run *runs, size_t nruns, char *err,
                        size_t errlen)
{
    char *svg = gp_bench_plot_svg(runs, nruns);
    if (!svg) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    char werr[400];
    int rc = gp_write_file_atomic(path, svg, strlen(svg), werr, sizeof werr);
    if (rc != 0) snprintf(err, errlen, "%s: %s", path, werr);
    free(svg);
    return rc;
}
