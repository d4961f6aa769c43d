/// --list-passes prints every registered pass, sorted by flag: flag (TVM name), kind, opt_level
/// and required passes, then its one-line description and its options, indented.
// RUN: xrelay-opt --list-passes | filecheck %s
// CHECK:      {{^}}canonicalize (Canonicalize): module pass, opt_level 0{{$}}
// CHECK-NEXT: {{^}}    Apply folders and canonicalization patterns
// CHECK:      {{^}}cse (CSE): module pass, opt_level 0{{$}}
// CHECK-NEXT: {{^}}    Merge identical pure ops
// CHECK:      {{^}}dce (DCE): module pass, opt_level 0{{$}}
// CHECK-NEXT: {{^}}    Remove pure ops whose results are unused
// CHECK:      {{^}}print-ir (PrintIR): module pass, opt_level 0{{$}}
// CHECK-NEXT: {{^}}    Print the module to stderr (TVM's PrintIR){{$}}
// CHECK-NEXT: {{^}}    option header: str = ""{{$}}

/// Plugins' passes are listed with the rest: required passes, levels, Python passes.
// RUN: xrelay-opt %test_passes --list-passes | filecheck %s --check-prefix=PLUGIN
// PLUGIN:      {{^}}test-needs-tag (TestNeedsTag): module pass, opt_level 0, requires TestTag{{$}}
// PLUGIN:      {{^}}test-nested-break (TestNestedBreak): module pass, opt_level 0{{$}}
// PLUGIN-NEXT: {{^}}    Tag the functions, then run TestBreakTypes inside itself (a nested pass).
// PLUGIN:      {{^}}test-tag (TestTag): module pass, opt_level 1{{$}}
// PLUGIN-NEXT: {{^}}    Add a `tagged` attribute to every func.func.
// PLUGIN-NEXT: {{^}}    option value: str = yes{{$}}

/// --list-targets prints every target with its options, indented.
// RUN: xrelay-opt --list-targets | filecheck %s --check-prefix=TARGETS
// TARGETS:      {{\A}}c: Host C: the model library's sources (the module must be optimized and planned).{{$}}
// TARGETS-NEXT: {{^}}    entry: str = main{{$}}
// TARGETS-NEXT: {{^}}dot: Graphviz DOT
// TARGETS-NEXT: {{^}}    function: str | None = none{{$}}
// TARGETS-NEXT: {{^}}mlir: Textual IR
// TARGETS-NEXT: {{^}}    generic: bool = false{{$}}

/// --version names xrelay and the pinned xDSL.
// RUN: xrelay-opt --version | filecheck %s --check-prefix=VERSION
// VERSION: {{\A}}xrelay-opt (xrelay {{[0-9.]+}}, xdsl 0.74.0){{$}}

/// --help describes the flags and the exit status.
// RUN: xrelay-opt --help | filecheck %s --check-prefix=HELP
// HELP: usage: xrelay-opt
// HELP: -p PIPELINE, --passes PIPELINE
// HELP: --split-input-file
// HELP: --verify-diagnostics
// HELP: exit status: 0 success, 1 error in
