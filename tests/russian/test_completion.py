"""Issue 29 item 3: Tab completion, which the README advertises, answers in every shell
typer writes scripts for — bash run for real, zsh, fish and PowerShell by their protocol —
instead of printing «Shell bash not supported.» into the command line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_COMPLETE")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return {**env, **extra}


def _bash(script: str, home: Path) -> str:
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=_env(HOME=str(home)),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "not supported" not in done.stdout + done.stderr
    return done.stdout


TAB = ('COMP_WORDS=({words}); COMP_CWORD={cword}; _referee_completion referee; '
       'printf "%s\\n" "${{COMPREPLY[@]}}"')


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here")
@pytest.mark.parametrize(("words", "cword", "offered"), [
    ("referee ta", 1, {"tally"}),
    ("referee re", 1, {"remove", "replay", "resolve-night"}),
    ("referee action a", 2, {"add"}),
    ("referee tally --d", 2, {"--day", "--deadline", "--dry-run"}),
    ("referee tally --format ''", 3, {"bbcode", "text", "json"}),
])
def test_tab_in_bash_offers_the_commands_and_options(words: str, cword: int,
                                                     offered: set[str], tmp_path: Path) -> None:
    script = 'eval "$(referee --show-completion)"; ' + TAB.format(words=words, cword=cword)
    assert set(_bash(script, tmp_path).split()) == offered


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here")
def test_install_completion_in_bash_writes_a_script_that_works(tmp_path: Path) -> None:
    said = _bash("referee --install-completion", tmp_path)
    assert said.startswith("Автодополнение для bash установлено:")
    script = tmp_path / ".bash_completions" / "referee.sh"
    assert f"source '{script}'" in (tmp_path / ".bashrc").read_text()
    tab = f"source '{script}'; " + TAB.format(words="referee chec", cword=1)
    assert set(_bash(tab, tmp_path).split()) == {"check", "check-activity"}


@pytest.mark.parametrize(("shell", "extra", "answer"), [
    ("zsh", {"_TYPER_COMPLETE_ARGS": "referee ta"}, '"tally":"Подсчёт голосов дня'),
    ("fish", {"_TYPER_COMPLETE_ARGS": "referee ta", "_TYPER_COMPLETE_FISH_ACTION": "get-args"},
     "tally\tПодсчёт голосов дня"),
    ("powershell", {"_TYPER_COMPLETE_ARGS": "referee ta",
                    "_TYPER_COMPLETE_WORD_TO_COMPLETE": "ta"}, "tally:::Подсчёт голосов дня"),
    ("pwsh", {"_TYPER_COMPLETE_ARGS": "referee ta",
              "_TYPER_COMPLETE_WORD_TO_COMPLETE": "ta"}, "tally:::Подсчёт голосов дня"),
])
def test_zsh_fish_and_powershell_get_their_answers(shell: str, extra: dict[str, str],
                                                   answer: str) -> None:
    done = subprocess.run([str(BIN / "referee")], capture_output=True, text=True, timeout=120,
                          env=_env(_REFEREE_COMPLETE=f"complete_{shell}", **extra), check=False)
    assert done.returncode == 0, done.stderr
    assert answer in done.stdout and "not supported" not in done.stdout + done.stderr


@pytest.mark.parametrize("shell", ["zsh", "fish", "powershell", "pwsh"])
def test_every_shell_has_a_script_calling_referee(shell: str) -> None:
    from typer._completion_shared import get_completion_script
    from typer.completion import completion_init

    completion_init()
    script = get_completion_script(prog_name="referee", complete_var="_REFEREE_COMPLETE",
                                   shell=shell)
    called = "complete_powershell" if shell == "pwsh" else f"complete_{shell}"
    assert "_REFEREE_COMPLETE" in script and called in script


def test_an_unknown_shell_is_told_in_russian(monkeypatch: pytest.MonkeyPatch) -> None:
    import typer._completion_shared as shared

    from referee import cli
    from referee.core.errors import RequestRefused

    monkeypatch.setattr(shared, "_get_shell_name", lambda: "tcsh")
    with pytest.raises(RequestRefused, match="оболочки «tcsh» не поддерживается"):
        cli._shell()
