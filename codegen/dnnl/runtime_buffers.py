"""The C helpers for a dnnl function's buffers and runs (part of `runtime.HELPERS`).

Memory objects over the buffers the plan placed (`xd_memory`, checking
oneDNN's size for each), weights reordered into the layout a primitive chose
(`xd_weights`, or per run with `xd_weights_reorder`), one scratchpad for all
of a function's primitives (`xd_scratchpad`) in `BUFFERS`; what each run calls
in `RUN`: `xd_set`, `xd_exec` (a Winograd convolution on its views,
`runtime_winograd.py`), `xd_check`.
"""

from __future__ import annotations

BUFFERS = r"""
/* The descriptor primitive k wants for its `index`-th `query` buffer (e.g. its weights). */
static inline const dnnl_memory_desc_t *xd_query(xd_state *s, int k, dnnl_query_t query,
                                                 int index) {
  const_dnnl_primitive_desc_t pd = NULL;
  if (dnnl_primitive_get_primitive_desc(s->prims[k], &pd) != dnnl_success) {
    return NULL;
  }
  return dnnl_primitive_desc_query_md(pd, query, index);
}

/* Memory m: primitive k's `index`-th `query` buffer (or `md` if not NULL) at `handle` (NULL:
 * set per run), `bytes` long. */
static inline int xd_memory(xd_state *s, int m, int k, dnnl_query_t query, int index,
                     const dnnl_memory_desc_t *md, const void *handle, size_t bytes,
                     const char *what, char *error, size_t size) {
  if (md == NULL) {
    md = xd_query(s, k, query, index);
  }
  if (md == NULL) {
    return xd_fail(error, size, what, "describing a buffer", dnnl_runtime_error);
  }
  if (dnnl_memory_desc_get_size(md) != bytes) {
    snprintf(error, size, "xrelay_model_create: %s: oneDNN wants %zu bytes for a %zu-byte buffer",
             what, dnnl_memory_desc_get_size(md), bytes);
    return 1;
  }
  XD_TRY(dnnl_memory_create(&s->mems[m], md, s->engine, (void *)handle),
         "creating a memory object");
  return 0;
}

/* Memory m: primitive k's weights in the layout it chose, in owned buffer b; the constant
 * `data` (laid out as `user`) reordered into it once, now. */
static inline int xd_weights(xd_state *s, int m, int k, int b, const dnnl_memory_desc_t *user,
                      const void *data, const char *what, char *error, size_t size) {
  const dnnl_memory_desc_t *md = xd_query(s, k, dnnl_query_weights_md, 0);
  if (md == NULL) {
    return xd_fail(error, size, what, "describing the weights", dnnl_runtime_error);
  }
  size_t bytes = dnnl_memory_desc_get_size(md);
  s->owned[b] = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
  if (s->owned[b] == NULL) {
    return xd_fail(error, size, what, "allocating the weights", dnnl_out_of_memory);
  }
  XD_TRY(dnnl_memory_create(&s->mems[m], md, s->engine, s->owned[b]),
         "creating a memory object");
  if (data == NULL) {
    return 0;
  }
  dnnl_memory_t from = NULL;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_primitive_t reorder = NULL;
  dnnl_status_t status = dnnl_memory_create(&from, user, s->engine, (void *)data);
  if (status == dnnl_success) {
    status = dnnl_reorder_primitive_desc_create(&pd, user, s->engine, md, s->engine, NULL);
  }
  if (status == dnnl_success) {
    status = dnnl_primitive_create(&reorder, pd);
  }
  if (status == dnnl_success) {
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, s->mems[m]}};
    status = dnnl_primitive_execute(reorder, s->stream, 2, args);
  }
  if (status == dnnl_success) {
    status = dnnl_stream_wait(s->stream);
  }
  if (reorder != NULL) {
    dnnl_primitive_destroy(reorder);
  }
  if (pd != NULL) {
    dnnl_primitive_desc_destroy(pd);
  }
  if (from != NULL) {
    dnnl_memory_destroy(from);
  }
  XD_TRY(status, "reordering the weights");
  return 0;
}

/* Primitive r reorders weights given per run (memory u, laid out as `user`) into the layout
 * primitive k chose (memory m). */
static inline int xd_weights_reorder(xd_state *s, int r, int u, int k,
                                     const dnnl_memory_desc_t *user, const char *what,
                                     char *error, size_t size) {
  const dnnl_memory_desc_t *md = xd_query(s, k, dnnl_query_weights_md, 0);
  if (md == NULL) {
    return xd_fail(error, size, what, "describing the weights", dnnl_runtime_error);
  }
  if (xd_reorder(s, r, user, md, what, error, size)) {
    return 1;
  }
  XD_TRY(dnnl_memory_create(&s->mems[u], user, s->engine, NULL), "creating a memory object");
  return 0;
}

/* One scratchpad buffer, the largest any primitive needs, and each one's view of it. */
static inline int xd_scratchpad(xd_state *s, char *error, size_t size) {
  static const char what[] = "dnnl";
  size_t largest = 0;
  for (int k = 0; k < s->nprims; ++k) {
    const dnnl_memory_desc_t *md = xd_query(s, k, dnnl_query_scratchpad_md, 0);
    size_t bytes = md == NULL ? 0 : dnnl_memory_desc_get_size(md);
    largest = bytes > largest ? bytes : largest;
  }
  if (largest == 0) {
    return 0;
  }
  s->scratchpad = aligned_alloc(64, (largest + 63) / 64 * 64);
  if (s->scratchpad == NULL) {
    return xd_fail(error, size, what, "allocating the scratchpad", dnnl_out_of_memory);
  }
  for (int k = 0; k < s->nprims; ++k) {
    const dnnl_memory_desc_t *md = xd_query(s, k, dnnl_query_scratchpad_md, 0);
    if (md != NULL && dnnl_memory_desc_get_size(md) > 0) {
      XD_TRY(dnnl_memory_create(&s->scratch[k], md, s->engine, s->scratchpad),
             "creating the scratchpad");
    }
  }
  return 0;
}
"""
"""Memory objects, weights and the scratchpad (after `runtime.PRIMITIVES`)."""

RUN = r"""
/* Whether primitive k runs with oneDNN's relu post-op this run (`xd_fuse_relu`). */
static inline int xd_fused(const xd_state *s, int k) {
  return s->finite && s->fused[k] != NULL;
}

/* Point memory m at a caller's buffer for this run. */
static inline void xd_set(xd_state *s, int m, const void *pointer, const char *what) {
  if (s->status == dnnl_success) {
    dnnl_status_t status = dnnl_memory_set_data_handle(s->mems[m], (void *)pointer);
    if (status != dnnl_success) {
      s->status = status;
      s->failed = what;
    }
  }
}

/* Run primitive k on `args` (one spare entry for its scratchpad); a Winograd convolution on
 * its blocked views of its src and dst. */
static inline void xd_exec(xd_state *s, int k, dnnl_exec_arg_t *args, int nargs, const char *what) {
  if (s->status != dnnl_success) {
    return;
  }
  if (s->scratch[k] != NULL) {
    args[nargs].arg = DNNL_ARG_SCRATCHPAD;
    args[nargs].memory = s->scratch[k];
    ++nargs;
  }
  xd_wino *w = &s->wino[k];
  dnnl_status_t status = dnnl_success;
  dnnl_memory_t dst = NULL;
  for (int i = 0; w->on && i < nargs && status == dnnl_success; ++i) {
    if (args[i].arg == DNNL_ARG_SRC) {
      status = xd_enter(s, w->src_alias, w->in, args[i].memory, w->src);
      args[i].memory = w->src;
    } else if (args[i].arg == DNNL_ARG_DST) {
      dst = args[i].memory;
      status = xd_enter(s, w->dst_alias, w->back, dst, w->dst);
      args[i].memory = w->dst;
    }
  }
  if (status == dnnl_success) {
    status = dnnl_primitive_execute(xd_fused(s, k) ? s->fused[k] : s->prims[k], s->stream,
                                    nargs, args);
  }
  if (status == dnnl_success && w->on && !w->dst_alias) {
    status = xd_move(s, w->out, w->dst, dst);
  }
  if (status != dnnl_success) {
    s->status = status;
    s->failed = what;
  }
}

/* 0 if the last run succeeded; else 1, with the op that failed in `error`. */
static inline int xd_check(xd_state *s, char *error, size_t size) {
  if (s->status == dnnl_success) {
    s->status = dnnl_stream_wait(s->stream);
    s->failed = "dnnl";
  }
  if (s->status == dnnl_success) {
    return 0;
  }
  snprintf(error, size, "xrelay_model_run: %s: oneDNN failed (%s)", s->failed,
           xd_status_name(s->status));
  s->status = dnnl_success;
  return 1;
}
"""
"""What a run calls (after `runtime_winograd.WINOGRAD`)."""
