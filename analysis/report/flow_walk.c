/* flow_walk.c - one pass of the program flow over a trace (flow_walk.h). */
#include "flow_walk.h"
#include "trace_in.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int flow_walk(flow_walk_t *w, const char *elf, const char *path, const nxd_cfg_t *cfg, bool wrapped, const fc_hooks_t *h,
              char *err, size_t errlen) {
    memset(w, 0, sizeof *w);
    pf_image_t *img = calloc(1, sizeof *img);
    elf_syms_t *syms = calloc(1, sizeof *syms);
    if (!img || !syms) {
        free(img);
        free(syms);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (pf_image_load(img, elf, err, errlen)) {
        free(img);
        free(syms);
        return -1;
    }
    if (elf_syms_load(syms, elf, err, errlen)) {
        pf_image_free(img);
        free(img);
        free(syms);
        return -1;
    }
    w->img = img;
    w->syms = syms;
    ts_trace_in_t *tin = calloc(1, sizeof *tin);
    if (!tin) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    fc_init(&w->fc, img, syms, h);
    w->fc_live = true;
    if (ts_trace_in_open(tin, path, cfg, wrapped)) {
        snprintf(err, errlen, "cannot read %s", path);
        free(tin);
        return -1;
    }
    ts_trace_in_all(tin, fc_msg, &w->fc);
    fc_eot(&w->fc, tin->end);
    ts_trace_in_close(tin);
    free(tin);
    return 0;
}

void flow_walk_free(flow_walk_t *w) {
    if (w->fc_live) fc_free(&w->fc);
    w->fc_live = false;
    if (w->img) {
        pf_image_free(w->img);
        free(w->img);
    }
    if (w->syms) {
        elf_syms_free(w->syms);
        free(w->syms);
    }
    w->img = NULL;
    w->syms = NULL;
}
