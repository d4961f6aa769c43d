/// --mlir-timing prints MLIR's execution time report on stderr: Parser, Verifier, the passes
/// (a named pipeline's passes nested under it, a pass run twice on two rows), Output, Rest, Total.
// RUN: xrelay-opt %s -cse -p 'optimize{opt-level=1 fuse=false}' -cse --mlir-timing 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=TREE
// TREE:      {{\A}}===-------------------------------------------------------------------------==={{$}}
// TREE-NEXT: {{^}}                         ... Execution time report ...{{$}}
// TREE-NEXT: {{^}}===-------------------------------------------------------------------------==={{$}}
// TREE-NEXT: {{^}}  Total Execution Time: {{[0-9]+\.[0-9][0-9][0-9][0-9]}} seconds{{$}}
// TREE-EMPTY:
// TREE-NEXT: {{^}}  ----Wall Time----  ----Name----{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Parser{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Verifier{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  CSE{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Optimize{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    SimplifyInference{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    SimplifyExpr{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    FoldScaleAxis{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    SimplifyExpr{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    DeadCodeElimination{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  CSE{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Output{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Rest{{$}}
// TREE-NEXT: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \(100\.0%\)}}  Total{{$}}
// TREE-NOT:  {{.}}

/// --mlir-timing-display=list: one row per name, merged, by time; then Rest and Total.
// RUN: xrelay-opt %s -cse -cse --mlir-timing --mlir-timing-display=list 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=LIST
// LIST:      ----Wall Time----  ----Name----
// LIST-COUNT-4: {{^ +[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)  (Parser|Verifier|CSE|Output)$}}
// LIST-NEXT: Rest
// LIST-NEXT: Total
// LIST-NOT:  {{.}}

/// --time-passes stays TVM's pass profile; the output is unchanged by either.
// RUN: xrelay-opt %s -cse --time-passes --mlir-timing 2>&1 >/dev/null | filecheck %s --check-prefix=BOTH
// BOTH: {{\A}}pipeline: {{[0-9]+}}us
// BOTH: Execution time report
// RUN: xrelay-opt %s -cse --mlir-timing 2>/dev/null | filecheck %s --check-prefix=OUT
// OUT: func.func @main

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.negative %a : tensor<4xf32>
  %1 = relay.negative %a : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
