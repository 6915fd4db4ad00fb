/* check.h - CHECK_EQ for the C firmware tests: prints both values and exits 1 on mismatch. */
#ifndef TS_FW_CHECK_H
#define TS_FW_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#define CHECK_EQ(got, expected)                                                           \
    do {                                                                                  \
        unsigned long g_ = (unsigned long)(got), e_ = (unsigned long)(expected);          \
        if (g_ != e_) {                                                                   \
            printf("FAIL %s:%d: %s = 0x%08lx, expected %s = 0x%08lx\n", __FILE__, __LINE__, \
                   #got, g_, #expected, e_);                                              \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)
#endif
