/// --mlir-pass-statistics prints MLIR's pass statistics report on stderr: each pass as it ran,
/// its counters below it as `(S) <value> <name> - <description>`, values right-aligned.
// RUN: xrelay-opt %s -fold-constant -eliminate-common-subexpr -dead-code-elimination -cse \
// RUN:   --mlir-pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=PIPE
// PIPE:      {{\A}}===-------------------------------------------------------------------------==={{$}}
// PIPE-NEXT: {{^}}                         ... Pass statistics report ...{{$}}
// PIPE-NEXT: {{^}}===-------------------------------------------------------------------------==={{$}}
// PIPE-NEXT: {{^}}FoldConstant{{$}}
// PIPE-NEXT: {{^}}  (S) 1 num-folded - Number of folds applied{{$}}
// PIPE-NEXT: {{^}}EliminateCommonSubexpr{{$}}
// PIPE-NEXT: {{^}}  (S) 1 num-erased - Number of operations erased{{$}}
// PIPE-NEXT: {{^}}DeadCodeElimination{{$}}
// PIPE-NEXT: {{^}}  (S) 1 num-erased - Number of operations erased{{$}}
// PIPE-NEXT: {{^}}  (S) 1 num-functions-removed - Number of unused functions removed{{$}}
// PIPE-NEXT: {{^}}CSE{{$}}
// PIPE-NEXT: {{^}}  (S) 0 num-erased - Number of operations erased{{$}}
// PIPE-NOT:  {{.}}

/// Named pipelines nest their passes; the list display merges by name, sorted, counters summed.
// RUN: xrelay-opt %s -p 'optimize{opt-level=3},fold-constant' --mlir-pass-statistics 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=NESTED
// NESTED:      Optimize
// NESTED-NEXT:   SimplifyInference
// NESTED-NEXT:   DynamicToStatic
// NESTED-NEXT:     (S) 0 num-replaced - Dynamic ops made static
// NESTED-NEXT:   EliminateCommonSubexpr
// NESTED-NEXT:     (S) 1 num-erased - Number of operations erased
// NESTED:        FuseOps
// NESTED-NEXT:     (S) 1 num-groups - Number of fused functions made
// NESTED-NEXT: FoldConstant
// NESTED-NEXT:   (S) 0 num-folded - Number of folds applied
// RUN: xrelay-opt %s -p 'optimize{opt-level=3},fold-constant' --mlir-pass-statistics \
// RUN:   --mlir-pass-statistics-display=list 2>&1 >/dev/null | filecheck %s --check-prefix=LIST
// LIST:      Pass statistics report
// LIST:      ===
// LIST-NEXT: DeadCodeElimination
// LIST-NEXT:   (S) 1 num-erased - Number of operations erased
// LIST-NEXT:   (S) 1 num-functions-removed - Number of unused functions removed
// LIST-NEXT: DynamicToStatic
// LIST-NEXT:   (S) 0 num-replaced
// LIST-NEXT: EliminateCommonSubexpr
// LIST-NEXT:   (S) 1 num-erased
// LIST-NEXT: FoldConstant
// LIST-NEXT:   (S) 1 num-folded
// LIST-NEXT: FuseOps
// LIST-NEXT:   (S) 1 num-groups - Number of fused functions made{{$}}
// LIST-NOT:  {{.}}

/// BYOC passes count composites and partitions.
// RUN: xrelay-opt %s -p 'partition-for{target=accel}' --mlir-pass-statistics 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=PARTS
// PARTS:      MergeComposite
// PARTS-NEXT:   (S) 0 num-composites - Number of composites made
// PARTS:      PartitionGraph
// PARTS-NEXT:   (S) 2 num-partitions - Number of functions lifted for a compiler

func.func private @unused(%a: tensor<4xf32>) -> tensor<4xf32> {
  func.return %a : tensor<4xf32>
}

func.func @main(%a: tensor<1x4xf32>, %w: tensor<8x4xf32>) -> tensor<1x8xf32> {
  %c = relay.constant dense<1.0> : tensor<1x8xf32>
  %d = relay.add %c, %c : tensor<1x8xf32>
  %0 = relay.nn.dense %a, %w : (tensor<1x4xf32>, tensor<8x4xf32>) -> tensor<1x8xf32>
  %1 = relay.nn.dense %a, %w : (tensor<1x4xf32>, tensor<8x4xf32>) -> tensor<1x8xf32>
  %2 = relay.nn.relu %0 : tensor<1x8xf32>
  %3 = relay.add %2, %d : tensor<1x8xf32>
  %dead = relay.exp %1 : tensor<1x8xf32>
  func.return %3 : tensor<1x8xf32>
}
