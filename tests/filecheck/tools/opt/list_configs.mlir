/// --list-configs prints every registered config option with its type, default and description.
// RUN: xrelay-opt --list-configs | filecheck %s --check-prefix=CONFIGS
// CONFIGS:      {{^}}testing.immutable_module: bool = false{{$}}
// CONFIGS-NEXT: {{^}}    fail any pass that changes the module
// CONFIGS:      {{^}}transform.crash_reproducer: str = ""{{$}}
// CONFIGS:      {{^}}transform.resolve_required: bool = true{{$}}
// CONFIGS:      {{^}}transform.transactional: bool = true{{$}}

/// Options registered by a plugin are listed too.
// RUN: echo 'from xrelay.transform import register_pass_config_option' > %t.plugin.py
// RUN: echo 'register_pass_config_option("myplugin.depth", int, default=4, description="how deep")' >> %t.plugin.py
// RUN: xrelay-opt --load-pass-plugin %t.plugin.py --list-configs | filecheck %s --check-prefix=PLUGIN
// PLUGIN:      {{^}}myplugin.depth: int = 4{{$}}
// PLUGIN-NEXT: {{^}}    how deep{{$}}
/// ... and can then be set with -c, typed.
// RUN: xrelay-opt %s --load-pass-plugin %t.plugin.py -c myplugin.depth=7 | filecheck %s --check-prefix=SET
// RUN: not xrelay-opt %s --load-pass-plugin %t.plugin.py -c myplugin.depth=deep 2>&1 | filecheck %s --check-prefix=BADINT
// SET: func.func @f
// BADINT: {{\A}}error: config option 'myplugin.depth' expects int, got 'deep'{{$}}
func.func @f() {
  func.return
}
