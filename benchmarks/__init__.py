"""Speed and throughput benchmarks: each prints its figures (run with `make bench`)."""
