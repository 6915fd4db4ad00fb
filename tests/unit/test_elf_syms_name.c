/* test_elf_syms_name.c - elf_syms_by_name: a function found by its name, also when GCC kept
 * one renamed copy (-O2 -flto: perfWriteCntrs.isra.0), never a piece that is not an entry. */
#include "elf_syms.h"
#include "ts_test.h"
#include <stddef.h>

#define TABLE(...)                  \
    elf_sym_t s_[] = {__VA_ARGS__}; \
    elf_syms_t t = {s_, sizeof s_ / sizeof s_[0]}

TS_TEST(exact_name_first) {
    TABLE({0x100, 8, "perfWriteCntrs.isra.0"}, {0x200, 8, "perfWriteCntrs"}, {0x300, 8, "main"});
    const elf_sym_t *e = elf_syms_by_name(&t, "perfWriteCntrs");
    TS_ASSERT(e != NULL);
    TS_ASSERT_EQ_U(e->addr, 0x200);
}

TS_TEST(one_renamed_copy) {
    TABLE({0x100, 8, "main"}, {0x180, 8, "perfWriteCntrsX"}, {0x200, 8, "perfWriteCntrs.isra.0"});
    const elf_sym_t *e = elf_syms_by_name(&t, "perfWriteCntrs");
    TS_ASSERT(e != NULL);
    TS_ASSERT_EQ_U(e->addr, 0x200);
}

TS_TEST(clone_suffixes) {
    static const char *const ok[] = {"f.isra.0", "f.constprop.12", "f.lto_priv.0", "f.constprop.0.isra.0", "f.isra.3.lto_priv.1"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        TABLE({0x40, 4, (char *)ok[i]});
        TS_ASSERT(elf_syms_by_name(&t, "f") == &s_[0]);
    }
    /* not entries of f, or not f at all */
    static const char *const no[] = {"f.part.0", "f.cold", "f.isra", "f.isra.", "f.isra.0x", "ff.isra.0", "f.isra.0.part.1", "g.isra.0", "f."};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        TABLE({0x40, 4, (char *)no[i]});
        TS_ASSERT(elf_syms_by_name(&t, "f") == NULL);
    }
}

TS_TEST(several_copies_no_entry) {
    TABLE({0x100, 8, "f.isra.0"}, {0x200, 8, "f.constprop.0"});
    TS_ASSERT(elf_syms_by_name(&t, "f") == NULL);
    /* the same copy twice (two symbols, one address) is one entry */
    elf_sym_t s2[] = {{0x100, 8, "f.isra.0"}, {0x100, 8, "f.isra.0"}};
    elf_syms_t t2 = {s2, 2};
    TS_ASSERT(elf_syms_by_name(&t2, "f") == &s2[0] || elf_syms_by_name(&t2, "f") == &s2[1]);
}

TS_TEST(missing) {
    TABLE({0x100, 8, NULL}, {0x200, 8, "main"});
    TS_ASSERT(elf_syms_by_name(&t, "perfWriteCntrs") == NULL);
    elf_syms_t empty = {NULL, 0};
    TS_ASSERT(elf_syms_by_name(&empty, "main") == NULL);
}

TS_TEST_MAIN()
