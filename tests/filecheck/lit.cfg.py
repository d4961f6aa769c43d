# lit configuration for xrelay's FileCheck tests. Run from the repository root:
#   /work/venv/bin/lit -v tests/filecheck      (or `lit -v tests/filecheck` in the venv)
import os
import shutil
import sys

import lit.formats

config.name = "xrelay"
config.test_format = lit.formats.ShTest(execute_external=False)  # lit's internal shell
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py"]  # helper inputs are not tests
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, ".lit_out")

# Tools come from the environment of the Python running lit (the project venv):
# xrelay-opt, xrelay-run and filecheck; mlir-opt-19 from the system PATH. A missing
# mlir-opt-19 makes the tests that use it fail (command not found), never skip.
venv_bin = os.path.dirname(sys.executable)
path = os.pathsep.join([venv_bin, os.environ.get("PATH", "")])
config.environment["PATH"] = path
for tool in ("xrelay-opt", "filecheck"):
    if shutil.which(tool, path=path) is None:
        lit_config.fatal(f"'{tool}' not found next to {sys.executable} nor on PATH: "
                         "run lit from the venv where xrelay is installed (pip install -e '.[test]')")

# Substitutions apply in order, so the macros that expand to `xrelay-opt` come first
# (nothing substitutes `xrelay-opt` itself: it is found on PATH).
# Custom -> generic -> custom: the custom syntax survives a trip through the generic form.
config.substitutions.append(
    (
        "XRELAY_ROUNDTRIP",
        "xrelay-opt %s --split-input-file --print-op-generic | "
        "xrelay-opt --split-input-file | filecheck %s",
    )
)
# Custom -> generic -> generic: the generic form parses back to itself (GENERIC prefix).
config.substitutions.append(
    (
        "XRELAY_GENERIC_ROUNDTRIP",
        "xrelay-opt %s --split-input-file --print-op-generic | "
        "xrelay-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC",
    )
)

# Test-only passes (tests/testlib/passes.py: test-break-types, test-fail, ...) as a plugin.
test_passes = os.path.join(os.path.dirname(config.test_source_root), "testlib", "passes.py")
config.substitutions.append(("%test_passes", f"--load-pass-plugin {test_passes}"))
