"""A Spring Boot application's datasource from its own configuration file (application.properties or
application.yml, as Spring Boot's reference documents the keys): the JDBC URL, HikariCP's settings
under their relaxed names, every other key named; known by its content whatever the file's name."""
import pytest

from harness import imports
from harness.errors import InvalidInput
from harness.imports import sniff, spring_boot

# Spring Boot's reference, "Configure a DataSource" / "Supported Connection Pools": the URL, and
# HikariCP's settings under spring.datasource.hikari.* (its pool by default)
PROPERTIES = """server.port=8080
spring.datasource.url=jdbc:mysql://db-vip:3306/orders?socketTimeout=0
spring.datasource.username=app
spring.datasource.hikari.connection-timeout=3000
spring.datasource.hikari.maximum-pool-size=4
spring.datasource.hikari.data-source-properties.connectTimeout=2000
"""
YAML = """server:
  port: 8080
spring:
  datasource:
    url: jdbc:mysql://db-vip:3306/orders?socketTimeout=3000
    hikari:
      max-lifetime: 1800000
      maximumPoolSize: 2
"""


def test_a_properties_file_gives_the_url_the_pools_settings_by_their_relaxed_names_and_names_the_rest():
    found = spring_boot.spring_properties(PROPERTIES)
    assert found.client == "hikari"
    # socketTimeout=0 is Connector/J's "none", kept as 0, never a 0 s timeout
    assert dict(found.settings) == {"socketTimeout": 0, "connectionTimeout": 3000, "maximumPoolSize": 4,
                                    "connectTimeout": 2000}
    assert dict(found.not_modelled) == {"server.port": "8080", "spring.datasource.username": "app"}


def test_the_same_keys_nested_in_yaml():
    found = spring_boot.spring_yaml(YAML)
    assert dict(found.settings) == {"socketTimeout": 3000, "maxLifetime": 1800000, "maximumPoolSize": 2}
    assert dict(found.not_modelled) == {"server.port": "8080"}


@pytest.mark.parametrize("text, says", [
    ("spring.datasource.hikari.maximum-pool-size=4\n", "no spring.datasource.url"),
    ("spring.datasource.url=jdbc:mysql://db/app\nspring.datasource.type=org.apache.tomcat.jdbc.pool.DataSource\n",
     "the lab's zoo pools with HikariCP"),
    ("spring.datasource.url=jdbc:mysql://db/app\nspring.datasource.hikari.conection-timeout=3000\n",
     "did you mean connectionTimeout"),
    ("spring.datasource.url=jdbc:mysql://db/app?socketTimeout=soon\n", "socketTimeout"),
])
def test_what_the_lab_cannot_read_is_refused(text, says):
    with pytest.raises(InvalidInput, match=says):
        spring_boot.spring_properties(text)


def test_known_by_content_whatever_the_name(tmp_path):
    assert sniff.kind(PROPERTIES)[0] == "application.properties"
    assert sniff.kind(YAML)[0] == "application.yml"
    (tmp_path / "app.conf").write_text(PROPERTIES)
    incident = imports.from_dir(str(tmp_path))
    assert incident.driver.client == "hikari" and dict(incident.driver.settings)["connectionTimeout"] == 3000
    assert "CLIENT=hikari" in incident.explain_words()
