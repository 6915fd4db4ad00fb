#!/usr/bin/env bash
# sweep_slurm_test.sh BUILD_DIR - `tracesim sweep --slurm` on a real one-node Slurm cluster
# brought up here: munged (own key and socket), slurmctld and slurmd (Debian's slurm-wlm
# 22.05 or 24.11), configured in a temporary folder on 127.0.0.1 with their own ports, no
# cgroups (proctrack/linuxproc, task/none, CgroupPlugin=disabled from Slurm 23 on), state,
# spool and logs in the folder; everything is torn
# down at the end. Works as root in a container without systemd.
#   1. tests/sweeps/small.json (4 points, each with `tracesim check`) as one job array: every
#      point ok, and results.csv equal to a local run of the same spec (all but the seconds)
#   2. resume: with one point's result removed, a second --slurm run (ASan/UBSan build)
#      submits an array of exactly 1 task and completes that point
# If a program is missing or the daemons do not come up, the test FAILS and says why.
set -u
b=$1
t=$b/tracesim
src=$(cd "$(dirname "$0")" && pwd)
out=$b/test-runs/sweep_slurm
rm -rf "$out" "$out".*
mkdir -p "$(dirname "$out")"
fail() {
  echo "FAIL (sweep.slurm): $*"
  for l in "${tmp:-/nonexistent}"/log/*; do [ -s "$l" ] && { echo "--- $l"; tail -15 "$l"; }; done
  [ -f "$out.stderr" ] && { echo "--- sweep stderr"; tail -20 "$out.stderr"; }
  exit 1
}

missing=""
for p in munged munge slurmctld slurmd sbatch squeue scancel sinfo; do
  command -v $p > /dev/null || missing="$missing $p"
done
[ -z "$missing" ] || fail "missing programs:$missing (Debian packages slurm-wlm and munge; bash .ci/install-deps.sh installs them)"

tmp=$(mktemp -d /tmp/tracesim-slurm.XXXXXX) || fail "cannot make a temporary folder"
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2> /dev/null; done
  for p in $pids; do for i in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done; kill -9 "$p" 2> /dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
chmod 755 "$tmp" "$tmp/munge"

# munge: a key of our own, a socket of our own
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2> /dev/null
chmod 600 "$tmp/munge/munge.key"
munged -F -f --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/sock" --pid-file="$tmp/munge/pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" > "$tmp/log/munged.out" 2>&1 &
pids="$pids $!"
for i in $(seq 50); do [ -S "$tmp/munge/sock" ] && break; sleep 0.1; done
munge -S "$tmp/munge/sock" -n 2> "$tmp/log/munge-client.err" | unmunge -S "$tmp/munge/sock" > /dev/null 2>&1 ||
  fail "munged did not start (no working socket $tmp/munge/sock)"

# two free ports on loopback, away from Slurm's defaults (6817/6818)
port_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
p=$((20000 + $$ % 20000))
while ! port_free $p || ! port_free $((p + 1)); do p=$((p + 2)); done
host=$(hostname -s)
user=$(id -un)
cat > "$tmp/slurm.conf" <<EOF
ClusterName=tracesim
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$p
SlurmdPort=$((p + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmdParameters=config_overrides
PlugStackConfig=$tmp/plugstack.conf
NodeName=tsnode NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=ts Nodes=tsnode Default=YES MaxTime=INFINITE State=UP
EOF
: > "$tmp/plugstack.conf"
# Slurm 23 and later (Debian 13: 24.11) initialise a cgroup plugin in slurmd even with the
# plugins above, which fails where no cgroup filesystem is mounted (a chroot, a container):
# cgroup.conf beside slurm.conf turns it off (22.05, Debian 12, has no such value nor need)
slurm_major=$(slurmd -V 2> /dev/null | awk '{print $2}'); slurm_major=${slurm_major%%.*}
case $slurm_major in ''|*[!0-9]*) slurm_major=0 ;; esac
[ "$slurm_major" -ge 23 ] && echo "CgroupPlugin=disabled" > "$tmp/cgroup.conf"
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" > "$tmp/log/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" -N tsnode > "$tmp/log/slurmd.out" 2>&1 &
pids="$pids $!"
state=""
for i in $(seq 100); do
  state=$(sinfo -h -N -o %T 2> /dev/null)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || fail "slurmctld/slurmd did not come up (node state '${state:-no answer}')"

# 1. the sweep through Slurm, and the same sweep locally
s0=$(date +%s.%N)
"$t" sweep --slurm --partition ts --time 5 --poll 0.5 -o "$out" "$src/sweeps/small.json" > /dev/null 2> "$out.stderr" ||
  fail "tracesim sweep --slurm: exit status $?"
s1=$(date +%s.%N)
"$t" sweep -q -o "$out.local" "$src/sweeps/small.json" > /dev/null 2>&1 || fail "the local run of the same spec failed"
s2=$(date +%s.%N)
grep -q '^sweep: submitted job array [0-9]* (4 tasks' "$out.stderr" || fail "no job array of 4 tasks submitted"
grep -qx '#SBATCH --array=0-3' "$out/slurm/sweep.sbatch" || fail "the sbatch script has no --array=0-3"
[ "$(ls "$out"/slurm/task-*.out 2> /dev/null | wc -l)" = 4 ] || fail "Slurm did not run 4 tasks (no task-*.out files)"
python3 - "$out" "$out.local" <<'EOF' || fail "results differ"
import csv, sys
def rows(d):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(open(d + "/results.csv"))]
s, l = rows(sys.argv[1]), rows(sys.argv[2])
assert len(s) == 4, "%d rows" % len(s)
for r in s:
    assert r["status"] == "ok" and r["check"] == "pass", r
assert s == l, "Slurm %s\nlocal %s" % (s, l)
EOF
grep -Eq '^sweep: 4 points: 4 ok, 0 failed' "$out.stderr" || fail "no closing line"

# 2. resume: one point's result removed; the new array has one task
# (the ASan/UBSan build this time: submission, polling and collection under the sanitizers)
rm "$out/points/2_8/result.txt"
"$b/tracesim_san" sweep --slurm --poll 0.5 -o "$out" "$src/sweeps/small.json" > /dev/null 2> "$out.stderr" ||
  fail "second --slurm run: exit status $?"
cat "$out.stderr" "$out"/slurm/task-*.out "$out"/points/*/stderr.txt | grep -Eq "ERROR: (Address|Leak)Sanitizer|runtime error:" &&
  fail "sanitizer report"
grep -q '^sweep: submitted job array [0-9]* (1 tasks' "$out.stderr" || fail "the second array is not of 1 task"
grep -qx '#SBATCH --array=0-0' "$out/slurm/sweep.sbatch" || fail "second script: no --array=0-0"
grep -q '^status ok' "$out/points/2_8/result.txt" || fail "the point was not completed again"
grep -Eq '^sweep: 4 points: 4 ok, 0 failed \(3 skipped as complete\)' "$out.stderr" || fail "did not skip the 3 complete points"
awk -v a="$s0" -v b="$s1" -v c="$s2" \
  'BEGIN { printf "ok (sweep.slurm): 4 points with check: %.1f s through Slurm (submit to results), %.1f s locally\n", b - a, c - b }'
