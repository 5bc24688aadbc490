#!/usr/bin/env bash
# slurm.sh up|down|env — a throw-away single-node Slurm cluster (munged, slurmctld,
# slurmd) for the job-array integration tests of cmd/fp.
#
#   bash .ci/slurm.sh up     start it; prints the SLURM_CONF to export
#   bash .ci/slurm.sh down   cancel every job, stop the daemons, check none is left
#   bash .ci/slurm.sh env    print `export SLURM_CONF=…` (for eval)
#
# Needs root and Debian's packages slurmctld, slurmd, slurm-client and munge.
# Everything (keys, sockets, state, spool, logs) lives in $SLURM_TEST_DIR
# (default ${TMPDIR:-/tmp}/fp-slurm); nothing outside it is touched. The node
# declares $SLURM_NODE_CPUS CPUs (default 4, more than the real cores, through
# SlurmdParameters=config_overrides) so that a 3-task array runs at once.
# Ports: $SLURMCTLD_PORT and $SLURMD_PORT (default 6817 and 6818).
set -euo pipefail

T=${SLURM_TEST_DIR:-${TMPDIR:-/tmp}/fp-slurm}
export SLURM_CONF="$T/slurm.conf"
DAEMONS=(munged slurmctld slurmd)

# alive PID: the process exists and is not a zombie (a stopped daemon stays a
# zombie until its parent reaps it, so kill -0 would still succeed).
alive() {
  local s
  s=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [ -n "$s" ] && [ "${s#Z}" = "$s" ]
}

pid_of() { [ -f "$T/$1.bgpid" ] && cat "$T/$1.bgpid"; }

# logs prints each daemon's log, or its captured stderr when it wrote no log
# (a daemon that dies on a bad setting may do so before opening its log).
logs() {
  local d f
  for d in "${DAEMONS[@]}"; do
    f="$T/log/$d.log"
    [ -s "$f" ] || f="$T/log/$d.out"
    [ -s "$f" ] || continue
    echo "==== $f (last 40 lines)" >&2
    tail -n 40 "$f" >&2
  done
}

# port_free PORT: nothing listens on PORT (unknown without ss: assume free).
port_free() {
  command -v ss >/dev/null || return 0
  [ -z "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
}

down() {
  local pid d i
  pid=$(pid_of slurmctld || true)
  if [ -n "$pid" ] && alive "$pid"; then
    scancel --user="$(id -un)" 2>/dev/null || true
    # Let slurmstepd end the jobs' processes before slurmd goes.
    for i in $(seq 100); do
      [ -z "$(squeue -h 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  for d in slurmd slurmctld munged; do
    pid=$(pid_of "$d" || true)
    [ -n "$pid" ] || continue
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 100); do
      alive "$pid" || break
      sleep 0.1
    done
    if alive "$pid"; then
      echo "slurm.sh: $d ($pid) ignored TERM for 10 s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.2
    fi
    if alive "$pid"; then
      echo "slurm.sh: $d ($pid) is still running" >&2
      return 1
    fi
    rm -f "$T/$d.bgpid"
  done
}

up() {
  local host ncpu i d pid
  for d in munged slurmctld slurmd sinfo sbatch squeue scancel munge unmunge; do
    command -v "$d" >/dev/null || { echo "slurm.sh: $d not found: install slurmctld slurmd slurm-client munge" >&2; return 1; }
  done
  down # never leave a previous cluster of this folder running
  for i in "${SLURMCTLD_PORT:-6817}" "${SLURMD_PORT:-6818}"; do
    if ! port_free "$i"; then
      echo "slurm.sh: port $i is in use (another Slurm cluster?): stop it, or set SLURMCTLD_PORT and SLURMD_PORT" >&2
      return 1
    fi
  done
  host=$(hostname -s)
  ncpu=${SLURM_NODE_CPUS:-4}
  rm -rf "$T"
  mkdir -p "$T"/munge "$T"/state "$T"/spool "$T"/log
  chmod 755 "$T" "$T/munge" # munged wants its socket's folder a+x, not writable by others

  dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$T/munge/munge.key"
  munged -F --key-file="$T/munge/munge.key" --socket="$T/munge/munge.sock" \
    --pid-file="$T/munge/munged.pid" --log-file="$T/log/munged.log" \
    --seed-file="$T/munge/munged.seed" </dev/null >"$T/log/munged.out" 2>&1 &
  echo $! >"$T/munged.bgpid"
  for i in $(seq 100); do
    [ -S "$T/munge/munge.sock" ] && break
    sleep 0.1
  done
  if ! munge -n -S "$T/munge/munge.sock" | unmunge -S "$T/munge/munge.sock" >/dev/null; then
    echo "slurm.sh: munge does not work" >&2
    logs
    down || true
    return 1
  fi

  : >"$T/plugstack.conf" # its own empty file: /dev/null is refused as world-writable
  # Every value is non-empty: an empty one (e.g. SchedulerParameters=) kills
  # slurmctld before it opens its log.
  cat >"$SLURM_CONF" <<EOF
ClusterName=fptest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
PlugStackConfig=$T/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=$ncpu RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

  # Foreground daemons (-D) as our own children: their PIDs are known
  # exactly, and stopping one is a TERM to that PID.
  slurmctld -D </dev/null >"$T/log/slurmctld.out" 2>&1 &
  echo $! >"$T/slurmctld.bgpid"
  slurmd -D -N "$host" </dev/null >"$T/log/slurmd.out" 2>&1 &
  echo $! >"$T/slurmd.bgpid"

  for i in $(seq 300); do # up to 60 s; about 1.5 s normally
    if [ "$(sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ]; then
      echo "slurm up ($ncpu CPUs on $host): export SLURM_CONF=$SLURM_CONF"
      return 0
    fi
    for d in "${DAEMONS[@]}"; do
      pid=$(pid_of "$d")
      if ! alive "$pid"; then
        echo "slurm.sh: $d ($pid) died during start-up" >&2
        logs
        down || true
        return 1
      fi
    done
    sleep 0.2
  done
  echo "slurm.sh: the node did not become idle within 60 s (sinfo: $(sinfo -h -o '%t %E' 2>&1 || true))" >&2
  logs
  down || true
  return 1
}

case "${1:-}" in
up) up ;;
down) down ;;
env) echo "export SLURM_CONF=$SLURM_CONF" ;;
*)
  echo "usage: $0 up|down|env" >&2
  exit 2
  ;;
esac
