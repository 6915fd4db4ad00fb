/* test_runfolder_io.c - the run-folder I/O module's writer and strict reader (runfolder/ts_file.h,
 * issue 34 items 1 to 3): an output goes to a temporary file beside its name and is renamed
 * over it, so a link planted under the name is replaced (its target keeps its content and
 * mode), a FIFO never blocks, a folder is refused with one line, a write error or an abort
 * leaves the name as it was and no temporary file; a script gets its mode by fchmod; a
 * run-folder file is read without following a link and refused over its size cap. */
#include "ts_file.h"
#include "ts_test.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void mkdtemp_or_die(char *dir, size_t n) {
    snprintf(dir, n, "/tmp/ts_rfio_XXXXXX");
    TS_ASSERT(mkdtemp(dir) != NULL);
}

static void put(const char *path, const char *text, mode_t mode) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    TS_ASSERT(fd >= 0);
    TS_ASSERT(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    chmod(path, mode);
}

static char *slurp(const char *path) {
    static char b[4096];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    ssize_t n = read(fd, b, sizeof b - 1);
    close(fd);
    b[n < 0 ? 0 : n] = 0;
    return b;
}

/* the files of dir other than the given ones (temporary files left behind) */
static int others(const char *dir, const char *a, const char *b) {
    DIR *d = opendir(dir);
    TS_ASSERT(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, a) && strcmp(e->d_name, b)) n++;
    closedir(d);
    return n;
}

static void rm_rf(const char *dir) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    TS_ASSERT(system(cmd) == 0);
}

TS_TEST(link_under_the_name_is_replaced_not_followed) {
    char dir[64], out[128], canary[128], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/outside", dir);
    TS_ASSERT(mkdir(out, 0755) == 0);
    snprintf(canary, sizeof canary, "%s/canary", out);
    put(canary, "canary\n", 0600);
    snprintf(name, sizeof name, "%s/markers.txt", dir);
    TS_ASSERT(symlink(canary, name) == 0);
    FILE *f = ts_fopen_output(name, "w", err, sizeof err);
    TS_ASSERT(f != NULL);
    fputs("new\n", f);
    TS_ASSERT_EQ_I(ts_fclose_output(f, name, err, sizeof err), 0);
    struct stat sb;
    TS_ASSERT(lstat(name, &sb) == 0 && S_ISREG(sb.st_mode));
    TS_ASSERT_STR_EQ(slurp(name), "new\n");
    TS_ASSERT_STR_EQ(slurp(canary), "canary\n");
    TS_ASSERT(stat(canary, &sb) == 0);
    TS_ASSERT_EQ_U(sb.st_mode & 07777, 0600);
    TS_ASSERT_EQ_I(others(dir, "markers.txt", "outside"), 0);
    rm_rf(dir);
}

TS_TEST(fifo_under_the_name_never_blocks) {
    char dir[64], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(name, sizeof name, "%s/report.txt", dir);
    TS_ASSERT(mkfifo(name, 0644) == 0);
    FILE *f = ts_fopen_output(name, "w", err, sizeof err);
    TS_ASSERT(f != NULL);
    fputs("report\n", f);
    TS_ASSERT_EQ_I(ts_fclose_output(f, name, err, sizeof err), 0);
    struct stat sb;
    TS_ASSERT(lstat(name, &sb) == 0 && S_ISREG(sb.st_mode));
    rm_rf(dir);
}

TS_TEST(folder_under_the_name_is_one_line_and_no_temporary) {
    char dir[64], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(name, sizeof name, "%s/stats.txt", dir);
    TS_ASSERT(mkdir(name, 0755) == 0);
    FILE *f = ts_fopen_output(name, "w", err, sizeof err);
    TS_ASSERT(f != NULL);
    fputs("x\n", f);
    TS_ASSERT_EQ_I(ts_fclose_output(f, name, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "stats.txt: it is a folder") != NULL);
    TS_ASSERT(strchr(err, '\n') == NULL);
    TS_ASSERT_EQ_I(others(dir, "stats.txt", "-"), 0);
    rm_rf(dir);
}

TS_TEST(write_error_or_abort_keeps_the_old_file) {
    char dir[64], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(name, sizeof name, "%s/itc.csv", dir);
    put(name, "old\n", 0644);
    setenv("TRACESIM_TEST_FULL", "itc.csv", 1); /* the full disk of the tests */
    FILE *f = ts_fopen_output(name, "w", err, sizeof err);
    unsetenv("TRACESIM_TEST_FULL");
    TS_ASSERT(f != NULL);
    for (int i = 0; i < 10000; i++) fputs("a row that does not fit\n", f);
    TS_ASSERT_EQ_I(ts_fclose_output(f, name, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "No space left on device") != NULL);
    TS_ASSERT_STR_EQ(slurp(name), "old\n");
    f = ts_fopen_output(name, "w", err, sizeof err);
    TS_ASSERT(f != NULL);
    fputs("half", f);
    ts_output_abort(f);
    TS_ASSERT_STR_EQ(slurp(name), "old\n");
    TS_ASSERT_EQ_I(others(dir, "itc.csv", "-"), 0);
    rm_rf(dir);
}

TS_TEST(script_mode_by_fchmod_and_umask) {
    char dir[64], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(name, sizeof name, "%s/symfilter.sh", dir);
    mode_t old = umask(022);
    FILE *f = ts_fopen_output(name, "wx", err, sizeof err);
    TS_ASSERT(f != NULL);
    fputs("#!/bin/sh\n", f);
    TS_ASSERT_EQ_I(ts_fclose_output(f, name, err, sizeof err), 0);
    umask(old);
    struct stat sb;
    TS_ASSERT(stat(name, &sb) == 0);
    TS_ASSERT_EQ_U(sb.st_mode & 07777, 0755);
    rm_rf(dir);
}

TS_TEST(descriptor_output_renamed_at_close) {
    char dir[64], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(name, sizeof name, "%s/view.gtkw", dir);
    TS_ASSERT(symlink("/dev/zero", name) == 0);
    int fd = ts_open_output(name, 0666, err, sizeof err);
    TS_ASSERT(fd >= 0);
    TS_ASSERT(write(fd, "[*] view\n", 9) == 9);
    TS_ASSERT_EQ_I(ts_close_output(fd, name, err, sizeof err), 0);
    TS_ASSERT_STR_EQ(slurp(name), "[*] view\n");
    rm_rf(dir);
}

TS_TEST(reader_refuses_a_link_in_a_run_folder) {
    char dir[64], real[128], name[128], other[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(real, sizeof real, "%s/real", dir);
    put(real, "elf x\n", 0644);
    snprintf(name, sizeof name, "%s/stats.txt", dir);
    TS_ASSERT(symlink(real, name) == 0);
    TS_ASSERT_EQ_I(ts_open_input(name, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "stats.txt is a link") != NULL);
    snprintf(other, sizeof other, "%s/my.elf", dir); /* not a run-folder file: a link is fine */
    TS_ASSERT(symlink(real, other) == 0);
    int fd = ts_open_input(other, err, sizeof err);
    TS_ASSERT(fd >= 0);
    close(fd);
    rm_rf(dir);
}

TS_TEST(reader_caps_a_run_folder_file) {
    char dir[64], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(name, sizeof name, "%s/trace.json", dir);
    int fd = open(name, O_WRONLY | O_CREAT, 0644);
    TS_ASSERT(fd >= 0 && ftruncate(fd, (off_t)2 << 20) == 0); /* sparse, 2 MiB > 1 MiB */
    close(fd);
    TS_ASSERT_EQ_I(ts_open_input(name, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "trace.json is 2097152 bytes: more than a run folder's trace.json can be (1 MiB)") != NULL);
    const ts_run_file_t *rf = ts_run_file(name);
    TS_ASSERT(rf && rf->cap == 1u << 20);
    rm_rf(dir);
}

TS_TEST(may_replace_only_own_outputs) {
    char dir[64], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(name, sizeof name, "%s/r.log", dir);
    TS_ASSERT_EQ_I(ts_output_may_replace(name, "run", 0, NULL, err, sizeof err), 0); /* absent */
    put(name, "my notes\n", 0644);
    TS_ASSERT_EQ_I(ts_output_may_replace(name, "run", 0, NULL, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "use --force") != NULL);
    TS_ASSERT_EQ_I(ts_output_may_replace(name, "run", 1, NULL, err, sizeof err), 0); /* --force */
    rm_rf(dir);
}

/* every CSV of a run folder a command reads starts with its header (run_files.def): a wrong
 * or missing header is one FILE:1 line; several harts' "hart," and events.csv's prefix pass */
TS_TEST(run_folder_check_validates_csv_headers) {
    char dir[64], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(name, sizeof name, "%s/counters.csv", dir);
    put(name, "cycle,hart,pc,csr,value\n1,0,0x00000000,cycle,0x00000001\n", 0644);
    snprintf(name, sizeof name, "%s/hpm.csv", dir);
    put(name, "hart,counter,csr,mhpmevent,events,width,value\n", 0644);
    snprintf(name, sizeof name, "%s/events.csv", dir);
    put(name, "cycle,instret,exception,load\n1,1,0,0\n", 0644);
    snprintf(name, sizeof name, "%s/marks.csv", dir);
    put(name, "", 0644); /* may be empty (run_files.def) */
    TS_ASSERT_EQ_I(ts_run_folder_check(dir, err, sizeof err), 0);
    snprintf(name, sizeof name, "%s/flow.csv", dir);
    put(name, "cycle,hart,kind,pc,target\n", 0644); /* a column short */
    TS_ASSERT_EQ_I(ts_run_folder_check(dir, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "/flow.csv:1: not the header of flow.csv (cycle,hart,kind,pc,target,link[,tp])") != NULL);
    put(name, "", 0644); /* must have its header */
    TS_ASSERT_EQ_I(ts_run_folder_check(dir, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "/flow.csv:1: empty") != NULL);
    put(name, "cycle,hart,kind,pc,target,link\n", 0644);
    snprintf(name, sizeof name, "%s/events.csv", dir);
    put(name, "instret,cycle\n", 0644);
    TS_ASSERT_EQ_I(ts_run_folder_check(dir, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "/events.csv:1: not the header") != NULL);
    put(name, "cycle,instret,load\n", 0644);
    snprintf(name, sizeof name, "%s/itc.csv", dir); /* status: an optional last column */
    put(name, "cycle,hart,stimulus,offset,size,value\n", 0644);
    TS_ASSERT_EQ_I(ts_run_folder_check(dir, err, sizeof err), 0);
    put(name, "cycle,hart,stimulus,offset,size,value,status\n", 0644);
    TS_ASSERT_EQ_I(ts_run_folder_check(dir, err, sizeof err), 0);
    put(name, "cycle,hart,stimulus,offset,size,value,stat\n", 0644);
    TS_ASSERT_EQ_I(ts_run_folder_check(dir, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "/itc.csv:1: not the header of itc.csv") != NULL);
    rm_rf(dir);
}

/* run -o DIR: a folder of a user's under run's file names is refused unless it is a previous
 * run folder (recognised by a first line run writes) or --force */
TS_TEST(run_folder_replaced_only_when_previous_run) {
    char dir[64], name[128], err[512];
    mkdtemp_or_die(dir, sizeof dir);
    snprintf(name, sizeof name, "%s/notes.txt", dir);
    put(name, "mine\n", 0644); /* no file of run's: written into */
    TS_ASSERT_EQ_I(ts_run_folder_may_replace(dir, 0, err, sizeof err), 0);
    snprintf(name, sizeof name, "%s/stats.txt", dir);
    put(name, "precious\n", 0644);
    TS_ASSERT_EQ_I(ts_run_folder_may_replace(dir, 0, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "holds stats.txt and is not a previous run folder of tracesim run (use --force") != NULL);
    TS_ASSERT_EQ_I(ts_run_folder_may_replace(dir, 1, err, sizeof err), 0); /* --force */
    snprintf(name, sizeof name, "%s/trace.json", dir);
    put(name, "{\"format\": \"not ours\"}\n", 0644);
    TS_ASSERT_EQ_I(ts_run_folder_may_replace(dir, 0, err, sizeof err), -1);
    put(name, "{\n  \"format\": \"tracesim-trace-1\",\n", 0644);
    TS_ASSERT_EQ_I(ts_run_folder_may_replace(dir, 0, err, sizeof err), 0);
    unlink(name);
    snprintf(name, sizeof name, "%s/stats.txt", dir);
    put(name, "elf /x/fib.elf\nelf_rel ../fib.elf\n", 0644);
    TS_ASSERT_EQ_I(ts_run_folder_may_replace(dir, 0, err, sizeof err), 0);
    rm_rf(dir);
}

TS_TEST_MAIN()
