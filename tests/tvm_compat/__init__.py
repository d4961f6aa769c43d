"""TVM v0.19.0's Relay tests, ported by scripts/port_tvm_tests.py (a package: names like
test_pass_manager.py exist in tests/ too)."""
