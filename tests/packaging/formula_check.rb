# formula_check.rb — checks packaging/homebrew/gpuport.rb without Homebrew (which runs only on
# macOS and Linuxbrew): a stand-in of the part of Homebrew's Formula DSL the formula uses loads it,
# checks its metadata against the project (dependencies from scripts/deps/brew.txt, the CMake
# options it passes exist), records what `install` would run, and runs its `test do` block for
# real against an installed gpuport (PREFIX), with this machine's C compiler and pkg-config.
#   ruby formula_check.rb FORMULA SOURCE_DIR PREFIX
# What Homebrew itself adds (its sandbox, std_cmake_args' exact list, audit rules) is not checked.
require "fileutils"
require "open3"
require "tmpdir"

FORMULA, SOURCE, PREFIX = ARGV
$failures = 0
def check(ok, what)
  puts "#{ok ? "ok  " : "FAIL"} #{what}"
  $failures += 1 unless ok
end

# --- the stand-in DSL -------------------------------------------------------------------------
class DepStub
  def initialize(name) = @name = name
  def opt_prefix = "/opt/homebrew/opt/#{@name}"
  # pkgconf's binary is this machine's pkg-config (Homebrew's pkgconf installs both names)
  def opt_bin
    return "#{opt_prefix}/bin" unless @name == "pkgconf"
    dir = ENV.fetch("PATH", "").split(":").find { |d| File.executable?(File.join(d, "pkgconf")) }
    raise "no pkgconf on PATH" unless dir
    Pathname(dir)
  end
end

class Formula
  class << self
    attr_reader :meta, :deps, :test_block
    def inherited(sub)
      super
      sub.instance_variable_set(:@meta, {})
      sub.instance_variable_set(:@deps, [])
    end
    %i[desc homepage license url sha256 version].each { |m| define_method(m) { |v| @meta[m] = v } }
    def head(url, **opts) = @meta[:head] = [url, opts]
    def depends_on(spec) = @deps << spec
    def test(&blk) = @test_block = blk
    def [](name) = DepStub.new(name)
  end

  attr_reader :commands
  def initialize(prefix)
    @prefix = prefix
    @commands = []
    @recording = true
  end
  def std_cmake_args = ["-DCMAKE_INSTALL_PREFIX=#{@prefix}", "-DCMAKE_BUILD_TYPE=Release"]
  def bin = Pathname(@prefix) / "bin"
  def testpath = Pathname(@testpath)

  def system(*args)
    @commands << args.map(&:to_s)
    return true if @recording
    out, st = Open3.capture2e(*args.map(&:to_s), chdir: @testpath)
    raise "#{args.join(" ")} failed:\n#{out}" unless st.success?
    true
  end
  def shell_output(cmd)
    out, st = Open3.capture2e(cmd, chdir: @testpath)
    raise "#{cmd} failed (#{st.exitstatus}):\n#{out}" unless st.success?
    out
  end
  def assert_match(pat, str) = (raise "#{str.inspect} does not match #{pat.inspect}" unless str.match?(pat))
  def assert_equal(a, b) = (raise "#{b.inspect} is not #{a.inspect}" unless a == b)

  def run_test
    @recording = false
    Dir.mktmpdir do |d|
      @testpath = d
      instance_eval(&self.class.test_block)
    end
  end
end
require "pathname"
ENV.define_singleton_method(:cc) { ENV.fetch("CC", "cc") }

# --- load and check ---------------------------------------------------------------------------
load FORMULA
klass = Object.const_get(:Gpuport)
m = klass.meta
check(m[:desc].is_a?(String) && m[:desc].length.between?(10, 80) && m[:desc] !~ /\.\z/,
      "desc is a sentence fragment of 10-80 characters (#{m[:desc].inspect})")
check(m[:homepage].to_s.start_with?("https://"), "homepage is https")
check(m[:license].is_a?(String), "license #{m[:license].inspect}")
check(m[:head] || (m[:url] && m[:sha256]), "head, or url with sha256")

brew = File.readlines(File.join(SOURCE, "scripts/deps/brew.txt")).map(&:strip).reject { |l| l.empty? || l.start_with?("#") }
runtime = klass.deps.select { |d| d.is_a?(String) }
build = klass.deps.select { |d| d.is_a?(Hash) }.map(&:keys).flatten
aliases = { "pkgconf" => "pkg-config" }
(runtime + build).each do |d|
  check(brew.include?(d) || brew.include?(aliases[d]), "depends_on #{d.inspect} is in scripts/deps/brew.txt")
end
%w[cjson openssl@3].each { |d| check(runtime.include?(d), "runtime dependency #{d}") }

f = klass.new(PREFIX)
f.install
cmake = File.read(File.join(SOURCE, "CMakeLists.txt"))
configure = f.commands.find { |c| c[0] == "cmake" && c.include?("-S") }
check(configure, "install configures with cmake -S")
(configure || []).grep(/\A-DGPUPORT_/).each do |opt|
  name = opt[/\A-D(\w+)=/, 1]
  check(cmake.include?("option(#{name} "), "#{opt}: an option of the project")
end
check(f.commands.include?(%w[cmake --install build]), "install runs cmake --install")

begin
  f.run_test
  check(true, "the test block passes against #{PREFIX}")
rescue StandardError => e
  check(false, "the test block: #{e.message}")
end
exit($failures.zero? ? 0 : 1)
