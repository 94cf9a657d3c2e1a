"""Allow ``python -m cardgen``."""

from cardgen.cli.app import main

main()
