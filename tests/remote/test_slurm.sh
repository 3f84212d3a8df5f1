#!/usr/bin/env bash
# gpuport remote on a Slurm cluster, against the real scheduler: a single-node Slurm started for
# the test (slurm.bash) behind the throwaway sshd (sshd.bash), whose sessions get SLURM_CONF as a
# login node has it system-wide. The cases: a step's streamed output and exit code, a failing
# step, a job that waits (the node's CPUs all taken) reported as pending and cancelled by Ctrl-C,
# a time limit exceeded, a memory limit exceeded, a --batch job fetched later, doctor on the
# compute node, fetch + compare with the freeze manifests, GPU requests through the node's GRES,
# the request errors (no srun, unknown partition, a GRES or time the partition lacks), and
# arguments that would inject commands if any shell parsed them.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/sshd.bash"
. "$here/slurm.bash"
gp_slurm_start
# A login node without Slurm's commands on its PATH: everything else of /usr/bin is there.
nosrun=$GP_SLURM_DIR/nosrun-bin
mkdir -p "$nosrun"
for f in /usr/bin/*; do
    case ${f##*/} in
    srun | sbatch | squeue | scancel | scontrol | sinfo | sacct | salloc | sattach | sbcast | \
        scrontab | sdiag | sprio | sreport | sshare | sstat | strigger | sacctmgr | sh5util | sview) ;;
    *) ln -s "$f" "$nosrun/" ;;
    esac
done
export GP_SSHD_ENV="SLURM_CONF=$SLURM_CONF"
export GP_SSHD_ALT_ENV="SLURM_CONF=$SLURM_CONF PATH=$nosrun"
gp_sshd_start

. "$here/checks.bash"
# Jobs of the test cluster still known to squeue (pending or running), by name.
jobs_left() { squeue -h -o '%j %T' 2>/dev/null; }
G=$GPUPORT
N=$GP_SLURM_NODE

# --- a target and a project -------------------------------------------------------------------
R=$W/far/proj
run_rc "add a Slurm target" 0 "$G" remote add c1 gptest --slurm --path "$R" --gpuport "$G"
has "add says it is a cluster" "$W/out" "Slurm cluster"
run_rc "add --gres" 0 "$G" remote add cg gptest --slurm --partition gpu --gres gpu:tesla:1 \
    --path "$R" --gpuport "$G"
run_rc "add --gpus" 0 "$G" remote add cn gptest --slurm --gpus 1 --path "$R" --gpuport "$G"
run_rc "list shows the request" 0 "$G" remote list
has "list: the Slurm request" "$W/out" "^cg .*slurm partition=gpu gres=gpu:tesla:1"
run_rc "list --json" 0 "$G" remote list --json
has "list --json: slurm object" "$W/out" '"gres":.*"gpu:tesla:1"'
run_rc "a Slurm option without --slurm" 2 "$G" remote add x gptest --partition gpu
has "it says --slurm is needed" "$W/err" "goes with --slurm"
run_rc "--gpus and --gres together" 2 "$G" remote add x gptest --slurm --gpus 1 --gres gpu:1
run_rc "a --slurm-arg gpuport sets itself" 2 "$G" remote add x gptest --slurm --slurm-arg=--job-name=x
run_rc "a partition name with shell characters" 2 "$G" remote add x gptest --slurm --partition 'gpu;id'

P=$W/proj
mkdir -p "$P/sub"
cd "$P" || exit 1
git init -q . && git config user.email t@example.com && git config user.name t
echo data >input.txt
echo in-sub >sub/x.txt
git add -A && git commit -qm init

# --- a job that waits: every CPU of the node is taken; then Ctrl-C -----------------------------
blocker=$(sbatch --parsable -c "$GP_SLURM_CPUS" --job-name=blocker --output=/dev/null --wrap 'sleep 300')
for _ in $(seq 1 100); do
    [ "$(squeue -h -j "$blocker" -o %T)" = RUNNING ] && break
    sleep 0.1
done
"$G" remote run c1 --sync -- sh -c 'echo should-not-run' >"$W/pend.out" 2>"$W/pend.err" &
gpid=$!
for _ in $(seq 1 150); do
    grep -q "pending (" "$W/pend.err" && break
    sleep 0.1
done
has "a waiting job is reported with its reason" "$W/pend.err" \
    "waiting for resources: job [0-9]* pending (Resources)"
kill -INT $gpid
wait $gpid
rc=$?
[ $rc = 130 ] && ok "Ctrl-C while pending exits 130" || { bad "Ctrl-C while pending exited $rc"; cat "$W/pend.err"; }
has "Ctrl-C says the job was cancelled" "$W/pend.err" "job on c1 was cancelled"
for _ in $(seq 1 50); do
    jobs_left | grep -q gpuport- || break
    sleep 0.1
done
if jobs_left | grep -q gpuport-; then
    bad "a job is left in the queue after Ctrl-C"
    jobs_left
else ok "nothing left queued or running after Ctrl-C"; fi
hasnt "the command never ran" "$W/pend.out" "should-not-run"
scancel "$blocker"
for _ in $(seq 1 100); do
    [ -z "$(squeue -h -j "$blocker" -o %T 2>/dev/null)" ] && break
    sleep 0.1
done

# --- a time limit exceeded (about a minute: runs beside the cases below) ------------------------
# Slurm's limits are whole minutes, enforced on a timer: the case costs a minute, so it runs in
# the regular build only; the sanitizer build checks the same message in test_slurm.c.
tl_pid=
if ldd "$G" 2>/dev/null | grep -q libasan; then
    echo "note: the time-limit case runs in the regular build (a minute of Slurm's timer)"
else
    "$G" remote add ct gptest --slurm --partition cpu --time 1 --path "$R" >/dev/null
    "$G" remote run ct -- sh -c 'echo started; sleep 300' >"$W/tl.out" 2>"$W/tl.err" &
    tl_pid=$!
fi

# --- a step: live output, where it runs, its exit code ---------------------------------------
rm -f "$W/stream"
"$G" remote run c1 -- sh -c 'echo "first $SLURMD_NODENAME $SLURM_JOB_ID $(pwd)"; sleep 3; echo second; exit 7' \
    >"$W/stream" 2>"$W/stream.err" &
streams "output streams while the step runs" "$W/stream" $!
rc=$?
[ $rc = 7 ] && ok "the step's exit code is gpuport's" || bad "the step exited $rc, expected 7"
has "it ran on the compute node, in a job, in the synced folder" "$W/stream" "^first $N [0-9][0-9]* $R\$"
has "the node is named" "$W/stream.err" "job [0-9]* running on $N"
has "the failing step is reported with its job" "$W/stream.err" "the command exited 7 on c1 (job [0-9]* on $N)"
run_rc "a command not found on the node" 127 "$G" remote run c1 -- gp-no-such-command
run_rc "a step killed by a signal" 139 "$G" remote run c1 -- sh -c 'kill -SEGV $$'
(cd sub && "$G" remote run c1 -- pwd >"$W/out" 2>"$W/err")
has "a subfolder runs in its counterpart" "$W/out" "^$R/sub\$"

# --- arguments that a shell would run: none reaches one --------------------------------------
export GP_EVIL='$(touch '"$W"'/pwned-env)`touch '"$W"'/pwned-env2`'
comment='$(touch '"$W"'/pwned-arg);`id`'"'q'"
"$G" remote add cx gptest --slurm --path "$R" --slurm-arg="--comment=$comment" >/dev/null
run_rc "quoted arguments through srun" 0 "$G" remote run cx --env GP_EVIL -- \
    sh -c 'printf "%s|%s|%s\n" "$GP_EVIL" "$1" "$SLURM_JOB_ID"' sh '$(touch '"$W"'/pwned-cmd);*'
job=$(sed -n 's/.*|\([0-9]*\)$/\1/p' "$W/out")
want="$GP_EVIL|\$(touch $W/pwned-cmd);*|$job"
[ "$(cat "$W/out")" = "$want" ] && ok "environment values and words arrive verbatim" ||
    { bad "words changed on the way"; cat "$W/out"; echo "    want: $want"; }
got=$(scontrol show job -o "$job" 2>/dev/null | sed -n 's/.* Comment=\(.*\)  [A-Z][A-Za-z]*=.*/\1/p')
[ "$got" = "$comment" ] && ok "--slurm-arg reaches srun as one word" ||
    bad "the job's comment is '$got', expected '$comment'"
ls "$W"/pwned-* >/dev/null 2>&1 && bad "an argument was run by a shell: $(ls "$W"/pwned-*)" ||
    ok "nothing was run by a shell"

# --- requests the cluster cannot meet: said before anything runs -------------------------------
"$G" remote add cp gptest --slurm --partition nosuch --path "$R" >/dev/null
run_rc "an unknown partition" 2 "$G" remote run cp -- sh -c 'echo ran'
has "the partitions are listed" "$W/err" "partition 'nosuch' does not exist on cp (its partitions: gpu (the default), cpu)"
has "with the fix" "$W/err" "choose one: gpuport remote add cp gptest --path $R --slurm --partition gpu --replace"
"$G" remote add ca gptest --slurm --gres gpu:a100:1 --path "$R" >/dev/null
run_rc "a GRES the partition lacks" 2 "$G" remote run ca -- true
has "what it has, and the fix" "$W/err" "has no nodes with --gres gpu:a100:1 (its nodes' GRES: gpu:tesla:1); ask for what it has: gpuport remote add ca gptest --path $R --slurm --gres gpu:tesla:1 --replace"
"$G" remote add ca gptest --slurm --gres gpu:tesla:2 --path "$R" --replace >/dev/null
run_rc "more GPUs than a node has" 2 "$G" remote run ca -- true
"$G" remote add ca gptest --slurm --partition cpu --time 20 --path "$R" --replace >/dev/null
run_rc "a time above the partition's limit" 2 "$G" remote run ca -- true
has "the limit and the fix" "$W/err" "--time 20 is more than partition 'cpu' on ca allows (0:05:00).*--time 0:05:00 --replace"
"$G" remote add cz gptest-alt --slurm --path "$R" >/dev/null
run_rc "no srun on the login node" 2 "$G" remote run cz -- true
has "it says so, with a check" "$W/err" "no srun on the login node of cz (gptest-alt).*check with: ssh gptest-alt command -v srun"

# --- GPUs through the node's GRES ------------------------------------------------------------
for t in cg cn; do
    run_rc "a GPU request ($t)" 0 "$G" remote run $t -- \
        sh -c 'echo "gpus=$CUDA_VISIBLE_DEVICES|$SLURM_GPUS_ON_NODE|$SLURM_STEP_GPUS"'
    has "the GPU is allocated to the step ($t)" "$W/out" "^gpus=0|1|0\$"
done
run_rc "no GPU asked, none given" 0 "$G" remote run c1 -- sh -c 'echo "gpus=${CUDA_VISIBLE_DEVICES:-none}"'
has "no CUDA_VISIBLE_DEVICES without a request" "$W/out" "^gpus=none\$"

# --- fetch + compare, twice, with the manifests of the job -----------------------------------
mkdir -p res
printf '1.0,2.0,3.0\n' >res/v.csv
git add res && git commit -qm res
for n in 1 2; do
    run_rc "fetch + compare on the cluster (run $n)" 0 "$G" remote run cg --sync \
        --compare 'res/*.csv' --no-local-run -- sh -c 'printf "1.0,2.0,3.0\n" >res/v.csv'
    has "compare verdict (run $n)" "$W/out" "verdict: same"
done
L=$P/remote/cg/latest
python3 - "$L/gpuport-freeze.remote.json" "$L/run.json" "$N" >"$W/py" 2>&1 <<'PY' && ok "the manifest records the job, its node and GPUs" || { bad "manifest"; cat "$W/py"; }
import json, sys
m = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2])); node = sys.argv[3]
s = m["slurm"]
assert s["job_id"] == r["job"]["id"], (s, r["job"])
assert s["node"] == node and s["partition"] == "gpu", s
assert s["gpus_on_node"] == "1" and s["step_gpus"] == "0", s
assert m["environment"]["CUDA_VISIBLE_DEVICES"] == "0", m["environment"]
assert m["host"]["hostname"] and r["job"]["node"] == node and r["job"]["state"] == "COMPLETED", r
PY
# a job that does not rewrite its output: the one an earlier job left is not this job's
run_rc "a job that wrote nothing" 1 "$G" remote run cg --compare 'res/*.csv' --no-local-run -- true
has "the earlier job's output is named" "$W/err" "error: res/v.csv on cg was not written by this run"
hasnt "and never passes as the same" "$W/out" "verdict: same"
printf '1.0,2.0,9.0\n' >res/v.csv
run_rc "a differing result on the cluster" 1 "$G" remote run cg --compare 'res/*.csv' \
    --no-local-run --rtol 0.5 -- sh -c 'printf "1.0,2.0,3.0\n" >res/v.csv'
hasnt "it is this run's result" "$W/err" "not written by this run"
has "by how much" "$W/out" "^DIFFERENT .*max abs 6"
git checkout -q res/v.csv

# --- doctor on a compute node ----------------------------------------------------------------
run_rc "doctor on the cluster" 0 "$G" remote doctor c1
has "doctor says which node" "$W/out" "^c1: doctor ran on node $N (partition gpu, job [0-9]*), not on the login node"
run_rc "doctor --json" 0 "$G" remote doctor c1 --json
has "doctor --json names the node" "$W/out" "\"node\":.*\"$N\""

# --- a memory limit exceeded -------------------------------------------------------------------
"$G" remote add cm gptest --slurm --slurm-arg=--mem=40M --path "$R" >/dev/null
run_rc "a step over its memory" 137 "$G" remote run cm -- \
    python3 -c 'import time; x = b"x" * (400 << 20); time.sleep(4)'
has "memory: Slurm's state and the fix" "$W/err" "was killed with SIGKILL, which is how Slurm stops a step that uses more memory than it was given (Slurm: state FAILED.*40M of memory per node); ask for more memory: gpuport remote add cm gptest --path $R --slurm --slurm-arg --mem=80M --replace"

# --- --batch, status, fetch later ------------------------------------------------------------
run_rc "--batch on an SSH-only target" 2 "$G" remote run nosuch --batch -- true
run_rc "submit a batch job" 0 "$G" remote run c1 --batch --fetch 'out/*' -- \
    sh -c 'mkdir -p out; sleep 2; echo "from the job $SLURM_JOB_ID" >out/b.txt; echo log-line'
bjob=$(cat "$W/out")
case $bjob in '' | *[!0-9]*) bad "--batch printed '$bjob', not a job id" ;; *) ok "--batch prints the job id" ;; esac
has "--batch says how to follow it" "$W/err" "its state: gpuport remote status c1 $bjob"
run_rc "fetch before the job ended" 2 "$G" remote fetch c1 "$bjob"
has "not ended yet" "$W/err" "job $bjob has not ended"
run_rc "status of this work tree's jobs" 0 "$G" remote status c1
has "status lists it" "$W/out" "^job $bjob "
for _ in $(seq 1 100); do
    "$G" remote status c1 "$bjob" >"$W/out" 2>&1
    grep -q COMPLETED "$W/out" && break
    sleep 0.3
done
has "status: ended" "$W/out" "^job $bjob *COMPLETED on $N, exit 0"
run_rc "status --json" 0 "$G" remote status c1 "$bjob" --json
has "status --json" "$W/out" '"state":.*"COMPLETED"'
run_rc "fetch the batch job" 0 "$G" remote fetch c1 "$bjob"
hasnt "fetch says nothing of a missing job" "$W/err" "no batch job"
B=$(ls -d "$P"/remote/c1/runs/*-job"$bjob" 2>/dev/null | head -1)
[ -n "$B" ] && grep -q "^from the job $bjob\$" "$B/out/b.txt" && ok "the job's results arrive" ||
    { bad "the batch results are missing"; ls -R "$P/remote/c1"; cat "$W/err"; }
grep -q "^log-line\$" "$B/job-$bjob.out" 2>/dev/null && ok "the job's output arrives" || bad "no job output"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert m["slurm"]["job_id"]==sys.argv[2], m.get("slurm")' \
    "$B/gpuport-freeze.remote.json" "$bjob" && ok "the batch job's manifest names it" || bad "batch manifest"
run_rc "fetch it again: replaced as a whole" 0 "$G" remote fetch c1 "$bjob"
[ "$(readlink "$P/remote/c1/latest")" = "runs/$(basename "$B")" ] && ok "latest points at the fetched job" ||
    bad "latest is $(readlink "$P/remote/c1/latest")"
run_rc "status of an unknown job" 2 "$G" remote status c1 999999
run_rc "fetch of a job this work tree did not submit" 2 "$G" remote fetch c1 999999
has "it says so" "$W/err" "no batch job 999999 of this work tree on c1"

# --- the time limit's outcome -----------------------------------------------------------------
if [ -n "$tl_pid" ]; then
    wait $tl_pid
    rc=$?
    [ $rc != 0 ] && ok "a step over its time limit fails ($rc)" || bad "the time-limited step exited 0"
    has "the step had started" "$W/tl.out" "^started\$"
    has "time limit: Slurm's state and the fix" "$W/tl.err" "hit its time limit (Slurm: state TIMEOUT, reason TimeLimit, ran .* of 00:01:00) and was stopped; ask for more time (within the partition's limit): gpuport remote add ct gptest --path $R --slurm --partition cpu --time 0:02:00 --replace"
fi

left=$(jobs_left | grep -v '^ *$')
[ -z "$left" ] && ok "no job left on the cluster" || { bad "jobs left: $left"; }
exit $fail
