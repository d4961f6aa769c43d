"""Test-only passes and helpers (a pass plugin: `xrelay-opt --load-pass-plugin tests/testlib/passes.py`)."""
