"""Draws the tutorial's pictures by running docs/tutorial.md's code, as a reader would.

    python docs/draw_tutorial.py     (from the repository root, with the plot extra installed)

The code runs in docs/img, so its ``figure.savefig("tutorial-convergence.png")`` lands there.
The best grid's notebook rendering (``view._repr_html_()``) is written next to it and, when
Chromium is installed (``apt-get install chromium``), photographed as tutorial-best.png.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent


def main() -> int:
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / "tutorial.md").read_text(), flags=re.S)
    os.chdir(DOCS / "img")
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/tutorial.md", "exec"), namespace)
    page = Path("tutorial-best.html")
    page.write_text(f"<html><body style='margin:8px;background:white'>{namespace['view']._repr_html_()}</body></html>")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("chromium not found: tutorial-best.png not redrawn", file=sys.stderr)
        return 1
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=300,300",
            "--screenshot=tutorial-best.png",
            page.resolve().as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    page.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
