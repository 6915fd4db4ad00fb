/* report_flow.c - `tracesim report --from flow` (and a trace without a perf header): the
 * profile from the program flow (flow_profile.h; folded stacks and callgrind: out_paths.h),
 * written to stdout or -o DIR. report_int.h. */
#include "report_int.h"
#include "flow_profile.h"
#include "ts_file.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

int flow_report(const char *path, const nxd_cfg_t *cfg, bool wrapped, const char *elf, int hart, const char *format,
                const char *counter, const char *out_path, const char *out_file, bool required) {
    char err[4600];
    bool made = out_path && access(out_path, F_OK); /* a folder this call makes goes again if it writes nothing */
    if (out_path && ts_mkdir_p(out_path)) {
        fprintf(stderr, "tracesim: cannot create %s: %s\n", out_path, strerror(errno));
        return TS_EXIT_HOST;
    }
    FILE *out = out_path ? ts_fopen_output(out_file, "w", err, sizeof err) : stdout;
    if (!out) {
        fprintf(stderr, "tracesim: %s\n", err);
        if (made) rmdir(out_path);
        return TS_EXIT_HOST;
    }
    bool paths = !strcmp(format, "folded") || !strcmp(format, "callgrind");
    int rc = paths ? fpath_report(path, cfg, wrapped, elf, hart, counter, !strcmp(format, "callgrind"), out, err, sizeof err) : fp_report(path, cfg, wrapped, elf, hart, !strcmp(format, "csv"), out, err, sizeof err);
    int status = 0;
    if (rc == 1) {
        if (required) {
            if (hart >= 0) fprintf(stderr, "tracesim: no program trace of hart %d in %s\n", hart, path);
            else
                fprintf(stderr, "tracesim: no program trace in %s (run with --trace-insn btm|htm|htm-ret)\n", path);
        }
        status = required ? TS_EXIT_NO_FILE : -1;
    } else if (rc == -1) {
        fprintf(stderr, "tracesim: %s\n", err);
        status = TS_EXIT_NO_FILE;
    } else if (rc == -3) { /* fpath_report: a counter the flow does not have */
        fprintf(stderr, "tracesim: %s\n", err);
        status = TS_EXIT_USAGE;
    } else if (rc) {
        status = TS_EXIT_HOST;
    }
    char werr[4400];
    if (out != stdout) {
        if (status) ts_output_abort(out); /* the name keeps what it had */
        else if (ts_fclose_output(out, out_file, werr, sizeof werr)) {
            fprintf(stderr, "tracesim: %s\n", werr);
            status = TS_EXIT_HOST;
        }
        if (status && made) rmdir(out_path);
    } else if (status == TS_EXIT_HOST) {
        fprintf(stderr, "tracesim: writing the report to stdout failed\n");
    }
    return status;
}
