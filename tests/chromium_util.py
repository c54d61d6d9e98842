"""The system's Chromium for the HTML report's tests and benchmark, installed
with apt-get when it is missing (CI has no browser until then), and a Playwright
browser on it. Playwright's own browser downloads are never used."""

from __future__ import annotations

import os
import shutil
import subprocess

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def find_chromium() -> str | None:
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


def ensure_chromium() -> tuple[str | None, str]:
    """(path, "") or (None, why not). As root, installs Debian's chromium first."""
    path = find_chromium()
    if path:
        return path, ""
    if os.geteuid() != 0:
        return None, "no Chromium on PATH and not root: apt-get install chromium"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-qq"],
                ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"]):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
        if proc.returncode != 0:
            return None, f"{' '.join(cmd)} failed: {proc.stderr.strip()[-300:]}"
    path = find_chromium()
    return (path, "") if path else (None, "apt-get installed chromium but it is not on PATH")


def launch(pw, path: str):
    """A headless Chromium driven by Playwright (sandbox off: tests may run as root)."""
    return pw.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox", "--disable-gpu"])
