# Homebrew formula for gpuport: the library (shared and static), its headers, CMake package and
# pkg-config file, and the gpuport command. From a checkout of this repository:
#   brew install --build-from-source --HEAD ./packaging/homebrew/gpuport.rb
# A release adds `url` and `sha256` of its source archive above `head`.
class Gpuport < Formula
  desc "Portable GPU code for CUDA, Metal, OpenCL and the CPU, and the toolkit around it"
  homepage "https://github.com/gpuport/gpuport"
  license "MIT"
  head "https://github.com/gpuport/gpuport.git", branch: "main"

  depends_on "cmake" => :build
  depends_on "pkgconf" => :build
  depends_on "cjson"
  depends_on "openssl@3"

  def install
    args = %W[
      -DGPUPORT_TESTS=OFF
      -DOPENSSL_ROOT_DIR=#{Formula["openssl@3"].opt_prefix}
    ]
    system "cmake", "-S", ".", "-B", "build", *args, *std_cmake_args
    system "cmake", "--build", "build"
    system "cmake", "--install", "build"
  end

  test do
    # the command runs, and a program built against the package runs a kernel on the CPU
    assert_match(/^gpuport \d+\.\d+\.\d+/, shell_output("#{bin}/gpuport --version"))
    (testpath/"saxpy.c").write <<~C
      #include <gpuport/gpuport.h>
      #include <stdio.h>
      #include <string.h>
      static const char src[] =
          "GP_KERNEL(twice, GP_BUF(float, y), GP_VAL(int, n))\\n"
          "{ int i = gp_global_id(0); if (i < n) y[i] = 2.0f * y[i]; }\\n";
      int main(void)
      {
          gp_device *dev;
          gp_program *prog;
          gp_kernel *k;
          gp_buffer *buf;
          float y[64];
          int n = 64;
          for (int i = 0; i < n; i++) y[i] = (float)i;
          if (gp_device_open("cpu", &dev) || gp_program_create(dev, src, strlen(src), NULL, &prog) ||
              gp_kernel_create(prog, "twice", &k) ||
              gp_buffer_create(dev, GP_BUFFER_DEVICE, sizeof y, &buf) ||
              gp_buffer_write(buf, 0, y, sizeof y)) {
              fprintf(stderr, "%s\\n", gp_last_error());
              return 1;
          }
          gp_arg args[] = {gp_arg_buffer(buf), gp_arg_value(&n, sizeof n)};
          size_t global = (size_t)n;
          if (gp_kernel_launch(NULL, k, 1, &global, NULL, 2, args) ||
              gp_buffer_read(buf, 0, y, sizeof y)) {
              fprintf(stderr, "%s\\n", gp_last_error());
              return 1;
          }
          printf("%g\\n", y[63]);
          return 0;
      }
    C
    pkgconf = Formula["pkgconf"].opt_bin/"pkgconf"
    flags = shell_output("#{pkgconf} --cflags --libs gpuport").chomp.split
    system ENV.cc, "saxpy.c", "-o", "saxpy", *flags
    assert_equal "126", shell_output("./saxpy").chomp
  end
end
