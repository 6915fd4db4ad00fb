/* ts_fst.h - what the project's FST glue (verilated_fst_glue.cpp) adds to Verilator's
 * VerilatedFstC interface. */
#ifndef TS_FST_H
#define TS_FST_H
#ifdef __cplusplus
extern "C" {
#endif
/* the message of the last FST file whose close failed on this thread ("PATH: reason"), NULL
 * if the last close succeeded; cleared when a file is opened. VerilatedFstC::close() returns
 * nothing, so a full disk would otherwise go unnoticed. */
const char *ts_fst_close_error(void);
#ifdef __cplusplus
}
#endif
#endif
