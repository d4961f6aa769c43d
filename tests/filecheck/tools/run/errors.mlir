// Every user error is exactly one line on stderr (`{{\A}}` anchors at the start of the
// output, `-NOT: {{.}}` forbids anything after it: no traceback), and exit status 1.

/// The target list must end in the host target `c`.
// RUN: not xrelay-run %s --target accel 2>&1 | filecheck %s --check-prefix=LAST
//     LAST: {{\A}}xrelay-run: error: unsupported target 'accel': the last target must be 'c' {{.*}}
// LAST-NOT: {{.}}

/// A target without a code generator is named.
// RUN: not xrelay-run %s --target bogus,c 2>&1 | filecheck %s --check-prefix=UNKNOWN
//     UNKNOWN: {{\A}}xrelay-run: error: unsupported target 'bogus': it has no code generator {{.*}}
// UNKNOWN-NOT: {{.}}

/// A missing input file names the flag and the file.
// RUN: not xrelay-run %s --input x=%t.missing.npy 2>&1 | filecheck %s --check-prefix=MISSING
//     MISSING: {{\A}}xrelay-run: error: --input x: cannot read {{.*}}.missing.npy: No such file or directory{{$}}
// MISSING-NOT: {{.}}

/// Without a C compiler the build fails naming `$CC`.
// RUN: not env CC=/nonexistent XRELAY_CACHE_DIR=%t.cache xrelay-run %s --target c 2>&1 \
// RUN:   | filecheck %s --check-prefix=NOCC
//     NOCC: {{\A}}xrelay-run: error: C compiler '/nonexistent' not found; set $CC{{$}}
// NOCC-NOT: {{.}}

/// A parse error keeps file:line:col.
// RUN: not xrelay-run %S/Inputs/malformed.mlir --target c 2>&1 | filecheck %s --check-prefix=PARSE
//     PARSE: {{\A.*}}Inputs/malformed.mlir:2:22: error: operand expected{{$}}
// PARSE-NOT: {{.}}

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
