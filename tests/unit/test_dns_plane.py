"""The dns control plane without a lab: what it puts in the lab, what the clients connect to, the
change it reads from a run's step, and the scenario checks of its step (harness/control/dns.py,
harness/faults/dns_move.py)."""
import pytest

from harness import scenario
from harness.control import control_plane
from harness.control.abilities import client_address
from harness.control.dns import NAME
from harness.databases import database
from harness.lab import planned_addresses
from harness.measure import syn_model
from harness.scenario import ScenarioError
from harness.topology import DIRECTOR

MOVE_EVENT = {"source": "harness", "event": "fault", "name": "dns_move", "t": 1000.25, "uncertainty_s": 0.004,
              "step": 3, "params": {"to": "db-replica"},
              "seen": {"old_address": "10.213.1.121", "new_address": "10.213.1.122"}}


class Events:
    def __init__(self, events):
        self._events = events

    def events(self):
        return self._events


def dns_scenario(**changes):
    raw = {"control": "dns", "load": {"probe": {}}, "cells": [{"tcp_retries2": 5}],
           "steps": [{"fault": "host_silent", "target": "db-primary"}, {"wait": "5s"},
                     {"fault": "dns_move", "to": "db-replica"}]}
    raw.update(changes)
    return scenario.parse(raw, "d.yaml", "d")


def test_the_director_answers_the_name_and_forwards_nothing_and_each_server_joins_the_clients_network():
    services = control_plane("dns", (("ttl", 30),)).services(planned_addresses(), database(),
                                                              ("db-primary", "db-replica"))
    director = services[DIRECTOR]["environment"]
    assert director["LB_SERVICES"] == "" and director["DNS_NAME"] == NAME and director["DNS_TTL"] == "30"
    front = planned_addresses()[DIRECTOR]["front"].rsplit(".", 1)[0]
    assert director["DNS_ADDRESS"] == f"{front}.121"
    assert services["db-primary"] == {"addresses": {"front": f"{front}.121"}}
    assert services["db-replica"] == {"addresses": {"front": f"{front}.122"}}
    only_primary = control_plane("dns").services(planned_addresses(), database(), ("db-primary",))
    assert "db-replica" not in only_primary and only_primary[DIRECTOR]["environment"]["DNS_TTL"] == "5"


def test_the_clients_connect_to_the_name_through_the_directors_resolver_and_others_to_the_vip():
    dns = control_plane("dns")
    assert client_address(dns, "10.213.1.10") == NAME
    assert dns.lab_settings()["LAB_RESOLVER"] == "director"
    assert client_address(control_plane("manual"), "10.213.1.10") == "10.213.1.10"
    assert "LAB_RESOLVER" not in control_plane("haproxy").lab_settings()


def test_nscd_on_the_clients_host_is_the_dns_planes_setting_and_only_a_known_cache_is_taken():
    assert control_plane("dns").lab_settings()["LAB_NAME_CACHE"] == ""
    assert control_plane("dns", (("cache", "nscd"),)).lab_settings()["LAB_NAME_CACHE"] == "nscd"
    raw = {"control": {"dns": {"cache": "nscd"}}, "load": {"probe": {}}, "cells": [{"tcp_retries2": 5}],
           "steps": [{"fault": "host_silent", "target": "db-primary"}]}
    assert dict(scenario.parse(raw, "n.yaml", "n").control_settings)["cache"] == "nscd"
    with pytest.raises(ScenarioError, match="must be one of none, nscd, not 'systemd-resolved'"):
        scenario.parse({**raw, "control": {"dns": {"cache": "systemd-resolved"}}}, "n.yaml", "n")


def test_the_change_is_the_steps_own_and_lb_noticed_counts_from_the_death():
    plane = control_plane("dns")
    [change] = plane.changes(Events([{"source": "harness", "event": "fault", "name": "host_silent", "t": 990.0},
                                     MOVE_EVENT]))
    assert (change.t, change.uncertainty_s, change.backend) == (1000.25, 0.004, "10.213.1.121:3306")
    assert "10.213.1.122" in change.what and "db-replica" in change.what and change.why == "scenario step 3"
    window = plane.lb_noticed(change, 990.0)
    assert (window.earliest_s, window.latest_s) == (10.25, pytest.approx(10.254))


def test_the_move_and_the_ttl_are_checked_before_anything_starts():
    parsed = dns_scenario()
    assert parsed.control == "dns"
    with pytest.raises(ScenarioError, match="ttl"):
        dns_scenario(control={"dns": {"ttl": -1}})
    with pytest.raises(ScenarioError, match="web-a is not a database"):
        dns_scenario(steps=[{"fault": "host_silent", "target": "db-primary"}, {"fault": "dns_move", "to": "web-a"}])
    with pytest.raises(ScenarioError, match="dns_move"):
        dns_scenario(control="manual")


def test_a_silent_connect_gives_up_at_the_first_firing_past_the_doubling_ladders_time():
    # docs/facts/kernel.md, measured on 6.18 with tcp_syn_linear_timeouts 4: 7.125 s at 2, 19.523 s at 3,
    # 134.671 s at 6 (and 134.92 s in the dns-failover run); 127 s at 6 without linear timeouts
    for retries, measured in ((2, 7.125), (3, 19.523), (6, 134.671), (6, 134.92)):
        low, high = syn_model.syn_give_up_window_s(retries, 4)
        assert low <= measured <= high, (retries, measured, low, high)
    assert syn_model.syn_retransmissions(2, 4) == 5 and syn_model.syn_retransmissions(6, 4) == 10
    assert syn_model.syn_give_up_s(6, 0) == 127.0 and syn_model.syn_retransmissions(6, 0) == 6
    assert syn_model.syn_give_up_s(2, 4) == 7.0        # not 11 s: the count of retries is not what ends it


def jvm_cell_scenario(control, ttl):
    raw = {"control": control, "load": {"probe": {}},
           "cells": [{"name": "j", "client": "jdbc", "tcp_retries2": 5,
                      "jdbc": {"connectTimeout": 2000, "networkaddress.cache.ttl": ttl}}],
           "steps": [{"fault": "host_silent", "target": "db-primary"}]}
    return scenario.parse(raw, "j.yaml", "j")


def test_the_jvms_name_cache_goes_to_the_jvm_not_the_driver_and_only_where_a_name_is_looked_up():
    from harness.load import zoo
    parsed = jvm_cell_scenario("dns", 5)
    command = zoo.command(parsed, parsed.cells[0], NAME, None, 60)
    assert "ZOO_JAVA_SECURITY=networkaddress.cache.ttl=5" in command
    assert "connectTimeout=2000" in command and not any(a.startswith("networkaddress") for a in command)
    assert jvm_cell_scenario("dns", -1).cells[0].client_settings[-1] == ("networkaddress.cache.ttl", -1)   # for ever
    with pytest.raises(ScenarioError, match="changes nothing here"):
        jvm_cell_scenario("manual", 5)
    with pytest.raises(ScenarioError, match="networkaddress.cache.ttl"):
        jvm_cell_scenario("dns", -2)


def test_a_host_list_names_each_server_and_is_refused_where_the_servers_are_behind_a_vip():
    from harness.signals.base import LoadPlan
    front = planned_addresses()[DIRECTOR]["front"].rsplit(".", 1)[0]
    director = control_plane("dns").services(planned_addresses(), database(), ("db-primary", "db-replica"))[DIRECTOR]
    assert director["environment"]["DNS_SERVERS"] == f"{front}.121 db-primary.lab {front}.122 db-replica.lab"
    raw = {"control": "dns", "load": {"probe": {}}, "steps": [{"fault": "host_silent", "target": "db-primary"}],
           "cells": [{"name": "h", "client": "jdbc", "tcp_retries2": 5, "hosts": ["db-replica", "db-primary"]}]}
    parsed = scenario.parse(raw, "h.yaml", "h")
    plan = LoadPlan(parsed, None, NAME, "nftables")
    assert plan.client_target(parsed.cells[0]) == ("db-replica.lab,db-primary.lab", None)
    for cell, message in (({"hosts": ["db-primary"]}, "two or more"), ({"client": "pymysql"}, "takes one host"),
                          ({"hosts": ["db-primary", "db-primary"]}, "each once"),
                          ({"hosts": [["db-primary"], "db-replica"]}, "two or more")):   # found by the scenario fuzz
        with pytest.raises(ScenarioError, match=message):
            scenario.parse({**raw, "cells": [{**raw["cells"][0], **cell}]}, "h.yaml", "h")
    with pytest.raises(ScenarioError, match="only under control: dns"):
        scenario.parse({**raw, "control": "manual"}, "h.yaml", "h")


def test_the_probe_lists_hosts_on_postgresql_only_and_its_connect_timeout_is_libpqs():
    """libpq takes host=a,b and a connect_timeout of whole seconds, 1 taken as 2 (docs/facts/postgres.md);
    PyMySQL takes one host."""
    from harness.answer.back import reconnect
    from harness.answer.question import Question
    cell = {"name": "l", "tcp_retries2": 5, "hosts": ["db-primary", "db-replica"], "connect_timeout_s": 2}
    raw = {"control": "dns", "database": "postgres", "load": {"probe": {}}, "cells": [cell],
           "steps": [{"fault": "host_silent", "target": "db-primary"}]}
    parsed = scenario.parse(raw, "l.yaml", "l")
    assert parsed.cells[0].hosts == ("db-primary", "db-replica")
    with pytest.raises(ScenarioError, match=r"cells: l: hosts: the lab's probe on MariaDB \(PyMySQL\) takes one host"):
        scenario.parse({**raw, "database": "mariadb"}, "l.yaml", "l")
    with pytest.raises(ScenarioError, match="cells: l: connect_timeout_s: libpq's connect_timeout is whole seconds, "
                                            "not 2.5"):
        scenario.parse({**raw, "cells": [{**cell, "connect_timeout_s": 2.5}]}, "l.yaml", "l")
    for given, kept in ((1, 2.0), (2, 2.0), (5, 5.0)):
        question = Question.of({"tcp_retries2": 5, "connect_timeout_s": given}, plane="dns", engine="postgres")
        assert reconnect(question, control_plane("dns"), False).attempt_s == kept
    question = Question.of({"tcp_retries2": 5, "connect_timeout_s": 1}, plane="dns")       # PyMySQL's: as given
    assert reconnect(question, control_plane("dns"), False).attempt_s == 1.0


def test_the_jvms_name_cache_is_never_taken_as_used_where_no_name_is_looked_up():
    from harness.answer.explain import ExplainError, parse_knobs
    from harness.imports import driver_url
    with pytest.raises(ExplainError, match="changes nothing here"):
        parse_knobs(["CLIENT=jdbc", "networkaddress.cache.ttl=5"])
    found = driver_url.parse("jdbc:mysql://db-vip:3306/orders?socketTimeout=3000&networkaddress.cache.ttl=5")
    assert found.settings == (("socketTimeout", 3000),)
    assert found.not_modelled == (("networkaddress.cache.ttl", "5"),)        # a JVM property, not the URL's


def test_a_urls_host_list_is_named_never_dropped():
    from harness.imports import driver_url
    found = driver_url.parse("jdbc:mysql://db1.example:3306,db2.example:3306/orders?connectTimeout=2000")
    assert found.settings == (("connectTimeout", 2000),)
    [(name, said)] = found.not_modelled
    assert name == "hosts" and said.startswith("db1.example:3306, db2.example:3306: a host list, tried in order")
    assert "hosts" not in " ".join(found.explain_words())          # explain is never told it was used
    assert driver_url.parse("jdbc:mysql://db-vip:3306/orders").not_modelled == ()


def test_a_setting_that_picks_among_listed_hosts_is_a_choice_and_refused_where_there_is_one_host():
    """target_session_attrs (libpq's values, pgx's) and pgJDBC's targetServerType name one of their
    documented values; explain's client has one host, where they change nothing."""
    from harness.answer.explain import ExplainError, parse_knobs
    from harness.settings.kinds import SettingsError
    cell = {"name": "p", "client": "pgx", "tcp_retries2": 5, "hosts": ["db-primary", "db-replica"],
            "pgx": {"connect_timeout": 2, "target_session_attrs": "read-write"}}
    raw = {"control": "dns", "database": "postgres", "load": {"probe": {}}, "cells": [cell],
           "steps": [{"fault": "host_silent", "target": "db-primary"}]}
    assert dict(scenario.parse(raw, "p.yaml", "p").cells[0].client_settings)["target_session_attrs"] == "read-write"
    with pytest.raises(ScenarioError, match="must be one of any, read-write, read-only, primary, standby, "
                                            "prefer-standby, not 'read_write'"):
        scenario.parse({**raw, "cells": [{**cell, "pgx": {"target_session_attrs": "read_write"}}]}, "p.yaml", "p")
    with pytest.raises(ScenarioError, match="target_session_attrs: a knob of the lab's own probe; pgx takes its own"):
        scenario.parse({**raw, "cells": [{**cell, "target_session_attrs": "read-write"}]}, "p.yaml", "p")
    with pytest.raises(ScenarioError, match=r"target_session_attrs: libpq's; the lab's probe on MariaDB \(PyMySQL\) "
                                            "has none"):
        scenario.parse({**raw, "database": "mariadb", "cells": [{"name": "p", "target_session_attrs": "read-write"}]},
                       "p.yaml", "p")
    for words in (["CLIENT=pgx", "DB_ENGINE=postgres", "target_session_attrs=read-write"],
                  ["CLIENT=pgjdbc", "DB_ENGINE=postgres", "targetServerType=primary"]):
        with pytest.raises(ExplainError, match="changes nothing here: explain's client lists one host"):
            parse_knobs(words)
    with pytest.raises(SettingsError, match="targetServerType takes one of any, primary"):
        parse_knobs(["CLIENT=pgjdbc", "DB_ENGINE=postgres", "targetServerType=leader"])


def test_explain_under_a_name_says_it_assumes_no_caching_daemon_where_the_runtime_asks_getaddrinfo():
    """nscd keeps an answer until its next reload (docs/facts/dns.md): an answer for a glibc or JVM
    client says it assumed none; Go's own resolver never asks one."""
    from harness.answer.back_by_name import NO_DAEMON, cache_ttl_s
    from harness.answer.question import Question
    for cell, named in (({"tcp_retries2": 5}, True), ({"client": "jdbc", "jdbc": {"networkaddress.cache.ttl": 0}}, True),
                        ({"client": "jdbc"}, True), ({"client": "go"}, False),
                        ({"client": "jdbc", "jdbc": {"networkaddress.cache.ttl": -1}}, False)):   # for ever: moot
        words = cache_ttl_s(Question.of(cell).cell)[1]
        assert (NO_DAEMON in words) == named, (cell, words)
