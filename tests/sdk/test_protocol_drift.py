"""The committed generated code must match proto/ exactly."""

from sdk.protocol import generate


def test_generated_code_matches_proto_files() -> None:
    assert generate.main(["--check"]) == 0
