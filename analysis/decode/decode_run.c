/* decode_run.c - `tracesim decode` (decode.h): what the options say together, the inputs
 * (the run folder, the trace, the ELF, the trace's settings), the output file and the format
 * dispatch; the formats are in decode_msgs.c (messages), decode_perf.c (perf, csv, timeline,
 * perfetto) and decode_text.c (elements, instr, stm, itcprint), decode_int.h. */
#include "decode.h"
#include "decode_int.h"
#include "run_input.h"
#include "run_losses.h"
#include "elf_syms.h"
#include "ts_file.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

/* the formats: the file of -o DIR, whether the run's ELF is looked for, whether --time applies */
enum { F_MESSAGES,
       F_ELEMENTS,
       F_INSTR,
       F_ITCPRINT,
       F_PERF,
       F_CSV,
       F_TIMELINE,
       F_PERFETTO,
       F_STM };
static const struct {
    const char *name, *file;
    bool want_elf, timed;
} formats[] = {
    [F_MESSAGES] = {"messages", "messages.jsonl", false, false},
    [F_ELEMENTS] = {"elements", "elements.txt", false, false},
    [F_INSTR] = {"instr", "instr.txt", true, false},
    [F_ITCPRINT] = {"itcprint", "itcprint.txt", false, false},
    [F_PERF] = {"perf", NULL, true, false},
    [F_CSV] = {"csv", "perf.csv", true, true},
    [F_TIMELINE] = {"timeline", "timeline.json", true, true},
    [F_PERFETTO] = {"perfetto", "trace.pftrace", true, true},
    [F_STM] = {"stm", "stm.txt", false, false},
};
enum { NFORMATS = sizeof formats / sizeof formats[0] };

/* the format's decode: the exit status so far */
static int decode_format(int f, decode_job_t *j) {
    switch (f) {
    case F_MESSAGES: return decode_messages(j);
    case F_CSV:
    case F_TIMELINE: return decode_perf_stream(j, f == F_CSV);
    case F_PERFETTO: return decode_perfetto(j);
    case F_STM: return decode_stm(j);
    case F_ELEMENTS:
    case F_INSTR: return decode_elements(j, f == F_INSTR);
    default: return decode_itcprint(j);
    }
}

/* the options together: the format's index, or -1 with the one line on stderr */
static int decode_usage(const ts_decode_cfg_t *c) {
    int f = 0;
    while (f < NFORMATS && strcmp(c->format, formats[f].name)) f++;
    if (f == NFORMATS) {
        fprintf(stderr, "tracesim: unknown format '%s' (messages, elements, instr, itcprint, perf, csv, timeline, perfetto, stm)\n", c->format);
        return -1;
    }
    if (c->time_cycles >= 0 && !formats[f].timed) {
        fprintf(stderr, "tracesim: --time is for --format csv, timeline and perfetto\n");
        return -1;
    }
    if (!c->input) {
        fprintf(stderr, "tracesim: decode needs exactly one run folder or trace file (see tracesim decode --help)\n");
        return -1;
    }
    if (f == F_INSTR && !c->elf && !ts_is_dir(c->input)) {
        fprintf(stderr, "tracesim: --format instr needs the program: --elf FILE (or give the run folder)\n");
        return -1;
    }
    struct stat osb;
    if (c->out_dir && (!*c->out_dir || (!stat(c->out_dir, &osb) && !S_ISDIR(osb.st_mode)))) {
        fprintf(stderr, "tracesim: decode -o takes an output folder, not a file: '%s'\n", c->out_dir);
        return -1;
    }
    return f;
}

/* the trace's settings (trace.json beside it, the command line), the out-of-band perf
 * header, where a wrapped buffer's decoding starts, and the test that the file is a trace;
 * the notes on what the trace lacks. 0, or the exit status with the one line on stderr. */
static int decode_open(decode_job_t *j, int *srcbits, int *tssize, int perf_channel) {
    char err[4600];
    const char *path = j->path;
    unsigned harts; /* trace.json beside the trace */
    if (ts_trace_harts(path, srcbits, tssize, j->hart, &harts, NULL, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_USAGE;
    }
    j->srcbits = *srcbits;
    j->tssize = *tssize;
    j->cfg = (nxd_cfg_t){(unsigned)*srcbits, (unsigned)*tssize};
    /* the perf header out of band; its channel unless --perf-channel says otherwise */
    int ncfg = 0;
    unsigned cfg_channel = 6;
    if (j->cfg_path) {
        ncfg = ts_read_perf_config(j->cfg_path, j->cfgh_buf, PERF_MAX_CORES, &cfg_channel, err, sizeof err);
        if (ncfg < 0) {
            fprintf(stderr, "tracesim: %s\n", err);
            return TS_EXIT_NO_FILE;
        }
    }
    j->cfgh = j->cfgh_buf;
    j->ncfg = ncfg;
    j->perf_channel = perf_channel < 0 ? (int)cfg_channel : perf_channel;
    /* a wrapped buffer starts in the middle of a message: decode from the first message end */
    ts_trace_info(path, &j->ti);
    j->start = j->ti.wrapped ? ts_wrap_start(j->data, j->len) : 0;
    if (j->ti.wrapped) ts_wrap_note(path, &j->ti, j->start);
    uint64_t nbad[2];
    if (not_a_trace(&j->cfg, j->data + j->start, j->len - j->start, nbad)) {
        fprintf(stderr, "tracesim: %s is not a trace: %" PRIu64 " of the first %" PRIu64 " messages cannot be decoded (srcbits %d, "
                        "tssize %d; a trace.rtd of tracesim run is one)\n",
                path, nbad[1], nbad[0], *srcbits, *tssize);
        return TS_EXIT_NO_FILE;
    }
    /* what the trace lacks, from the run folder's ground truth */
    ts_losses_t loss;
    char lerr[512];
    if (!ts_losses_read_for_trace(path, j->perf_channel, &loss, lerr, sizeof lerr)) {
        loss.wrapped = false;                   /* the note above */
        loss.by_status[TS_ITC_ENCODER_OFF] = 0; /* never meant for the trace */
        ts_losses_print(stderr, "tracesim: note: ", &loss);
    }
    if (j->ti.found && j->len < j->ti.bytes)
        fprintf(stderr, "tracesim: note: %s holds %zu of the %" PRIu64 " bytes the sink kept (trace.json): the file was cut; "
                        "a record at the cut is marked truncated\n",
                path, j->len, j->ti.bytes);
    return 0;
}

/* the trace (mapped in in) decoded in format f into stdout or the file of -o: the exit status */
static int decode_output(decode_job_t *j, int f) {
    int rc = decode_open(j, &j->srcbits, &j->tssize, j->perf_channel);
    if (rc) return rc;
    if (f == F_PERF) return decode_perf_files(j);
    char opath[4200], err[4600];
    FILE *out = stdout;
    if (j->out_dir) {
        if (ts_mkdir_p(j->out_dir)) {
            fprintf(stderr, "tracesim: cannot create %s: %s\n", j->out_dir, strerror(errno));
            return TS_EXIT_HOST;
        }
        snprintf(opath, sizeof opath, "%s/%s", j->out_dir, formats[f].file);
        out = ts_fopen_output(opath, "w", err, sizeof err); /* a temporary file, renamed at the end */
        if (!out) {
            fprintf(stderr, "tracesim: %s\n", err);
            return TS_EXIT_HOST;
        }
        ts_input_remove_on_cut(ts_output_tmp_name(out)); /* the trace cut by another process meanwhile: no half file */
    }
    /* one big output buffer: a write per MiB, not per 4 KiB (write errors stay sticky in the
     * stream: ts_fclose_output, and main's ts_check_stdout for stdout). stdout's buffer is
     * stdout's for the rest of the process (setvbuf), so it is the one buffer made once. */
    static char *stdout_buf;
    char *obuf = NULL;
    if (f == F_MESSAGES) setvbuf(out, NULL, _IONBF, 0); /* msg_json's own 1 MiB blocks go out uncopied */
    else if (out == stdout) {
        if (stdout_buf || (stdout_buf = malloc(1 << 20))) setvbuf(stdout, stdout_buf, _IOFBF, 1 << 20);
    } else if ((obuf = malloc(1 << 20)))
        setvbuf(out, obuf, _IOFBF, 1 << 20);
    j->out = out;
    rc = decode_format(f, j);
    if (j->abort_out) { /* an error before the output was complete: no half file */
        if (out != stdout) ts_output_abort(out);
        free(obuf);
        return rc;
    }
    char werr[4400];
    if (out != stdout && ts_fclose_output(out, opath, werr, sizeof werr)) { /* a full disk is never a silent short file */
        fprintf(stderr, "tracesim: %s\n", werr);
        rc = TS_EXIT_HOST;
    }
    free(obuf);
    fflush(stdout);
    return rc;
}

int ts_decode_run(const ts_decode_cfg_t *c) {
    int f = decode_usage(c);
    if (f < 0) return TS_EXIT_USAGE;
    bool want_instr = f == F_INSTR;
    ts_run_input_t *ri = calloc(1, sizeof *ri); /* the run folder, the trace and the ELF (run_input.h) */
    decode_job_t *j = calloc(1, sizeof *j);
    if (!ri || !j) {
        fprintf(stderr, "tracesim: out of memory\n");
        free(ri);
        free(j);
        return TS_EXIT_HOST;
    }
    int rc = ts_run_input(ri, c->input, c->elf, formats[f].want_elf);
    char err[4600];
    ts_input_t in = {0}; /* mapped when big: no copy (ts_file.h) */
    bool opened = false;
    if (!rc && ts_input_open(&in, ri->ra.trace, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        rc = TS_EXIT_NO_FILE;
    } else if (!rc)
        opened = true;
    if (!rc && ri->no_elf[0] && want_instr) { /* the flow cannot be followed without the program */
        fprintf(stderr, "tracesim: --format instr: %s; give the program: --elf FILE\n", ri->no_elf);
        rc = TS_EXIT_NO_FILE;
    } else if (!rc && ri->no_elf[0]) {
        fprintf(stderr, "tracesim: warning: %s: addresses are not named\n", ri->no_elf);
    }
    if (!rc && ri->elf) { /* the ELF readable before any output is made */
        elf_syms_t chk;
        if (elf_syms_load(&chk, ri->elf, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            rc = TS_EXIT_NO_FILE;
        } else
            elf_syms_free(&chk);
    }
    if (!rc) {
        j->path = ri->ra.trace;
        j->elf = ri->elf;
        j->cfg_path = c->cfg_path;
        j->out_dir = c->out_dir;
        j->data = in.p;
        j->len = in.len;
        j->srcbits = c->srcbits;
        j->tssize = c->tssize;
        j->hart = c->hart;
        j->channel = c->channel;
        j->perf_channel = c->perf_channel;
        j->time_cycles = c->time_cycles;
        j->tick_hz = c->tick_hz;
        j->value_time = c->value_time;
        j->first_rec = UINT64_MAX;
        rc = decode_output(j, f);
    }
    if (opened) ts_input_close(&in);
    free(j);
    free(ri);
    return rc;
}
