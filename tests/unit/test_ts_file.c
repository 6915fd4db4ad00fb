/* test_ts_file.c - a whole input read or mapped (ts_file.h: ts_input_open): the same bytes
 * either way, and a mapped input cut by another process while it is read ends the process
 * with one line and exit 121, the output it named removed, instead of dying of SIGBUS. */
#include "ts_file.h"
#include "ts_test.h"
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* a temporary file of n bytes i * 7 + 3 (mod 256); its path in path */
static void make_file(char *path, size_t pathlen, size_t n) {
    snprintf(path, pathlen, "/tmp/ts_file_test_XXXXXX");
    int fd = mkstemp(path);
    TS_ASSERT(fd >= 0);
    uint8_t *b = malloc(n ? n : 1);
    TS_ASSERT(b);
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)(i * 7 + 3);
    TS_ASSERT(write(fd, b, n) == (ssize_t)n);
    close(fd);
    free(b);
}

static void check_bytes(const ts_input_t *in, size_t n) {
    TS_ASSERT_EQ_U(in->len, n);
    for (size_t i = 0; i < n; i++)
        if (in->p[i] != (uint8_t)(i * 7 + 3)) TS_FAIL("byte %zu differs", i);
}

TS_TEST(small_file_is_read) {
    char path[64], err[256];
    make_file(path, sizeof path, 1000);
    ts_input_t in;
    TS_ASSERT_EQ_I(ts_input_open(&in, path, err, sizeof err), 0);
    TS_ASSERT(in.map == NULL);
    check_bytes(&in, 1000);
    TS_ASSERT_EQ_U(in.p[1000], 0); /* read: NUL-terminated */
    ts_input_close(&in);
    unlink(path);
}

TS_TEST(big_file_is_mapped) {
    char path[64], err[256];
    size_t n = TS_MAP_MIN + 12345;
    make_file(path, sizeof path, n);
    ts_input_t in;
    TS_ASSERT_EQ_I(ts_input_open(&in, path, err, sizeof err), 0);
    TS_ASSERT(in.map != NULL);
    check_bytes(&in, n);
    /* a second input while one is mapped is read */
    ts_input_t in2;
    TS_ASSERT_EQ_I(ts_input_open(&in2, path, err, sizeof err), 0);
    TS_ASSERT(in2.map == NULL);
    check_bytes(&in2, n);
    ts_input_close(&in2);
    ts_input_close(&in);
    /* and once it is closed, the next is mapped again */
    TS_ASSERT_EQ_I(ts_input_open(&in, path, err, sizeof err), 0);
    TS_ASSERT(in.map != NULL);
    ts_input_close(&in);
    unlink(path);
}

TS_TEST(not_a_regular_file_or_missing) {
    char err[256];
    ts_input_t in;
    TS_ASSERT_EQ_I(ts_input_open(&in, "/tmp", err, sizeof err), -1);
    TS_ASSERT(strstr(err, "is not a regular file"));
    TS_ASSERT_EQ_I(ts_input_open(&in, "/nonexistent/trace.rtd", err, sizeof err), -1);
    TS_ASSERT(strstr(err, "cannot open /nonexistent/trace.rtd"));
}

/* the input cut to nothing while mapped (another process truncating it): reading its last
 * page ends the process with exit 121 and one line, and the named output is gone */
TS_TEST(cut_while_mapped_is_one_line_and_exit_121) {
    char path[64], out[64], errp[64];
    size_t n = 3 * TS_MAP_MIN;
    make_file(path, sizeof path, n);
    make_file(out, sizeof out, 10);  /* the "output file" */
    make_file(errp, sizeof errp, 0); /* the child's stderr */
    fflush(NULL);
    pid_t pid = fork();
    TS_ASSERT(pid >= 0);
    if (pid == 0) {
        int fd = open(errp, O_WRONLY | O_TRUNC);
        if (fd < 0 || dup2(fd, 2) < 0) _exit(3);
        char err[256];
        ts_input_t in;
        if (ts_input_open(&in, path, err, sizeof err) || !in.map) _exit(4);
        ts_input_remove_on_cut(out);
        if (truncate(path, 0)) _exit(5);
        volatile uint8_t x = in.p[n - 1]; /* SIGBUS: the page is gone */
        (void)x;
        _exit(6); /* not reached */
    }
    int st;
    TS_ASSERT(waitpid(pid, &st, 0) == pid);
    if (!WIFEXITED(st)) TS_FAIL("the child died of signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : -1);
    TS_ASSERT_EQ_I(WEXITSTATUS(st), 121);
    struct stat sb;
    TS_ASSERT(stat(out, &sb) != 0); /* removed */
    FILE *f = fopen(errp, "r");
    TS_ASSERT(f);
    char line[512] = {0}, want[512];
    TS_ASSERT(fgets(line, sizeof line, f));
    fclose(f);
    snprintf(want, sizeof want, "tracesim: %s was cut while it was being read\n", path);
    TS_ASSERT_STR_EQ(line, want);
    unlink(path);
    unlink(errp);
}

/* the same with stderr a pipe nobody reads (SIGPIPE on the message): still exit 121, the
 * output removed */
TS_TEST(cut_while_mapped_with_stderr_a_closed_pipe) {
    char path[64], out[64];
    size_t n = 2 * TS_MAP_MIN;
    make_file(path, sizeof path, n);
    make_file(out, sizeof out, 10);
    int pfd[2];
    TS_ASSERT(pipe(pfd) == 0);
    close(pfd[0]); /* no reader */
    fflush(NULL);
    pid_t pid = fork();
    TS_ASSERT(pid >= 0);
    if (pid == 0) {
        if (dup2(pfd[1], 2) < 0) _exit(3);
        char err[256];
        ts_input_t in;
        if (ts_input_open(&in, path, err, sizeof err) || !in.map) _exit(4);
        ts_input_remove_on_cut(out);
        if (truncate(path, 0)) _exit(5);
        volatile uint8_t x = in.p[n - 1];
        (void)x;
        _exit(6);
    }
    close(pfd[1]);
    int st;
    TS_ASSERT(waitpid(pid, &st, 0) == pid);
    if (!WIFEXITED(st)) TS_FAIL("the child died of signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : -1);
    TS_ASSERT_EQ_I(WEXITSTATUS(st), 121);
    struct stat sb;
    TS_ASSERT(stat(out, &sb) != 0);
    unlink(path);
}

/* a SIGBUS that is not a fault in the mapping (sent by kill) is not taken for a cut: the
 * process dies of it as it would without the mapping */
TS_TEST(sigbus_sent_by_kill_is_not_a_cut) {
    char path[64];
    make_file(path, sizeof path, TS_MAP_MIN);
    fflush(NULL);
    pid_t pid = fork();
    TS_ASSERT(pid >= 0);
    if (pid == 0) {
        char err[256];
        ts_input_t in;
        if (ts_input_open(&in, path, err, sizeof err) || !in.map) _exit(4);
        kill(getpid(), SIGBUS);
        _exit(6); /* survived: wrong */
    }
    int st;
    TS_ASSERT(waitpid(pid, &st, 0) == pid);
    if (WIFEXITED(st)) TS_FAIL("the child exited %d instead of dying of SIGBUS", WEXITSTATUS(st));
    TS_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS);
    unlink(path);
}

TS_TEST_MAIN()
