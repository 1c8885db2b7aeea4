"""A driver's own configuration file: HikariCP's properties (its README's example), mysql2's
options object, MariaDB Connector/C's option file; each setting used or named."""
import pytest

from harness import imports
from harness.errors import InvalidInput
from harness.imports import driver_files

# HikariCP's README, "Initialization": a properties file
HIKARI = """dataSourceClassName=org.postgresql.ds.PGSimpleDataSource
dataSource.user=test
dataSource.password=test
dataSource.databaseName=mydb
dataSource.portNumber=5432
dataSource.serverName=localhost
"""


def test_hikaris_readme_example_names_every_property():
    found = driver_files.hikari_properties(HIKARI)
    assert found.client == "hikari" and found.settings == ()
    assert [name for name, _ in found.not_modelled][:2] == ["dataSourceClassName", "dataSource.user"]


def test_a_hikari_pool_over_connector_j_takes_the_urls_and_the_pools_settings():
    found = driver_files.hikari_properties("jdbcUrl=jdbc:mysql://db:3306/app?socketTimeout=3000&useSSL=false\n"
                                           "maximumPoolSize: 3\nconnectionTimeout 2000\n"
                                           "dataSource.tcpKeepAlive=false\n# a comment\n")
    assert dict(found.settings) == {"socketTimeout": 3000, "maximumPoolSize": 3, "connectionTimeout": 2000,
                                    "tcpKeepAlive": False}
    assert found.not_modelled == (("useSSL", "false"),)
    with pytest.raises(InvalidInput, match="hikari.properties: 1: maximumPoolSize='99'"):
        driver_files.hikari_properties("maximumPoolSize=99\n")


def test_mysql2s_options_object():
    # mysql2's documentation: createConnection({host, user, database, connectTimeout, enableKeepAlive, ...})
    found = driver_files.mysql2_json('{"host": "localhost", "user": "root", "database": "test", '
                                     '"connectTimeout": 10000, "enableKeepAlive": true, "keepAliveInitialDelay": 0}')
    assert found.client == "node"
    assert dict(found.settings) == {"connectTimeout": 10000, "enableKeepAlive": True, "keepAliveInitialDelay": 0}
    assert [n for n, _ in found.not_modelled] == ["host", "user", "database"]
    with pytest.raises(InvalidInput, match="not JSON"):
        driver_files.mysql2_json("{host: x}")
    with pytest.raises(InvalidInput, match="connectTimout=3000: not a setting of .*; did you mean connectTimeout"):
        driver_files.mysql2_json('{"connectTimout": 3000}')


def test_a_near_miss_in_a_pools_file_is_refused_at_its_line():
    with pytest.raises(InvalidInput, match=r"hikari.properties:2: conectionTimeout=3000: .*did you mean connectionTimeout"):
        driver_files.hikari_properties("jdbcUrl=jdbc:mysql://db/app\nconectionTimeout=3000\n")


def test_connector_cs_option_file():
    # MariaDB Connector/C's documentation: option files, [client] group
    found = driver_files.my_cnf("[client]\nconnect-timeout=5\nread_timeout=3\nssl\n[mysqld]\nport=3306\n")
    assert found.client == "libmariadb"
    assert dict(found.settings) == {"MYSQL_OPT_CONNECT_TIMEOUT": 5, "MYSQL_OPT_READ_TIMEOUT": 3}
    assert [n for n, _ in found.not_modelled] == ["[client] ssl", "[mysqld] port"]
    with pytest.raises(InvalidInput, match="not an option file"):
        driver_files.my_cnf("read-timeout=3\n")


def test_one_driver_at_a_time(tmp_path):
    (tmp_path / "driver.url").write_text("jdbc:mysql://db/app\n")
    (tmp_path / "my.cnf").write_text("[client]\nread-timeout=3\n")
    with pytest.raises(InvalidInput, match="driver.url and my.cnf: one application's driver at a time"):
        imports.from_dir(str(tmp_path))
