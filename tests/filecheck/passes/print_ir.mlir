// RUN: xrelay-opt %s -p 'print-ir{header=dump}' 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// RUN: xrelay-opt %s -p print-ir 2>/dev/null | filecheck %s --check-prefix=SAME
// RUN: xrelay-opt %s -p print-ir,cse 2>&1 >/dev/null | filecheck %s --check-prefix=ORDER

/// print-ir writes `PrintIR(<header>):` and the module to stderr.
// DUMP:      {{\A}}PrintIR(dump):
// DUMP-NEXT: builtin.module {
// DUMP-NEXT:   func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
// DUMP-NEXT:     %0 = relay.add %a, %a : tensor<4xf32>
// DUMP-NEXT:     %1 = relay.add %a, %a : tensor<4xf32>

/// It changes nothing: the output is the input.
// SAME:      func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
// SAME-NEXT:   %0 = relay.add %a, %a : tensor<4xf32>
// SAME-NEXT:   %1 = relay.add %a, %a : tensor<4xf32>
// SAME-NEXT:   %2 = relay.multiply %0, %1 : tensor<4xf32>
// SAME-NEXT:   func.return %2 : tensor<4xf32>

/// It prints the module as it is where it stands in the pipeline (here, before cse).
// ORDER:      {{\A}}PrintIR():
// ORDER-COUNT-2: relay.add
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %a : tensor<4xf32>
  %1 = relay.add %a, %a : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
