# lit configuration for xrelay's FileCheck tests. Run from the repository root:
#   lit -v tests/filecheck
import os
import sys

import lit.formats

config.name = "xrelay"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, ".lit_out")

# Tools come from the environment of the Python running lit (the project venv):
# xrelay-opt, xrelay-run, filecheck; mlir-opt-19 from the system PATH.
venv_bin = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([venv_bin, os.environ.get("PATH", "")])

# Substitutions apply in order: macros expanding to xrelay-opt come first.
config.substitutions.append(
    (
        "XRELAY_ROUNDTRIP",
        "xrelay-opt %s --split-input-file --print-op-generic | "
        "xrelay-opt --split-input-file | filecheck %s",
    )
)
config.substitutions.append(
    (
        "XRELAY_GENERIC_ROUNDTRIP",
        "xrelay-opt %s --split-input-file --print-op-generic | "
        "xrelay-opt --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC",
    )
)
