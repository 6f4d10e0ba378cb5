"""benchmarks/README.md lists every script of benchmarks/ (what it measures, the page it feeds, its
command, how long it takes): a script added without its row fails here, and so does a row left
behind by a script removed."""

import re

from tests.conftest import REPO

BENCHMARKS = REPO / "benchmarks"


def test_every_benchmark_script_is_listed_in_the_index():
    scripts = {path.name for pattern in ("*.py", "*.sh") for path in BENCHMARKS.glob(pattern)}
    listed = set(re.findall(r"^\| `([\w.-]+\.(?:py|sh))` \|", (BENCHMARKS / "README.md").read_text(), re.M))
    assert scripts - listed == set(), f"benchmarks/README.md has no row for {sorted(scripts - listed)}"
    assert listed - scripts == set(), f"benchmarks/README.md lists scripts that are gone: {sorted(listed - scripts)}"
