/// --time-passes prints TVM's timing tree on stderr after the run: one line per pass
/// invocation, `name: <total>us [<self>us] (<% of total>%; <% of parent>%)`, children indented
/// with a tab; dependencies a pass requires show up where they ran.
// RUN: xrelay-opt %s %test_passes -p test-needs-tag,cse,dce --time-passes 2>&1 >/dev/null \
// RUN:   | filecheck %s
/// The output itself is unchanged.
// RUN: xrelay-opt %s %test_passes -p cse --time-passes 2>/dev/null | filecheck %s --check-prefix=OUT

// CHECK:      {{\A}}pipeline: {{[0-9]+}}us [{{[0-9]+}}us] (100.00%; 100.00%){{$}}
// CHECK-NEXT: {{^}}	TestTag: {{[0-9]+}}us [{{[0-9]+}}us] ({{[0-9]+\.[0-9][0-9]}}%; {{[0-9]+\.[0-9][0-9]}}%){{$}}
// CHECK-NEXT: {{^}}	TestNeedsTag: {{[0-9]+}}us [{{[0-9]+}}us] ({{[0-9.]+}}%; {{[0-9.]+}}%){{$}}
// CHECK-NEXT: {{^}}	CSE: {{[0-9]+}}us
// CHECK-NEXT: {{^}}	DCE: {{[0-9]+}}us [{{[0-9]+}}us] ({{[0-9.]+}}%; {{[0-9.]+}}%){{$}}
// CHECK-NOT:  {{.}}

// OUT: relay.multiply %0, %0
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.add %a, %b : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
