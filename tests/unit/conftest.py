import subprocess

import pytest


@pytest.fixture
def ca_file(tmp_path):
    """A self-signed certificate, for a client's TLS context to load."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=test", "-days", "1",
                    "-keyout", str(tmp_path / "ca.key"), "-out", str(tmp_path / "ca.crt")],
                   check=True, capture_output=True)
    return tmp_path / "ca.crt"
