// RUN: echo 'from xrelay.passes.byoc_registry import register_pattern_table as r; from xrelay.passes.dataflow_pattern import is_op as o, wildcard as w; r("boom", lambda: [("boom.add_relu", o("nn.relu")(o("add")(w(), w())), lambda e: e.attrs.nope)])' > %t.boom.py
// RUN: xrelay-opt %s --load-pass-plugin %t.boom.py -p 'merge-composite{pattern-table=boom}' --split-input-file --verify-diagnostics
// RUN: not xrelay-opt %s -p 'merge-composite{pattern-table=acel}' 2>&1 | filecheck %s --check-prefix=UNKNOWN

/// A pattern table that is not registered is a one-line error naming the known tables.
// UNKNOWN: error: bad options for pass 'merge-composite': no pattern table is registered for 'acel' (registered: {{.*}}accel{{.*}}dnnl{{.*}})
// UNKNOWN-NOT: Traceback

/// A check that raises is an error on the root of the match, naming the pattern.
func.func @raising_check(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %b : tensor<4xf32>
  // expected-error@+1 {{'relay.nn.relu' op check of pattern 'boom.add_relu' raised AttributeError: 'relay.nn.relu' has no attribute 'nope' (in pass 'merge-composite')}}
  %1 = relay.nn.relu %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

/// The check runs on matches inside relay.if branches too.
func.func @raising_in_branch(%a: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %1 = relay.add %a, %a : tensor<4xf32>
    // expected-error@+1 {{'relay.nn.relu' op check of pattern 'boom.add_relu' raised AttributeError}}
    %2 = relay.nn.relu %1 : tensor<4xf32>
    relay.yield %2 : tensor<4xf32>
  } else {
    relay.yield %a : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
