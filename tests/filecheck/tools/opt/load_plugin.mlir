/// --load-plugin MODULE|PATH imports a plugin once: by path (under its file name) or by module
/// name; the same plugin named twice, or by both spellings, is loaded once.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: echo 'from xdsl.passes import ModulePass' > %t.d/myplug.py
// RUN: echo 'from xrelay import transform' >> %t.d/myplug.py
// RUN: echo 'print("loading myplug")' >> %t.d/myplug.py
// RUN: echo '@transform.register_pass' >> %t.d/myplug.py
// RUN: echo 'class MyplugPass(ModulePass):' >> %t.d/myplug.py
// RUN: echo '    name = "myplug-pass"' >> %t.d/myplug.py
// RUN: echo '    def apply(self, ctx, op): print("myplug ran on", op.name)' >> %t.d/myplug.py
// RUN: xrelay-opt %s --load-plugin %t.d/myplug.py --load-plugin %t.d/./myplug.py -p myplug-pass | filecheck %s --check-prefix=TWICE
// RUN: env PYTHONPATH=%t.d xrelay-opt %s --load-plugin myplug --load-pass-plugin %t.d/myplug.py --load-dialect-plugin myplug -p MyplugPass | filecheck %s --check-prefix=TWICE
// TWICE:      {{\A}}loading myplug
// TWICE-NEXT: myplug ran on builtin.module
// TWICE-NEXT: builtin.module {

/// A module that cannot be found, a file that raises, a file named like another module.
// RUN: not xrelay-opt %s --load-plugin no_such_plugin_module 2>&1 | filecheck %s --check-prefix=NOMOD
// NOMOD: {{\A}}error: cannot load plugin 'no_such_plugin_module': ModuleNotFoundError: No module named 'no_such_plugin_module'{{$}}
// NOMOD-NOT: {{.}}
// RUN: echo 'raise ValueError("bad plugin")' > %t.d/broken.py
// RUN: not xrelay-opt %s --load-plugin %t.d/broken.py 2>&1 | filecheck %s --check-prefix=BROKEN
// BROKEN: {{\A}}error: cannot load plugin '{{.*}}broken.py': ValueError: bad plugin (at {{.*}}broken.py:1){{$}}
// BROKEN-NOT: {{.}}
// RUN: echo 'X = 1' > %t.d/os.py
// RUN: not xrelay-opt %s --load-plugin %t.d/os.py 2>&1 | filecheck %s --check-prefix=CLASH
// CLASH: {{\A}}error: cannot load plugin '{{.*}}os.py': a different module named 'os' is already imported{{$}}

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
