# lit configuration for xrelay's FileCheck tests. Run from the repository root:
#   /work/venv/bin/lit -v tests/filecheck      (or `lit -v tests/filecheck` in the venv)
# The shared setup (xrelay.ext.lit, also for out-of-tree suites): `.mlir` tests with lit's
# internal shell, tools from the environment of the Python running lit (the project venv:
# xrelay-opt, xrelay-run, filecheck; mlir-opt-19 from the system PATH, a missing one makes
# the tests that use it fail, never skip), outputs in .lit_out/, the XRELAY_ROUNDTRIP and
# XRELAY_GENERIC_ROUNDTRIP macros.
import os

from xrelay.ext.lit import configure

configure(config, lit_config, __file__, name="xrelay")

# Test-only passes (tests/testlib/passes.py: test-break-types, test-fail, ...) as a plugin.
test_passes = os.path.join(os.path.dirname(config.test_source_root), "testlib", "passes.py")
config.substitutions.append(("%test_passes", f"--load-pass-plugin {test_passes}"))
