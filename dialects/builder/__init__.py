"""Relay expressions in Python, in TVM's idiom (exposed as `xrelay.relay`)."""
