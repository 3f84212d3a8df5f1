# uninstrumented.bash — sourced by the tests that link an installed copy of this build into an
# outside project: a library built with AddressSanitizer cannot be linked into an uninstrumented
# program, so under the sanitizer build those tests skip (the regular build runs them).
if ldd "$GPUPORT" 2>/dev/null | grep -q libasan; then
    echo "SKIP: this gpuport is built with AddressSanitizer; an installed copy cannot be linked into"
    echo "      an uninstrumented project (the regular build runs this test)"
    exit 77
fi
