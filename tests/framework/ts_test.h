/* ts_test.h - tracesim's tiny C test framework.
 *
 * A test file defines cases with TS_TEST(name) { ... } and ends with TS_TEST_MAIN(). The
 * binary runs one case by name (`./t case`), or all of them with no argument. CMake's
 * ts_add_test_file() registers one ctest test per case by scanning for TS_TEST(...).
 * Assertions print both sides and the location, then fail the case (the process exits 1).
 */
#ifndef TS_TEST_H
#define TS_TEST_H
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*ts_test_fn)(void);
struct ts_test_case {
    const char *name;
    ts_test_fn fn;
    struct ts_test_case *next;
};
extern struct ts_test_case *ts_test_list;
extern const char *ts_test_current;

#define TS_TEST(name)                                                   \
    static void ts_test_##name(void);                                   \
    __attribute__((constructor)) static void ts_test_reg_##name(void) { \
        static struct ts_test_case c = {#name, ts_test_##name, NULL};   \
        c.next = ts_test_list;                                          \
        ts_test_list = &c;                                              \
    }                                                                   \
    static void ts_test_##name(void)

#define TS_FAIL(...)                                                         \
    do {                                                                     \
        fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, ts_test_current); \
        fprintf(stderr, __VA_ARGS__);                                        \
        fputc('\n', stderr);                                                 \
        exit(1);                                                             \
    } while (0)

#define TS_ASSERT(cond)                                      \
    do {                                                     \
        if (!(cond)) TS_FAIL("assertion failed: %s", #cond); \
    } while (0)

#define TS_ASSERT_EQ_U(a, b)                                                                       \
    do {                                                                                           \
        uint64_t ts_a_ = (uint64_t)(a), ts_b_ = (uint64_t)(b);                                     \
        if (ts_a_ != ts_b_)                                                                        \
            TS_FAIL("%s == %s failed: 0x%" PRIx64 " (%" PRIu64 ") != 0x%" PRIx64 " (%" PRIu64 ")", \
                    #a, #b, ts_a_, ts_a_, ts_b_, ts_b_);                                           \
    } while (0)

#define TS_ASSERT_EQ_I(a, b)                                                           \
    do {                                                                               \
        int64_t ts_a_ = (int64_t)(a), ts_b_ = (int64_t)(b);                            \
        if (ts_a_ != ts_b_)                                                            \
            TS_FAIL("%s == %s failed: %" PRId64 " != %" PRId64, #a, #b, ts_a_, ts_b_); \
    } while (0)

#define TS_ASSERT_STR_EQ(a, b)                                                          \
    do {                                                                                \
        const char *ts_a_ = (a), *ts_b_ = (b);                                          \
        if (!ts_a_ || !ts_b_ || strcmp(ts_a_, ts_b_))                                   \
            TS_FAIL("%s == %s failed:\n  got:      \"%s\"\n  expected: \"%s\"", #a, #b, \
                    ts_a_ ? ts_a_ : "(null)", ts_b_ ? ts_b_ : "(null)");                \
    } while (0)

#define TS_ASSERT_MEM_EQ(a, b, n)                                                                     \
    do {                                                                                              \
        const unsigned char *ts_a_ = (const unsigned char *)(a), *ts_b_ = (const unsigned char *)(b); \
        size_t ts_n_ = (n);                                                                           \
        for (size_t ts_i_ = 0; ts_i_ < ts_n_; ts_i_++)                                                \
            if (ts_a_[ts_i_] != ts_b_[ts_i_])                                                         \
                TS_FAIL("%s and %s differ at byte %zu of %zu: 0x%02x != 0x%02x", #a, #b,              \
                        ts_i_, ts_n_, ts_a_[ts_i_], ts_b_[ts_i_]);                                    \
    } while (0)

int ts_test_main(int argc, char **argv);
#define TS_TEST_MAIN() \
    int main(int argc, char **argv) { return ts_test_main(argc, argv); }

#endif
