// xrelay-translate's errors: one line per problem (`{{\A}}` anchors at the start of the
// output, `-NOT: {{.}}` forbids anything after: no traceback), exit status 1, and no
// output file written.

// RUN: python %S/Inputs/onnx_models.py fc %t.onnx
// RUN: python %S/Inputs/onnx_models.py unsupported %t.unsupported.onnx
// RUN: python %S/Inputs/onnx_models.py custom_domain %t.custom.onnx
// RUN: python %S/Inputs/onnx_models.py truncated %t.truncated.onnx
// RUN: rm -f %t.out.mlir %t.out.npz

/// Every unsupported op type at once, with its nodes' names; -o is not written.
// RUN: not xrelay-translate --import-onnx %t.unsupported.onnx -o %t.out.mlir --params-out %t.out.npz 2>&1 | filecheck %s --check-prefix=OPS
//     OPS: {{\A}}{{.*}}.unsupported.onnx: error: unsupported op FrobnicateA at opset 17 (2 nodes: 'first', 'second')
// OPS-NEXT: {{^.*}}.unsupported.onnx: error: unsupported op FrobnicateB at opset 17 (1 node: 'third')
// OPS-NOT: {{.}}
// RUN: not test -e %t.out.mlir
// RUN: not test -e %t.out.npz

/// An output that cannot be written (-o in a missing folder): the params file is not
/// written either.
// RUN: not xrelay-translate --import-onnx %t.onnx -o %t.nofolder/out.mlir --params-out %t.out.npz 2>&1 | filecheck %s --check-prefix=WRITE
//     WRITE: {{\A}}xrelay-translate: error: cannot write '{{.*}}.nofolder/out.mlir': No such file or directory
// WRITE-NOT: {{.}}
// RUN: not test -e %t.out.npz

/// A custom domain.
// RUN: not xrelay-translate --import-onnx %t.custom.onnx 2>&1 | filecheck %s --check-prefix=DOMAIN
//     DOMAIN: {{\A}}{{.*}}.custom.onnx: error: node 'mine' (Relu) is in the custom domain 'com.example'; only the default ONNX domain is supported
// DOMAIN-NOT: {{.}}

/// A truncated file, from a path and from stdin.
// RUN: not xrelay-translate --import-onnx %t.truncated.onnx 2>&1 | filecheck %s --check-prefix=TRUNCATED
//     TRUNCATED: {{\A}}{{.*}}.truncated.onnx: error: not an ONNX model (truncated or not a protobuf ModelProto: {{.*}})
// TRUNCATED-NOT: {{.}}
// RUN: not xrelay-translate --import-onnx - < %t.truncated.onnx 2>&1 | filecheck %s --check-prefix=STDIN
//     STDIN: {{\A}}<stdin>: error: not an ONNX model (truncated or not a protobuf ModelProto: {{.*}}){{$}}
// STDIN-NOT: {{.}}

/// A missing file.
// RUN: not xrelay-translate --import-onnx %t.missing.onnx 2>&1 | filecheck %s --check-prefix=MISSING
//     MISSING: {{\A}}{{.*}}.missing.onnx: error: cannot read the file: No such file or directory
// MISSING-NOT: {{.}}

/// Flags: a shape for no input, a malformed shape, exclusive flags, no translation named.
// RUN: not xrelay-translate --import-onnx %t.onnx --shape z=1x6 2>&1 | filecheck %s --check-prefix=NOINPUT
//     NOINPUT: {{\A}}{{.*}}.onnx: error: shape given for 'z', which is not a graph input
// NOINPUT-NOT: {{.}}
// RUN: not xrelay-translate --import-onnx %t.onnx --shape x=1xa 2>&1 | filecheck %s --check-prefix=SHAPE
//     SHAPE: {{\A}}xrelay-translate: error: --shape x=1xa: 'a' is not a dimension (a number, or ? for dynamic)
// SHAPE-NOT: {{.}}
// RUN: not xrelay-translate --import-onnx %t.onnx --shape 1x6 2>&1 | filecheck %s --check-prefix=NONAME
//     NONAME: {{\A}}xrelay-translate: error: --shape 1x6: expected NAME=DIMS such as x=1x3x224x224
// RUN: not xrelay-translate --import-onnx %t.onnx --freeze-params --params-out %t.out.npz 2>&1 | filecheck %s --check-prefix=EXCLUSIVE
//     EXCLUSIVE: {{\A}}xrelay-translate: error: --params-out and --freeze-params exclude each other
// RUN: not xrelay-translate %t.onnx 2>&1 | filecheck %s --check-prefix=WHICH
//     WHICH: {{\A}}xrelay-translate: error: name the translation: --import-onnx
