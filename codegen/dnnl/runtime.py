"""The C helpers every dnnl translation unit starts with (`HELPERS`), around oneDNN's 2.x C API.

Each function partitioned for dnnl keeps its oneDNN objects in one `xd_state`
(engine, stream, primitives, memory objects, the buffers it owns), made by the
function's init when the model instance is created and freed by its destroy.
What the helpers enforce:

- oneDNN 2.x: `dnnl.h` must be found (else a `#error` naming Debian's
  `libdnnl-dev`), and `DNNL_VERSION_MAJOR` must be 2 (operation descriptors,
  which 3.x removed);
- no reference implementation: `xd_adopt` reads each primitive's
  implementation name (`dnnl_query_impl_info_str`) and refuses `ref*` and
  `simple*` (oneDNN's silent fallbacks, 100-1000x slower) with an error naming
  the op, except `simple_layer_normalization` (oneDNN 2.6's only CPU layer norm, whose
  statistics and data loops are jit kernels: 12 us for 128x256 at 1 thread against the host
  loop's 59 us), unless the library is built with `-DXRELAY_DNNL_ALLOW_REFERENCE`;
- sizes from oneDNN: `xd_memory` checks that oneDNN's memory descriptor for a
  buffer the plan placed has the planned size (`dnnl_memory_desc_get_size`);
  weights and the scratchpad are allocated at the size oneDNN asks for;
- weights are constants reordered once, at init, into the layout the
  primitive chose (`xd_weights`); a user-managed scratchpad (one buffer per
  function, the largest any of its primitives needs) keeps instances apart;
- a run never allocates: `xd_set` points memory objects at the caller's
  buffers, `xd_exec` runs a primitive, and the first failure is kept for
  `xd_check` (the model's run then returns it through `xrelay_last_error`);
- threads: primitives are created with the build's `num_threads` OpenMP
  threads when it is given (`xd_threads_begin`), else with OpenMP's default
  (`OMP_NUM_THREADS`) at instance creation; oneDNN 2.x keeps that count;
- Winograd (unless `-DXRELAY_DNNL_NO_WINOGRAD`): a candidate convolution for
  which oneDNN has a fast Winograd kernel runs it on oneDNN's blocked layouts (`xd_winograd`):
  a buffer whose NHWC bytes already are that layout (16 channels: `nChw16c`
  with one block) is used as it is, any other is reordered from and to the
  NHWC buffer around it; the others stay direct.

This module holds the state and the primitives' creation; `runtime_buffers.py`
the memory objects, the scratchpad and what a run calls; `runtime_winograd.py`
the Winograd views; `runtime_numerics.py` the loops that keep relay's NaN.
"""

from __future__ import annotations

from xrelay.codegen.dnnl.runtime_buffers import BUFFERS, RUN
from xrelay.codegen.dnnl.runtime_numerics import NUMERICS
from xrelay.codegen.dnnl.runtime_winograd import WINOGRAD

PRIMITIVES = r"""#ifndef XR_DNNL_HELPERS
#define XR_DNNL_HELPERS
#if defined(__has_include)
#if !__has_include(<dnnl.h>)
#error "xrelay target 'dnnl' needs oneDNN 2.x: dnnl.h not found (Debian: libdnnl-dev)"
#endif
#endif
#include <dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if !defined(DNNL_VERSION_MAJOR) || DNNL_VERSION_MAJOR != 2
#error "xrelay target 'dnnl' is written for oneDNN 2.x (operation descriptors), not this dnnl.h"
#endif

/* oneDNN 2.x fixes a primitive's thread count when it is created: create them with `n` OpenMP
 * threads (n > 0, the build's num_threads), then give the caller back its own count. */
static inline int xd_threads_begin(int n) {
#ifdef _OPENMP
  if (n > 0) {
    int saved = omp_get_max_threads();
    omp_set_num_threads(n);
    return saved;
  }
#endif
  (void)n;
  return 0;
}

/* The threads primitives made now run on (between xd_threads_begin and xd_threads_end). */
static inline int xd_max_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

static inline void xd_threads_end(int saved) {
#ifdef _OPENMP
  if (saved > 0) {
    omp_set_num_threads(saved);
  }
#endif
  (void)saved;
}

/* A Winograd convolution's views of its src and dst in oneDNN's blocked layouts: over the
 * user's bytes when they are laid out alike (`*_alias`), else over its own buffers, between
 * reorders. */
typedef struct {
  int on;                         /* the primitive is wrapped */
  int src_alias, dst_alias;       /* src / dst: the user's bytes, seen blocked (no reorder) */
  dnnl_primitive_t in, back, out; /* user src -> src; user dst -> dst (a sum); dst -> user dst */
  dnnl_memory_t src, dst;
  void *src_buffer, *dst_buffer;
} xd_wino;

/* The oneDNN objects of one function: made by its init, used by its runs, freed by its destroy. */
typedef struct {
  dnnl_engine_t engine;
  dnnl_stream_t stream;
  int nprims, nmems, nowned;
  dnnl_primitive_t *prims;
  dnnl_memory_t *mems;
  dnnl_memory_t *scratch; /* per primitive: its scratchpad over the shared buffer, or NULL */
  void **owned;           /* buffers allocated here (weights in oneDNN's layout) */
  xd_wino *wino;          /* per primitive: its Winograd wrapping (`on` 0 if none) */
  dnnl_primitive_t *fused; /* per primitive: it with oneDNN's relu post-op, or NULL */
  int finite;              /* this run's inputs are all finite: `fused` may run */
  void *scratchpad;
  dnnl_status_t status; /* the first failure of a run */
  const char *failed;   /* the op that failed */
} xd_state;

static inline const char *xd_status_name(dnnl_status_t status) {
  switch (status) {
  case dnnl_out_of_memory:
    return "out of memory";
  case dnnl_invalid_arguments:
    return "invalid arguments";
  case dnnl_unimplemented:
    return "unimplemented";
  case dnnl_runtime_error:
    return "runtime error";
  default:
    return "error";
  }
}

static inline int xd_fail(char *error, size_t size, const char *what, const char *step,
                   dnnl_status_t status) {
  snprintf(error, size, "xrelay_model_create: %s: oneDNN failed %s (%s)", what, step,
           xd_status_name(status));
  return 1;
}

#define XD_TRY(call, step)                                                                  \
  do {                                                                                      \
    dnnl_status_t xd_status_ = (call);                                                      \
    if (xd_status_ != dnnl_success) {                                                       \
      return xd_fail(error, size, what, step, xd_status_);                                  \
    }                                                                                       \
  } while (0)

static inline int xd_new(xd_state **slot, int nprims, int nmems, int nowned, char *error,
                  size_t size) {
  static const char what[] = "dnnl";
  xd_state *s = calloc(1, sizeof *s);
  *slot = s;
  if (s == NULL) {
    return xd_fail(error, size, what, "allocating its state", dnnl_out_of_memory);
  }
  s->nprims = nprims;
  s->nmems = nmems;
  s->nowned = nowned;
  s->prims = calloc((size_t)nprims + 1, sizeof *s->prims);
  s->scratch = calloc((size_t)nprims + 1, sizeof *s->scratch);
  s->mems = calloc((size_t)nmems + 1, sizeof *s->mems);
  s->owned = calloc((size_t)nowned + 1, sizeof *s->owned);
  s->wino = calloc((size_t)nprims + 1, sizeof *s->wino);
  s->fused = calloc((size_t)nprims + 1, sizeof *s->fused);
  if (s->prims == NULL || s->scratch == NULL || s->mems == NULL || s->owned == NULL ||
      s->wino == NULL || s->fused == NULL) {
    return xd_fail(error, size, what, "allocating its state", dnnl_out_of_memory);
  }
  XD_TRY(dnnl_engine_create(&s->engine, dnnl_cpu, 0), "creating the CPU engine");
  XD_TRY(dnnl_stream_create(&s->stream, s->engine, dnnl_stream_default_flags),
         "creating a stream");
  return 0;
}

static inline void xd_wino_free(xd_wino *w) {
  dnnl_primitive_t prims[3] = {w->in, w->back, w->out};
  for (int i = 0; i < 3; ++i) {
    if (prims[i] != NULL) {
      dnnl_primitive_destroy(prims[i]);
    }
  }
  if (w->src != NULL) {
    dnnl_memory_destroy(w->src);
  }
  if (w->dst != NULL) {
    dnnl_memory_destroy(w->dst);
  }
  free(w->src_buffer);
  free(w->dst_buffer);
  memset(w, 0, sizeof *w);
}

static inline void xd_free(xd_state *s) {
  if (s == NULL) {
    return;
  }
  for (int k = 0; s->wino != NULL && k < s->nprims; ++k) {
    xd_wino_free(&s->wino[k]);
  }
  for (int k = 0; s->prims != NULL && k < s->nprims; ++k) {
    if (s->prims[k] != NULL) {
      dnnl_primitive_destroy(s->prims[k]);
    }
    if (s->fused != NULL && s->fused[k] != NULL) {
      dnnl_primitive_destroy(s->fused[k]);
    }
    if (s->scratch[k] != NULL) {
      dnnl_memory_destroy(s->scratch[k]);
    }
  }
  for (int m = 0; s->mems != NULL && m < s->nmems; ++m) {
    if (s->mems[m] != NULL) {
      dnnl_memory_destroy(s->mems[m]);
    }
  }
  for (int b = 0; s->owned != NULL && b < s->nowned; ++b) {
    free(s->owned[b]);
  }
  free(s->scratchpad);
  if (s->stream != NULL) {
    dnnl_stream_destroy(s->stream);
  }
  if (s->engine != NULL) {
    dnnl_engine_destroy(s->engine);
  }
  free(s->prims);
  free(s->scratch);
  free(s->mems);
  free(s->owned);
  free(s->wino);
  free(s->fused);
  free(s);
}

/* A plain f32 descriptor of `dims` with element `strides`, or oneDNN's choice when NULL. */
static inline dnnl_status_t xd_md(dnnl_memory_desc_t *md, int ndims, const dnnl_dim_t *dims,
                           const dnnl_dim_t *strides) {
  if (strides == NULL) {
    return dnnl_memory_desc_init_by_tag(md, ndims, dims, dnnl_f32, dnnl_format_tag_any);
  }
  return dnnl_memory_desc_init_by_strides(md, ndims, dims, dnnl_f32, strides);
}

/* Whether `pd` is one of oneDNN's reference implementations (`ref*`, `simple*`): its silent
 * fallbacks, 100-1000x slower than its jit kernels. Its name in `impl`. Not 2.6's
 * `simple_layer_normalization`, its only CPU layer norm, which runs jit kernels. */
static inline int xd_slow(const_dnnl_primitive_desc_t pd, const char **impl) {
  if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, impl) != dnnl_success ||
      *impl == NULL) {
    *impl = "unknown";
  }
  if (strncmp(*impl, "simple_layer_normalization", 26) == 0) {
    return 0;
  }
  return strncmp(*impl, "ref", 3) == 0 || strncmp(*impl, "simple", 6) == 0;
}

/* Primitive k from `pd` (freed here), once its implementation is not a reference one. */
static inline int xd_adopt(xd_state *s, int k, dnnl_primitive_desc_t pd, const char *what,
                           char *error, size_t size) {
  const char *impl = NULL;
#ifndef XRELAY_DNNL_ALLOW_REFERENCE
  if (xd_slow(pd, &impl)) {
    snprintf(error, size,
             "xrelay_model_create: %s would run oneDNN's reference implementation '%s'; "
             "build with -DXRELAY_DNNL_ALLOW_REFERENCE to allow it",
             what, impl);
    dnnl_primitive_desc_destroy(pd);
    return 1;
  }
#endif
  (void)impl;
  dnnl_status_t status = dnnl_primitive_create(&s->prims[k], pd);
  dnnl_primitive_desc_destroy(pd);
  XD_TRY(status, "creating the primitive");
  return 0;
}

/* A relu post-op's algorithm: none (xrelay's NaN-keeping pass after the primitive runs it),
 * or, built with -DXRELAY_DNNL_RELU_POST_OP, oneDNN's relu (faster; NaN become 0). */
#ifdef XRELAY_DNNL_RELU_POST_OP
#define XD_RELU_POST_OP dnnl_eltwise_relu
#else
#define XD_RELU_POST_OP dnnl_alg_kind_undef
#endif

/* Attributes: a user-managed scratchpad, a sum post-op if `sum`, then eltwise `alg` (its
 * result times `scale`). */
static inline dnnl_status_t xd_attr(dnnl_primitive_attr_t *attr, int sum, dnnl_alg_kind_t alg,
                                    float scale) {
  dnnl_post_ops_t post = NULL;
  dnnl_status_t status = dnnl_primitive_attr_create(attr);
  if (status == dnnl_success) {
    status = dnnl_primitive_attr_set_scratchpad_mode(*attr, dnnl_scratchpad_mode_user);
  }
  if (status == dnnl_success && (sum || alg != dnnl_alg_kind_undef)) {
    status = dnnl_post_ops_create(&post);
    if (status == dnnl_success && sum) {
      status = dnnl_post_ops_append_sum(post, 1.0f);
    }
    if (status == dnnl_success && alg != dnnl_alg_kind_undef) {
      status = dnnl_post_ops_append_eltwise(post, scale, alg, 0.0f, 0.0f);
    }
    if (status == dnnl_success) {
      status = dnnl_primitive_attr_set_post_ops(*attr, post);
    }
  }
  if (post != NULL) {
    dnnl_post_ops_destroy(post);
  }
  return status;
}

/* Primitive k of op descriptor `desc`, with a sum post-op if `sum`, then eltwise `alg` times
 * `scale`. */
static inline int xd_primitive(xd_state *s, int k, const_dnnl_op_desc_t desc, int sum,
                               dnnl_alg_kind_t alg, float scale, const char *what, char *error,
                               size_t size) {
  dnnl_primitive_attr_t attr = NULL;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_status_t status = xd_attr(&attr, sum, alg, scale);
  if (status == dnnl_success) {
    status = dnnl_primitive_desc_create(&pd, desc, attr, s->engine, NULL);
  }
  if (attr != NULL) {
    dnnl_primitive_attr_destroy(attr);
  }
  XD_TRY(status, "creating the primitive descriptor");
  return xd_adopt(s, k, pd, what, error, size);
}

/* Primitive k: a reorder from `src` to `dst`. */
static inline int xd_reorder(xd_state *s, int k, const dnnl_memory_desc_t *src,
                      const dnnl_memory_desc_t *dst, const char *what, char *error,
                      size_t size) {
  dnnl_primitive_attr_t attr = NULL;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_status_t status = dnnl_primitive_attr_create(&attr);
  if (status == dnnl_success) {
    status = dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user);
  }
  if (status == dnnl_success) {
    status = dnnl_reorder_primitive_desc_create(&pd, src, s->engine, dst, s->engine, attr);
  }
  if (attr != NULL) {
    dnnl_primitive_attr_destroy(attr);
  }
  XD_TRY(status, "creating the reorder");
  return xd_adopt(s, k, pd, what, error, size);
}

/* Whether `a` and `b` ask for the same buffers: source, weights, bias, destination and
 * scratchpad descriptors all equal (or absent from both). */
static inline int xd_same_buffers(const_dnnl_primitive_desc_t a, const_dnnl_primitive_desc_t b) {
  static const dnnl_query_t queries[] = {dnnl_query_src_md, dnnl_query_weights_md,
                                         dnnl_query_weights_md, dnnl_query_dst_md,
                                         dnnl_query_scratchpad_md};
  static const int indices[] = {0, 0, 1, 0, 0};
  for (int q = 0; q < 5; ++q) {
    const dnnl_memory_desc_t *x = dnnl_primitive_desc_query_md(a, queries[q], indices[q]);
    const dnnl_memory_desc_t *y = dnnl_primitive_desc_query_md(b, queries[q], indices[q]);
    if ((x == NULL) != (y == NULL) || (x != NULL && !dnnl_memory_desc_equal(x, y))) {
      return 0;
    }
  }
  return 1;
}

/* The first of oneDNN's implementations of `desc` with `attr` whose name is `name` (`whole`)
 * or contains it, and (unless `like` is NULL) asks for the same buffers as `like`; NULL if
 * none. The caller destroys it. */
static inline dnnl_primitive_desc_t xd_find_impl(const_dnnl_op_desc_t desc,
                                                 const_dnnl_primitive_attr_t attr,
                                                 dnnl_engine_t engine, const char *name,
                                                 int whole, const_dnnl_primitive_desc_t like) {
  dnnl_primitive_desc_t found = NULL;
  dnnl_primitive_desc_iterator_t it = NULL;
  if (dnnl_primitive_desc_iterator_create(&it, desc, attr, engine, NULL) != dnnl_success) {
    return NULL;
  }
  dnnl_status_t step = dnnl_success;
  for (; step == dnnl_success && found == NULL; step = dnnl_primitive_desc_iterator_next(it)) {
    dnnl_primitive_desc_t candidate = dnnl_primitive_desc_iterator_fetch(it);
    const char *impl = NULL;
    if (candidate != NULL &&
        dnnl_primitive_desc_query(candidate, dnnl_query_impl_info_str, 0, &impl) ==
            dnnl_success &&
        impl != NULL && (whole ? strcmp(impl, name) == 0 : strstr(impl, name) != NULL) &&
        (like == NULL || xd_same_buffers(candidate, like))) {
      found = candidate;
    } else if (candidate != NULL) {
      dnnl_primitive_desc_destroy(candidate);
    }
  }
  dnnl_primitive_desc_iterator_destroy(it);
  return found;
}

/* Primitive k again with oneDNN's relu post-op after its sum (if `sum`), into `s->fused[k]`:
 * run instead of primitive k and xrelay's relu pass when the run's inputs are all finite
 * (`s->finite`), where oneDNN's relu and relay's agree (NaN is their one difference). Kept
 * only when it is the same implementation on the same buffers' layouts and scratchpad, so
 * every memory object (and Winograd view) of primitive k serves it; else NULL, silently:
 * the runs then keep the relu pass. */
static inline void xd_fuse_relu(xd_state *s, int k, int sum) {
  const_dnnl_primitive_desc_t plain = NULL;
  const_dnnl_op_desc_t desc = NULL;
  const char *impl = NULL;
  dnnl_primitive_attr_t attr = NULL;
  if (dnnl_primitive_get_primitive_desc(s->prims[k], &plain) != dnnl_success ||
      dnnl_primitive_desc_query(plain, dnnl_query_op_d, 0, &desc) != dnnl_success ||
      desc == NULL || xd_slow(plain, &impl) ||
      xd_attr(&attr, sum, dnnl_eltwise_relu, 1.0f) != dnnl_success) {
    if (attr != NULL) {
      dnnl_primitive_attr_destroy(attr);
    }
    return;
  }
  dnnl_primitive_desc_t chosen = xd_find_impl(desc, attr, s->engine, impl, 1, plain);
  dnnl_primitive_attr_destroy(attr);
  if (chosen != NULL) {
    if (dnnl_primitive_create(&s->fused[k], chosen) != dnnl_success) {
      s->fused[k] = NULL;
    }
    dnnl_primitive_desc_destroy(chosen);
  }
}

"""
"""The guard, includes, state and primitive creation."""

HELPERS = PRIMITIVES + BUFFERS + WINOGRAD + RUN + NUMERICS + "#endif\n"
"""The helpers, once per translation unit (an include guard): each dnnl function's text
starts with them, so functions can be split across units in any way."""
