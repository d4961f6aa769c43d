"""Graphviz (DOT) pictures of xrelay modules: `xrelay-opt -t dot` and `module_to_dot`.

See `emitter.py` for what is drawn and how.
"""

from xrelay.codegen.dot.emitter import DotTarget, module_to_dot, target_colors

__all__ = ["DotTarget", "module_to_dot", "target_colors"]
