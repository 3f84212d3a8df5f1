/* empty_standin.c — a STAND-IN shared library that exports none of the driver entry points.
 * The test suite installs it as libcuda.so.1 and libnvidia-ml.so.1 in a folder of its own, to
 * check that a library with the right name but the wrong contents is reported, not called. */
int gp_standin_empty_marker(void);

int gp_standin_empty_marker(void)
{
    return 0;
}
