#!/usr/bin/env python3
"""gdb_hostile_test.py BUILD_DIR [PROGRAM] - `tracesim run --gdb` against a client that is not GDB
(PROGRAM: tracesim, the default, or tracesim_san).

The stub must answer or drop everything a broken or hostile client sends, never crash or
hang, and the run must end as it would without a debugger. Three runs of fib.elf, each with
a time limit, each compared with a run without the debugger (same status, same run folder
but gdb.log and stats.txt's host timing):
  1. garbage between packets, a bad checksum, a bad checksum digit, a packet longer than the
     PacketSize (70000 bytes), a restarted packet, then valid packets with bad arguments (huge
     lengths, addresses outside RAM and at the top of the address space, malformed Z, p, P, H,
     vCont, qRcmd, a write of the pc), a memory write at the end of RAM (logged in gdb.log),
     continue, Ctrl-C (0x03) while running (a T02 stop), then a disconnect in the middle of a
     packet: the run goes on to its end without the debugger.
  2. connect and close at once (before the first cycle).
  3. a GPR write (in gdb.log), x0 stays 0, then kill (k): the run ends at once, the run folder written as for a cycle limit (status
     124, exit_reason cycle_limit).
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import time

b = sys.argv[1]
prog = sys.argv[2] if len(sys.argv) > 2 else "tracesim"    # tracesim_san: ASan/UBSan
tracesim = os.path.join(b, prog)
elf = os.path.join(b, "firmware", "examples", "fib.elf")
base = os.path.join(b, "test-runs", "gdb_hostile_" + prog)
shutil.rmtree(base, ignore_errors=True)
os.makedirs(base)


def fail(msg):
    print("FAIL (gdb hostile): " + msg)
    sys.exit(1)


def cs(data):
    return b"%02x" % (sum(data) & 0xFF)


def pkt(data):
    if isinstance(data, str):
        data = data.encode()
    return b"$" + data + b"#" + cs(data)


class Client:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.buf = b""

    def send(self, raw):
        self.s.sendall(raw)

    def byte(self):
        while not self.buf:
            d = self.s.recv(65536)
            if not d:
                fail("the stub closed the connection")
            self.buf += d
        c, self.buf = self.buf[:1], self.buf[1:]
        return c

    def reply(self):
        """the next packet's data (acks skipped)"""
        while self.byte() != b"$":
            pass
        data = b""
        while True:
            c = self.byte()
            if c == b"#":
                break
            data += c
        got = self.byte() + self.byte()
        if got != cs(data):
            fail("bad checksum from the stub on %r" % data[:40])
        self.send(b"+")
        return data.decode("latin-1")

    def ack(self):
        return self.byte()

    def cmd(self, data):
        self.send(pkt(data))
        return self.reply()


def start(d, extra=()):
    err = open(os.path.join(base, d + ".err"), "w+")
    p = subprocess.Popen([tracesim, "run", "-q", "--gdb", "0", "-o", os.path.join(base, d), elf] + list(extra),
                         stdout=subprocess.DEVNULL, stderr=err)
    for _ in range(200):
        err.seek(0)
        m = re.search(r"waiting for GDB on 127\.0\.0\.1:(\d+)", err.read())
        if m:
            return p, int(m.group(1)), err
        if p.poll() is not None:
            err.seek(0)
            fail("the simulator ended before listening: " + err.read())
        time.sleep(0.05)
    p.kill()
    fail("no port on stderr")


def finish(p, err, what):
    try:
        rc = p.wait(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        fail(what + ": the simulator hangs")
    if rc < 0:
        fail(what + ": the simulator died of signal %d" % -rc)
    err.seek(0)
    return rc, err.read()


def same_folder(ref, d, what, skip_stats=False):
    a, c = os.path.join(base, ref), os.path.join(base, d)
    fa = sorted(os.listdir(a))
    fc = sorted(f for f in os.listdir(c) if f != "gdb.log")
    if fa != fc:
        fail("%s: files differ: %s vs %s" % (what, fa, fc))
    for f in fa:
        pa, pc = os.path.join(a, f), os.path.join(c, f)
        if os.path.isdir(pa):
            continue
        x, y = open(pa, "rb").read(), open(pc, "rb").read()
        if f == "stats.txt":
            strip = lambda t: [l for l in t.split(b"\n") if not l.startswith((b"sim_seconds", b"sim_hz"))]
            x, y = strip(x), strip(y)
        if f == "perf_config.txt":   # names its own run folder
            x, y = x.replace(ref.encode(), b"D"), y.replace(d.encode(), b"D")
        if x != y:
            fail("%s: %s differs from the run without the debugger" % (what, f))


ref = subprocess.run([tracesim, "run", "-q", "-o", os.path.join(base, "ref"), elf],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120).returncode

# 1. garbage, bad arguments, Ctrl-C, a disconnect in the middle of a packet
p, port, err = start("r1")
c = Client(port)
c.send(b"garbage\x00\xff\x7f+-")
c.send(b"$?#00")
if c.ack() != b"-":
    fail("a bad checksum is not refused with '-'")
c.send(b"$?#zz")
if c.ack() != b"-":
    fail("bad checksum digits are not refused with '-'")
c.send(b"$" + b"A" * 70000 + b"#00")
if c.ack() != b"-":
    fail("a packet longer than PacketSize is not refused with '-'")
c.send(b"$m8000$?#3f")          # restarted: the first packet is lost, the second answered
r = c.reply()
if not r.startswith("T05thread:1;"):
    fail("? after garbage: %r" % r)
sup = c.cmd("qSupported:multiprocess+;swbreak+")
m = re.search(r"PacketSize=([0-9a-f]+)", sup)
if not m:
    fail("qSupported: no PacketSize: %r" % sup)
size = int(m.group(1), 16)
r = c.cmd("m80000000,ffffffff")     # a huge length: at most what a packet holds
if not re.fullmatch(r"[0-9a-f]+", r) or len(r) + 4 > size:
    fail("m with a huge length: %d characters" % len(r))
for q in ["m0,4", "mffffffff,2", "mfffffffffffffffff,1", "m80000000", "m,", "Mffffffff,4:00000000",
          "M80000000,10:00", "X0,1:a", "Z9,0,4", "Z0,ffffffffff,4", "Z2,80000000,0", "p99999999999999999",
          "pfffff", "P20=1234", "P1=12", "Hg99", "Hx1", "T77", "vCont;q", "vCont;s:zz", "qRcmd,zz",
          "c80000010", "qXfer:features:read:other.xml:0,100", "qXfer:features:read:target.xml:zz"]:
    r = c.cmd(q)
    if not re.fullmatch(r"E[0-9a-f]{2}|", r):
        fail("%s: not refused: %r" % (q, r[:60]))
r = c.cmd("qRcmd," + b"no such command".hex())
if r != "OK" and not r.startswith("O"):
    fail("an unknown monitor command: %r" % r)
while r != "OK":
    r = c.reply()
ram_end = 0x80000000 + 16 * 1024 * 1024
if c.cmd("M%x,4:deadbeef" % (ram_end - 4)) != "OK":
    fail("a memory write at the end of RAM is refused")
if c.cmd("m%x,4" % (ram_end - 4)) != "deadbeef":
    fail("the memory write did not happen")
c.send(pkt("c"))
c.ack()
time.sleep(0.02)
c.send(b"\x03")
r = c.reply()
if not r.startswith("T02"):
    fail("Ctrl-C: %r" % r)
if not re.fullmatch(r"[0-9a-f]{264}", c.cmd("g")):
    fail("g after Ctrl-C")
c.send(b"$m8000")               # the connection closes in the middle of a packet
c.s.close()
rc, text = finish(p, err, "garbage")
if rc != ref:
    fail("garbage: status %d, %d without the debugger: %s" % (rc, ref, text))
if "in the middle of a packet" not in text or "goes on without it" not in text:
    fail("garbage: the disconnect is not reported: %r" % text)
if text.count("\n") > 12:
    fail("garbage: more than one line per problem: %r" % text)
same_folder("ref", "r1", "garbage")
log = open(os.path.join(base, "r1", "gdb.log")).read()
if "debugger wrote 4 bytes at 0x%08x: de ad be ef" % (ram_end - 4) not in log:
    fail("the write is not in gdb.log: %r" % log)
if "stopped (interrupt)" not in log:
    fail("the interrupt is not in gdb.log")

# 2. connect and go away
p, port, err = start("r2")
socket.create_connection(("127.0.0.1", port), timeout=20).close()
rc, text = finish(p, err, "disconnect")
if rc != ref:
    fail("disconnect: status %d, %d without the debugger" % (rc, ref))
same_folder("ref", "r2", "disconnect")

# 3. kill
p, port, err = start("r3")
c = Client(port)
c.cmd("?")
if c.cmd("P5=78563412") != "OK" or c.cmd("p5") != "78563412":   # t0 (x5), little-endian
    fail("a GPR write is refused or lost")
if c.cmd("P0=01000000") != "OK" or c.cmd("p0") != "00000000":
    fail("x0 is not hard-wired")
c.send(pkt("k"))
rc, text = finish(p, err, "kill")
if rc != 124:
    fail("kill: status %d, not 124" % rc)
stats = open(os.path.join(base, "r3", "stats.txt")).read()
if "exit_reason cycle_limit" not in stats or "\ncycles 0\n" not in stats:
    fail("kill: stats.txt: %r" % stats)
log = open(os.path.join(base, "r3", "gdb.log")).read()
if "debugger wrote hart 0 t0 (x5) = 0x12345678 (was 0x00000000)" not in log or "killed by the debugger" not in log:
    fail("kill: the register write or the kill is not in gdb.log: %r" % log)
print("PASS (gdb hostile): garbage, bad arguments, Ctrl-C, disconnects and kill; status %d, run folders identical" % ref)
