"""Command-line tools: `xrelay-opt` and `xrelay-run` (thin entry points, logic in classes)."""
