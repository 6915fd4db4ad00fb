/* fuzz_stm.c - libFuzzer target over the software trace port decoding: bytes -> Nexus
 * messages -> generic elements -> the text of --format stm and the timeline's thread slices
 * and events (stm_decode.h), both written to /dev/null. The first input byte chooses the SRC
 * width and the timestamp width. A crash, hang, leak or out-of-bounds access is a failure
 * (tests/stm/decode.cmake: fuzz.stm). */
#include <stdio.h>
#include "elements.h"
#include "stm_decode.h"

typedef struct fctx {
    stm_text_t *t;
    stm_tl_t *tl;
} fctx_t;

static int on_elem(void *vctx, const ts_elem_t *e) {
    fctx_t *c = vctx;
    return stm_text_elem(c->t, e) | stm_tl_elem(c->tl, e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    nxd_cfg_t cfg = {data[0] % 9, 8 + (data[0] >> 3) % 57};
    nxd_t d;
    if (nxd_init(&d, &cfg)) return 0;
    FILE *devnull = fopen("/dev/null", "w");
    if (!devnull) return 0;
    stm_text_t t;
    stm_tl_t tl;
    bool first = true;
    stm_text_init(&t, devnull);
    ts_tl_time_t tt = {false, 0, 0.01};
    stm_tl_init(&tl, devnull, &first, &tt);
    fctx_t c = {&t, &tl};
    ts_elem_stage_t es;
    ts_elem_init(&es, on_elem, &c);
    size_t half = (size - 1) / 2; /* two pieces: the state carries over */
    nxd_decode(&d, data + 1, half, ts_elem_from_msg, &es);
    nxd_decode(&d, data + 1 + half, size - 1 - half, ts_elem_from_msg, &es);
    ts_elem_eot(&es, size - 1);
    stm_tl_finish(&tl);
    stm_text_free(&t);
    fclose(devnull);
    return 0;
}
