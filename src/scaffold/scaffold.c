/* scaffold.c — `gpuport new`: writes a project that builds and runs unchanged on a CUDA machine,
 * a Mac and a CPU-only box — kernels in the dialect, C host code on the `auto` device, a test, and
 * optionally the same kernel from Python. The files are templates with @NAME@ filled in. */
#include "scaffold/scaffold.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fs.h"
#include "util/strbuf.h"

static const char cmake_tpl[] =
    "# @NAME@: one kernel source for CUDA, Metal, OpenCL and the CPU, through gpuport.\n"
    "cmake_minimum_required(VERSION 3.20)\n"
    "project(@NAME@ LANGUAGES C)\n"
    "set(CMAKE_C_STANDARD 11)\n"
    "\n"
    "# Where gpuport comes from (the configure step says which one it used):\n"
    "#   1. an installed gpuport (a package, or `cmake --install` of a gpuport build; add\n"
    "#      -DCMAKE_PREFIX_PATH=PREFIX when it is not in a default place) or a gpuport build tree\n"
    "#      (-Dgpuport_DIR=/path/to/gpuport/build): found by find_package;\n"
    "#   2. else a gpuport source checkout, -DGPUPORT_SOURCE_DIR=/path/to/gpuport: built here as "
    "a\n"
    "#      subproject (only the library).\n"
    "# -DGPUPORT_FROM=package or -DGPUPORT_FROM=source takes only that way.\n"
    "set(GPUPORT_FROM auto CACHE STRING \"where gpuport comes from: auto, package or source\")\n"
    "set_property(CACHE GPUPORT_FROM PROPERTY STRINGS auto package source)\n"
    "set(GPUPORT_SOURCE_DIR \"\" CACHE PATH \"a gpuport source checkout, built as a subproject\")\n"
    "if(NOT GPUPORT_FROM MATCHES \"^(auto|package|source)$\")\n"
    "  message(FATAL_ERROR \"GPUPORT_FROM=${GPUPORT_FROM}: use auto, package or source\")\n"
    "endif()\n"
    "if(NOT GPUPORT_FROM STREQUAL \"source\")\n"
    "  find_package(gpuport 0.1 CONFIG QUIET)\n"
    "endif()\n"
    "if(gpuport_FOUND)\n"
    "  message(STATUS \"gpuport ${gpuport_VERSION}: the ${gpuport_PACKAGE_KIND} found at "
    "${gpuport_DIR}\"\n"
    "    \" (-DGPUPORT_FROM=source -DGPUPORT_SOURCE_DIR=... builds a checkout instead)\")\n"
    "elseif(NOT GPUPORT_FROM STREQUAL \"package\" AND GPUPORT_SOURCE_DIR)\n"
    "  if(NOT EXISTS \"${GPUPORT_SOURCE_DIR}/include/gpuport/gpuport.h\")\n"
    "    message(FATAL_ERROR \"GPUPORT_SOURCE_DIR=${GPUPORT_SOURCE_DIR} is not a gpuport source "
    "checkout\")\n"
    "  endif()\n"
    "  include(FetchContent)\n"
    "  FetchContent_Declare(gpuport SOURCE_DIR \"${GPUPORT_SOURCE_DIR}\")\n"
    "  FetchContent_MakeAvailable(gpuport)\n"
    "  message(STATUS \"gpuport: built here from the source checkout ${GPUPORT_SOURCE_DIR}\")\n"
    "elseif(GPUPORT_FROM STREQUAL \"source\")\n"
    "  message(FATAL_ERROR \"GPUPORT_FROM=source needs -DGPUPORT_SOURCE_DIR=/path/to/gpuport (a "
    "checkout)\")\n"
    "else()\n"
    "  message(FATAL_ERROR \"gpuport was not found. Give one of:\\n\"\n"
    "    \"  -DCMAKE_PREFIX_PATH=PREFIX               an installed gpuport (cmake --install of a "
    "build)\\n\"\n"
    "    \"  -Dgpuport_DIR=/path/to/gpuport/build     a gpuport build tree\\n\"\n"
    "    \"  -DGPUPORT_SOURCE_DIR=/path/to/gpuport    a source checkout, built here as a "
    "subproject\")\n"
    "endif()\n"
    "\n"
    "# Every kernels/*.gpk is embedded into the program as a string (kernels.h), so the binary "
    "runs\n"
    "# from anywhere; the build writes kernels.h again whenever a kernel changes or one is added.\n"
    "file(GLOB kernels CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.gpk)\n"
    "add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/kernels.h\n"
    "  COMMAND ${CMAKE_COMMAND} -DKERNEL_DIR=${CMAKE_CURRENT_SOURCE_DIR}/kernels\n"
    "          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/kernels.h -P "
    "${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed-kernels.cmake\n"
    "  DEPENDS ${kernels} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/embed-kernels.cmake\n"
    "  COMMENT \"Embedding kernels/*.gpk into kernels.h\" VERBATIM)\n"
    "\n"
    "add_executable(@NAME@ src/main.c ${CMAKE_CURRENT_BINARY_DIR}/kernels.h)\n"
    "target_include_directories(@NAME@ PRIVATE ${CMAKE_CURRENT_BINARY_DIR})\n"
    "target_link_libraries(@NAME@ PRIVATE gpuport::gpuport)\n"
    "if(NOT APPLE)\n"
    "  target_link_libraries(@NAME@ PRIVATE m)\n"
    "endif()\n"
    "\n"
    "enable_testing()\n"
    "# The best device of this machine, and the CPU, which every machine has.\n"
    "add_test(NAME @NAME@_auto COMMAND @NAME@ --check)\n"
    "add_test(NAME @NAME@_cpu COMMAND @NAME@ --device cpu --check)\n";

static const char embed_tpl[] =
    "# embed-kernels.cmake — run by the build (cmake -P) whenever a kernel changes: writes OUT, a "
    "C\n"
    "# header with each KERNEL_DIR/<name>.gpk as the string <name>_gpk.\n"
    "file(GLOB kernels \"${KERNEL_DIR}/*.gpk\")\n"
    "list(SORT kernels)\n"
    "set(header \"/* generated from kernels/*.gpk by cmake/embed-kernels.cmake; do not edit "
    "*/\\n\")\n"
    "foreach(k ${kernels})\n"
    "  get_filename_component(name ${k} NAME_WE)\n"
    "  string(MAKE_C_IDENTIFIER \"${name}\" id)\n"
    "  file(READ ${k} text)\n"
    "  string(REPLACE \"\\\\\" \"\\\\\\\\\" text \"${text}\")\n"
    "  string(REPLACE \"\\\"\" \"\\\\\\\"\" text \"${text}\")\n"
    "  string(REPLACE \"?\" \"\\\\?\" text \"${text}\")\n"
    "  string(REPLACE \"\\n\" \"\\\\n\\\"\\n    \\\"\" text \"${text}\")\n"
    "  string(APPEND header \"static const char ${id}_gpk[] =\\n    \\\"${text}\\\";\\n\")\n"
    "endforeach()\n"
    "file(WRITE \"${OUT}\" \"${header}\")\n";

static const char kernel_tpl[] =
    "/* saxpy.gpk — y = a*x + y, in gpuport's portable kernel dialect (one source for CUDA, "
    "Metal,\n"
    " * OpenCL and the CPU). Pointers carry their address space; indices come from gp_global_id. "
    "*/\n"
    "GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))\n"
    "{\n"
    "    int i = gp_global_id(0);\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static const char main_tpl[] =
    "/* main.c — @NAME@: runs saxpy on the best device of this machine (or --device SPEC), says "
    "which\n"
    " * device ran it and why, and with --check verifies the result against the CPU. */\n"
    "#include <gpuport/gpuport.h>\n"
    "#include <math.h>\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "\n"
    "#include \"kernels.h\"\n"
    "\n"
    "#define CHECK(call)                                                                     \\\n"
    "    do {                                                                                \\\n"
    "        gp_status st_ = (call);                                                         \\\n"
    "        if (st_ != GP_OK) {                                                             \\\n"
    "            fprintf(stderr, \"@NAME@: %s: %s\\n\", gp_status_name(st_), gp_last_error()); \\\n"
    "            return 1;                                                                   \\\n"
    "        }                                                                               \\\n"
    "    } while (0)\n"
    "\n"
    "static const char usage[] =\n"
    "    \"usage: @NAME@ [--device auto|cuda|metal|opencl|cpu] [--check]\\n\"\n"
    "    \"  --device SPEC  the device to run on (default auto: the best of this machine)\\n\"\n"
    "    \"  --check        compare the result with the same computation on the host\\n\";\n"
    "\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    const char *spec = \"auto\";\n"
    "    int check = 0;\n"
    "    for (int i = 1; i < argc; i++) {\n"
    "        if (!strcmp(argv[i], \"--device\") && i + 1 < argc) spec = argv[++i];\n"
    "        else if (!strcmp(argv[i], \"--check\")) check = 1;\n"
    "        else if (!strcmp(argv[i], \"-h\") || !strcmp(argv[i], \"--help\")) {\n"
    "            printf(\"%s\", usage);\n"
    "            return 0;\n"
    "        } else {\n"
    "            fprintf(stderr, \"@NAME@: unknown argument '%s'\\n%s\", argv[i], usage);\n"
    "            return 2;\n"
    "        }\n"
    "    }\n"
    "    gp_device *dev;\n"
    "    CHECK(gp_device_open(spec, &dev));\n"
    "    gp_device_info info;\n"
    "    CHECK(gp_device_get_info(dev, &info));\n"
    "    char why[4096];\n"
    "    CHECK(gp_device_selection_text(dev, why, sizeof why, NULL));\n"
    "    printf(\"device: %s (%s)\\n%s\", info.spec, info.name, why);\n"
    "\n"
    "    enum { N = 1 << 20 };\n"
    "    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *out = malloc(N * sizeof "
    "*out);\n"
    "    if (!x || !y || !out) return 1;\n"
    "    for (int i = 0; i < N; i++) x[i] = (float)(i % 1000) * 0.5f, y[i] = (float)(i % 7);\n"
    "    gp_buffer *bx, *by;\n"
    "    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, N * sizeof(float), &bx));\n"
    "    CHECK(gp_buffer_create(dev, GP_BUFFER_DEVICE, N * sizeof(float), &by));\n"
    "    CHECK(gp_buffer_write(bx, 0, x, N * sizeof(float)));\n"
    "    CHECK(gp_buffer_write(by, 0, y, N * sizeof(float)));\n"
    "\n"
    "    gp_build_options opt = {sizeof opt, 0, \"saxpy.gpk\", NULL, 0, 0};\n"
    "    gp_program *prog;\n"
    "    gp_kernel *k;\n"
    "    CHECK(gp_program_create(dev, saxpy_gpk, strlen(saxpy_gpk), &opt, &prog));\n"
    "    CHECK(gp_kernel_create(prog, \"saxpy\", &k));\n"
    "    float a = 2.0f;\n"
    "    int n = N;\n"
    "    gp_arg args[] = {gp_arg_buffer(by), gp_arg_buffer(bx), gp_arg_value(&a, sizeof a),\n"
    "                     gp_arg_value(&n, sizeof n)};\n"
    "    size_t global = N;\n"
    "    CHECK(gp_kernel_launch(NULL, k, 1, &global, NULL, 4, args));\n"
    "    CHECK(gp_buffer_read(by, 0, out, N * sizeof(float)));\n"
    "\n"
    "    int bad = 0;\n"
    "    for (int i = 0; check && i < N; i++) {\n"
    "        float want = a * x[i] + y[i];\n"
    "        if (fabsf(out[i] - want) > 1e-6f * fabsf(want)) bad++;\n"
    "    }\n"
    "    printf(\"saxpy on %d floats on %s: %s\\n\", N, info.spec, !check ? \"done\" : bad ? "
    "\"WRONG\" : \"ok\");\n"
    "    gp_kernel_release(k);\n"
    "    gp_program_release(prog);\n"
    "    gp_buffer_release(bx);\n"
    "    gp_buffer_release(by);\n"
    "    gp_device_release(dev);\n"
    "    free(x), free(y), free(out);\n"
    "    return bad ? 1 : 0;\n"
    "}\n";

static const char gitignore_tpl[] = "build/\n__pycache__/\n*.pyc\n.pytest_cache/\n";

static const char readme_tpl[] =
    "# @NAME@\n"
    "\n"
    "```sh\n"
    "cmake -S . -B build && cmake --build build && ./build/@NAME@      # run on the best device\n"
    "cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure\n"
    "```\n"
    "Both need gpuport, found in one of three ways (the first cmake says which it used):\n"
    "installed (a package, or `cmake --install` of a gpuport build; add\n"
    "`-DCMAKE_PREFIX_PATH=PREFIX` when it is not in a default place), a gpuport build tree\n"
    "(`-Dgpuport_DIR=/path/to/gpuport/build`), or a gpuport source checkout built here as a\n"
    "subproject (`-DGPUPORT_SOURCE_DIR=/path/to/gpuport`).\n"
    "\n"
    "The same source builds and runs unchanged on a Linux machine with an NVIDIA GPU (CUDA), on "
    "an\n"
    "Apple Silicon Mac (Metal), with any OpenCL implementation, and on the CPU alone: the program\n"
    "asks for the `auto` device and prints which device ran it and why the others were skipped.\n"
    "`./build/@NAME@ --device cpu --check` pins a device and checks the result.\n"
    "\n"
    "- `kernels/*.gpk` — kernels in the portable dialect, embedded into the program at build time\n"
    "- `src/main.c` — host code on the gpuport C API\n"
    "- `CMakeLists.txt` — the build and the tests (the best device, and the CPU)\n"
    "@PYTHON_README@";

static const char py_readme_tpl[] =
    "- `python/run.py` — the same kernel from Python with numpy\n"
    "  (`pip install gpuport`-style: `pip install PATH/TO/gpuport/python`), and\n"
    "  `python -m pytest python` to test it\n";

static const char py_run_tpl[] =
    "\"\"\"@NAME@ from Python: the same kernels/saxpy.gpk on the best device, checked with "
    "numpy.\"\"\"\n"
    "\n"
    "from pathlib import Path\n"
    "\n"
    "import numpy as np\n"
    "\n"
    "import gpuport as gp\n"
    "\n"
    "KERNELS = Path(__file__).resolve().parent.parent / \"kernels\"\n"
    "\n"
    "\n"
    "def saxpy(spec: str = \"auto\", n: int = 1 << 20) -> bool:\n"
    "    dev = gp.Device(spec)\n"
    "    print(f\"device: {dev.info.spec} ({dev.info.name})\")\n"
    "    print(dev.selection_text, end=\"\")\n"
    "    prog = dev.program((KERNELS / \"saxpy.gpk\").read_text(), name=\"saxpy.gpk\")\n"
    "    x = (np.arange(n) % 1000).astype(np.float32) * 0.5\n"
    "    y = (np.arange(n) % 7).astype(np.float32)\n"
    "    want = 2.0 * x + y\n"
    "    prog.saxpy(n, y, x, 2.0, n)  # numpy arrays in and out, checked against the signature\n"
    "    ok = bool(np.allclose(y, want, rtol=1e-6))\n"
    "    print(f\"saxpy on {n} floats on {dev.info.spec}: {'ok' if ok else 'WRONG'}\")\n"
    "    return ok\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    raise SystemExit(0 if saxpy() else 1)\n";

static const char py_test_tpl[] =
    "\"\"\"pytest: the kernel agrees with numpy on the best device and on the CPU.\"\"\"\n"
    "\n"
    "import pytest\n"
    "\n"
    "from run import saxpy\n"
    "\n"
    "\n"
    "@pytest.mark.parametrize(\"spec\", [\"auto\", \"cpu\"])\n"
    "def test_saxpy(spec):\n"
    "    assert saxpy(spec, n=100003)\n";

static const char py_conftest_tpl[] = "import sys\n"
                                      "from pathlib import Path\n"
                                      "\n"
                                      "sys.path.insert(0, str(Path(__file__).resolve().parent))\n";

bool gp_scaffold_name_ok(const char *name)
{
    if (!name || !*name || strlen(name) > 64) return false;
    if (!isalpha((unsigned char)name[0]) && name[0] != '_') return false;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-') return false;
    return true;
}

static char *fill(const char *tpl, const char *name, bool python)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    for (const char *p = tpl; *p;) {
        if (!strncmp(p, "@NAME@", 6)) {
            gp_strbuf_puts(&sb, name);
            p += 6;
        } else if (!strncmp(p, "@PYTHON_README@", 15)) {
            if (python) gp_strbuf_puts(&sb, py_readme_tpl);
            p += 15;
        } else {
            gp_strbuf_putc(&sb, *p++);
        }
    }
    return gp_strbuf_take(&sb);
}

/* Is there a gpuport CMake package at dir/rel? */
static bool package_at(const char *dir, const char *rel)
{
    char *p = gp_path_join(dir, rel);
    bool ok = p && gp_path_exists(p);
    free(p);
    return ok;
}

void gp_scaffold_package_hint(const char *exe, char *buf, size_t cap)
{
    buf[0] = '\0';
    char *dir = exe ? strdup(exe) : NULL;
    char *slash = dir ? strrchr(dir, '/') : NULL;
    if (!slash) {
        free(dir);
        return;
    }
    *slash = '\0';
    static const char *const libdirs[] = {"lib", "lib64", "lib/x86_64-linux-gnu",
                                          "lib/aarch64-linux-gnu"};
    if (package_at(dir, "gpuportConfig.cmake")) {
        snprintf(buf, cap, "-Dgpuport_DIR=%s", dir); /* the CLI of a build tree */
    } else if ((slash = strrchr(dir, '/')) != NULL) {
        *slash = '\0'; /* PREFIX/bin -> PREFIX */
        const char *prefix = dir[0] ? dir : "/";
        bool found = false;
        for (size_t i = 0; i < sizeof libdirs / sizeof libdirs[0] && !found; i++) {
            char rel[64];
            snprintf(rel, sizeof rel, "%s/cmake/gpuport/gpuportConfig.cmake", libdirs[i]);
            found = package_at(prefix, rel);
        }
        /* CMake searches /usr and /usr/local by itself */
        if (found && strcmp(prefix, "/usr") && strcmp(prefix, "/usr/local"))
            snprintf(buf, cap, "-DCMAKE_PREFIX_PATH=%s", prefix);
    }
    free(dir);
}

int gp_scaffold_write(const char *dir, const char *name, bool python, char *err, size_t errlen)
{
    if (gp_path_exists(dir)) {
        snprintf(err, errlen, "%s: already exists; choose another name or remove it", dir);
        return -1;
    }
    static const struct {
        const char *path;
        const char *tpl;
        bool python_only;
    } files[] = {
        {"CMakeLists.txt", cmake_tpl, false},
        {"cmake/embed-kernels.cmake", embed_tpl, false},
        {"kernels/saxpy.gpk", kernel_tpl, false},
        {"src/main.c", main_tpl, false},
        {".gitignore", gitignore_tpl, false},
        {"README.md", readme_tpl, false},
        {"python/run.py", py_run_tpl, true},
        {"python/test_run.py", py_test_tpl, true},
        {"python/conftest.py", py_conftest_tpl, true},
    };
    /* C identifiers in the templates use the name as a CMake target and a program name only. */
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (files[i].python_only && !python) continue;
        char *path = gp_path_join(dir, files[i].path);
        char *slash = path ? strrchr(path, '/') : NULL;
        if (!path || !slash) {
            free(path);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        *slash = '\0';
        if (gp_mkdir_p(path, 0755) != 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            free(path);
            return -1;
        }
        *slash = '/';
        char *text = fill(files[i].tpl, name, python);
        int rc = text ? gp_write_file_atomic(path, text, strlen(text), err, errlen) : -1;
        if (rc == 0) chmod(path, 0644);
        free(text);
        free(path);
        if (rc != 0) return -1;
    }
    return 0;
}
