"""The C helpers of Winograd convolutions in a dnnl function (part of `runtime.HELPERS`).

oneDNN 2.6 runs Winograd only on its blocked layouts (`nChw16c`); xrelay's
activations are NHWC. `xd_winograd` makes a candidate convolution's Winograd
primitive (when oneDNN has a fast kernel for it) and its views of the
user's source and destination: where the blocked layout puts every element
at the same offset as NHWC (`xd_same_bytes`: 16 channels, one block), the
view is a memory object over the user's bytes, pointed there at each run
(`xd_enter`); otherwise it owns a buffer (`xd_own`), filled and emptied by
jit reorders (`xd_fast_reorder`, `xd_move`) around the convolution, the
destination also filled first for a sum post-op. `xd_exec` (in
`runtime_buffers.RUN`) swaps the views in.
"""

from __future__ import annotations

WINOGRAD = r"""
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

/* Whether the blocked descriptor `inner` puts each element of the plain `user` (same dims)
 * at the same offset: at most one inner block, spanning its whole dim (e.g. nChw16c of 16
 * channels holds NHWC's bytes). */
static inline int xd_same_bytes(const dnnl_memory_desc_t *user, const dnnl_memory_desc_t *inner) {
  if (user->format_kind != dnnl_blocked || inner->format_kind != dnnl_blocked ||
      user->ndims != inner->ndims || user->data_type != inner->data_type ||
      user->offset0 != 0 || inner->offset0 != 0 || inner->extra.flags != 0) {
    return 0;
  }
  const dnnl_blocking_desc_t *plain = &user->format_desc.blocking;
  const dnnl_blocking_desc_t *blocked = &inner->format_desc.blocking;
  if (plain->inner_nblks != 0 || blocked->inner_nblks > 1) {
    return 0;
  }
  for (int d = 0; d < user->ndims; ++d) {
    dnnl_dim_t step = blocked->strides[d];
    if (user->dims[d] != inner->dims[d] || inner->padded_dims[d] != inner->dims[d]) {
      return 0;
    }
    if (blocked->inner_nblks == 1 && blocked->inner_idxs[0] == d) {
      if (blocked->inner_blks[0] != inner->dims[d]) {
        return 0;
      }
      step = 1; /* the whole dim is one block: its elements are consecutive */
    }
    if (user->dims[d] > 1 && plain->strides[d] != step) {
      return 0;
    }
  }
  return 1;
}

/* The Winograd view of user buffer `user` in `inner`: none needed over the same bytes (memory
 * `*view` without a handle, pointed at the user's buffer per run); else an owned buffer and
 * the reorders `in` (user -> view, if `in` is not NULL) and `out` (view -> user, if not NULL). */
static inline dnnl_status_t xd_view(xd_state *s, const dnnl_memory_desc_t *user,
                                    const dnnl_memory_desc_t *inner, int *alias,
                                    dnnl_memory_t *view, void **buffer, dnnl_primitive_t *in,
                                    dnnl_primitive_t *out) {
  *alias = xd_same_bytes(user, inner);
  if (*alias) {
    return dnnl_memory_create(view, inner, s->engine, NULL);
  }
  dnnl_status_t status = dnnl_success;
  if (in != NULL) {
    status = xd_fast_reorder(s, in, user, inner);
  }
  if (status == dnnl_success && out != NULL) {
    status = xd_fast_reorder(s, out, inner, user);
  }
  if (status == dnnl_success) {
    status = xd_own(s, inner, buffer, view);
  }
  return status;
}

/* The primitive descriptor of `desc` with `attr` whose implementation's name contains
 * `prefer` (e.g. "wino_4x3"), else (and always with -DXRELAY_DNNL_WINOGRAD_DEFAULT) oneDNN's
 * first choice. */
static inline dnnl_status_t xd_preferred(dnnl_primitive_desc_t *pd, const_dnnl_op_desc_t desc,
                                         const_dnnl_primitive_attr_t attr, dnnl_engine_t engine,
                                         const char *prefer) {
#ifdef XRELAY_DNNL_WINOGRAD_DEFAULT
  (void)prefer;
  return dnnl_primitive_desc_create(pd, desc, attr, engine, NULL);
#endif
  *pd = xd_find_impl(desc, attr, engine, prefer, 0, NULL);
  return *pd != NULL ? dnnl_success : dnnl_primitive_desc_create(pd, desc, attr, engine, NULL);
}

/* Unless -DXRELAY_DNNL_NO_WINOGRAD: primitive k as the Winograd convolution `desc`
 * (`described`: its status) on oneDNN's blocked layouts, in the kernel named by `one` when
 * primitives are made for one thread, by `many` for more (where oneDNN has it), over the
 * user's `src` and `dst` where they hold the same bytes, else between reorders from `src`
 * and to `dst` (and of `dst` in first, for a sum post-op). 0 if made; nonzero, nothing kept,
 * where oneDNN has no fast Winograd kernel for it (the caller makes the direct one). */
static inline int xd_winograd(xd_state *s, int k, dnnl_status_t described,
                              const_dnnl_op_desc_t desc, const char *one, const char *many,
                              int sum, dnnl_alg_kind_t alg, float scale,
                              const dnnl_memory_desc_t *src, const dnnl_memory_desc_t *dst) {
  xd_wino *w = &s->wino[k];
  dnnl_primitive_attr_t attr = NULL;
  dnnl_primitive_desc_t pd = NULL;
  const char *impl = NULL;
  dnnl_status_t status = described;
  if (status == dnnl_success) {
    status = xd_attr(&attr, sum, alg, scale);
  }
  if (status == dnnl_success) {
    status = xd_preferred(&pd, desc, attr, s->engine, xd_max_threads() > 1 ? many : one);
  }
  if (attr != NULL) {
    dnnl_primitive_attr_destroy(attr);
  }
  if (status == dnnl_success && xd_slow(pd, &impl)) {
    status = dnnl_unimplemented;
  }
  if (status == dnnl_success) {
    const dnnl_memory_desc_t *inner = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
    status = xd_view(s, src, inner, &w->src_alias, &w->src, &w->src_buffer, &w->in, NULL);
  }
  if (status == dnnl_success) {
    const dnnl_memory_desc_t *inner = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
    status = xd_view(s, dst, inner, &w->dst_alias, &w->dst, &w->dst_buffer,
                     sum ? &w->back : NULL, &w->out);
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
  w->on = 1;
  return 0;
}

/* Reorder `from` into `to` with primitive `reorder`. */
static inline dnnl_status_t xd_move(xd_state *s, dnnl_primitive_t reorder, dnnl_memory_t from,
                                    dnnl_memory_t to) {
  dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  return dnnl_primitive_execute(reorder, s->stream, 2, args);
}

/* `view` over the bytes of `user` (an alias), or `user` reordered into it by `reorder`. */
static inline dnnl_status_t xd_enter(xd_state *s, int alias, dnnl_primitive_t reorder,
                                     dnnl_memory_t user, dnnl_memory_t view) {
  if (alias) {
    void *handle = NULL;
    dnnl_status_t status = dnnl_memory_get_data_handle(user, &handle);
    return status == dnnl_success ? dnnl_memory_set_data_handle(view, handle) : status;
  }
  return reorder != NULL ? xd_move(s, reorder, user, view) : dnnl_success;
}
"""
"""The Winograd helpers (after `runtime_buffers.BUFFERS`, before `runtime_buffers.RUN`)."""
