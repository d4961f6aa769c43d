"""`xrelay-cache`: the console entry point; the logic is in `xrelay.tools.cache_main.CacheMain`.

xrelay-cache list
xrelay-cache prune --max-mb 512
xrelay-cache clear --cache-dir /tmp/xrelay-cache
"""

from __future__ import annotations

from xrelay.tools.cache_main import CacheMain, main

__all__ = ["CacheMain", "main"]

if __name__ == "__main__":
    main()
