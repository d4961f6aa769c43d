/* Reads the kernel timers of a profiling build (the build option `profile`) from C: links
 * against the library, runs one instance RUNS times on zeroed inputs, then prints every
 * entry as
 *     entry <index> <name> <calls> <nanoseconds>
 * checks the out-of-range answers and that xrelay_profile_reset zeroes every counter.
 * Exit status 0 on success, 1 with a message on stderr otherwise. */
#include <stdio.h>
#include <stdlib.h>

#include "xrelay_runtime.h"

#define RUNS 3

static size_t bytes_of(const xrelay_tensor_info *info) {
  size_t n = xrelay_dtype_size(info->dtype);
  for (int32_t d = 0; d < info->ndim; ++d) {
    n *= (size_t)info->shape[d];
  }
  return n ? n : 1;
}

int main(void) {
  const int32_t ins = xrelay_num_inputs(), outs = xrelay_num_outputs();
  const void **inputs = calloc((size_t)ins + 1, sizeof *inputs);
  void **outputs = calloc((size_t)outs + 1, sizeof *outputs);
  for (int32_t i = 0; i < ins; ++i) {
    inputs[i] = calloc(1, bytes_of(xrelay_input_info(i)));
  }
  for (int32_t i = 0; i < outs; ++i) {
    outputs[i] = calloc(1, bytes_of(xrelay_output_info(i)));
  }
  xrelay_model *model = xrelay_model_create();
  int status = model == NULL;
  for (int run = 0; run < RUNS && status == 0; ++run) {
    status = xrelay_model_run(model, inputs, outputs) != 0;
  }
  if (status != 0) {
    fprintf(stderr, "error: %s\n", xrelay_last_error());
  }
  const int32_t count = xrelay_profile_count();
  for (int32_t index = 0; index < count && status == 0; ++index) {
    uint64_t calls = 0, nanoseconds = 0;
    if (xrelay_profile_read(index, &calls, &nanoseconds) != 0) {
      fprintf(stderr, "error: xrelay_profile_read(%d) failed\n", (int)index);
      status = 1;
    }
    printf("entry %d %s %llu %llu\n", (int)index, xrelay_profile_name(index),
           (unsigned long long)calls, (unsigned long long)nanoseconds);
  }
  if (xrelay_profile_name(count) != NULL || xrelay_profile_name(-1) != NULL ||
      xrelay_profile_read(count, NULL, NULL) != 1 || xrelay_profile_read(-1, NULL, NULL) != 1) {
    fprintf(stderr, "error: out-of-range profile entries answered\n");
    status = 1;
  }
  xrelay_profile_reset();
  for (int32_t index = 0; index < count; ++index) {
    uint64_t calls = 1, nanoseconds = 1;
    xrelay_profile_read(index, &calls, &nanoseconds);
    if (calls != 0 || nanoseconds != 0) {
      fprintf(stderr, "error: entry %d not reset\n", (int)index);
      status = 1;
    }
  }
  xrelay_model_destroy(model);
  for (int32_t i = 0; i < ins; ++i) {
    free((void *)inputs[i]);
  }
  for (int32_t i = 0; i < outs; ++i) {
    free(outputs[i]);
  }
  free(inputs);
  free(outputs);
  return status;
}
