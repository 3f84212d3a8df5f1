"""mutations.py — proof that the check against Apple's declarations can fail: each mutation puts
one deliberate mistake into a copy of a Mac source, and check.py must refuse the copy, naming the
copy and the line of the mistake with the reason expected. Exit 1 when any is accepted or
refused for another reason.
"""

import os
import shutil
import sys
import tempfile

import check
import sdk

# name, file, text replaced, replacement, what the diagnostic must say [, its line after the
# first replaced one]
MUTATIONS = [
    ("wrong selector", "src/runtime/metal/program.m",
     "[p->library newFunctionWithName:name]", "[p->library newFunctionNamed:name]",
     "has no instance method newFunctionNamed: in Apple's declarations"),
    ("wrong argument type: another enum", "src/runtime/metal/memory.m",
     "newBufferWithLength:buf->size\n                                                 options:"
     "MTLResourceStorageModeShared]",
     "newBufferWithLength:buf->size options:MTLStorageModeShared]",
     "a MTLStorageMode, not a MTLResourceOptions"),
    ("wrong argument type: a float for an integer", "src/runtime/metal/program.m",
     "[enc setBytes:a->value length:a->size atIndex:i]",
     "[enc setBytes:a->value length:(float)a->size atIndex:i]",
     "Apple declares NSUInteger, the source passes float"),
    ("wrong enum value", "src/runtime/metal/device.m",
     "GP_MTLGPUFamilyApple4 = 1004", "GP_MTLGPUFamilyApple4 = 1005",
     "but Apple's MTLGPUFamilyApple4 is 1004"),
    ("a bare number for an enum", "src/bench/mps.m",
     "dataType:MPSDataTypeFloat32]", "dataType:(MPSDataType)0x10000020]",
     "a number cast to MPSDataType"),
    ("unguarded macOS 15 API", "src/runtime/metal/program.m",
     "    if (@available(macOS 15.0, iOS 18.0, *)) {\n", "    {\n",
     "-[MTLCompileOptions setMathMode:] needs macOS 15.0, but it is reached on macOS 11.0", 1),
    ("unguarded value of a newer SDK", "src/runtime/metal/device.m",
     "if (@available(macOS 12.0, iOS 15.0, *)) return", "return",
     "GP_MTLLanguageVersion2_4 needs macOS 12.0, but it is reached on macOS 11.0"),
    ("guard below what it guards", "src/runtime/metal/device.m",
     "if (@available(macOS 12.0, iOS 15.0, *)) return", "if (@available(macOS 11.0, *)) return",
     "@available(macOS 11.0) does not match what it guards"),
    ("result narrowed", "src/runtime/metal/program.m",
     "k->max_group_size = (uint32_t)pso.maxTotalThreadsPerThreadgroup;",
     "k->max_group_size = pso.maxTotalThreadsPerThreadgroup;",
     "narrowed to uint32_t without a cast"),
    ("owned result discarded", "src/runtime/metal/queue.m",
     "mq->queue = [m->device newCommandQueue];", "[m->device newCommandQueue];",
     "returns an object the caller owns (+1), and it is discarded"),
]


def run_one(db, work, name, rel, old, new, expect, offset=0):
    src = os.path.join(sdk.SOURCE_DIR, rel)
    with open(src, encoding="utf-8") as f:
        text = f.read()
    if text.count(old) != 1:
        return f"FAIL {name}: {rel} no longer has the text it mutates exactly once; update " \
               "tests/runtime/metal/apple/mutations.py"
    line = text[:text.index(old)].count("\n") + 1 + offset  # where the mistake is
    copy = os.path.join(work, os.path.basename(rel))
    with open(copy, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new))
    diags = []
    check.check_files([copy], db, diags.append, {})
    os.remove(copy)
    hits = [d for d in diags if d.startswith(f"{copy}:{line}:") and expect in d]
    if hits:
        return f"ok   {name}: {hits[0][len(work) + 1:]}"
    return f"FAIL {name} ({rel}:{line} -> {expect!r}) not reported; the check said:\n  " + \
        "\n  ".join(diags or ["(nothing)"])


def main():
    db = sdk.load_or_skip()
    work = tempfile.mkdtemp()
    try:
        results = [run_one(db, work, *m) for m in MUTATIONS]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for r in results:
        print(r)
    return 1 if any(r.startswith("FAIL") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
