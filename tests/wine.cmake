# wine.cmake — the test suite of a Windows build (MinGW-w64 cross build, run under Wine through
# CMAKE_CROSSCOMPILING_EMULATOR; see docs/platforms.md). Every C unit test runs there, except
# the few written against POSIX itself, and the shell tests that exercise the CLI run with
# $GPUPORT starting gpuport.exe under Wine. What cannot run is still a test: it prints
# "SKIP: <reason>" and exits 77, so the count of skips stays visible.

# C tests that use POSIX beyond the portability layer: the reason each one cannot run here.
set(GP_WIN_C_SKIPS
  "audit/test_audit.c|written against POSIX: captures a report with open_memstream, which the Windows C runtime lacks"
  "remote/test_doctor.c|written against POSIX: captures a report with open_memstream, which the Windows C runtime lacks"
  "audit/test_shortcut.c|written against POSIX: maps its fixture with mmap and mprotect directly (a guard-page check)"
  "remote/test_shquote.c|written against POSIX: runs each quoted word through /bin/sh with posix_spawn"
  "runtime/test_cache.c|written against POSIX: races writers in forked child processes (fork, waitpid)"
  "runtime/test_cache_trust.c|written against POSIX: plants entries as a second user (useradd, fork, file modes); the Windows side of the check reads access lists"
  "cli/test_cli_conventions.c|written against POSIX: runs each case in a forked child and ends it by SIGPIPE, which Windows does not have"
  "runtime/opencl/test_opencl_backend.c|written against POSIX: isolates cases in forked child processes (fork, waitpid)"
  "runtime/opencl/test_opencl_loader.c|written against POSIX: isolates cases in forked child processes (fork, waitpid)"
  "runtime/cuda/test_cuda_standin.c|written against POSIX: isolates cases in forked child processes and loads libcuda.so.1 stand-ins (fork, dlopen)"
  "runtime/cuda/test_cuda_kernels.c|written against POSIX: finds its kernel sources with glob(3) (POSIX)"
  "runtime/cuda/test_cuda_status.c|checks the Linux driver stand-ins (libcuda.so.1) and the Linux wording of the advice"
  "remote/test_config.c|expects the XDG folders and POSIX file modes of Linux"
  "remote/test_slurm.c|drives a Slurm stand-in written as a shell script"
  "freeze/test_freeze.c|records a Linux host (/etc/os-release, /proc)"
  "doctor/test_fixtures.c|reads the Linux fixture trees, which are built of symbolic links: Wine shows a Windows program no Unix link as a link"
  "doctor/test_sysroot.c|resolves symbolic links in a Linux tree: Wine shows a Windows program no Unix link as a link")
# C tests that compile kernels for the CPU device at run time: Wine starts a Linux program (the
# cross compiler is one) but cannot wait for it or read its output, so no kernel can be compiled
# under Wine. An expected skip: on Windows itself cl, clang or gcc runs as any program does.
set(GP_WIN_CC_SKIPS runtime/test_conformance.c runtime/test_queues.c runtime/test_wrap.c
  runtime/test_errors.c runtime/test_check.c translate/test_translate_run.c
  translate/test_translate_corpus_run.c runtime/test_cpu_paths.c runtime/test_printf.c
  runtime/test_trace.c)
foreach(f ${GP_WIN_CC_SKIPS})
  list(APPEND GP_WIN_C_SKIPS "${f}|Wine cannot wait for the Linux cross compiler it starts, so the CPU backend compiles no kernel at run time under Wine (an expected skip: on Windows cl, clang or gcc runs like any program)")
endforeach()
# Shell tests that run under Wine: those that drive only gpuport itself.
set(GP_WIN_SH_RUN cli/test_cli.sh compare/test_compare_cli.sh runtime/opencl/test_opencl_cli.sh
  doctor/test_doctor_windows.sh
  runtime/test_examples.sh runtime/cuda/test_cuda_driver_places.sh runtime/test_cache_places.sh)
# what those tests need to know of the build: it is Windows' (file names such as OpenCL.dll), and
# only the OpenCL device (PoCL, through Wine's OpenCL.dll) runs kernels: the CPU device has no C
# compiler under Wine (above)
set(GP_WIN_TEST_ENV "GPUPORT_TARGET_OS=windows" "GPUPORT_TEST_DEVICES=opencl:0")

find_program(GP_WINE_SH sh REQUIRED)
function(gp_add_skipped_test name reason)
  add_test(NAME ${name} COMMAND ${GP_WINE_SH} -c "echo \"SKIP: $1\"; exit 77" sh "${reason}")
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS wine-skip)
endfunction()

# "SKIP reason" for tests/<rel>, or "" when it runs.
function(gp_win_skip_reason rel out)
  set(r "")
  get_filename_component(ext ${rel} EXT)
  if(ext STREQUAL ".sh")
    list(FIND GP_WIN_SH_RUN ${rel} i)
    if(i LESS 0)
      set(r "Wine cannot run this: a shell test of a Windows build drives gpuport.exe from bash, and this one needs POSIX tools or services around it (compilers for the host, sshd, Slurm, dpkg); it runs in the native build")
    endif()
  else()
    foreach(e ${GP_WIN_C_SKIPS})
      string(REPLACE "|" ";" pair "${e}")
      list(GET pair 0 f)
      if(f STREQUAL rel)
        list(GET pair 1 r)
        set(r "${r}; it runs in the native build")
      endif()
    endforeach()
  endif()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# The tests' own Wine prefix (a Windows installation's C: drive and registry), made on first use
# (scripts/test-windows.sh makes it before the tests start, so that parallel tests do not race
# to); Wine's .NET and HTML engines are not wanted, so Wine does not offer to download them.
set(GPUPORT_WINEPREFIX ${PROJECT_BINARY_DIR}/wineprefix CACHE PATH "the Wine prefix the tests run in")
set(GP_WINE_DLLOVERRIDES "mscoree,mshtml=")

# $GPUPORT for the shell tests: gpuport.exe under Wine, quiet (Wine's own diagnostics on stderr
# would be taken for gpuport's); $GPUPORT_TEST_RUNNER starts any other Windows program so. Both
# run in $WINEPREFIX where a test sets one of its own.
set(GP_WINE_RUN ${PROJECT_BINARY_DIR}/wine-run)
set(GP_WINE_GPUPORT ${PROJECT_BINARY_DIR}/gpuport-wine)
set(GP_WINE_PERMS FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
  WORLD_READ WORLD_EXECUTE)
file(GENERATE OUTPUT ${GP_WINE_RUN}
  CONTENT "#!/bin/sh\nWINEDEBUG=-all WINEPREFIX=\"\${WINEPREFIX:-${GPUPORT_WINEPREFIX}}\" WINEDLLOVERRIDES='${GP_WINE_DLLOVERRIDES}' exec \"${CMAKE_CROSSCOMPILING_EMULATOR}\" \"$@\"\n"
  ${GP_WINE_PERMS})
file(GENERATE OUTPUT ${GP_WINE_GPUPORT}
  CONTENT "#!/bin/sh\nexec \"${GP_WINE_RUN}\" \"$<TARGET_FILE:gpuport_cli>\" \"$@\"\n" ${GP_WINE_PERMS})
list(APPEND GP_WIN_TEST_ENV "GPUPORT_TEST_RUNNER=${GP_WINE_RUN}")
