// RUN: not xrelay-opt %s -p 'partition-for{target=npu}' 2>&1 | filecheck %s
// RUN: not xrelay-opt %s -p 'partition-for' 2>&1 | filecheck %s --check-prefix=NOTARGET

/// An unknown target is named with the known ones, as one line, exit 1.
// CHECK: error: bad options for pass 'partition-for': unknown target 'npu': no op predicates or pattern table are registered for it (known targets: accel, dnnl{{(, .*)?}})
// NOTARGET: error: bad options for pass 'partition-for': partition-for needs a target, e.g. partition-for{target=accel}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
