"""Code generation targets: the host C target (`c/`) and the built-in BYOC backends.

Each backend lives in its own folder (`accel/`, `dnnl/`) and registers itself
through the public hooks (`xrelay.ext`), exactly as an out-of-tree backend would;
like one, it is found by its `xrelay.plugins` entry point (pyproject.toml) the
first time a registry is asked for a target it does not know. Importing this
package registers nothing; importing `xrelay.codegen.accel` registers accel.
"""
