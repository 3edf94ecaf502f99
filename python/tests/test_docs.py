"""The outputs doc/python.md shows are what its examples print: each Python block followed by
an output block (a `text` block under the comment `<!-- the output of the Python block above
... -->`) is run against the real engine and must print those lines exactly."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import ROOT

MARK = "<!-- the output of the Python block above"
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


def shown_outputs(text: str) -> list[tuple[str, str]]:
    """(code, output) for every Python block whose output the page shows."""
    found = []
    blocks = [(m.start(), m.group(1), m.group(2)) for m in BLOCK.finditer(text)]
    for (_, info, code), (start, out_info, output) in zip(blocks, blocks[1:]):
        between = text[:start].rstrip().rsplit("\n", 1)[-1]
        if info == "python" and out_info == "text" and between.startswith(MARK):
            found.append((code, output))
    return found


def test_the_scan_finds_a_marked_output_only() -> None:
    page = (
        "```python\nprint(1)\n```\n\n" + MARK + " -->\n```text\n1\n```\n"
        "```python\nprint(2)\n```\n\n```text\n2\n```\n"
    )
    assert shown_outputs(page) == [("print(1)\n", "1\n")]


def test_the_python_pages_outputs_are_what_the_examples_print(awari_bin: str) -> None:
    page = (ROOT / "doc" / "python.md").read_text()
    shown = shown_outputs(page)
    assert shown, "doc/python.md shows at least one output"
    for code, output in shown:
        run = subprocess.run([sys.executable, "-c", code.replace("target/release/awari", awari_bin)],
                             capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert run.returncode == 0, run.stderr
        assert run.stdout == output, f"{code}\nprinted:\n{run.stdout}\nthe page shows:\n{output}"
