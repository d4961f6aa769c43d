/// --list-passes prints every registered pass, sorted, with its one-line description.
// RUN: xrelay-opt --list-passes | filecheck %s
// CHECK:      {{\A}}canonicalize: Apply folders and canonicalization patterns
// CHECK-NEXT: {{^}}cse: Merge identical pure ops
// CHECK-NEXT: {{^}}dce: Remove pure ops whose results are unused

/// --list-targets prints every target with its options, indented.
// RUN: xrelay-opt --list-targets | filecheck %s --check-prefix=TARGETS
// TARGETS:      {{\A}}mlir: Textual IR
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
