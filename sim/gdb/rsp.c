/* rsp.c - GDB remote serial protocol transport (rsp.h). */
#define _GNU_SOURCE
#include "rsp.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void rsp_init(rsp_t *r, FILE *log) {
    memset(r, 0, sizeof *r);
    r->lfd = r->fd = -1;
    r->log = log;
}

int rsp_listen(rsp_t *r, unsigned port, unsigned *bound, char *err, size_t errlen) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* 127.0.0.1 only */
    socklen_t al = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 1) || getsockname(fd, (struct sockaddr *)&a, &al)) {
        snprintf(err, errlen, "cannot listen on 127.0.0.1:%u: %s", port, strerror(errno));
        close(fd);
        return -1;
    }
    r->lfd = fd;
    *bound = ntohs(a.sin_port);
    return 0;
}

int rsp_accept(rsp_t *r, char *err, size_t errlen) {
    /* a signal (Ctrl-C on tracesim with a handler installed) ends the wait: the run goes on
     * without the debugger and the handler's owner decides */
    int fd = accept4(r->lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "accept: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    close(r->lfd); /* one debugger per run */
    r->lfd = -1;
    r->fd = fd;
    r->st = RSP_IDLE;
    r->in_pos = r->in_len = 0;
    return 0;
}

static bool send_all(rsp_t *r, const char *p, size_t n) {
    while (n && r->fd >= 0) {
        ssize_t k = send(r->fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            rsp_close(r);
            return false;
        }
        p += k;
        n -= (size_t)k;
    }
    return r->fd >= 0;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* fills r->in; false when the connection is closed (or, !block, nothing is waiting) */
static int fill(rsp_t *r, bool block) {
    if (r->fd < 0) return -1;
    for (;;) {
        ssize_t k = recv(r->fd, r->in, sizeof r->in, block ? 0 : MSG_DONTWAIT);
        if (k > 0) {
            r->in_pos = 0;
            r->in_len = (size_t)k;
            return 1;
        }
        if (k < 0 && errno == EINTR && !block) continue; /* blocking: a signal ends the wait (rsp_accept) */
        if (k < 0 && !block && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        return -1;
    }
}

enum rsp_ev rsp_get(rsp_t *r, bool block) {
    for (;;) {
        if (r->in_pos == r->in_len) {
            int f = fill(r, block);
            if (f == 0) return RSP_NONE;
            if (f < 0) {
                if (r->fd >= 0 && r->st != RSP_IDLE && r->st != RSP_SKIP && r->log)
                    fprintf(r->log, "tracesim: gdb: the connection closed in the middle of a packet\n");
                rsp_close(r);
                return RSP_CLOSED;
            }
        }
        int c = r->in[r->in_pos++];
        switch (r->st) {
        case RSP_IDLE:
            if (c == '$') {
                r->st = RSP_DATA;
                r->len = 0;
                r->sum = 0;
            } else if (c == 0x03)
                return RSP_INTERRUPT;
            else if (c == '-') { /* our last packet arrived damaged: again, a few times */
                if (r->last_len && r->resends++ < 3) send_all(r, r->last, r->last_len);
            } else if (c != '+') {
                if (!r->garbage++ && r->log)
                    fprintf(r->log, "tracesim: gdb: ignoring bytes outside a packet (0x%02x ...)\n", c);
            }
            break;
        case RSP_SKIP: /* the rest of a packet too long to keep */
            if (c == '#') r->st = RSP_CS1;
            break;
        case RSP_DATA:
            if (c == '#') {
                r->st = RSP_CS1;
                break;
            }
            r->sum = (uint8_t)(r->sum + c);
            if (c == '$') { /* a new packet start inside a packet: the old one is lost */
                if (r->log) fprintf(r->log, "tracesim: gdb: packet restarted before its end; dropped\n");
                r->len = 0;
                r->sum = 0;
                break;
            }
            if (r->len == RSP_PKT_MAX) {
                r->too_long++;
                if (r->log) fprintf(r->log, "tracesim: gdb: packet longer than %u bytes dropped\n", RSP_PKT_MAX);
                r->st = RSP_SKIP;
                r->len = (size_t)-1;
                break;
            }
            r->pkt[r->len++] = (char)c;
            break;
        case RSP_CS1: {
            int v = hexval(c);
            r->cs = (uint8_t)(v < 0 ? 0 : v << 4);
            r->st = v < 0 ? RSP_IDLE : RSP_CS2;
            if (r->st == RSP_IDLE) {
                r->bad_cs++;
                if (r->log) fprintf(r->log, "tracesim: gdb: bad checksum characters; packet dropped\n");
                send_all(r, "-", 1);
            }
            break;
        }
        case RSP_CS2: {
            r->st = RSP_IDLE;
            int v = hexval(c);
            if (r->len == (size_t)-1) {
                send_all(r, "-", 1);
                break;
            } /* too long: dropped */
            if (v < 0 || (uint8_t)(r->cs | v) != r->sum) {
                r->bad_cs++;
                if (r->log) fprintf(r->log, "tracesim: gdb: bad checksum; packet dropped (asked again)\n");
                send_all(r, "-", 1);
                break;
            }
            send_all(r, "+", 1);
            r->pkt[r->len] = 0;
            return RSP_PACKET;
        }
        }
    }
}

bool rsp_put(rsp_t *r, const char *data, size_t len) {
    if (r->fd < 0) return false;
    if (len + 4 > r->last_cap) {
        size_t cap = len + 64;
        char *p = realloc(r->last, cap);
        if (!p) return false;
        r->last = p;
        r->last_cap = cap;
    }
    uint8_t sum = 0;
    r->last[0] = '$';
    for (size_t i = 0; i < len; i++) {
        r->last[1 + i] = data[i];
        sum = (uint8_t)(sum + (uint8_t)data[i]);
    }
    static const char hx[] = "0123456789abcdef";
    r->last[1 + len] = '#';
    r->last[2 + len] = hx[sum >> 4];
    r->last[3 + len] = hx[sum & 15];
    r->last_len = len + 4;
    r->resends = 0;
    return send_all(r, r->last, r->last_len);
}

bool rsp_puts(rsp_t *r, const char *data) { return rsp_put(r, data, strlen(data)); }

void rsp_close(rsp_t *r) {
    if (r->fd >= 0) close(r->fd);
    r->fd = -1;
    r->st = RSP_IDLE;
    r->in_pos = r->in_len = 0;
}

void rsp_free(rsp_t *r) {
    rsp_close(r);
    if (r->lfd >= 0) close(r->lfd);
    r->lfd = -1;
    free(r->last);
    r->last = NULL;
}
