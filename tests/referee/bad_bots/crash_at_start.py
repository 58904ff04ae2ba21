"""Exits at once with an error: a CRASH during setup."""

import sys

sys.stderr.write("crash_at_start: giving up\n")
sys.exit(3)
