"""oneDNN's own record of what a dnnl library runs (`DNNL_VERBOSE=1`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

AVX512 = " avx512f" in Path("/proc/cpuinfo").read_text()
"""Whether this CPU has AVX-512, where oneDNN 2.6 has its Winograd kernels (elsewhere every
convolution is direct)."""


def onednn_log(
    lib: Any, shape: tuple[int, ...], tmp_path: Path, threads: int = 1, fill: float = 1.0
) -> list[list[str]]:
    """The primitives the second run of `lib` on `fill`s (ones) of `shape` executes, as oneDNN
    logs them (fields split at commas), run in a child process: oneDNN reads DNNL_VERBOSE
    when it loads."""
    script = tmp_path / "run_once.py"
    script.write_text(
        "import sys\nimport numpy as np\nfrom xrelay.runtime import Library\n"
        "lib = Library(sys.argv[1])\n"
        f"x = np.full({shape}, float('{fill}'), 'float32')\n"
        "lib(x)\nprint('=====', flush=True)\nlib(x)\n"
    )
    env = {**os.environ, "DNNL_VERBOSE": "1", "OMP_NUM_THREADS": str(threads)}
    result = subprocess.run(
        [sys.executable, str(script), str(lib.path)], env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-3000:]
    second = result.stdout.split("=====", 1)[1]
    return [
        line.split(",") for line in second.splitlines() if line.startswith("onednn_verbose,exec")
    ]
