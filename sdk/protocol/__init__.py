"""The bot protocol: generated gRPC code (bullring/v1) and its generator."""
