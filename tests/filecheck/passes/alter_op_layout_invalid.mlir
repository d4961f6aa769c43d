/// A hook whose replacement has another type than the op is an error naming the op and the hook.
// RUN: echo 'from xrelay import relay; from xrelay.passes.alter_op_layout import register_alter_op_layout as r; r("nn.relu", lambda op, i: relay.nn.batch_flatten(i[0]))' > %t.hooks.py
// RUN: xrelay-opt %s --load-pass-plugin %t.hooks.py -p alter-op-layout --split-input-file --verify-diagnostics

func.func @flattened(%x: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'relay.nn.relu' op alter_op_layout hook '<lambda>' returned tensor<1x288xf32>, expected the op's type tensor<1x8x6x6xf32> (in pass 'alter-op-layout')}}
  %0 = relay.nn.relu %x : tensor<1x8x6x6xf32>
  func.return %0 : tensor<1x8x6x6xf32>
}
