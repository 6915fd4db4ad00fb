/* rv64_test.h - the RV64 conformance tests' C side (start.S, rv64_support.c). */
#ifndef RV64_TEST_H
#define RV64_TEST_H
#include <stdint.h>
__attribute__((noreturn)) void rv64_exit(int status);
__attribute__((noreturn)) void rv64_fail(uint64_t n, uint64_t got, uint64_t expected);
void rv64_puts(const char *s);
int main(void);
void secondary_main(unsigned long hartid);
#define CSR_READ(csr) ({ uint64_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define CSR_WRITE(csr, v) __asm__ volatile("csrw " #csr ", %0" ::"r"((uint64_t)(v)))
#define CHECK_EQ(n, got, exp)                 \
    do {                                      \
        uint64_t g_ = (got), e_ = (exp);      \
        if (g_ != e_) rv64_fail((n), g_, e_); \
    } while (0)
#endif
