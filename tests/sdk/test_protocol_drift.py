"""The committed generated code must match proto/ exactly."""

import re
from pathlib import Path

from sdk.protocol import generate


def test_generated_code_matches_proto_files() -> None:
    assert generate.main(["--check"]) == 0


def test_only_the_tool_release_may_differ(tmp_path: Path) -> None:
    committed = generate.GENERATED / "v1" / "bot_pb2_grpc.py"
    text = committed.read_text()
    assert "GRPC_GENERATED_VERSION = '" in text
    for name, changed in {
        "release": re.sub(
            r"GRPC_GENERATED_VERSION = '[^']*'", "GRPC_GENERATED_VERSION = '9.9.9'", text
        ),
        "code": text.replace("def ", "def _", 1),
    }.items():
        (tmp_path / name / "v1").mkdir(parents=True)
        (tmp_path / name / "v1" / "bot_pb2_grpc.py").write_text(changed)
    reference = tmp_path / "reference" / "v1"
    reference.mkdir(parents=True)
    (reference / "bot_pb2_grpc.py").write_text(text)
    assert generate.differences(tmp_path / "release", tmp_path / "reference") == []
    assert generate.differences(tmp_path / "code", tmp_path / "reference") == ["v1/bot_pb2_grpc.py"]
