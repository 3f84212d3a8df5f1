#!/usr/bin/env bash
# The human report a team reads: three lines at the top (verdict, what decided it, first step);
# at most 5 findings of a rule listed unless --all (JSON keeps them all); snippets cut at a word
# with "..." where their line goes on; CUDA kernels counted as kernels; stop evidence from the
# project's own files before vendored ones; a conditional stop's reason said once.
set -u
work="$GPUPORT_BUILD_DIR/audit-report"
rm -rf "$work" && mkdir -p "$work"
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# a training script with many .cuda() calls and one long line
p="$work/big"
mkdir -p "$p"
{
    echo 'import torch'
    for i in $(seq 1 40); do echo "x$i = torch.zeros($i).cuda()"; done
    echo 'result = compute_the_first_quantity_of_interest(alpha, beta, gamma) + other_function_with_a_long_name(delta, epsilon).cuda() + third_function_with_a_long_name(zeta, eta, theta, iota, kappa, lambda_, mu_value, nu_value, xi_value, omicron, pi_value, rho_value, sigma_value)'
} >"$p/train.py"
(cd "$p" && "$GPUPORT" audit --fail-on never .) >"$work/out"
sed -n 2p "$work/out" | grep -q '^Verdict: needs-device-abstraction' &&
    sed -n 3p "$work/out" | grep -q '^Decided by: PY-DEV-001 `.cuda()` call (41 findings, e.g. train.py:2)' &&
    sed -n 4p "$work/out" | grep -q '^First step: ' &&
    ok "three lines at the top: verdict, what decided it, first step" ||
    { bad "the top three lines"; head -5 "$work/out"; }
n=$(grep -c ': warning PY-DEV-001' "$work/out")
[ "$n" -eq 5 ] && grep -q '^36 more findings not listed (at most 5 of a rule here, the most severe first): --all lists every one' "$work/out" &&
    ok "at most 5 findings of a rule listed, the rest counted" || bad "bounded list: $n listed"
# the most severe first: six guarded notes ahead of a warning in the same file leave room for it,
# and the warning is the rule's example
p2="$work/severe"
mkdir -p "$p2"
{
    echo 'import torch'
    echo 'if torch.cuda.is_available():'
    for i in $(seq 1 6); do echo "    g$i = torch.zeros($i).cuda()"; done
    echo 'w = torch.ones(3).cuda()'
} >"$p2/train.py"
(cd "$p2" && "$GPUPORT" audit --fail-on never .) >"$work/severe.out"
grep -q '^train.py:9:.*: warning PY-DEV-001' "$work/severe.out" &&
    [ "$(grep -c ': note PY-DEV-001' "$work/severe.out")" -eq 4 ] &&
    sed -n 3p "$work/severe.out" | grep -q 'e.g. train.py:9)' &&
    grep -q '`.cuda()` call, e.g. train.py:9$' "$work/severe.out" &&
    ok "the per-rule limit and the examples keep the most severe findings" ||
    { bad "the per-rule limit by severity"; grep PY-DEV "$work/severe.out"; }
(cd "$p" && "$GPUPORT" audit --all --fail-on never .) >"$work/all"
n=$(grep -c ': warning PY-DEV-001' "$work/all")
[ "$n" -eq 41 ] && ! grep -q 'more findings not listed' "$work/all" && ok "--all lists all 41" || bad "--all: $n listed"
n=$( (cd "$p" && "$GPUPORT" audit --json --fail-on never .) | grep -o '"rule":"PY-DEV-001","file"' | wc -l)
[ "$n" -eq 41 ] && ok "JSON keeps all 41" || bad "JSON: $n findings"
# the long line's snippet: cut at whole words, "..." on both sides
snip=$(grep -A1 'train.py:42:' "$work/all" | tail -1 | sed 's/^ *//')
case "$snip" in
"..."*" ...")
    first=${snip#...}; first=${first#, }; first=${first%% *}; first=${first%%[),]*}
    last=${snip% ...}; last=${last##* }
    if grep -qw -- "$first" "$p/train.py" && grep -qw -- "$last" "$p/train.py" && [[ $snip == *".cuda()"* ]]; then
        ok "a cut snippet: whole words, '...' where the line goes on ($snip)"
    else bad "a cut snippet splits a word: $snip"; fi ;;
*) bad "a cut snippet without '...': $snip" ;;
esac
grep -A1 'train.py:2:' "$work/all" | tail -1 | grep -q '^    x1 = torch.zeros(1).cuda()$' &&
    ok "an uncut snippet has no '...'" || bad "uncut snippet"

# kernels counted as kernels; the project's own evidence before vendored code
k="$work/kern"
mkdir -p "$k/third_party/fastlib" "$k/src"
for d in third_party/fastlib src; do
    {
        for i in 1 2 3; do
            printf '__global__ void k%d(float* x, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) x[i] += %d;\n}\n' "$i" "$i"
        done
        printf 'void run(float* x, int n)\n{\n'
        for i in 1 2 3; do printf '    k%d<<<(n + 255) / 256, 256>>>(x, n);\n    k%d<<<1, 1>>>(x, 1);\n' "$i" "$i"; done
        printf '}\n'
    } >"$k/$d/ops.cu"
done
(cd "$k" && "$GPUPORT" audit --no-default-excludes --fail-on never .) >"$work/kout"
grep -qE '^ +[0-9]+  C-KERN-001 +CUDA kernel \(6 kernels\), e.g.' "$work/kout" &&
    grep -q '    module src: 3 kernels (9 findings), e.g. src/ops.cu:1 (C-KERN-001)' "$work/kout" &&
    ok "kernels counted as kernels, their definitions shown first" || { bad "kernel counts"; grep -n 'kernel\|module' "$work/kout"; }
first=$(grep -m1 '^    module ' "$work/kout")
[[ $first == "    module src:"* ]] && ok "the project's own module before the vendored one" ||
    bad "vendored evidence first: $first"

# a conditional stop in two modules: its reason once
c="$work/cond"
mkdir -p "$c/a" "$c/b"
for d in a b; do
    printf 'import torch.distributed as dist\n\ndef setup(args):\n    if args.distributed:\n        dist.init_process_group("nccl")\n' >"$c/$d/run_$d.py"
done
(cd "$c" && "$GPUPORT" audit --fail-on never .) >"$work/cout"
n=$(grep -c '^    only for multi-GPU training' "$work/cout")
m=$(grep -c '^    module ' "$work/cout")
[ "$n" -eq 1 ] && [ "$m" -eq 2 ] && ok "a conditional stop's reason once for two modules" ||
    { bad "conditional reason $n times for $m modules"; sed -n '/^Conditional/,/^$/p' "$work/cout"; }

# the first step from the project's own code; where only examples have findings, said so
e="$work/own"
mkdir -p "$e/mypkg" "$e/examples"
printf 'def add(a, b):\n    return a + b\n' >"$e/mypkg/__init__.py"
printf 'import torch\nimport mypkg\nx = torch.zeros(3).cuda()\n' >"$e/examples/demo.py"
(cd "$e" && "$GPUPORT" audit --fail-on never .) >"$work/eout"
sed -n 2p "$work/eout" | grep -q "^Verdict: portable (effort: none); every finding is outside the project's own code (examples, tests, docs, benchmarks or vendored code)$" &&
    sed -n 4p "$work/eout" | grep -q "^First step: nothing in the project's own code; \`.cuda()\` call (1, e.g. examples/demo.py:3, an example): " &&
    ok "only an example's finding: the verdict and the first step say so" || { bad "first step, example only"; head -5 "$work/eout"; }
printf 'import torch\ny = torch.ones(2).cuda()\n' >"$e/mypkg/core.py"
printf 'import torch\ntorch.cuda.synchronize()\n' >"$e/examples/sync.py"
(cd "$e" && "$GPUPORT" audit --fail-on never .) >"$work/eout"
sed -n 2p "$work/eout" | grep -q '^Verdict: needs-device-abstraction (effort: low)$' &&
    sed -n 3p "$work/eout" | grep -q 'e.g. mypkg/core.py:2)$' &&
    sed -n 4p "$work/eout" | grep -q '^First step: `.cuda()` call (2, e.g. mypkg/core.py:2): ' &&
    ok "the first step and what decided it from the project's own code, not the example" ||
    { bad "first step from an example"; head -5 "$work/eout"; }
# a 'cuda' that is only a command-line default: the first step names the option to give
c="$work/cli"
mkdir -p "$c/arg" "$c/conf"
cat >"$c/arg/train.py" <<'PY'
import argparse
import torch
parser = argparse.ArgumentParser()
parser.add_argument("-d", "--device", type=str, default="cuda", help="cuda, mps or cpu")
args = parser.parse_args()
model = torch.nn.Linear(2, 2).to(args.device)
PY
(cd "$c/arg" && "$GPUPORT" audit --fail-on never .) >"$work/clout"
sed -n 4p "$work/clout" | grep -q '^First step: .*e.g. train.py:4): the device is a command-line default: run with `--device mps` on a Mac' &&
    ok "an argparse device default: run with --device mps" || { bad "argparse default step"; head -5 "$work/clout"; }
cat >"$c/conf/sample.py" <<'PY'
import torch
device = 'cuda'  # or 'cpu', 'mps'
seed = 1337
exec(open('configurator.py').read())  # overrides from the command line
x = torch.zeros(4, device=device)
PY
printf 'import sys
for arg in sys.argv[1:]:
    key, val = arg[2:].split("=")
    globals()[key] = val
' >"$c/conf/configurator.py"
(cd "$c/conf" && "$GPUPORT" audit --fail-on never .) >"$work/clout"
sed -n 4p "$work/clout" | grep -q 'run with `--device=mps` on a Mac' &&
    ok "a global a configurator overrides: run with --device=mps" || { bad "configurator step"; head -5 "$work/clout"; }
sed -i 's/^exec(open/# exec(open/' "$c/conf/sample.py"
(cd "$c/conf" && "$GPUPORT" audit --fail-on never .) >"$work/clout"
sed -n 4p "$work/clout" | grep -q 'Resolve the device once' &&
    ok "without the configurator the default is code to change" || { bad "no configurator step"; head -5 "$work/clout"; }
# a notebook's place is its cell in "Decided by" as in the first step
nbd="$work/nb"
mkdir -p "$nbd"
python3 - "$nbd/demo.ipynb" <<'PY'
import json, sys
cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# demo"]},
         {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": ["import torch\n"]},
         {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
          "source": ["x = 1\n", "model = torch.nn.Linear(2, 2).cuda()\n"]}]
json.dump({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, open(sys.argv[1], "w"))
PY
(cd "$nbd" && "$GPUPORT" audit --fail-on never .) >"$work/nbout"
sed -n 3p "$work/nbout" | grep -q 'e.g. demo.ipynb:cell 3:2)$' &&
    sed -n 4p "$work/nbout" | grep -q 'e.g. demo.ipynb:cell 3:2)' &&
    ok "a notebook's cell in what decided it and in the first step" || { bad "notebook cell"; head -5 "$work/nbout"; }
exit $fail
