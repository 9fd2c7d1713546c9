"""The README's GM walk-through runs as written, with the default options."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def walkthrough_blocks() -> list[str]:
    text = README.read_text("utf-8")
    section = text[text.index("## GM's walk-through"):text.index("## A turn on a real board")]
    return [textwrap.dedent(b) for b in re.findall(r"```sh\n(.*?)```", section, re.DOTALL)]


def test_the_walkthrough_runs_as_written(tmp_path):
    blocks = walkthrough_blocks()
    assert len(blocks) >= 5
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    for block in blocks:
        done = subprocess.run(["bash", "-e", "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{block}\n{done.stdout}\n{done.stderr}"
    post = (tmp_path / "post1.txt").read_text("utf-8")
    assert "次回締切：12/6(日) 22:00" in post and "［pbf］第1ターン結果" in post
    assert (tmp_path / "battle1" / "history" / "0001" / "notices" / "美鈴.txt").is_file()
