"""`xrelay-run`: the console entry point; the logic is in `xrelay.tools.run_main.RunMain`.

xrelay-run model.mlir --random                        # the reference interpreter
xrelay-run model.mlir --target accel,c --input x=x.npy --params p.npz --output out.npy
"""

from __future__ import annotations

from xrelay.tools.run_main import RunMain, main

__all__ = ["RunMain", "main"]

if __name__ == "__main__":
    main()
