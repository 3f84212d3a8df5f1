#!/usr/bin/env bash
# gpuport remote against a real OpenSSH server started for the test on loopback (sshd.bash):
# targets (add/list/remove), sync with deletions and ignored files, run with exit codes, quoting,
# live streaming and --env, fetch into a folder per run (reruns), compare with tolerances, Ctrl-C,
# a dropped connection, the bad inputs (unknown target, unreachable host, refused key, missing
# command), and that every command a message shows is quoted for pasting.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/sshd.bash"
gp_sshd_start

. "$here/checks.bash"
G=$GPUPORT

# --- targets --------------------------------------------------------------------------------
run_rc "list with no targets" 0 "$G" remote list
has "list says there are none" "$W/out" "no targets"
run_rc "add" 0 "$G" remote add t1 gptest --path "$W/far/proj"
run_rc "add a second" 0 "$G" remote add other gptest --gpuport /opt/gp/bin/gpuport
run_rc "add an existing name" 2 "$G" remote add t1 gptest
run_rc "add --replace" 0 "$G" remote add t1 gptest --path "$W/far/proj" --replace
run_rc "add a bad name" 2 "$G" remote add "a b" gptest
has "bad name message" "$W/err" "bad NAME: .*a space (character 2)"
run_rc "add a target that is an ssh option" 2 "$G" remote add evil -oProxyCommand=touch
run_rc "add a target with shell characters" 2 "$G" remote add evil 'gpu1;touch${IFS}/tmp/x'
has "the character is named" "$W/err" "bad SSH_TARGET: .*';' (character 5)"
run_rc "add a target with a port" 2 "$G" remote add evil gpu1:2222
has "a port belongs in ssh_config" "$W/err" "':' (character 5).*ssh/config"
# A name typed wrong is never echoed back inside a command to paste.
run_rc "a target name with shell characters" 2 "$G" remote run 'x;touch${IFS}'"$W/pwned" -- true
has "the name is refused, naming the character" "$W/err" "bad NAME: .*';' (character 2)"
run_rc "an unknown target" 2 "$G" remote doctor nosuch.x
has "the hint is a command" "$W/err" "add it with: gpuport remote add nosuch.x SSH_TARGET"
run_rc "list" 0 "$G" remote list
has "list shows t1" "$W/out" "^t1 *gptest"
run_rc "list --json" 0 "$G" remote list --json
has "list --json schema" "$W/out" '"schema":.*"gpuport.remote/1"'
has "list --json path" "$W/out" "\"path\":.*far/proj"
run_rc "remove" 0 "$G" remote remove other
run_rc "list after remove" 0 "$G" remote list
hasnt "removed target gone" "$W/out" "^other"
run_rc "remove an unknown target" 2 "$G" remote remove other
cp "$W/cfg/remotes.json" "$W/cfg.good"
printf '{"schema": "gpuport.remotes/1", "remotes": [' >"$W/cfg/remotes.json"
run_rc "malformed config" 2 "$G" remote list
has "malformed config names the file" "$W/err" "remotes.json"
printf '{"schema":"gpuport.remotes/1","remotes":[{"name":"x","target":"-oProxyCommand=y"}]}' \
    >"$W/cfg/remotes.json"
run_rc "config with an option as target" 2 "$G" remote list
cp "$W/cfg.good" "$W/cfg/remotes.json"

# --- a project to sync ------------------------------------------------------------------------
P=$W/proj
mkdir -p "$P/sub dir" "$P/build"
cd "$P" || exit 1
git init -q . && git config user.email t@example.com && git config user.name t
printf 'build/\n*.log\n' >.gitignore
echo tracked >tracked.txt
echo "in sub" >"sub dir/it's here.txt"
echo doomed >doomed.txt
git add -A && git commit -qm init
echo untracked >untracked.txt
echo ignored >run.log
echo ignored >build/out.o
R=$W/far/proj

nl_name=$(printf 'new\nline.txt')
echo odd >"$nl_name"
ln -s tracked.txt link.txt
run_rc "run --sync" 0 "$G" remote run t1 --sync -- true
has "sync summary" "$W/err" "synced 7 files"
[ "$(readlink "$R/link.txt")" = tracked.txt ] && ok "symlink synced as a link" || bad "symlink not synced as a link"
for f in tracked.txt "sub dir/it's here.txt" doomed.txt untracked.txt .gitignore "$nl_name"; do
    if cmp -s "$P/$f" "$R/$f"; then ok "synced $f"; else bad "synced $f: missing or different"; fi
done
for f in run.log build/out.o; do
    if [ -e "$R/$f" ]; then bad "ignored $f was synced"; else ok "ignored $f not synced"; fi
done
git rm -q doomed.txt && git commit -qm gone
rm untracked.txt
echo "changed, and longer" >tracked.txt # another size: rsync compares size and mtime to the second
echo "remote output" >"$R/made-there.txt" # a file the remote side made: not ours to delete
run_rc "sync again" 0 "$G" remote run t1 --sync -- true
has "sync counts the removals" "$W/err" "2 removed there"
for f in doomed.txt untracked.txt; do
    if [ -e "$R/$f" ]; then bad "deleted $f still on the remote"; else ok "deletion of $f propagated"; fi
done
cmp -s "$P/tracked.txt" "$R/tracked.txt" && ok "changed file synced" || bad "changed file not synced"
[ -e "$R/made-there.txt" ] && ok "remote-made file kept" || bad "remote-made file deleted"
rm "$P/tracked.txt" # deleted from the disk, still in the index
run_rc "sync a file deleted but not staged" 0 "$G" remote run t1 --sync -- true
[ -e "$R/tracked.txt" ] && bad "unstaged deletion not propagated" || ok "unstaged deletion propagated"
git checkout -q -- tracked.txt

# A sync that cannot finish (a folder stands where a file must go) is reported and marked.
mkdir -p "$R/blocker.txt/inner" && echo x >"$R/blocker.txt/inner/f"
echo file >blocker.txt
echo "copied by the failing sync" >early.txt
run_rc "a sync that cannot finish" 2 "$G" remote run t1 --sync -- echo should-not-run
has "the failed sync is reported" "$W/err" "sync (rsync) on t1 failed"
hasnt "the command did not run after a failed sync" "$W/out" "should-not-run"
run_rc "run after a failed sync" 0 "$G" remote run t1 -- true
has "the incomplete sync is flagged" "$W/err" "last sync into .* did not finish"
[ -e "$R/early.txt" ] && ok "the failing sync copied what it could" || bad "early.txt not copied"
rm -rf "$R/blocker.txt" blocker.txt early.txt
run_rc "sync after fixing" 0 "$G" remote run t1 --sync -- true
[ -e "$R/early.txt" ] && bad "a file of the failed sync, gone here, stayed there" ||
    ok "a file of the failed sync, gone here, is removed there"
run_rc "run after a good sync" 0 "$G" remote run t1 -- true
hasnt "no flag after a good sync" "$W/err" "did not finish"

# Ctrl-C in the middle of a sync: reported, and the folder stays marked until a sync completes.
head -c $((160 << 20)) /dev/urandom >big.bin
"$G" remote run t1 --sync -- echo should-not-run >"$W/out" 2>"$W/err" &
gpid=$!
caught=
for _ in $(seq 1 400); do
    if ps -A -o ppid= -o comm= | awk -v p=$gpid '$1 == p && $2 ~ /rsync$/' | grep -q .; then
        kill -INT $gpid
        caught=1
        break
    fi
    kill -0 $gpid 2>/dev/null || break
    sleep 0.02
done
wait $gpid
rc=$?
if [ -n "$caught" ]; then
    [ $rc = 130 ] && ok "sync interrupted exits 130" || { bad "interrupted sync exited $rc"; cat "$W/err"; }
    has "interrupted sync reported" "$W/err" "interrupted during the sync"
    hasnt "no command after an interrupted sync" "$W/out" "should-not-run"
    run_rc "run after an interrupted sync" 0 "$G" remote run t1 -- true
    has "the interrupted sync is flagged" "$W/err" "did not finish"
else
    echo "NOTE the sync finished before rsync could be caught running; interruption not checked"
fi
rm -f big.bin
run_rc "sync after the interruption" 0 "$G" remote run t1 --sync -- true
[ -e "$R/big.bin" ] && bad "big.bin of the interrupted sync stayed there" || ok "big.bin gone there"

# --- a remote folder belongs to one project: another is refused and deletes nothing ----------
id=$(git config --get gpuport.remote-project)
[ -n "$id" ] && [ "$(cat "$R/.gpuport-remote/project" 2>/dev/null)" = "$id" ] &&
    ok "the first sync marks the folder with the project's id (kept in git config)" ||
    bad "folder mark '$(cat "$R/.gpuport-remote/project" 2>/dev/null)' is not the project's id '$id'"
Q=$W/proj2 # another project whose target resolves to the same remote folder
mkdir -p "$Q" && cd "$Q" || exit 1
git init -q . && git config user.email t@example.com && git config user.name t
echo theirs >other.txt && echo "not the same" >tracked.txt && git add -A && git commit -qm other
listing() { (cd "$R" && find . -path ./.gpuport-remote -prune -o -type f -print0 | sort -z | xargs -0 cksum); }
before=$(listing)
run_rc "another project's sync into the folder is refused" 2 "$G" remote run t1 --sync -- echo should-not-run
has "the reason is given" "$W/err" "the folder $R on t1 belongs to another project (its id: $id"
has "with the fix" "$W/err" "Give this project a folder of its own: gpuport remote add t1 gptest --path $R-"
hasnt "nothing ran" "$W/out" "should-not-run"
[ "$(listing)" = "$before" ] && ok "nothing there was deleted or overwritten" ||
    bad "the other project's sync changed the folder"
run_rc "another project's run there without --sync is refused too" 2 "$G" remote run t1 -- echo should-not-run
has "the run says why" "$W/err" "belongs to another project"
hasnt "the command did not run" "$W/out" "should-not-run"
"$G" remote add t2 gptest --path "$W/far/proj2" >/dev/null
run_rc "the other project in a folder of its own" 0 "$G" remote run t2 --sync -- cat other.txt
has "its files are there" "$W/out" "^theirs$"
git config gpuport.remote-project 'not an id!'
run_rc "a project id that cannot be used is said, not fatal" 0 "$G" remote run t2 -- true
has "the warning names the setting" "$W/err" "warning: git config gpuport.remote-project .* is 'not an id!'"
git config --unset gpuport.remote-project
cd "$P" || exit 1
"$G" remote remove t2 >/dev/null
run_rc "the owner still syncs and runs" 0 "$G" remote run t1 --sync -- cat tracked.txt
has "with its own files" "$W/out" "^tracked$"

# --- run: exit codes, quoting, folder, env ---------------------------------------------------
run_rc "exit code 0" 0 "$G" remote run t1 -- sh -c 'exit 0'
run_rc "exit code 7 passed through" 7 "$G" remote run t1 -- sh -c 'exit 7'
has "exit code reported" "$W/err" "exited 7 on t1"
run_rc "exit 255 of the command is not a lost connection" 255 "$G" remote run t1 -- sh -c 'exit 255'
hasnt "255 is not called a lost connection" "$W/err" "lost"
run_rc "a command killed by a signal" 139 "$G" remote run t1 -- sh -c 'kill -SEGV $$'
run_rc "quoting" 0 "$G" remote run t1 -- printf '[%s]\n' 'a b' "it's" '$HOME' '*' '"q"' '`id`' ';' ''
printf '[%s]\n' 'a b' "it's" '$HOME' '*' '"q"' '`id`' ';' '' >"$W/want"
cmp -s "$W/want" "$W/out" && ok "arguments arrive verbatim" || { bad "arguments changed"; diff "$W/want" "$W/out"; }
run_rc "runs in the remote folder" 0 "$G" remote run t1 -- pwd
has "remote folder" "$W/out" "^$R\$"
(cd "sub dir" && "$G" remote run t1 -- pwd >"$W/out" 2>"$W/err")
has "runs in the matching subfolder" "$W/out" "^$R/sub dir\$"
export GP_TEST_VALUE='two words $dollar "dq" '"'sq'"
run_rc "--env" 0 "$G" remote run t1 --env GP_TEST_VALUE --env 'OTHER=x*y' -- \
    sh -c 'printf "%s|%s\n" "$GP_TEST_VALUE" "$OTHER"'
has "--env values arrive verbatim" "$W/out" "^two words \$dollar \"dq\" 'sq'|x\*y\$"
run_rc "--env of an unset variable" 2 "$G" remote run t1 --env GP_NOT_SET_ANYWHERE -- true
run_rc "--env with a bad name" 2 "$G" remote run t1 --env '1x=y' -- true
run_rc "missing command" 127 "$G" remote run t1 -- gp-no-such-command --flag
has "missing command named" "$W/err" "gp-no-such-command: command not found"
has "missing command explained" "$W/err" "exited 127 on t1"
run_rc "run without --" 2 "$G" remote run t1 true
run_rc "unknown target" 2 "$G" remote run nosuch -- true
has "unknown target message" "$W/err" "unknown target 'nosuch'"

# --- streaming: the first line arrives while the remote command still runs -------------------
rm -f "$W/stream"
"$G" remote run t1 -- sh -c 'echo first; sleep 4; echo second' >"$W/stream" 2>&1 &
streams "output streams before the command ends" "$W/stream" $!

# --- fetch: each run into a folder of its own, `latest` pointing at the last ----------------
run_rc "fetch" 0 "$G" remote run t1 --fetch 'out/*.txt' --fetch 'deep' -- \
    sh -c 'mkdir -p out deep/er && echo one >out/a.txt && echo "two 2" >"out/b c.txt" && echo no >out/x.bin && echo d >deep/er/f'
L=$P/remote/t1/latest
[ -L "$L" ] && ok "latest is a link to the run's folder" || bad "no remote/t1/latest link"
first=$(readlink "$L")
cmp -s "$R/out/a.txt" "$L/out/a.txt" && cmp -s "$R/out/b c.txt" "$L/out/b c.txt" &&
    cmp -s "$R/deep/er/f" "$L/deep/er/f" && ok "fetched files arrive" || bad "fetched files missing"
[ -e "$L/out/x.bin" ] && bad "fetch took a file the pattern does not match" || ok "fetch takes only matches"
has "freeze absence is reported, not pretended" "$W/err" "freeze manifest .*not recorded"
has "the run's folder is named" "$W/err" "remote/t1/runs/.*latest points there"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["schema"]=="gpuport.remote-run/1" and r["exit_code"]==0 and r["fetched"]==3, r' \
    "$L/run.json" && ok "run.json records the run" || bad "run.json wrong"
echo "local edit" >"$L/out/a.txt"
# The rerun rewrites out/a.txt only: "out/b c.txt", left by the first run, is not this run's.
run_rc "a rerun fetches again, never refused; a file it did not write is an error" 1 \
    "$G" remote run t1 --fetch 'out/*.txt' -- sh -c 'echo three >out/a.txt'
[ "$(readlink "$L")" != "$first" ] && ok "the rerun has its own folder" || bad "the rerun reused $first"
grep -q "^three$" "$L/out/a.txt" && ok "the rerun's file is this run's" || bad "latest/out/a.txt is not this run's"
has "the earlier run's file is named" "$W/err" "error: out/b c.txt on t1 was not written by this run"
[ -e "$L/out/b c.txt" ] && bad "an earlier run's file was fetched as this run's" ||
    ok "an earlier run's file is not fetched"
grep -q "local edit" "$P/remote/t1/$first/out/a.txt" && ok "the earlier run's folder is left alone" ||
    bad "the earlier run's folder changed"
run_rc "--force is explained" 2 "$G" remote run t1 --fetch 'out/*.txt' --force -- true
has "--force: why it is gone" "$W/err" "folder of its own"
run_rc "fetch a pattern with .." 2 "$G" remote run t1 --fetch '../*' -- true
run_rc "fetch with nothing matching is an error" 1 "$G" remote run t1 --fetch 'nothing-*' -- true
has "the pattern that matched nothing is named" "$W/err" "error: --fetch nothing-\*: no file on t1 written by this run"
[ -e "$L/out/a.txt" ] && bad "a run that fetched nothing shows an earlier run's file" ||
    ok "a run that fetched nothing shows nothing of an earlier one"

# From a subfolder, the run's folder is shown relative to the current folder.
(cd "sub dir" && "$G" remote run t1 --fetch made.txt -- sh -c 'echo here >made.txt' >"$W/out" 2>"$W/err")
has "from a subfolder the path shown is relative to it" "$W/err" "this run's files: \.\./remote/t1/runs/"
shown=$(sed -n "s|.*this run's files: \(\.\./remote/t1/runs/[^ ]*\) .*|\1|p" "$W/err")
[ -n "$shown" ] && (cd "sub dir" && grep -qx here "${shown}sub dir/made.txt") &&
    ok "the path shown leads to the fetched file from there" || bad "'$shown' does not lead to the file from sub dir"

# --- one login for the whole loop: sync, run and fetch share the ssh master -------------------
before=$(grep -c "Accepted publickey" "$GP_SSH_DIR/sshd.log")
run_rc "sync, run and fetch" 0 "$G" remote run t1 --sync --fetch 'out/a.txt' -- sh -c 'echo 1 >out/a.txt'
after=$(grep -c "Accepted publickey" "$GP_SSH_DIR/sshd.log")
[ $((after - before)) = 1 ] && ok "one ssh login for sync, run and fetch" ||
    bad "$((after - before)) ssh logins for one run (expected 1)"

# --- freeze, compare, doctor: sibling subcommands of this gpuport ----------------------------
run_rc "fetch records freeze manifests" 0 "$G" remote add t1 gptest --path "$R" --gpuport "$G" --replace
run_rc "fetch with freeze" 0 "$G" remote run t1 --fetch 'out/a.txt' -- sh -c 'echo 2 >out/a.txt'
[ -s "$L/gpuport-freeze.local.json" ] && [ -s "$L/gpuport-freeze.remote.json" ] &&
    ok "both freeze manifests recorded" || { bad "freeze manifests missing"; cat "$W/err"; }
# A failed run's manifests stay with that run: the next run shows its own or none.
"$G" remote add t1 gptest --path "$R" --gpuport "$W/nowhere/gpuport" --replace >/dev/null
run_rc "a run whose manifest cannot be recorded" 0 "$G" remote run t1 --fetch 'out/a.txt' -- \
    sh -c 'echo 3 >out/a.txt'
[ -e "$L/gpuport-freeze.remote.json" ] && bad "an earlier run's remote manifest is shown as this run's" ||
    ok "no earlier manifest beside this run's outputs"
"$G" remote add t1 gptest --path "$R" --gpuport "$G" --replace >/dev/null
run_rc "compare" 0 "$G" remote run t1 --compare 'res/*.csv' -- \
    sh -c 'mkdir -p res && printf "1.0,2.0,3.0\n" >res/v.csv'
has "compare verdict" "$W/out" "verdict: same"
[ -s "$L/res/v.csv" ] && ok "compare fetched the remote output" || bad "compare fetched nothing"
run_rc "the same compare again just works" 0 "$G" remote run t1 --compare 'res/*.csv' -- \
    sh -c 'mkdir -p res && printf "1.0,2.0,3.0\n" >res/v.csv'
has "rerun compare verdict" "$W/out" "verdict: same"
# A run that does not write its output: the file an earlier run left there is never this run's.
run_rc "compare after a run that wrote nothing" 1 "$G" remote run t1 --compare 'res/*.csv' -- true
hasnt "a stale output is never 'same'" "$W/out" "verdict: same"
has "the stale output is MISSING" "$W/out" "^MISSING .*res/v.csv"
has "the stale output is named" "$W/err" "error: res/v.csv on t1 was not written by this run"
[ -e "$L/res/v.csv" ] && bad "a stale output was fetched" || ok "a stale output is not fetched"
run_rc "an output the run did not make at all" 1 "$G" remote run t1 --fetch 'res/none.csv' -- true
has "the missing output is named" "$W/err" "error: --fetch res/none.csv: no file on t1 written by this run"
WRITE_V='mkdir -p res && printf "1.0,2.0,3.0\n" >res/v.csv'
printf '1.0,2.0,9.0\n' >res/v.csv # a local output that disagrees
run_rc "compare a differing output" 1 "$G" remote run t1 --no-local-run --compare 'res/*.csv' -- sh -c "$WRITE_V"
has "compare verdict: different" "$W/out" "verdict: different"
has "a DIFFERENT line says by how much" "$W/out" "^DIFFERENT .*res/v.csv.*max abs 6 at \[0, 2\].*would pass atol >= 6"
run_rc "--rtol reaches compare" 0 "$G" remote run t1 --no-local-run --compare 'res/*.csv' --rtol 3 -- sh -c "$WRITE_V"
has "within the looser tolerance" "$W/out" "verdict: same"
run_rc "--atol reaches compare" 0 "$G" remote run t1 --no-local-run --compare 'res/*.csv' --atol 6.5 -- sh -c "$WRITE_V"
printf '{"default": {"atol": 7, "nmse": null, "cosine": null}}\n' >"$W/policy.json"
run_rc "--policy reaches compare" 0 "$G" remote run t1 --no-local-run --compare 'res/*.csv' \
    --policy "$W/policy.json" -- sh -c "$WRITE_V"
run_rc "a bad --rtol fails before the remote run" 2 "$G" remote run t1 --no-local-run \
    --compare 'res/*.csv' --rtol lots -- sh -c 'echo ran-there'
hasnt "nothing ran for a bad --rtol" "$W/out" "ran-there"
run_rc "--rtol without --compare" 2 "$G" remote run t1 --rtol 1 -- true
rm -rf res
"$G" remote add t1 gptest --path "$R" --gpuport "$W/nowhere/gpuport" --replace >/dev/null
run_rc "doctor without gpuport there" 2 "$G" remote doctor t1
has "doctor says how to install" "$W/err" "gpuport is not installed on t1"
has "the fix keeps the target's folder, quoted" "$W/err" "gpuport remote add t1 gptest --path $R --gpuport PATH --replace"
"$G" remote add t1q gptest --path "$W/far/it's mine" --gpuport "$W/nowhere/gpuport" >/dev/null
run_rc "doctor without gpuport, a folder to quote" 2 "$G" remote doctor t1q
has "the folder is quoted in the fix" "$W/err" "--path '$W/far/it'.*s mine' --gpuport PATH"
"$G" remote remove t1q >/dev/null
"$G" remote add t1 gptest --path "$R" --gpuport "$G" --replace >/dev/null
if "$G" doctor --help >/dev/null 2>&1; then
    run_rc "doctor side by side" 0 "$G" remote doctor t1
    has "doctor table" "$W/out" "this machine"
    run_rc "doctor --json" 0 "$G" remote doctor t1 --json
    has "doctor --json schema" "$W/out" '"schema":.*"gpuport.remote/1"'
else
    run_rc "doctor without doctor" 2 "$G" remote doctor t1
    has "doctor absence is reported" "$W/err" "has no \`doctor\`"
fi

# --- Ctrl-C stops the remote command ---------------------------------------------------------
rm -f "$W/remote.pid"
"$G" remote run t1 -- sh -c "echo \$\$ >'$W/remote.pid'; exec sleep 120" >"$W/out" 2>"$W/err" &
gpid=$!
for _ in $(seq 1 100); do [ -s "$W/remote.pid" ] && break; sleep 0.1; done
rpid=$(cat "$W/remote.pid" 2>/dev/null)
if [ -z "$rpid" ] || ! kill -0 "$rpid" 2>/dev/null; then
    bad "interrupt: the remote command did not start"
else
    # While it runs: the control socket lives in a private folder of gpuport's.
    priv=$(ls -d "$XDG_RUNTIME_DIR"/gpuport-remote-* 2>/dev/null | head -1)
    if [ -n "$priv" ] && [ -S "$priv/cm" ] && ls -ld "$priv" | grep -q '^drwx------'; then
        ok "control socket in a private 0700 folder"
    else
        bad "no private 0700 folder with the control socket in $XDG_RUNTIME_DIR"
        ls -la "$XDG_RUNTIME_DIR" "$priv"
    fi
    kill -INT $gpid
    wait $gpid
    rc=$?
    [ $rc = 130 ] && ok "interrupted run exits 130" || bad "interrupted run exited $rc"
    has "interrupt reported" "$W/err" "interrupted"
    for _ in $(seq 1 50); do kill -0 "$rpid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$rpid" 2>/dev/null && { bad "remote process $rpid survived Ctrl-C"; kill "$rpid"; } ||
        ok "remote process stopped by Ctrl-C"
fi

# Ctrl-C at a terminal signals the whole foreground group: gpuport and its ssh alike.
rm -f "$W/remote.pid"
set -m # background jobs get process groups of their own, like a shell's foreground job
"$G" remote run t1 -- sh -c "echo \$\$ >'$W/remote.pid'; exec sleep 120" >"$W/out" 2>"$W/err" &
gpid=$!
set +m
for _ in $(seq 1 100); do [ -s "$W/remote.pid" ] && break; sleep 0.1; done
rpid=$(cat "$W/remote.pid" 2>/dev/null)
if [ -z "$rpid" ]; then
    bad "group interrupt: the remote command did not start"
else
    kill -INT -- "-$gpid"
    wait $gpid
    rc=$?
    [ $rc = 130 ] && ok "Ctrl-C to the group exits 130" || { bad "Ctrl-C to the group exited $rc"; cat "$W/err"; }
    for _ in $(seq 1 50); do kill -0 "$rpid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$rpid" 2>/dev/null && { bad "remote process survived Ctrl-C to the group"; kill "$rpid"; } ||
        ok "remote process stopped by Ctrl-C to the group"
fi
# SIGTERM (a CI job being cancelled) stops it the same way.
rm -f "$W/remote.pid"
"$G" remote run t1 -- sh -c "echo \$\$ >'$W/remote.pid'; exec sleep 120" >"$W/out" 2>"$W/err" &
gpid=$!
for _ in $(seq 1 100); do [ -s "$W/remote.pid" ] && break; sleep 0.1; done
rpid=$(cat "$W/remote.pid" 2>/dev/null)
kill -TERM $gpid
wait $gpid
rc=$?
[ $rc = 143 ] && ok "SIGTERM exits 143" || bad "SIGTERM exited $rc"
if [ -n "$rpid" ]; then
    for _ in $(seq 1 50); do kill -0 "$rpid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$rpid" 2>/dev/null && { bad "remote process survived SIGTERM"; kill "$rpid"; } ||
        ok "remote process stopped by SIGTERM"
fi

# --- a dropped connection --------------------------------------------------------------------
rm -f "$W/remote.pid"
"$G" remote run t1 -- sh -c "echo \$\$ >'$W/remote.pid'; exec sleep 120" >"$W/out" 2>"$W/err" &
gpid=$!
for _ in $(seq 1 100); do [ -s "$W/remote.pid" ] && break; sleep 0.1; done
rpid=$(cat "$W/remote.pid" 2>/dev/null)
# The server's per-connection processes are the listener's children: killing them drops the link.
children=$(ps -A -o pid= -o ppid= | awk -v p="$GP_SSHD_PID" '$2 == p { print $1 }')
[ -n "$children" ] || bad "no server process found for the connection"
for c in $children; do kill -9 "$c" 2>/dev/null; done
wait $gpid
rc=$?
[ $rc = 3 ] && ok "dropped connection exits 3" || { bad "dropped connection exited $rc"; cat "$W/err"; }
has "dropped connection reported" "$W/err" "connection to t1 lost"
if [ -n "$rpid" ]; then
    for _ in $(seq 1 50); do kill -0 "$rpid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$rpid" 2>/dev/null && { bad "remote process survived the dropped link"; kill "$rpid"; } ||
        ok "remote process stopped with the link"
fi

# --- hosts we cannot use ---------------------------------------------------------------------
"$G" remote add down gptest-down --path "$R" >/dev/null
"$G" remote add badkey gptest-bad --path "$R" >/dev/null
run_rc "unreachable host" 2 "$G" remote run down -- true
has "unreachable explained" "$W/err" "cannot reach down"
run_rc "refused key" 2 "$G" remote run badkey -- true
has "auth failure explained" "$W/err" "cannot log in to badkey"
has "auth failure fix" "$W/err" "install one with: ssh-copy-id gptest-bad; then check with: ssh gptest-bad true"
run_rc "unreachable doctor" 2 "$G" remote doctor down

# No control sockets or private folders are left behind.
left=$(find "$XDG_RUNTIME_DIR" -mindepth 1 | wc -l)
[ "$left" = 0 ] && ok "private folders removed" || { bad "private folders left behind"; ls -la "$XDG_RUNTIME_DIR"; }
exit $fail
