# slurm.bash — sourced by the Slurm tests after sshd.bash: a real single-node Slurm cluster
# (Debian's munged, slurmctld and slurmd) in a temporary folder, on free loopback ports, with a
# GRES "gpu" of type "tesla" whose device file is a node made for the test, standing in for
# /dev/nvidia0.
# Nothing outside the folder is read or written; the daemons are stopped by PID when the test
# exits (after every job of this cluster has been cancelled).
# After gp_slurm_start: $GP_SLURM_DIR, $SLURM_CONF (exported), $GP_SLURM_NODE (the node's
# name), $GP_SLURM_CPUS. The node has 4 CPUs (more than this machine may have: slurmd is told
# to trust the configuration), a partition "gpu" (default, MaxTime 10 minutes) and "cpu".

gp_slurm_stop() {
    local d=${GP_SLURM_DIR:-}
    [ -n "$d" ] && [ -d "$d" ] || return 0
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$d/slurmctld.pid" ]; then
        # Every job of this cluster (and only of it: SLURM_CONF names our controller).
        scancel --full --quiet --user="$(id -un)" 2>/dev/null
        local i
        for i in $(seq 1 50); do
            [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    local f pid
    for f in slurmd.pid slurmctld.pid munge/pid; do
        pid=$(cat "$d/$f" 2>/dev/null) || continue
        [ -n "$pid" ] && kill "$pid" 2>/dev/null
    done
    for f in slurmd.pid slurmctld.pid munge/pid; do
        pid=$(cat "$d/$f" 2>/dev/null) || continue
        for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    rm -rf "$d"
    GP_SLURM_DIR=
}

# Stops both servers, whatever the outcome of the test.
gp_slurm_cleanup() {
    gp_slurm_stop
    gp_sshd_stop
}

gp_slurm_start() {
    local t
    for t in munged slurmctld slurmd srun sbatch squeue scancel scontrol sinfo; do
        command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] ||
            gp_skip "no $t (install slurm-wlm and munge)"
    done
    [ "$(id -u)" = 0 ] || gp_skip "slurmd must run as root to start jobs (not root here)"
    local P=/usr/sbin:$PATH
    GP_SLURM_DIR=$(mktemp -d "${TMPDIR:-/tmp}/gp-slurm.XXXXXX")
    trap gp_slurm_cleanup EXIT
    local S=$GP_SLURM_DIR
    chmod 755 "$S"
    mkdir -p "$S/state" "$S/spool" "$S/log" "$S/munge"
    chmod 700 "$S/munge"
    head -c 1024 /dev/urandom >"$S/munge/munge.key"
    chmod 400 "$S/munge/munge.key"
    PATH=$P munged --key-file="$S/munge/munge.key" --socket="$S/munge/sock" \
        --pid-file="$S/munge/pid" --log-file="$S/munge/log" --seed-file="$S/munge/seed" -f \
        2>"$S/munge/start.log" || {
        cat "$S/munge/start.log"
        gp_skip "munged does not start here (log above)"
    }
    GP_SLURM_NODE=$(hostname -s)
    GP_SLURM_CPUS=4
    # Stands for a GPU's device node (/dev/nvidia0 has major 195, minor 0): slurmd wants a
    # character device; it only looks at it, no driver is behind it.
    mknod "$S/nvidia0" c 195 0 2>/dev/null || gp_skip "cannot create a device node in $S (mknod)"
    cat >"$S/gres.conf" <<EOF
NodeName=$GP_SLURM_NODE Name=gpu Type=tesla File=$S/nvidia0
EOF
    local try ctl sd
    for try in 1 2 3 4 5; do
        ctl=$(gp_free_port) && sd=$(gp_free_port) || gp_skip "no free loopback port"
        [ "$ctl" != "$sd" ] || continue
        cat >"$S/slurm.conf" <<EOF
ClusterName=gptest
SlurmctldHost=$GP_SLURM_NODE(127.0.0.1)
SlurmctldPort=$ctl
SlurmdPort=$sd
AuthType=auth/munge
AuthInfo=socket=$S/munge/sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/ctld.log
SlurmdLogFile=$S/log/d.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
DefMemPerCPU=1500
SlurmdParameters=config_overrides
SlurmUser=root
ReturnToService=2
KillWait=2
MinJobAge=600
SchedulerParameters=sched_interval=1
GresTypes=gpu
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
NodeName=$GP_SLURM_NODE NodeAddr=127.0.0.1 CPUs=$GP_SLURM_CPUS RealMemory=8000 Gres=gpu:tesla:1 State=UNKNOWN
PartitionName=gpu Nodes=$GP_SLURM_NODE Default=YES MaxTime=10 State=UP
PartitionName=cpu Nodes=$GP_SLURM_NODE MaxTime=5 State=UP
EOF
        export SLURM_CONF=$S/slurm.conf
        PATH=$P slurmctld -c >"$S/log/ctld.start" 2>&1
        PATH=$P slurmd >"$S/log/d.start" 2>&1
        local i up=
        for i in $(seq 1 100); do
            if sinfo -h -n "$GP_SLURM_NODE" -o %t 2>/dev/null | grep -q '^idle'; then
                up=1
                break
            fi
            sleep 0.1
        done
        [ -n "$up" ] && return 0
        if grep -q "Address already in use" "$S/log/ctld.log" "$S/log/d.log" 2>/dev/null; then
            # Another test took a port between our check and the bind: try other ports.
            for f in slurmd.pid slurmctld.pid; do
                kill "$(cat "$S/$f" 2>/dev/null)" 2>/dev/null
            done
            sleep 0.5
            rm -f "$S/log/ctld.log" "$S/log/d.log"
            continue
        fi
        break
    done
    echo "--- slurmctld"
    tail -20 "$S/log/ctld.log" "$S/log/ctld.start" 2>/dev/null
    echo "--- slurmd"
    tail -20 "$S/log/d.log" "$S/log/d.start" 2>/dev/null
    sinfo 2>&1 | head -5
    gp_skip "Slurm could not be started on loopback (logs above)"
}
