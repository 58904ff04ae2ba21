"""Never listens: the referee must give up after the setup limit (UNAVAILABLE)."""

import threading

threading.Event().wait()
