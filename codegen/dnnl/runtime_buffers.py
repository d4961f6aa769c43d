"""The C helpers for a dnnl function's buffers and runs (part of `runtime.HELPERS`).

Memory objects over the buffers the plan placed (`xd_memory`, checking
oneDNN's size for each), weights reordered into the layout a primitive chose
(`xd_weights`, or per run with `xd_weights_reorder`), one scratchpad for all
of a function's primitives (`xd_scratchpad`), the Winograd wrapping of a
convolution (`xd_winograd`), and what each run calls: `xd_set`, `xd_exec`,
`xd_check`.
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

/* A reorder primitive from `from` to `to` into `*prim`, unless oneDNN has only a slow one. */
static inline dnnl_status_t xd_fast_reorder(xd_state *s, dnnl_primitive_t *prim,
                                            const dnnl_memory_desc_t *from,
                                            const dnnl_memory_desc_t *to) {
  dnnl_primitive_desc_t pd = NULL;
  const char *impl = NULL;
  dnnl_status_t status = dnnl_reorder_primitive_desc_create(&pd, from, s->engine, to, s->engine,
                                                            NULL);
  if (status == dnnl_success && xd_slow(pd, &impl)) {
    status = dnnl_unimplemented;
  }
  if (status == dnnl_success) {
    status = dnnl_primitive_create(prim, pd);
  }
  if (pd != NULL) {
    dnnl_primitive_desc_destroy(pd);
  }
  return status;
}

/* A buffer of oneDNN's size for `md`, and a memory object over it. */
static inline dnnl_status_t xd_own(xd_state *s, const dnnl_memory_desc_t *md, void **buffer,
                                   dnnl_memory_t *memory) {
  size_t bytes = dnnl_memory_desc_get_size(md);
  *buffer = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
  if (*buffer == NULL) {
    return dnnl_out_of_memory;
  }
  return dnnl_memory_create(memory, md, s->engine, *buffer);
}

/* With -DXRELAY_DNNL_WINOGRAD: primitive k as the Winograd convolution `desc` (`described`: its
 * status) on oneDNN's blocked layouts, between reorders from the user's `src` and to its `dst`
 * (and of `dst` in first, for a sum post-op). 0 if made; nonzero, nothing kept, where oneDNN
 * has no fast Winograd kernel for it (the caller makes the direct one). */
static inline int xd_winograd(xd_state *s, int k, dnnl_status_t described,
                              const_dnnl_op_desc_t desc, int sum, dnnl_alg_kind_t alg,
                              const dnnl_memory_desc_t *src, const dnnl_memory_desc_t *dst) {
  xd_wino *w = &s->wino[k];
  dnnl_primitive_attr_t attr = NULL;
  dnnl_primitive_desc_t pd = NULL;
  const char *impl = NULL;
  dnnl_status_t status = described;
  if (status == dnnl_success) {
    status = xd_attr(&attr, sum, alg);
  }
  if (status == dnnl_success) {
    status = dnnl_primitive_desc_create(&pd, desc, attr, s->engine, NULL);
  }
  if (attr != NULL) {
    dnnl_primitive_attr_destroy(attr);
  }
  if (status == dnnl_success && xd_slow(pd, &impl)) {
    status = dnnl_unimplemented;
  }
  const dnnl_memory_desc_t *inner_src = NULL, *inner_dst = NULL;
  if (status == dnnl_success) {
    inner_src = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
    inner_dst = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
    status = xd_fast_reorder(s, &w->in, src, inner_src);
  }
  if (status == dnnl_success) {
    status = xd_fast_reorder(s, &w->out, inner_dst, dst);
  }
  if (status == dnnl_success && sum) {
    status = xd_fast_reorder(s, &w->back, dst, inner_dst);
  }
  if (status == dnnl_success) {
    status = xd_own(s, inner_src, &w->src_buffer, &w->src);
  }
  if (status == dnnl_success) {
    status = xd_own(s, inner_dst, &w->dst_buffer, &w->dst);
  }
  if (status == dnnl_success) {
    status = dnnl_primitive_create(&s->prims[k], pd);
  }
  if (pd != NULL) {
    dnnl_primitive_desc_destroy(pd);
  }
  if (status != dnnl_success) {
    xd_wino_free(w);
    return 1;
  }
  return 0;
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

/* Reorder `from` into `to` with primitive `reorder`. */
static inline dnnl_status_t xd_move(xd_state *s, dnnl_primitive_t reorder, dnnl_memory_t from,
                                    dnnl_memory_t to) {
  dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  return dnnl_primitive_execute(reorder, s->stream, 2, args);
}

/* Run primitive k on `args` (one spare entry for its scratchpad); a Winograd convolution on
 * its own buffers, between its reorders. */
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
  dnnl_memory_t src = NULL, dst = NULL;
  for (int i = 0; w->in != NULL && i < nargs; ++i) {
    if (args[i].arg == DNNL_ARG_SRC) {
      src = args[i].memory;
      args[i].memory = w->src;
    } else if (args[i].arg == DNNL_ARG_DST) {
      dst = args[i].memory;
      args[i].memory = w->dst;
    }
  }
  dnnl_status_t status = dnnl_success;
  if (w->in != NULL) {
    status = xd_move(s, w->in, src, w->src);
  }
  if (status == dnnl_success && w->back != NULL) {
    status = xd_move(s, w->back, dst, w->dst);
  }
  if (status == dnnl_success) {
    status = dnnl_primitive_execute(s->prims[k], s->stream, nargs, args);
  }
  if (status == dnnl_success && w->out != NULL) {
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
"""The helpers after the state and primitive creation of `runtime.PRIMITIVES`."""
