"""A MariaDB Connector/J URL is MariaDB Connector/J's (its scheme jdbc:mariadb:, which Connector/J does
not take), with its own host-list modes as its HaMode has them: sequential skips a host that failed
for deniedListTimeout, no mode connects to the first host alone."""
import pytest

from harness.errors import InvalidInput
from harness.imports import driver_url, hikari_pool


def test_a_mariadb_url_names_mariadb_connector_j_and_its_settings():
    found = driver_url.parse("jdbc:mariadb://db.example:3306/shop?socketTimeout=3000&connectTimeout=2000\n")
    assert found.client == "mariadb-jdbc" and dict(found.settings) == {"socketTimeout": 3000, "connectTimeout": 2000}
    assert driver_url.parse("jdbc:mysql://db.example:3306/shop?socketTimeout=3000\n").client == "jdbc"


@pytest.mark.parametrize("mode, says", [("sequential:", "deniedListTimeout (60 s)"), ("", "the first host alone")])
def test_a_mariadb_host_list_is_named_by_what_its_mode_does(mode, says):
    found = driver_url.parse(f"jdbc:mariadb:{mode}//a.example:3306,b.example:3306/shop\n")
    hosts = dict(found.not_modelled)["hosts"]
    assert says in hosts and "make explain HOST_LIST=1" in hosts


def test_hikaricp_over_mariadb_connector_j_is_refused_by_name():
    url = driver_url.parse("jdbc:mariadb://db.example:3306/shop\n")
    with pytest.raises(InvalidInput, match="the lab's HikariCP runs on Connector/J"):
        hikari_pool.hikari_pool(url, [(2, "maximumPoolSize=3")], "driver.url")
