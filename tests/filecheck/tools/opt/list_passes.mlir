// RUN: xrelay-opt --list-passes | filecheck %s
// RUN: xrelay-opt --list-targets | filecheck %s --check-prefix=TARGETS
// RUN: xrelay-opt --version | filecheck %s --check-prefix=VERSION

/// Every registered pass with a one-line description.
// CHECK: canonicalize: Fold ops and apply canonicalization patterns
// CHECK: cse: Eliminate common subexpressions
// CHECK: dce: Remove unused side-effect-free ops
// TARGETS: mlir
// VERSION: xrelay-opt (xrelay {{[0-9.]+}}, xdsl 0.74.0)
