/* test_translate_decls.c — declarations and types in device code: typedef and using aliases (at
 * file scope and in a block), the integer types' other names (uint, uchar, clock_t,
 * std::uint8_t), enumerations as integer types, and aligned or packed structs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/translate.h"
#include "util/json.h"

static gp_translate_result run(const char *src, bool partial)
{
    gp_translate_options o = {0};
    o.partial = partial;
    o.simd_width = 32; /* the command's default */
    gp_translate_result r;
    gp_translate("t.cu", src, strlen(src), &o, &r);
    return r;
}

/* The translation of src must succeed and contain every fragment, in order. */
static void expect_ok(const char *src, const char *const *frags)
{
    gp_translate_result r = run(src, false);
    if (r.status != GP_TRANSLATE_OK) {
        char *rep = r.report ? cJSON_Print(r.report) : NULL;
        fail_msg("not translated (status %d): %s %s", r.status, r.error ? r.error : "",
                 rep ? rep : "");
    }
    const char *at = r.output;
    for (size_t i = 0; frags[i]; i++) {
        const char *f = strstr(at, frags[i]);
        if (!f) fail_msg("missing '%s' in:\n%s", frags[i], r.output);
        at = f + strlen(frags[i]);
    }
    gp_translate_result_free(&r);
}

/* The translation must be refused at `line` with a reason containing `why`. */
static void expect_refused(const char *src, int line, const char *construct, const char *why)
{
    gp_translate_result r = run(src, false);
    if (r.status != GP_TRANSLATE_REFUSED)
        fail_msg("status %d, want refused; output:\n%s", r.status, r.output ? r.output : "");
    assert_null(r.output);
    const cJSON *x;
    bool found = false;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(r.report, "refusals"))
    {
        if ((int)cJSON_GetObjectItem(x, "line")->valuedouble == line &&
            strstr(gp_json_str(x, "construct", ""), construct) &&
            strstr(gp_json_str(x, "reason", ""), why))
            found = true;
    }
    if (!found) {
        char *rep = cJSON_Print(cJSON_GetObjectItem(r.report, "refusals"));
        fail_msg("no refusal '%s' / '%s' at line %d; got %s", construct, why, line, rep);
    }
    gp_translate_result_free(&r);
}

/* A note of the report must contain `what`. */
static void expect_note(const char *src, const char *what)
{
    gp_translate_result r = run(src, true);
    char *notes = cJSON_Print(cJSON_GetObjectItem(r.report, "notes"));
    if (!notes || !strstr(notes, what)) fail_msg("no note '%s' in %s", what, notes);
    free(notes);
    gp_translate_result_free(&r);
}

/* `using real = float;` and typedefs, at file scope and in a block (gone at its end: the name is
 * a variable's in the next kernel), with several declarators and pointer aliases. */
static void aliases(void **state)
{
    (void)state;
    /* cuComplex.h's and cufft.h's names for complex values: CUDA's vectors of two */
    expect_ok("#include <cufft.h>\n"
              "__global__ void scale(cufftComplex *a, const cuDoubleComplex *b, cufftReal s) {\n"
              "  int i = threadIdx.x;\n"
              "  a[i].x = (float)b[i].x * s;\n  a[i].y = (float)b[i].y * s;\n}\n",
              (const char *[]){"GP_KERNEL(scale, GP_BUF(gp_float2, a), GP_CBUF(gp_double2, b), "
                               "GP_VAL(float, s))",
                               NULL});
    expect_ok("using real = float;\nusing index_t = long long;\n"
              "typedef unsigned int u32, *u32p;\n"
              "__global__ void k(real *out, const u32 *in, index_t n) {\n"
              "  using acc_t = double;\n"
              "  typedef int idx_t;\n"
              "  idx_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  acc_t s = in[i];\n"
              "  if (i < n) out[i] = (real)s;\n}\n"
              "__global__ void k2(float *out) {\n  int acc_t = 3;\n  out[0] = acc_t;\n}\n",
              (const char *[]){"GP_KERNEL(k, GP_BUF(float, out), GP_CBUF(unsigned int, in), "
                               "GP_VAL(int64_t, n))",
                               "int i = ", "double s = in[i];", "out[i] = (float)s;",
                               "int acc_t = 3;", NULL});
    /* a host constant of an alias type is its value, in that type */
    expect_ok("using FLOAT = double;\nstatic const FLOAT HALF = 0.5;\n"
              "__global__ void k(FLOAT *o) {\n  o[threadIdx.x] *= HALF;\n}\n",
              (const char *[]){"o[(unsigned)gp_local_id(0)] *= (double)0.5;", NULL});
    /* an alias of a type outside the subset: refused where it is used */
    expect_refused("using tex_t = cudaTextureObject_t;\n"
                   "__global__ void k(tex_t t, float *o) {\n  o[0] = 1.0f;\n}\n",
                   2, "cudaTextureObject_t", "texture");
    /* array types: a variable, a field, a parameter of one gets its dimensions after its own */
    expect_ok("#define N 4\ntypedef unsigned int words_t[N];\ntypedef float mat2[2][2];\n"
              "struct S { words_t a; };\n"
              "__global__ void k(S *s, float *o, words_t p) {\n"
              "  using row = float[3];\n  words_t loc;\n  mat2 m;\n  row r[2];\n"
              "  loc[1] = s[0].a[1] + p[1];\n  m[1][1] = 2.0f;\n  r[1][2] = loc[1];\n"
              "  o[0] = m[1][1] + r[1][2];\n}\n",
              (const char *[]){"unsigned int a[N];", "GP_BUF(unsigned int, p)",
                               "unsigned int loc[N];", "float m[2][2];", "float r[2][3];", NULL});
    expect_refused("typedef float vec3[3];\n"
                   "__global__ void k(float *o) {\n  vec3 *v = 0;\n  o[0] = 1.0f;\n}\n",
                   3, "array type", "a pointer or reference to an array type");
    expect_refused("typedef float vec3[3];\n"
                   "__global__ void k(float *o) {\n  o[0] = sizeof(vec3);\n}\n",
                   3, "array type", "an array type here");
}

/* The names <sys/types.h> and <cstdint> give the integer types, used without a declaration. */
static void integer_type_names(void **state)
{
    (void)state;
    expect_ok("__global__ void k(uint *o, const uchar *c, ushort s, ulong n, clock_t *t,\n"
              "                  const std::uint8_t *b, std::size_t m) {\n"
              "  uint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  std::int32_t v = c[i] + b[i];\n"
              "  if (i < n && i < m) o[i] = v + s;\n  t[0] = 0;\n}\n",
              (const char *[]){"GP_KERNEL(k, GP_BUF(unsigned int, o), GP_CBUF(unsigned char, c), "
                               "GP_VAL(unsigned short, s), GP_VAL(uint64_t, n), "
                               "GP_BUF(int64_t, t), GP_CBUF(uint8_t, b), GP_VAL(uint64_t, m))",
                               "unsigned int i = ", "int32_t v = c[i] + b[i];", NULL});
    /* <stdint.h>'s pointer-sized integers, and GCC's spellings of the qualifiers */
    expect_ok("__global__ void k(float *o, __const__ float *a, intptr_t off, uintptr_t u,\n"
              "                  ptrdiff_t d) {\n  __volatile__ int z = 0;\n"
              "  o[off + d] = a[u] + z;\n}\n",
              (const char *[]){"GP_KERNEL(k, GP_BUF(float, o), GP_CBUF(float, a), "
                               "GP_VAL(int64_t, off), GP_VAL(uint64_t, u), GP_VAL(int64_t, d))",
                               "volatile int z = 0;", NULL});
    /* a variable of that name is a variable (renamed: OpenCL reserves it); the file's own
     * typedef wins */
    expect_ok(
        "typedef unsigned short uint;\n"
        "__global__ void k(float *o) {\n  uint a = 1;\n  int uchar = 2;\n"
        "  o[0] = a + uchar;\n}\n",
        (const char *[]){"unsigned short a = 1;", "int uchar_ = 2;", "o[0] = a + uchar_;", NULL});
}

/* Enumerations: their names are integer types (an enum class's underlying one), their
 * enumerators constants, qualified or not; a value the translation does not read stops the
 * list rather than guess. */
static void enumerations(void **state)
{
    (void)state;
    expect_ok("typedef enum { MODE_0 = 0, MODE_1 = 1 } adamMode_t;\n"
              "enum Op { ADD, SUB = 5, MUL };\n"
              "enum class Kind : unsigned char { Small = 2, Large };\n"
              "enum class Other { Small = -7, Large };\n"
              "__global__ void k(float *o, adamMode_t mode, enum Op op, Kind kind) {\n"
              "  int i = threadIdx.x;\n"
              "  if (mode == MODE_1) o[i] += 1.0f;\n"
              "  if (op == MUL) o[i] += SUB;\n"
              "  if (kind == Kind::Large) o[i] += (int)Other::Large + Op::ADD;\n}\n",
              (const char *[]){"GP_KERNEL(k, GP_BUF(float, o), GP_VAL(int, mode), GP_VAL(int, op), "
                               "GP_VAL(unsigned char, kind))",
                               "if (mode == (int)1)", "if (op == (int)6)", "o[i] += (int)5;",
                               "if (kind == (unsigned char)3)", "o[i] += (int)(int)-6 + (int)0;",
                               NULL});
    /* values of numbers and operators are computed; one naming another enumerator is read where
     * it is used, and the ones after it stay unknown */
    expect_ok("enum Bits { LOW = 1 << 3, HIGH };\n"
              "__global__ void k(float *o) {\n  o[0] = LOW + HIGH;\n}\n",
              (const char *[]){"o[0] = (int)8 + (int)9;", NULL});
    expect_refused("enum E { A = 2, B = A + 1, C };\n"
                   "__global__ void k(float *o) {\n  o[0] = B;\n  o[1] = C;\n}\n",
                   4, "unknown name", "'C' is not declared");
    /* a value beyond int makes the enumeration wider than an int: its name is not an int */
    expect_refused("enum Wide { W = 0x100000000 };\n"
                   "__global__ void k(Wide w, float *o) {\n  o[0] = 1.0f;\n}\n",
                   2, "syntax", "expected a type");
    /* two enum classes with the same enumerator names keep their own values */
    expect_ok("enum class A { X = 1, Y };\nenum class B { Y = 10, X };\n"
              "__global__ void k(int *o) {\n  o[0] = (int)A::X + (int)B::X;\n}\n",
              (const char *[]){"o[0] = (int)(int)1 + (int)(int)11;", NULL});
}

/* __align__(n), alignas(n), __attribute__((aligned(n))): the struct's size padded to n, as
 * CUDA's is; packed, an alignment it cannot read, or an over-aligned struct nested in another
 * leave the struct out, with a note; function attributes are dropped. */
static void aligned_structs(void **state)
{
    (void)state;
    expect_ok("struct __align__(8) SumMax { float maxval; float sum; };\n"
              "typedef struct __align__(16) { float x, y, z; } P3;\n"
              "struct alignas(16) Q { int a; };\n"
              "struct __attribute__((aligned(2 * 4))) R { short s[3]; };\n"
              "#define FORCE_INLINE inline __attribute__((always_inline))\n"
              "__device__ FORCE_INLINE SumMax op(SumMax a) { a.sum += 1.0f; return a; }\n"
              "__global__ void k(const P3 *in, float *out, SumMax s, Q q, R *r) {\n"
              "  P3 v = in[threadIdx.x];\n"
              "  out[threadIdx.x] = v.x + v.z + op(s).sum + q.a + r[0].s[2];\n}\n",
              (const char *[]){
                  "typedef struct SumMax {", "float sum;\n} SumMax;", "typedef struct P3 {",
                  "float z;", "uint8_t gp_align_pad_[4];\n} P3;", "typedef struct Q {", "int a;",
                  "uint8_t gp_align_pad_[12];\n} Q;", "typedef struct R {", "short s[3];",
                  "uint8_t gp_align_pad_[2];\n} R;", "GP_FUNC SumMax op(SumMax a)", NULL});
    const char *packed = "struct __attribute__((packed)) Pk { char c; int i; };\n"
                         "__global__ void k(Pk *o) {\n  o[0].c = 1;\n}\n";
    expect_refused(packed, 2, "struct",
                   "Pk is a struct left out of the translation (t.cu:1): __attribute__((packed))");
    expect_note(packed, "struct Pk is not translated: __attribute__((packed))");
    const char *nested = "struct __align__(16) V { float x; };\n"
                         "struct Outer { int n; V v; };\n"
                         "__global__ void k(Outer *o) {\n  o[0].n = 1;\n}\n";
    expect_refused(nested, 3, "struct", "Outer is a struct left out of the translation (t.cu:2)");
    expect_note(nested, "field v is a struct aligned beyond its fields (__align__)");
    /* PyTorch's aligned vector: alignas(sizeof(T) * N) of a class template's instance */
    expect_ok("template <typename T, int N> struct alignas(sizeof(T) * N) vec_t { T v[N]; };\n"
              "__global__ void k(const float *in, float *out) {\n"
              "  using V = vec_t<float, 2>;\n"
              "  const V *s = reinterpret_cast<const V *>(in);\n"
              "  V *d = reinterpret_cast<V *>(out);\n"
              "  d[threadIdx.x] = s[threadIdx.x];\n}\n",
              (const char *[]){"typedef struct vec_t_float_2 {", "float v[2];\n} vec_t_float_2;",
                               "GP_GLOBAL vec_t_float_2 *d = (GP_GLOBAL vec_t_float_2 *)out;",
                               "d[(unsigned)gp_local_id(0)] = s[(unsigned)gp_local_id(0)];", NULL});
    expect_note("template <typename T> struct alignas(sizeof(T) * 2) W { char c; T t; };\n"
                "__global__ void k(W<long double> *o) {\n  o[0].c = 1;\n}\n",
                "is not a power of two the translation reads");
    expect_note("struct __align__(3) T { char c; };\n"
                "__global__ void k(T *o) {\n  o[0].c = 1;\n}\n",
                "struct T is not translated: its alignment (__align__(...)) is not a power of two");
}

/* `T a[][Y][Z]` parameters: a T pointer indexed a[(i * Y + j) * Z + k]; passed on whole (a local
 * 2-D array as its first element's address); a row of one is refused. */
static void array_parameters(void **state)
{
    (void)state;
    expect_ok("#define NY 4\n#define NZ 8\n"
              "__device__ float first(const float t[][NZ], int r) { return t[r][0]; }\n"
              "__global__ void k(float phi[][NY][NZ], float out[][NY]) {\n"
              "  int i = blockIdx.x, j = threadIdx.y, z = threadIdx.x;\n"
              "  phi[i][j - 1][z + 1] = 2.0f * phi[i][j][z];\n"
              "  float loc[2][NZ];\n  loc[1][0] = 3.0f;\n"
              "  out[i][j] = first(loc, 1);\n}\n",
              (const char *[]){"GP_FUNC float first(GP_PRIVATE const float *t, int r)",
                               "return t[r * NZ + 0];",
                               "GP_KERNEL(k, GP_BUF(float, phi), GP_BUF(float, out))",
                               "phi[(i * NY + (j - 1)) * NZ + (z + 1)] = 2.0f * phi[(i * NY + j) "
                               "* NZ + z];",
                               "out[i * NY + j] = first(&loc[0][0], 1);", NULL});
    expect_refused("__device__ float f(const float *r) { return r[0]; }\n"
                   "__global__ void k(float a[][8], float *o) {\n  o[0] = f(a[1]);\n}\n",
                   3, "array parameter", "indexed in every dimension");
    expect_refused("__global__ void k(float a[][8], float *o) {\n  o[0] = *(a + 1)[0];\n}\n", 2,
                   "array parameter", "not as a row");
}

/* Unions of plain fields: written as unions, used as locals (`union un c;` too) and buffers;
 * one aligned struct can not hold one (its layout is not computed). */
static void unions(void **state)
{
    (void)state;
    expect_ok("union un { float f; unsigned int ui; };\n"
              "typedef union { int i[2]; float g; } pair_u;\n"
              "__global__ void k(float *o, pair_u *pp) {\n"
              "  un a;\n  union un c;\n  a.f = o[0];\n  a.ui &= 0x7fffffffu;\n"
              "  c.ui = pp[0].i[1];\n  o[0] = a.f + c.f;\n}\n",
              (const char *[]){"typedef union un {", "float f;", "unsigned int ui;", "} un;",
                               "typedef union pair_u {", "int i[2];", "} pair_u;",
                               "GP_KERNEL(k, GP_BUF(float, o), GP_BUF(pair_u, pp))", "un a;",
                               "un c;", "a.ui &= 0x7fffffffu;", "c.ui = pp[0].i[1];", NULL});
    expect_note("union U { float f; int i; };\nstruct __align__(16) S { U u; };\n"
                "__global__ void k(S *s) {\n  s[0].u.i = 1;\n}\n",
                "struct S is not translated: __align__ with fields whose layout");
}

/* Static constexpr members are constants (S::size, s.size, array sizes), static member
 * functions are functions without an object, a member returning a reference returns a pointer
 * read through at each call (operator[] and its const twin, chosen by the object's constness),
 * memcpy copies bytes. */
static void static_members_and_references(void **state)
{
    (void)state;
    expect_ok("#include <cstring>\n"
              "template <class E> struct V {\n"
              "  __device__ static V filled(E x) { V r; for (int k = 0; k < size; ++k) r.d[k] = x; "
              "return r; }\n"
              "  __device__ static V zeros() { return filled(0); }\n"
              "  __device__ E &operator[](int i) { return d[i]; }\n"
              "  __device__ const E &operator[](int i) const { return d[i]; }\n"
              "  __device__ E &last() { return d[size - 1]; }\n"
              "  __device__ int4 bits() const { int4 b; memcpy(&b, &d, sizeof(b)); return b; }\n"
              "  static constexpr int size = sizeof(int4) / sizeof(E);\n"
              "  E d[size];\n"
              "};\n"
              "typedef V<float> v4;\n"
              "__device__ float first(const v4 &v) { return v[0]; }\n"
              "__global__ void k(float *o, int4 *w) {\n"
              "  v4 a = v4::zeros();\n"
              "  for (int i = 0; i < a.size; i++) a[i] = o[i];\n"
              "  a.last() += 1.0f;\n"
              "  o[v4::size] = first(a);\n"
              "  o[~(v4::size - 1) & 7] = 2.0f;\n"
              "  w[0] = a.bits();\n"
              "}\n",
              (const char *const[]){
                  "typedef struct V_float {", "float d[4];", "V_float V_float_filled(float x)",
                  "for (int k = 0; k < 4; ++k)", "V_float V_float_zeros(void)",
                  "return V_float_filled(0);",
                  "GP_PRIVATE float *V_float_operator_index(GP_PRIVATE V_float *this_, int i)",
                  "return &this_->d[i];",
                  "GP_PRIVATE const float *V_float_operator_index_const(GP_PRIVATE const "
                  "V_float *this_, int i)",
                  "float first(const V_float v)", "return *V_float_operator_index_const(&v, 0);",
                  "V_float a = V_float_zeros();", "for (int i = 0; i < 4; i++)",
                  "*V_float_operator_index(&a, i) = o[i];", "*V_float_last(&a) += 1.0f;",
                  "o[4] = first(a);", "o[~(4 - 1) & 7] = 2.0f;", NULL});
    expect_ok("__device__ void f(float *o, int4 b) { memcpy(o, &b, 16); }\n"
              "__global__ void k(float *o, int4 b) { f(o, b); }\n",
              (const char *const[]){"GP_FUNC void memcpy_bytes(GP_GLOBAL unsigned char *dst, "
                                    "GP_PRIVATE const unsigned char *src, uint64_t n)",
                                    "memcpy_bytes((GP_GLOBAL unsigned char *)o, (GP_PRIVATE const "
                                    "unsigned char *)&b, 16);",
                                    NULL});
    /* an instance first made inside a kernel: its name stays a type for its members */
    expect_ok("template <class E> struct W {\n"
              "  __device__ static W of(E x) { W r; r.v = x; return r; }\n"
              "  E v;\n"
              "};\n"
              "__global__ void k(float *o) {\n"
              "  W<float> a = W<float>::of(o[0]);\n"
              "  o[1] = a.v;\n"
              "}\n",
              (const char *const[]){"GP_FUNC W_float W_float_of(float x)", "W_float r;",
                                    "W_float a = W_float_of(o[0]);", NULL});
    /* a pointer returned from two places */
    expect_refused("__device__ float *pick(float *g, int i) {\n"
                   "  __shared__ float s[4];\n"
                   "  if (i) return s;\n"
                   "  return g;\n"
                   "}\n"
                   "__global__ void k(float *o) { *pick(o, 1) = 1.0f; }\n",
                   1, "pointer return", "is not one for every return");
    /* a member function that is not static, named as if it were */
    expect_refused("struct S { int n; __device__ int get() const { return n; } };\n"
                   "__global__ void k(int *o) { o[0] = S::get(); }\n",
                   2, "member function", "not static");
}

/* auto of std::abs: the argument's type (int for the narrower integers; unsigned has none) */
static void auto_of_math(void **state)
{
    (void)state;
    expect_ok("__global__ void k(float *o, float x, double y, short s) {\n"
              "  auto a = std::abs(x) / (std::abs(x) + 1.0f);\n"
              "  auto b = std::abs(y);\n"
              "  auto c = std::abs(s);\n"
              "  o[0] = a + (float)b + c;\n}\n",
              (const char *const[]){"float a = ", "double b = ", "int c = ", NULL});
    expect_refused("__global__ void k(unsigned *o, unsigned u) {\n"
                   "  auto a = abs(u);\n  o[0] = a;\n}\n",
                   2, "auto", "write the type");
}

/* A template instance's constexpr locals are constants: template arguments, array sizes. */
static void constexpr_locals(void **state)
{
    (void)state;
    const char *src = "template <int N> __device__ void fill(float *a) { for (int i = 0; i < N; "
                      "i++) a[i] = i; }\n"
                      "template <int L> __global__ void k(float *o) {\n"
                      "  constexpr int P = 1 << L;\n"
                      "  constexpr int E = (P < 4) ? 1 : 4;\n"
                      "  float t[E];\n"
                      "  fill<E>(t);\n"
                      "  o[threadIdx.x] = t[E - 1];\n"
                      "}\n"
                      "void h(float *o) { k<1><<<1, 32>>>(o); k<3><<<1, 32>>>(o); }\n";
    expect_ok(src, (const char *const[]){"fill_1(", "fill_4(", "GP_KERNEL(k_1", "float t[1];",
                                         "fill_1(t);", "GP_KERNEL(k_3", "float t[4];", "fill_4(t);",
                                         NULL});
    /* a local whose value is not a constant is no template argument */
    expect_refused("template <int N> __device__ int twice() { return 2 * N; }\n"
                   "__global__ void k(int *o, int n) {\n"
                   "  const int m = n + 1;\n"
                   "  o[0] = twice<m>();\n"
                   "}\n",
                   4, "template", "its argument 'm' is not a constant");
}

/* Functors: a struct's operator() is a member function (an empty struct gets one byte, CUDA's
 * size of it), called on variables and parameters; a class template passed to a template
 * template parameter. */
static void call_operators(void **state)
{
    (void)state;
    expect_ok(
        "template <typename T> struct Add {\n"
        "  __device__ T operator()(T a, T b) const { return a + b; }\n"
        "};\n"
        "template <typename T, template <typename> class Op>\n"
        "__device__ T fold(const T *v, int n) {\n"
        "  Op<T> op; T s = v[0];\n"
        "  for (int i = 1; i < n; i++) s = op(s, v[i]);\n"
        "  return s;\n"
        "}\n"
        "__global__ void k(const float *v, float *o, int n) { o[0] = fold<float, Add>(v, n); }\n",
        (const char *const[]){"typedef struct Add_float {", "uint8_t gp_empty_;",
                              "float Add_float_operator_call(GP_PRIVATE const Add_float *this_, "
                              "float a, float b)",
                              "fold_float_Add(", "Add_float op;",
                              "s = Add_float_operator_call(&op, s, v[i]);", NULL});
    /* a kernel's struct parameter is copied first: its address is then a private one */
    expect_ok(
        "struct Scale { float f; __device__ float operator()(float x) const { return f * x; } };\n"
        "__global__ void k(const float *v, float *o, Scale s) {\n"
        "  o[threadIdx.x] = s(v[threadIdx.x]);\n"
        "}\n",
        (const char *const[]){"GP_VAL(Scale, s_in))", "Scale s = s_in;",
                              "Scale_operator_call(&s, v[", NULL});
}

/* A parameter every call gives the same constant is that constant for the warp checks: the
 * default mask of a shuffle wrapper; a width below 32 keeps CUDA's segments (a helper). */
static void constant_parameters(void **state)
{
    (void)state;
    expect_ok(
        "template <typename T>\n"
        "__device__ T shfl_xor(T v, int m, int width = warpSize, unsigned mask = 0xffffffff) {\n"
        "  return __shfl_xor_sync(mask, v, m, width);\n"
        "}\n"
        "__global__ void k(float *o) {\n"
        "  float v = o[threadIdx.x];\n"
        "  for (int m = 8; m > 0; m >>= 1) v += shfl_xor(v, m, 16);\n"
        "  o[threadIdx.x] = v;\n"
        "}\n",
        (const char *const[]){"warp_shfl_xor_width_float(unsigned int shfl_mask_, float shfl_v_, "
                              "unsigned int shfl_d_, unsigned int shfl_w_",
                              "gp_simd_shuffle_xor(shfl_v_, shfl_d_)", "(32u - shfl_w_)",
                              "warp_shfl_xor_width_float(mask, v, m, width", NULL});
    /* another mask somewhere: not one constant, refused at the shuffle */
    expect_refused("__device__ float shfl(float v, int m, unsigned mask) {\n"
                   "  return __shfl_xor_sync(mask, v, m);\n"
                   "}\n"
                   "__global__ void a(float *o) { o[0] = shfl(o[0], 1, 0xffffffffu); }\n"
                   "__global__ void b(float *o) { o[0] = shfl(o[0], 1, 0xffffu); }\n",
                   2, "partial warp mask", "not the full mask");
    /* a local initialised with the full mask and never changed is the full mask; a width
     * shuffle's mask is checked where it is written (here line 8, not the first one's) */
    expect_ok("__global__ void k(int *data, int width) {\n"
              "  int value = data[threadIdx.x];\n"
              "  for (int i = 1; i <= width; i *= 2) {\n"
              "    unsigned int mask = 0xffffffff;\n"
              "    value += __shfl_up_sync(mask, value, i, width);\n"
              "  }\n"
              "  data[threadIdx.x] = value;\n"
              "}\n",
              (const char *const[]){"warp_shfl_up_width_int(mask, value, i, width", NULL});
    expect_refused("__global__ void k(int *data, int width) {\n"
                   "  int value = data[threadIdx.x];\n"
                   "  unsigned int mask = 0xffffffff;\n"
                   "  value += __shfl_up_sync(mask, value, 1, width);\n"
                   "  if (threadIdx.x < 8) {\n"
                   "    int m = (1 << 8) - 1;\n"
                   "    m = m | 1;\n"
                   "    value += __shfl_up_sync(m, value, 1, 8);\n"
                   "  }\n"
                   "  data[threadIdx.x] = value;\n"
                   "}\n",
                   8, "partial warp mask", "__shfl_up_sync with a mask");
    /* a local passed to a reference parameter (of an overloaded function too) may change */
    expect_refused("__device__ void bump(unsigned &m, int k) { m = m >> k; }\n"
                   "__device__ void bump(unsigned &m) { m = m >> 1; }\n"
                   "__global__ void k(float *o) {\n"
                   "  unsigned mask = 0xffffffff;\n"
                   "  bump(mask);\n"
                   "  o[threadIdx.x] = __shfl_xor_sync(mask, o[threadIdx.x], 1);\n"
                   "}\n",
                   6, "partial warp mask", "not the full mask");
    /* a parameter the body changes is no constant */
    expect_refused("__device__ float shfl(float v, unsigned mask) {\n"
                   "  mask >>= 1;\n"
                   "  return __shfl_xor_sync(mask, v, 1);\n"
                   "}\n"
                   "__global__ void a(float *o) { o[0] = shfl(o[0], 0xffffffffu); }\n",
                   3, "partial warp mask", "not the full mask");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(aliases),
        cmocka_unit_test(integer_type_names),
        cmocka_unit_test(enumerations),
        cmocka_unit_test(aligned_structs),
        cmocka_unit_test(array_parameters),
        cmocka_unit_test(unions),
        cmocka_unit_test(auto_of_math),
        cmocka_unit_test(constexpr_locals),
        cmocka_unit_test(call_operators),
        cmocka_unit_test(constant_parameters),
        cmocka_unit_test(static_members_and_references),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
