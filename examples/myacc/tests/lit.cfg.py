# The FileCheck suite of xrelay_myacc: the installed package is found by its entry point.
from xrelay.ext.lit import configure

configure(config, lit_config, __file__, name="xrelay-myacc")  # noqa: F821 (lit's globals)
