// RUN: echo 'from xrelay.passes.byoc_registry import register_op_attr as r; r("nn.relu", "target.boom", lambda e: 1 / 0)' > %t.boom.py
// RUN: xrelay-opt %s --load-pass-plugin %t.boom.py -p 'annotate-target{targets=boom}' --split-input-file --verify-diagnostics
// RUN: xrelay-opt %s -p 'annotate-target{targets=acel}' --split-input-file 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: xrelay-opt %s -p 'annotate-target{targets=accel,nope}' --split-input-file 2>&1 | filecheck %s --check-prefix=NOPE
// RUN: not xrelay-opt %s -p 'annotate-target' 2>&1 | filecheck %s --check-prefix=NONE

/// A target nothing is registered for takes no op (TVM's behaviour): a warning per run at
/// the module, naming the known targets and the closest one; the module is unchanged.
// UNKNOWN: annotate_target_invalid.mlir:18:1: warning: annotate-target: unknown target 'acel': no op predicates or pattern table are registered for it (known targets: {{.*}}accel{{.*}}); did you mean 'accel'? It takes no ops.
// UNKNOWN-NOT: compiler = "acel"
// UNKNOWN-NOT: Traceback
// NOPE: warning: annotate-target: unknown target 'nope'
// NOPE: relay.compiler_begin
/// No target at all is a one-line error when the pass is built.
// NONE: error: bad options for pass 'annotate-target': at least one target is required (e.g. targets=accel)

/// A support predicate that raises is a located error on the op, naming the op and the target.
func.func @raising_predicate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : tensor<4xf32>
  // expected-error@+1 {{'relay.nn.relu' op support predicate of 'nn.relu' for target 'boom' raised ZeroDivisionError: division by zero (in pass 'annotate-target')}}
  %1 = relay.nn.relu %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

/// The predicate runs inside relay.if branches too.
func.func @raising_in_branch(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    // expected-error@+1 {{'relay.nn.relu' op support predicate of 'nn.relu' for target 'boom' raised ZeroDivisionError}}
    %1 = relay.nn.relu %x : tensor<4xf32>
    relay.yield %1 : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
