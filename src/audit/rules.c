/* rules.c — the rule table (see rules.h) and its printers. Every scanner reports by rule enum;
 * the words users read (and docs/audit-rules.md) come only from here. */
#include "audit/rules.h"

#include <string.h>

#include "audit/mps_ops.h"
#include "util/json.h"
#include "util/compiler.h"

#define PY GP_LANG_PY
#define CL GP_LANG_C
#define E  GP_SEV_ERROR
#define W  GP_SEV_WARNING
#define N  GP_SEV_NOTE
#define X  GP_SEV_NONE
#define P_ GP_VC_PORTABLE
#define A_ GP_VC_ABSTRACTION
#define R_ GP_VC_REWRITE

static const gp_audit_rule rules[GP_R_COUNT] = {
    [GP_R_PY_DEV_001] =
        {"PY-DEV-001", PY, W, N, -1, A_, 0, "`.cuda()` call", "a `.cuda(` method call",
         "`.cuda()` moves a tensor or module to an NVIDIA GPU; there is none on a Mac "
         "or a CPU-only machine, so the call raises.",
         "Use `.to(device)` with a device chosen once (cuda, then mps, then cpu)."},
    [GP_R_PY_DEV_002] = {"PY-DEV-002", PY, W, X, -1, A_, 0, "hard-coded 'cuda' device",
                         "the string 'cuda' or 'cuda:N' in a device position (`device=`, "
                         "`torch.device(...)`, `.to(...)`, `device = ...`, `autocast(...)`); "
                         "not `torch.device(\"cuda\")` compared with `==` or `!=` (a test of "
                         "the device), nor `autocast(\"cuda\", enabled=False)` (mixed "
                         "precision turned off)",
                         "A hard-coded CUDA device string fails where CUDA is absent.",
                         "Resolve the device once (cuda, then mps, then cpu) and pass it around."},
    [GP_R_PY_DEV_003] = {"PY-DEV-003", PY, W, N, -1, A_, 0, "torch.cuda runtime call",
                         "`torch.cuda.*` calls such as synchronize, empty_cache, set_device, "
                         "Event, Stream, memory_* (not the seeding calls, ignored without CUDA)",
                         "`torch.cuda.*` runtime calls exist only with a CUDA build and device.",
                         "Use `torch.accelerator.*` or the matching `torch.mps.*` call, chosen by "
                         "device type."},
    [GP_R_PY_DEV_004] = {"PY-DEV-004", PY, N, N, -1, A_, 0, "cuda-or-cpu choice without mps",
                         "a cuda-or-cpu device choice in a file that never mentions mps",
                         "The device choice falls back to the CPU on a Mac and leaves the Apple "
                         "GPU unused.",
                         "Add the MPS branch: `torch.backends.mps.is_available()` before cpu."},
    [GP_R_PY_DEV_005] = {"PY-DEV-005", PY, E, N, -1, R_, GP_STOP_CUDA_GRAPHS, "CUDA graphs",
                         "`torch.cuda.graph`, `torch.cuda.CUDAGraph`, `make_graphed_callables`",
                         "CUDA graphs capture and replay CUDA streams; MPS and the CPU have no "
                         "equivalent.",
                         "Skip graph capture off CUDA and run the eager path."},
    [GP_R_PY_AMP_001] = {"PY-AMP-001", PY, W, N, -1, A_, 0, "torch.cuda.amp",
                         "`torch.cuda.amp.{autocast,GradScaler,custom_fwd,custom_bwd}`",
                         "`torch.cuda.amp` is deprecated and CUDA-only; autocast on MPS is fp16 "
                         "(bf16 on macOS 14+).",
                         "Use `torch.amp.autocast(device_type=...)` and `torch.amp.GradScaler`."},
    [GP_R_PY_CUDNN_001] = {"PY-CUDNN-001", PY, N, N, -1, P_, 0, "cuDNN / TF32 flags",
                           "`torch.backends.cudnn.*`, `torch.backends.cuda.matmul.allow_tf32`",
                           "These flags are inert without CUDA; results on CUDA with TF32 differ "
                           "slightly from fp32 elsewhere.",
                           "None needed; keep in mind when comparing results across devices."},
    [GP_R_PY_DTYPE_001] = {"PY-DTYPE-001", PY, W, N, -1, A_, 0, "float64 on the device",
                           "a float64 value (`dtype=torch.float64`, `.double()`, "
                           "`.to(torch.float64)`, a numpy float64 array, numpy's default "
                           "float64 from `np.random.randn`, `np.zeros`, `np.linspace`... made a "
                           "tensor by `from_numpy`/`as_tensor`) where it reaches a device "
                           "(`.cuda()`, `.to(device)`, `device=`, `register_buffer`, "
                           "`nn.Parameter`, `torch.from_numpy(a).to(device)`), followed through "
                           "the names it is set to; `set_default_dtype(torch.float64)`",
                           "MPS has no float64: tensors of that type cannot live on the Apple GPU.",
                           "Use float32 on the device (keep float64 on the CPU where needed): "
                           "`dtype=np.float32` in numpy, or `.float()` before `.to(device)`."},
    [GP_R_PY_MEM_001] = {"PY-MEM-001", PY, W, X, -1, A_, 0, "unguarded pin_memory",
                         "`pin_memory=True` or `.pin_memory()` outside a CUDA check",
                         "Pinned memory is not supported on MPS (it warns or raises).",
                         "Pin only when the device is CUDA: `pin_memory=(device.type == 'cuda')`."},
    [GP_R_PY_DIST_001] = {"PY-DIST-001", PY, E, N, -1, R_, GP_STOP_NCCL, "NCCL process group",
                          "`init_process_group(\"nccl\")`, `backend='nccl'`",
                          "NCCL does not exist on macOS; only gloo, which cannot use MPS tensors.",
                          "Choose gloo off CUDA (`dist.is_nccl_available()`), or keep the "
                          "multi-GPU job on Linux."},
    [GP_R_PY_DIST_002] = {"PY-DIST-002", PY, E, N, -1, R_, GP_STOP_NCCL, "multi-GPU training",
                          "DDP/FSDP with CUDA `device_ids`/`device_id`, `NCCL_*` environment",
                          "Data-parallel training over CUDA devices has no Mac counterpart.",
                          "Give the code a single-device path; keep multi-GPU runs on Linux."},
    [GP_R_PY_EXT_001] = {"PY-EXT-001", PY | GP_LANG_PYPROJECT, E, W, -1, R_, GP_STOP_CUDA_ONLY_EXT,
                         "CUDA extension build",
                         "`CUDAExtension`; in setup.py also `.cu` sources, `CUDA_HOME`, "
                         "`TORCH_CUDA_ARCH_LIST`; `.cu` sources in pyproject.toml",
                         "The package builds CUDA code with nvcc; that cannot build or run on a "
                         "Mac.",
                         "Provide a CPU (or Metal) implementation and build the CUDA part only "
                         "when CUDA is present."},
    [GP_R_PY_EXT_002] = {"PY-EXT-002", PY, E, W, -1, R_, GP_STOP_CUDA_ONLY_EXT,
                         "JIT-built CUDA extension",
                         "`load(...)` of `.cu` sources, `load_inline(cuda_sources=...)`",
                         "The extension is compiled with nvcc at run time.",
                         "Provide a CPU (or Metal) implementation and load the CUDA one only on "
                         "CUDA."},
    [GP_R_PY_EXT_003] = {"PY-EXT-003", CL | PY, E, E, -1, R_, GP_STOP_CUSTOM_KERNELS,
                         "CPU implementation that only raises",
                         "a C++ source or header named as a CPU implementation whose function "
                         "bodies only raise (`AT_ERROR`, `TORCH_CHECK(false`, `throw`), or the "
                         "CPU side of a dispatch on the device (`if (x.is_cuda()) {...}`, then its "
                         "`else` or the code after it) that only raises; in Python, the "
                         "non-CUDA branch of a test of a tensor's device (`if x.is_cuda:`) that "
                         "only raises",
                         "The \"CPU implementation\" is a stub: off CUDA every call fails.",
                         "Write a real CPU path (or a Metal one) for these operators."},
    [GP_R_PY_IMP_001] = {"PY-IMP-001", PY, E, N, GP_R_PY_IMP_002, R_, GP_STOP_CUDA_ONLY_EXT,
                         "CUDA-only package import",
                         "unguarded import of flash_attn, xformers, apex, causal_conv1d, "
                         "mamba_ssm, tinycudann, nvdiffrast, pycuda, cupy, tensorrt, spconv, "
                         "numba.cuda, RAPIDS (cuml, cudf, cugraph), cutlass (cutlass.cute), "
                         "cuda-python (cuda.bindings), nvidia.*, tilelang, flashinfer, "
                         "transformer_engine",
                         "The package has no Mac or CPU build; the import fails there.",
                         "Import it inside try/except ImportError and fall back (for attention: "
                         "`torch.nn.functional.scaled_dot_product_attention`)."},
    [GP_R_PY_IMP_002] = {"PY-IMP-002", PY, N, N, -1, P_, 0, "guarded CUDA-only import",
                         "the same imports inside try/except ImportError, behind a switch, or "
                         "on one branch of an `if` on something else (an optional backend: "
                         "`if engine: import tensorrt`)",
                         "The import is optional; the fallback path is what runs on a Mac.",
                         "Verify that the fallback path is tested."},
    [GP_R_PY_TRITON_001] = {"PY-TRITON-001", PY, E, N, -1, R_, GP_STOP_CUSTOM_KERNELS,
                            "Triton kernels", "`import triton`, `@triton.jit`, `@triton.autotune`",
                            "Triton compiles for NVIDIA (and AMD) GPUs on Linux only.",
                            "Keep a PyTorch implementation of each kernel and use it off CUDA."},
    [GP_R_PY_COMPILE_001] = {"PY-COMPILE-001", PY, N, N, -1, A_, 0, "torch.compile",
                             "`torch.compile`, `torch._inductor`",
                             "torch.compile on MPS is experimental.",
                             "Turn compilation off on mps (or make it a switch)."},
    [GP_R_PY_DL_001] = {"PY-DL-001", PY, N, N, -1, A_, 0, "DataLoader workers on macOS",
                        "`DataLoader(num_workers>0)` with a lambda, or at module level in a "
                        "file without a `__main__` guard",
                        "macOS starts DataLoader workers with spawn: the script needs a "
                        "`__main__` guard and picklable datasets and collate functions.",
                        "Use top-level functions and an `if __name__ == \"__main__\":` guard."},
    [GP_R_PY_MPS_001] = {"PY-MPS-001", PY, W, W, -1, A_, 0, "operator without an MPS kernel",
                         "a call of a torch function whose ATen operator has no MPS kernel and no "
                         "decomposition in torch " GP_AUDIT_MPS_TORCH "'s operator table "
                         "(`torch.linalg.eig`, `torch.linalg.eigvals`, `F.pdist`, "
                         "`F.multi_margin_loss`, `F.fractional_max_pool2d`, `torch.special.ndtri`, "
                         "...; generated by scripts/gen-audit-mps-ops.py)",
                         "On MPS the call raises NotImplementedError, or runs on the CPU when "
                         "PYTORCH_ENABLE_MPS_FALLBACK=1 was set before torch was imported.",
                         "Run `gpuport mps-check -- python SCRIPT` to see whether the program's "
                         "real path reaches it (with the dtypes and the line); then use an "
                         "alternative with an MPS kernel (`torch.linalg.eigh` for a symmetric "
                         "matrix, `torch.cdist` for `pdist`) or move that call to the CPU."},
    [GP_R_PY_QUANT_001] =
        {"PY-QUANT-001", PY, E, N, -1, A_, 0, "bitsandbytes quantisation",
         "`import bitsandbytes`, `load_in_8bit=True`, `load_in_4bit=True` (LLM.int8, QLoRA), "
         "`BitsAndBytesConfig(...)`",
         "Loading a model in 8 or 4 bits and bitsandbytes' 8-bit optimizers go through its "
         "CUDA kernels; there is no MPS build of them, so the load or the step fails on a Mac. "
         "The model itself runs there in 16 bits: a change of dtype, not a rewrite.",
         "Load in float16/bfloat16 on MPS (or use a quantisation with an MPS or CPU path, such "
         "as GGUF) and torch.optim's optimizer in place of the 8-bit one, and keep the "
         "bitsandbytes path for CUDA."},
    [GP_R_C_INC_001] = {"C-INC-001", CL, E, W, -1, R_, 0, "CUDA header",
                        "`#include` of cuda*.h, cuBLAS/cuDNN/cuFFT/cuRAND/cuSPARSE/cuSOLVER, "
                        "NVRTC, NVML, NVTX, thrust/, cub/, cutlass/, ATen/cuda, ATen/native/cuda, "
                        "ATen/cudnn headers (not a quoted include of a file next to the "
                        "includer: the project's own header)",
                        "The header exists only in the CUDA toolkit.",
                        "Isolate the CUDA code behind a backend interface and include it there "
                        "only."},
    [GP_R_C_RT_001] = {"C-RT-001", CL, E, W, -1, R_, 0, "CUDA runtime API",
                       "runtime API identifiers (`cudaMalloc`, `cudaStream_t`, `cudaSuccess`, ...)",
                       "The CUDA runtime exists only on NVIDIA machines.",
                       "Go through a backend abstraction (for example libgpuport buffers and "
                       "queues)."},
    [GP_R_C_DRV_001] = {"C-DRV-001", CL, E, W, -1, R_, 0, "CUDA driver API",
                        "driver API identifiers (`cuInit`, `cuMemAlloc`, `CUdeviceptr`, "
                        "`CU_*`, ...)",
                        "The CUDA driver API exists only on NVIDIA machines.",
                        "Go through a backend abstraction."},
    [GP_R_C_KERN_001] = {"C-KERN-001", CL, E, W, -1, R_, GP_STOP_CUSTOM_KERNELS, "CUDA kernel",
                         "`__global__`, `__device__`, `__shared__`, `__constant__`, "
                         "`__launch_bounds__`, `<<< >>>` launches",
                         "CUDA C++ kernels compile only with nvcc/NVRTC for NVIDIA GPUs.",
                         "Write the kernel once in the gpuport dialect (CUDA, Metal, OpenCL, CPU): "
                         "`gpuport translate` rewrites the common CUDA subset; or add a CPU/Metal "
                         "implementation."},
    [GP_R_C_KERN_002] = {"C-KERN-002", CL, W, N, -1, A_, 0, "warp shuffles and votes",
                         "`__shfl_*_sync`, `__ballot_sync`, `__any_sync`, `__all_sync`, "
                         "`__match_any_sync`, `__activemask`, `__syncwarp`",
                         "Warp-level operations assume a 32-wide warp. Apple GPUs run SIMD "
                         "groups of 32 with the same shuffles and votes, and the CPU can emulate "
                         "them; partial masks, `__activemask` and `__match_any_sync` have no "
                         "counterpart.",
                         "`gpuport translate --simd-width 32` turns full-mask shuffles, votes and "
                         "`__syncwarp` into the dialect's SIMD-group operations (CUDA, Apple "
                         "GPUs, the CPU); rewrite code that needs a partial mask."},
    [GP_R_C_KERN_003] = {"C-KERN-003", CL, E, W, -1, R_, GP_STOP_CUDA_NUMERICS,
                         "tensor-core and PTX code",
                         "`wmma::` fragments, inline PTX `asm(` in CUDA sources",
                         "Tensor-core fragments and PTX are NVIDIA's hardware and instruction "
                         "set; their numerics (TF32 and half-precision accumulation, rounding of "
                         "PTX intrinsics) have no exact counterpart elsewhere.",
                         "Rewrite with portable code (the gpuport dialect, MPS or Accelerate "
                         "matrix kernels) and re-validate the results against a reference "
                         "(`gpuport compare`)."},
    [GP_R_C_LIB_001] = {"C-LIB-001", CL, E, W, -1, R_, 0, "cuBLAS",
                        "`cublas*`, `cublasLt*`, `CUBLAS_*`", "cuBLAS is NVIDIA-only.",
                        "Use Accelerate (BLAS) or MPS matrix kernels, or gpuport ops."},
    [GP_R_C_LIB_002] = {"C-LIB-002", CL, E, W, -1, R_, 0, "cuDNN", "`cudnn*`, `CUDNN_*`",
                        "cuDNN is NVIDIA-only.",
                        "Use the framework's ops, or BNNS / MPS Graph on a Mac."},
    [GP_R_C_LIB_003] = {"C-LIB-003", CL, E, W, -1, R_, 0, "cuFFT / cuRAND / cuSPARSE / cuSOLVER",
                        "`cufft*`, `curand*`, `cusparse*`, `cusolver*` (and their constants)",
                        "These libraries are NVIDIA-only.",
                        "Use torch.fft / torch.linalg, or vDSP / Accelerate on a Mac."},
    [GP_R_C_LIB_004] = {"C-LIB-004", CL, E, W, -1, R_, GP_STOP_NCCL, "NCCL",
                        "`nccl*`, `NCCL_*`, `#include <nccl.h>`",
                        "NCCL (multi-GPU collectives) is NVIDIA-only.",
                        "Use gloo or MPI, or keep the multi-GPU job on Linux."},
    [GP_R_C_LIB_005] = {"C-LIB-005", CL, E, W, -1, R_, 0, "Thrust / CUB / CUTLASS",
                        "`thrust::`, `cub::`, `cutlass::`",
                        "These CUDA template libraries generate NVIDIA device code.",
                        "Use std algorithms (or parallel STL) on the CPU."},
    [GP_R_C_ATEN_001] = {"C-ATEN-001", CL, E, W, -1, R_, 0, "ATen CUDA API",
                         "`at::cuda::`, `c10::cuda::`, `getCurrentCUDAStream`, `CUDAGuard`, "
                         "`.is_cuda()` checks, `kCUDA`",
                         "The extension talks to PyTorch's CUDA backend directly.",
                         "Dispatch on the tensor's device and register CPU (and MPS) kernels."},
    [GP_R_CMK_001] = {"CMK-001", GP_LANG_CMAKE, E, N, -1, R_, 0, "CUDA language in CMake",
                      "`project(... LANGUAGES ... CUDA)`, `enable_language(CUDA)`",
                      "The build requires nvcc; configuring fails without the CUDA toolkit.",
                      "Make CUDA optional: `check_language(CUDA)` behind an option that defaults "
                      "to OFF."},
    [GP_R_CMK_002] = {"CMK-002", GP_LANG_CMAKE, E, N, -1, R_, 0, "CUDA packages in CMake",
                      "`find_package(CUDA|CUDAToolkit)`, `CUDA::*` targets, `cuda_add_*` "
                      "(not `CUDA_ARCHITECTURES`: inert without the CUDA language)",
                      "The build links the CUDA toolkit (FindCUDA is removed by policy "
                      "CMP0146).",
                      "Find CUDAToolkit only when the CUDA option is on."},
    [GP_R_MK_001] = {"MK-001", GP_LANG_MAKE, E, N, -1, R_, 0, "nvcc in a Makefile or script",
                     "`nvcc`, `-arch=sm_XX`, `-gencode`, `-lcudart`/`-lcublas`/`-lnccl`/...",
                     "The build calls nvcc or links CUDA libraries.",
                     "Add a CPU target and build the CUDA one only when nvcc is found."},
    [GP_R_REQ_001] =
        {"REQ-001", GP_LANG_REQ | GP_LANG_PYPROJECT | GP_LANG_CONDA | GP_LANG_DOCKER, E, N, -1, A_,
         0, "CUDA wheel pin",
         "`+cuNNN` local versions, `.../whl/cuNNN` indexes, NVIDIA's index "
         "(`pypi.nvidia.com`), also in a Dockerfile's `RUN pip install`",
         "CUDA builds (PyTorch's +cuNNN wheels, NVIDIA's index) are not published for macOS; "
         "the install fails.",
         "Use the default index (or pin with a Linux marker)."},
    [GP_R_REQ_002] = {"REQ-002", GP_LANG_REQ | GP_LANG_PYPROJECT | GP_LANG_CONDA, E, N,
                      GP_R_REQ_003, A_, 0, "CUDA-only package",
                      "`nvidia-*-cu1x`, `cupy-cuda*`, `spconv-cu*`, `faiss-gpu`, "
                      "`onnxruntime-gpu`, `tensorrt`, `jax[cuda*]`, `flash-attn`, `xformers`, "
                      "`pycuda`, `mamba-ssm`, `causal-conv1d`, RAPIDS (`cuml-cu11`, "
                      "`cudf-cu12`, ...), `cuda-python`, `tilelang`, `triton`",
                      "The package has no macOS build; installing the requirements fails.",
                      "Use the CPU variant (faiss-cpu, onnxruntime, cupy → numpy) or add "
                      "`; sys_platform == \"linux\"`."},
    [GP_R_REQ_003] = {"REQ-003", GP_LANG_REQ | GP_LANG_PYPROJECT | GP_LANG_CONDA, N, N, -1, P_, 0,
                      "CUDA package behind a Linux marker",
                      "a CUDA-only requirement with `; sys_platform == \"linux\"` (or "
                      "platform_system)",
                      "The requirement is skipped on a Mac.",
                      "None; make sure the code imports it only when present."},
    [GP_R_REQ_004] = {"REQ-004", GP_LANG_REQ | GP_LANG_PYPROJECT, E, N, -1, A_, 0,
                      "torch pinned before MPS",
                      "`torch==X`, `torch<X` or `torch<=X` that keeps torch below 1.12 (MPS came "
                      "with 1.12)",
                      "A torch older than 1.12 has no MPS backend: on a Mac the project runs on "
                      "the CPU only (and old wheels may not install on Apple Silicon at all).",
                      "Move the pin to torch 2.x (or at least 1.12) and test the code with it."},
    [GP_R_CONDA_001] = {"CONDA-001", GP_LANG_CONDA, E, N, -1, A_, 0, "CUDA conda packages",
                        "`pytorch-cuda=`, `cudatoolkit`, `cuda-toolkit`, `cudnn`, `nccl`, "
                        "channel `nvidia`",
                        "These conda packages do not exist for osx-arm64; the environment does "
                        "not solve.",
                        "Keep a separate osx-arm64 environment file without them."},
    [GP_R_DOCKER_001] = {"DOCKER-001", GP_LANG_DOCKER | GP_LANG_MAKE, W, N, -1, A_, 0,
                         "NVIDIA container",
                         "`FROM nvidia/cuda` (also `docker.io/nvidia/cuda`), `nvcr.io/nvidia`, "
                         "`--gpus`, compose `gpus:`, `runtime: nvidia`",
                         "Docker on a Mac cannot pass the Apple GPU into a container; an NVIDIA "
                         "image runs CPU-only at best.",
                         "Use a CPU base image for the Mac (and native runs for the GPU)."},
};

const gp_audit_rule *gp_audit_rule_get(int id)
{
    return id >= 0 && id < GP_R_COUNT ? &rules[id] : NULL;
}

const gp_audit_rule *gp_audit_rule_find(const char *id, int *index)
{
    for (int i = 0; i < GP_R_COUNT; i++)
        if (strcmp(rules[i].id, id) == 0) {
            if (index) *index = i;
            return &rules[i];
        }
    return NULL;
}

const char *gp_audit_sev_name(gp_audit_sev s)
{
    static const char *const n[] = {"none", "note", "warning", "error"};
    return (unsigned)s < GP_ARRAY_LEN(n) ? n[s] : "?";
}

const char *gp_audit_vclass_name(gp_audit_vclass v)
{
    static const char *const n[] = {"portable", "needs-device-abstraction", "needs-rewrite"};
    return (unsigned)v < GP_ARRAY_LEN(n) ? n[v] : "?";
}

const char *gp_audit_stop_name(gp_audit_stop s)
{
    static const char *const n[] = {"none",           "custom-cuda-kernels", "cuda-only-extension",
                                    "nccl-multi-gpu", "cuda-graphs",         "cuda-only-numerics"};
    return (unsigned)s < GP_ARRAY_LEN(n) ? n[s] : "?";
}

const char *gp_audit_stop_title(gp_audit_stop s)
{
    static const char *const n[] = {
        "none",
        "core paths are built on custom CUDA kernels with no CPU or Metal implementation",
        "CUDA-only extensions or third-party packages without a fallback",
        "NCCL / multi-GPU training",
        "CUDA graphs",
        "results depend on CUDA-only numerics (tensor cores, PTX)"};
    return (unsigned)s < GP_ARRAY_LEN(n) ? n[s] : "?";
}

static void rules_langs(unsigned l, char *buf, size_t n)
{
    static const char *const names[] = {
        "python",       "c/c++/cuda", "cmake", "make/shell", "setup.py/pyproject/setup.cfg",
        "requirements", "conda",      "docker"};
    buf[0] = '\0';
    for (unsigned i = 0; i < GP_ARRAY_LEN(names); i++) {
        if (!(l & (1u << i))) continue;
        if (buf[0]) strncat(buf, ", ", n - strlen(buf) - 1);
        strncat(buf, names[i], n - strlen(buf) - 1);
    }
}

static const char *rules_sev_letter(gp_audit_sev s)
{
    static const char *const n[] = {"none", "note", "warning", "error"};
    return n[s];
}

/* A table cell: Markdown pipes escaped. */
static void md_cell(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s, f);
    }
}

int gp_audit_rules_print_markdown(FILE *f)
{
    fputs("# gpuport audit rules\n\n"
          "Generated by `gpuport audit --list-rules --format markdown` from the rule table in\n"
          "`src/audit/rules.c`; do not edit by hand.\n\n"
          "Severity: **error** blocks running on the CPU or MPS, **warning** works after a device\n"
          "abstraction, **note** is worth knowing. *Guarded* is the severity when the code sits\n"
          "behind a CUDA check (`torch.cuda.is_available()`, `is_cuda`, `try/except ImportError`,\n"
          "an environment switch, a Linux pip marker, a CMake option that defaults to OFF, the\n"
          "CUDA branch of a C++ dispatch on the device); *none* means the guarded form is the fix\n"
          "and is not reported. Code inside an `#ifdef` on a CUDA macro is at most a note, and so\n"
          "is every finding of a CUDA part the default build leaves out. *Verdict* is what an\n"
          "error of the rule makes its component need.\n\n"
          "| id | reads | matches | severity | guarded | verdict | stop condition |\n"
          "|---|---|---|---|---|---|---|\n",
          f);
    for (int i = 0; i < GP_R_COUNT; i++) {
        const gp_audit_rule *r = &rules[i];
        char langs[160];
        rules_langs(r->langs, langs, sizeof langs);
        fprintf(f, "| %s | %s | ", r->id, langs);
        md_cell(f, r->pattern);
        fprintf(f, " | %s | ", rules_sev_letter(r->severity));
        if (r->guarded_as >= 0)
            fprintf(f, "reported as %s", rules[r->guarded_as].id);
        else
            fputs(rules_sev_letter(r->guarded), f);
        fprintf(f, " | %s | %s |\n", gp_audit_vclass_name(r->vclass),
                r->stop ? gp_audit_stop_name(r->stop) : "");
    }
    fputs("\n## Explanations and fixes\n", f);
    for (int i = 0; i < GP_R_COUNT; i++) {
        const gp_audit_rule *r = &rules[i];
        fprintf(f, "\n### %s — %s\n\n%s\n\n**Fix:** %s\n", r->id, r->name, r->explanation, r->fix);
    }
    fputs("\n## Stop conditions\n\n", f);
    for (int s = 1; s < GP_STOP_COUNT; s++)
        fprintf(f, "- `%s`: %s.\n", gp_audit_stop_name((gp_audit_stop)s),
                gp_audit_stop_title((gp_audit_stop)s));
    return ferror(f) ? -1 : 0;
}

int gp_audit_rules_print_json(FILE *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", "gpuport.audit-rules/1");
    cJSON *arr = cJSON_AddArrayToObject(o, "rules");
    for (int i = 0; i < GP_R_COUNT; i++) {
        const gp_audit_rule *r = &rules[i];
        cJSON *j = cJSON_CreateObject();
        char langs[160];
        rules_langs(r->langs, langs, sizeof langs);
        cJSON_AddStringToObject(j, "id", r->id);
        cJSON_AddStringToObject(j, "name", r->name);
        cJSON_AddStringToObject(j, "languages", langs);
        cJSON_AddStringToObject(j, "matches", r->pattern);
        cJSON_AddStringToObject(j, "severity", gp_audit_sev_name(r->severity));
        cJSON_AddStringToObject(j, "guarded",
                                r->guarded_as >= 0 ? rules[r->guarded_as].id
                                                   : gp_audit_sev_name(r->guarded));
        cJSON_AddStringToObject(j, "verdict", gp_audit_vclass_name(r->vclass));
        if (r->stop) cJSON_AddStringToObject(j, "stop_condition", gp_audit_stop_name(r->stop));
        cJSON_AddStringToObject(j, "explanation", r->explanation);
        cJSON_AddStringToObject(j, "fix", r->fix);
        cJSON_AddItemToArray(arr, j);
    }
    int rc = gp_json_print(f, o);
    cJSON_Delete(o);
    return rc;
}

int gp_audit_rules_print_text(FILE *f)
{
    for (int i = 0; i < GP_R_COUNT; i++)
        fprintf(f, "%-14s %-7s %s\n", rules[i].id, rules_sev_letter(rules[i].severity),
                rules[i].name);
    return ferror(f) ? -1 : 0;
}
