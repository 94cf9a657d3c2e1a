"""Packs cardgen's resource folders into the wheel (everything else is in pyproject.toml).

``templates/``, ``locales/`` and ``schema/`` live at the top of the repository,
where they are edited; an editable install reads them there. A wheel must carry
them inside the package, so building one copies them to ``cardgen/_resources/``
(see ``cardgen/resources.py``, which finds either place).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
RESOURCE_FOLDERS = ("templates", "locales", "schema")


class BuildWithResources(build_py):
    """``build_py`` that also copies the resource folders into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return  # an editable install reads the checkout's own folders
        for name in RESOURCE_FOLDERS:
            target = Path(self.build_lib) / "cardgen" / "_resources" / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(HERE / name, target, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))


setup(cmdclass={"build_py": BuildWithResources})
