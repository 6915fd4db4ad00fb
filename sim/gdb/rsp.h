/* rsp.h - GDB's remote serial protocol, the transport: one TCP connection on 127.0.0.1, the
 * packets' framing ($data#cs), checksums, acks and retransmission, and the interrupt byte
 * (0x03). Bad input (garbage between packets, a wrong checksum, a packet longer than
 * RSP_PKT_MAX, a disconnect in the middle of a packet) gives one line on the log stream and
 * is never fatal: the packet is dropped ('-' asks GDB to send it again) and reading goes on.
 * No model or simulated time here: sim/gdb/gdb_stub.c is the target side. */
#ifndef TS_RSP_H
#define TS_RSP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RSP_PKT_MAX 0x4000 /* the PacketSize we announce (qSupported) */

enum rsp_state { RSP_IDLE,
                 RSP_DATA,
                 RSP_CS1,
                 RSP_CS2,
                 RSP_SKIP };
enum rsp_ev { RSP_NONE,
              RSP_PACKET,
              RSP_INTERRUPT,
              RSP_CLOSED };

typedef struct rsp {
    int lfd, fd; /* listening socket, connection (-1: none) */
    FILE *log;   /* one line per problem (stderr) */
    enum rsp_state st;
    char pkt[RSP_PKT_MAX + 1]; /* the packet being read, then the one returned */
    size_t len;
    uint8_t sum, cs;
    bool interrupt;   /* a 0x03 seen while reading a packet's way */
    uint8_t in[4096]; /* bytes received, not yet parsed */
    size_t in_pos, in_len;
    char *last; /* the last packet sent, framed (resent on '-') */
    size_t last_len, last_cap;
    unsigned resends;
    uint64_t garbage, bad_cs, too_long; /* what was dropped */
} rsp_t;

void rsp_init(rsp_t *r, FILE *log);
/* Listens on 127.0.0.1:port (0: a free port); *bound gets the port. 0, or -1 with err. */
int rsp_listen(rsp_t *r, unsigned port, unsigned *bound, char *err, size_t errlen);
/* Waits for GDB to connect (blocking); 0, or -1 with err. */
int rsp_accept(rsp_t *r, char *err, size_t errlen);
/* The next event: a packet (r->pkt, NUL-terminated, r->len bytes, still escaped as sent), an
 * interrupt, or the connection closed. block: wait for one; else RSP_NONE when no byte is
 * waiting (one non-blocking look at the socket). */
enum rsp_ev rsp_get(rsp_t *r, bool block);
/* Sends one packet (framed, checksummed); false if the connection is gone. */
bool rsp_put(rsp_t *r, const char *data, size_t len);
bool rsp_puts(rsp_t *r, const char *data);
void rsp_close(rsp_t *r); /* the connection (the listener is closed at accept) */
void rsp_free(rsp_t *r);
#endif
