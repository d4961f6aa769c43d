// Every user error is one located line on stderr, then (as mlir-opt) the source line and
// a caret (`{{\A}}` anchors at the start of the output, `-NOT: {{.}}` forbids anything
// after it: no traceback, no usage text), and exit status 1.

/// A parse error names file:line:col of the offending token.
// RUN: not xrelay-opt %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// PARSE:     {{\A.*}}Inputs/malformed.mlir:2:22: error: operand expected{{$}}
// PARSE-NEXT: {{^}}  %0 = relay.exp %x, : tensor<2xf32>{{$}}
// PARSE-NEXT: {{^}}                     ^{{$}}
// PARSE-NOT: {{.}}

/// A verifier error names the op's file:line:col (its name's, as mlir-opt), quotes the line
/// with a caret under the name, then the op as a note (`--mlir-print-op-on-diagnostic=false`:
/// not).
// RUN: not xrelay-opt %S/Inputs/invalid.mlir 2>&1 | filecheck %s --check-prefixes=VERIFY,NOTE
// RUN: not xrelay-opt %S/Inputs/invalid.mlir --mlir-print-op-on-diagnostic=false 2>&1 | filecheck %s --check-prefix=VERIFY
// VERIFY:     {{\A.*}}Inputs/invalid.mlir:2:8: error: 'relay.add' op operand shapes (2) and (3) do not broadcast{{$}}
// VERIFY-NEXT: {{^}}  %0 = relay.add %x, %y : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>{{$}}
// VERIFY-NEXT: {{^}}       ^{{$}}
// NOTE-NEXT: {{^.*}}Inputs/invalid.mlir:2:8: note: see current operation: %0 = "relay.add"(%x, %y) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>{{$}}
// VERIFY-NOT: {{.}}

/// A symbol defined twice is located (at the module's first op), not `<unknown>`.
// RUN: not xrelay-opt %S/Inputs/duplicate.mlir 2>&1 | filecheck %s --check-prefix=SYMBOL
// SYMBOL:     {{\A.*}}Inputs/duplicate.mlir:1:1: error: 'builtin.module' op Redefinition of symbol "twice"{{$}}
// SYMBOL-NEXT: {{^}}func.func @twice() {{[{]}}{{$}}
// SYMBOL-NEXT: {{^}}^{{$}}
// SYMBOL-NEXT: {{^.*}}Inputs/duplicate.mlir:1:1: note: see current operation: "builtin.module"() ({ "func.func"() <{sym_name = "twice"{{.*$}}
// SYMBOL-NOT: {{.}}

/// An unknown pass lists the available ones.
// RUN: not xrelay-opt %s -p cse,nope 2>&1 | filecheck %s --check-prefix=PASS
// PASS:     {{\A}}error: unknown pass 'nope'; available passes: {{.*}}canonicalize, {{.*}}cse, {{.*}}print-ir{{.*$}}
// PASS-NOT: {{.}}

/// An option the pass does not have is named in the user's spelling.
// RUN: not xrelay-opt %s -p 'canonicalize{max-iterations=2}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION:     {{\A}}error: pass 'canonicalize' has no option 'max-iterations'; the pass takes no options{{$}}
// OPTION-NOT: {{.}}

/// A malformed pipeline gives the column and the reason on one line.
// RUN: not xrelay-opt %s -p 'cse{a=1,b=2}' 2>&1 | filecheck %s --check-prefix=PIPELINE
// PIPELINE:     {{\A}}error: malformed pass pipeline 'cse{a=1,b=2}' at column 10: Malformed pass arguments, expected either a space or `}` here{{$}}
// PIPELINE-NOT: {{.}}

/// A target option of the wrong type.
// RUN: not xrelay-opt %s -t 'mlir{generic=1}' 2>&1 | filecheck %s --check-prefix=TOPTION
// TOPTION:     {{\A}}error: option 'generic' of target 'mlir' expects bool, got '1'{{$}}
// TOPTION-NOT: {{.}}

/// An unknown flag, with a suggestion for a near miss.
// RUN: not xrelay-opt %s --split-input 2>&1 | filecheck %s --check-prefix=FLAG
// FLAG:     {{\A}}error: unrecognized arguments: --split-input (did you mean '--split-input-file'?) (see --help){{$}}
// FLAG-NOT: {{.}}

/// A missing input file.
// RUN: not xrelay-opt %S/Inputs/does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING:     {{\A}}error: cannot open '{{.*}}Inputs/does-not-exist.mlir': No such file or directory{{$}}
// MISSING-NOT: {{.}}

/// An unknown target lists the available ones.
// RUN: not xrelay-opt %s -t nope 2>&1 | filecheck %s --check-prefix=TARGET
// TARGET:     {{\A}}error: unknown target 'nope'; available targets: c, dot, mlir{{$}}
// TARGET-NOT: {{.}}

/// An output file in a directory that does not exist.
// RUN: not xrelay-opt %s -o %S/Inputs/no-such-dir/out.mlir 2>&1 | filecheck %s --check-prefix=WRITE
// WRITE:     {{\A}}error: cannot write '{{.*}}no-such-dir/out.mlir': No such file or directory{{$}}
// WRITE-NOT: {{.}}

func.func @ok(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
