/*
 * xrelay_runtime.h - the C ABI of a model library built by xrelay.
 *
 * A model compiled by xrelay is one shared library (`.so`) that exports the
 * functions below and nothing else. A C program includes this header, links
 * against (or dlopen()s) the library, and runs the model without Python:
 *
 *     xrelay_model *m = xrelay_model_create();
 *     if (m == NULL) { fprintf(stderr, "%s\n", xrelay_last_error()); ... }
 *     const void *inputs[] = {x};          one pointer per input, in order
 *     void *outputs[] = {y};               one pointer per output, in order
 *     if (xrelay_model_run(m, inputs, outputs) != 0) { ... xrelay_last_error() ... }
 *     xrelay_model_destroy(m);
 *
 * Version. XRELAY_ABI_VERSION is the version of this contract; a library
 * returns the version it was built for from xrelay_abi_version(), and a
 * loader refuses a library whose version differs from its own.
 *
 * Tensors. Every input and output has a name, a dtype (xrelay_dtype) and a
 * static shape of ndim dimensions (shape[0] is the outermost; ndim 0 is a
 * scalar, and then shape may be NULL). Its buffer holds the product of the
 * dimensions elements of that dtype, C-contiguous (row-major) and aligned
 * for the dtype. XRELAY_BOOL elements are one byte each, 0 or 1;
 * XRELAY_FLOAT16 elements are IEEE 754 binary16 bit patterns (uint16_t);
 * XRELAY_BFLOAT16 elements are bfloat16 bit patterns (uint16_t: the upper
 * half of an IEEE 754 binary32).
 *
 * Ownership.
 *  - The xrelay_tensor_info records, their names and shapes are static data of
 *    the library: valid while it is loaded, never freed or written by the
 *    caller.
 *  - Input and output buffers are owned by the caller, who allocates them
 *    with the declared dtype and shape. The library reads the inputs, writes
 *    every element of every output, and keeps no pointer to either after
 *    xrelay_model_run returns. Input buffers are not modified; an output
 *    buffer must not overlap an input or another output.
 *  - A model instance owns its arena: xrelay_model_create allocates all the
 *    memory intermediates need, once, and xrelay_model_run allocates nothing.
 *    xrelay_model_destroy frees it (NULL is allowed and does nothing).
 *
 * Threading. The query functions and xrelay_model_create may be called from
 * any thread at any time. One instance runs one call at a time: calls of
 * xrelay_model_run on the same instance must not overlap (its arena holds
 * the intermediates), while different instances may run concurrently on
 * different threads.
 *
 * Errors. A function that fails returns its error value (NULL from
 * xrelay_model_create, nonzero from xrelay_model_run) and records a message
 * that xrelay_last_error() returns. The message is per thread: it describes
 * the last failure on the calling thread, "" if there was none; it stays
 * valid until the next call into the library on that thread. The library
 * never prints and never aborts the process on a runtime error.
 *
 * Instruction set (since version 2). A library is compiled for one -march (the
 * build option `march`, default "native": the building machine's CPU) and
 * records the instruction set features that choice enabled:
 * xrelay_required_isa() returns them as a comma list of __builtin_cpu_supports
 * names (e.g. "sse3,ssse3,sse4.1,sse4.2,popcnt,avx,avx2,fma,f16c,bmi,bmi2" for
 * x86-64-v3). Both ISA functions are compiled for the architecture's baseline,
 * so they run on any CPU of the family: xrelay_missing_isa() returns the first
 * required feature this CPU lacks (NULL if none; checked on x86 only), and
 * xrelay_model_create refuses such a CPU (NULL, with "library needs avx512f,
 * this CPU lacks it" in xrelay_last_error()) before any code compiled for the
 * chosen -march runs. Call nothing else before one of them has succeeded.
 *
 * Profiling. A library built with the build option `profile` (xrelay.build(...,
 * options={"profile": True}), xrelay-run --profile) also exports the
 * xrelay_profile_* functions below; others do not (look them up with dlsym()
 * before calling them). Such a library times every kernel: entry 0 is the
 * whole run, named after the entry function ("main"); then each call and op of
 * it (a call is named after its callee, e.g. "fused_nn_softmax",
 * "tvmgen_default_accel_main_0"; another op "main/<op>#<n>") and each kernel
 * of a BYOC target's function ("<function>/<op>#<n>", e.g.
 * "tvmgen_default_accel_main_0/accel.conv2d#2"). Each entry counts its calls
 * and their total wall-clock nanoseconds (CLOCK_MONOTONIC, measured on the
 * thread that calls xrelay_model_run, around any threads a kernel uses), for
 * all instances together, since the library was loaded or last reset.
 */
#ifndef XRELAY_RUNTIME_H
#define XRELAY_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Symbols of the ABI are exported even when the library is compiled with
 * -fvisibility=hidden (as xrelay builds it), so nothing else leaks out. */
#if defined(__GNUC__) || defined(__clang__)
#define XRELAY_API __attribute__((visibility("default")))
#else
#define XRELAY_API
#endif

#define XRELAY_ABI_VERSION 2

/* Element types; the values are part of the ABI. */
typedef enum {
  XRELAY_FLOAT32 = 0,
  XRELAY_FLOAT64 = 1,
  XRELAY_INT8 = 2,
  XRELAY_INT16 = 3,
  XRELAY_INT32 = 4,
  XRELAY_INT64 = 5,
  XRELAY_UINT8 = 6,
  XRELAY_BOOL = 7,
  XRELAY_FLOAT16 = 8,
  XRELAY_UINT16 = 9,
  XRELAY_UINT32 = 10,
  XRELAY_UINT64 = 11,
  XRELAY_BFLOAT16 = 12
} xrelay_dtype;

/* One input or output: its name, dtype (an xrelay_dtype value) and shape. */
typedef struct {
  const char *name;
  int32_t dtype;
  int32_t ndim;
  const int64_t *shape;
} xrelay_tensor_info;

/* One instance of the model: owns its arena. Opaque. */
typedef struct xrelay_model xrelay_model;

/* XRELAY_ABI_VERSION as the library was built. */
XRELAY_API int32_t xrelay_abi_version(void);

/* How many inputs and outputs the model has. */
XRELAY_API int32_t xrelay_num_inputs(void);
XRELAY_API int32_t xrelay_num_outputs(void);

/* Input or output `index` (0-based, in call order); NULL if out of range. */
XRELAY_API const xrelay_tensor_info *xrelay_input_info(int32_t index);
XRELAY_API const xrelay_tensor_info *xrelay_output_info(int32_t index);

/* A new instance; allocates the intermediate arena once.
 * NULL on failure, with the reason in xrelay_last_error(). */
XRELAY_API xrelay_model *xrelay_model_create(void);

/* Runs the model: inputs[i] and outputs[i] point to the caller's buffers, in
 * the order of the info functions. 0 on success; nonzero on failure, with the
 * reason in xrelay_last_error() (outputs are then unspecified). */
XRELAY_API int32_t xrelay_model_run(xrelay_model *model, const void *const *inputs,
                                    void *const *outputs);

/* Frees an instance and its arena; NULL does nothing. */
XRELAY_API void xrelay_model_destroy(xrelay_model *model);

/* The last error on the calling thread, "" if none. Never NULL. */
XRELAY_API const char *xrelay_last_error(void);

/* The instruction set features the library needs, a comma list ("" for none). */
XRELAY_API const char *xrelay_required_isa(void);

/* The first feature of xrelay_required_isa() this CPU lacks, NULL if it has them all. */
XRELAY_API const char *xrelay_missing_isa(void);

/* Profiling (only in libraries built with `profile`, see above). How many
 * entries there are; entry `index`'s name (NULL out of range); its calls and
 * total nanoseconds so far (0, or 1 out of range; NULL pointers are skipped);
 * all counters back to zero. */
XRELAY_API int32_t xrelay_profile_count(void);
XRELAY_API const char *xrelay_profile_name(int32_t index);
XRELAY_API int32_t xrelay_profile_read(int32_t index, uint64_t *calls, uint64_t *nanoseconds);
XRELAY_API void xrelay_profile_reset(void);

/* Size in bytes of one element of `dtype`, 0 if it is not an xrelay_dtype.
 * A helper for callers sizing buffers; not a symbol of the library. */
static inline size_t xrelay_dtype_size(int32_t dtype) {
  switch (dtype) {
  case XRELAY_FLOAT64:
  case XRELAY_INT64:
  case XRELAY_UINT64:
    return 8;
  case XRELAY_FLOAT32:
  case XRELAY_INT32:
  case XRELAY_UINT32:
    return 4;
  case XRELAY_INT16:
  case XRELAY_UINT16:
  case XRELAY_FLOAT16:
  case XRELAY_BFLOAT16:
    return 2;
  case XRELAY_INT8:
  case XRELAY_UINT8:
  case XRELAY_BOOL:
    return 1;
  default:
    return 0;
  }
}

#ifdef __cplusplus
}
#endif

#endif /* XRELAY_RUNTIME_H */
