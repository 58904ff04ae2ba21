"""Speed and throughput benchmarks: each prints its figures (run with `make bench`).

Importing the package gives numpy's BLAS one thread (unless the environment says
otherwise), before any benchmark imports numpy: the referee starts every bot so
(``referee/bots/process.py``), the benchmarks that play bots in-process or in worker
processes measure them as they run there, and several single-threaded workers on a
shared 2-core machine do not fight over the cores with BLAS threads of their own.
"""

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
