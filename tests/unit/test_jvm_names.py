"""The JVM's cache of names from the operator's own files (harness/imports/jvm_names.py): the JDK's
java.security and the JVM's flags, each read as the JDK documents it (docs/facts/dns.md), and every
line named, the flag the JVM never reads said as such."""
import pytest

from harness.errors import InvalidInput
from harness.imports import from_dir, jvm_names, sniff

JDK_EXCERPT = """\
# This is the "master security properties file".
security.provider.1=SUN
security.provider.2=SunRsaSign
jdk.tls.disabledAlgorithms=SSLv3, TLSv1, RC4
#networkaddress.cache.ttl=-1
networkaddress.cache.ttl=60
networkaddress.cache.negative.ttl=10
"""


def test_java_security_gives_the_ttl_and_names_the_rest():
    found = jvm_names.java_security(JDK_EXCERPT)
    assert found.ttl_s == 60
    text = "\n".join(found.lines())
    assert "read: networkaddress.cache.ttl=60: the JVM keeps a looked-up address 60 s" in text
    assert "does not use it" in text and "used:" not in text          # never listed as used by the replay
    assert "not modelled: networkaddress.cache.negative.ttl=10" in text
    assert "not modelled: 3 other security properties" in text


def test_the_jdks_own_file_without_a_ttl_says_the_default():
    found = jvm_names.java_security("security.provider.1=SUN\n#networkaddress.cache.ttl=-1\n")
    assert found.ttl_s is None and "is not set here" in found.lines()[-1]


def test_flags_the_fallback_is_read_and_the_security_property_as_a_flag_is_said_to_do_nothing():
    found = jvm_names.jvm_options('JAVA_OPTS="-Xmx1g -Dnetworkaddress.cache.ttl=5 -Dsun.net.inetaddr.ttl=20"\n')
    assert found.ttl_s == 20
    text = "\n".join(found.lines())
    assert "-Dnetworkaddress.cache.ttl=5: the JVM's cache never reads it" in text
    assert "read: -Dsun.net.inetaddr.ttl=20: the JVM keeps a looked-up address 20 s" in text
    assert "not modelled: -Xmx1g" in text


@pytest.mark.parametrize("bad", ["networkaddress.cache.ttl=thirty\n", "networkaddress.cache.ttl=-2\n"])
def test_a_ttl_that_is_no_number_of_seconds_is_refused(bad):
    with pytest.raises(InvalidInput, match="networkaddress.cache.ttl"):
        jvm_names.java_security(bad)


def test_files_named_otherwise_are_told_by_their_content(tmp_path):
    assert sniff.kind(JDK_EXCERPT)[0] == "java.security"
    assert sniff.kind("-Xms512m\n-Dsun.net.inetaddr.ttl=10\n")[0] == "jvm.options"
    assert sniff.kind("- item\n- other\n")[0] != "jvm.options"
    (tmp_path / "security.props").write_text(JDK_EXCERPT)
    (tmp_path / "opts.txt").write_text("-Dnetworkaddress.cache.ttl=5\n")
    incident = from_dir(str(tmp_path))
    assert [found.ttl_s for found in incident.jvm] == [60, None]
    lines = "\n".join(incident.lines())
    assert "security.props: read as the JDK's security properties" in lines and "never reads it" in lines
