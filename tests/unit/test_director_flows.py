"""The director's flow table, as either datapath prints it."""
from harness.measure import director_flows

IPVS = """IPVS connection entries
pro expire state       source             virtual            destination
TCP 14:59  ESTABLISHED 10.213.1.129:43210 10.213.1.10:3306   10.213.2.21:3306
TCP 00:17  ESTABLISHED 10.213.1.130:51000 10.213.1.10:80     10.213.2.31:80
UDP 04:59  UDP         10.213.1.129:5353  10.213.1.10:53     10.213.2.31:53
"""
CONNTRACK = ("tcp      6 899 ESTABLISHED src=10.213.1.128 dst=10.213.1.10 sport=42418 dport=3306 "
             "src=10.213.2.21 dst=10.213.2.10 sport=3306 dport=42418 [ASSURED] mark=0 use=1\n")


def test_ipvs_entries_with_their_time_left():
    flows = director_flows.parse_table(IPVS)
    assert [(f.client, f.backend, f.expires_s) for f in flows] == [
        ("10.213.1.129:43210", "10.213.2.21:3306", 899), ("10.213.1.130:51000", "10.213.2.31:80", 17)]


def test_conntrack_entries_name_the_backend_they_were_dnatted_to():
    [flow] = director_flows.parse_table(CONNTRACK)
    assert (flow.client, flow.vip, flow.backend, flow.state, flow.expires_s) == (
        "10.213.1.128:42418", "10.213.1.10:3306", "10.213.2.21:3306", "ESTABLISHED", 899)


def test_samples_are_read_per_timestamp_and_found_by_client_port():
    samples = director_flows.parse_samples(f"@ 100.5\n{IPVS}@ 101.5\n@ 102.5\n{CONNTRACK}")
    assert [(t, len(flows)) for t, flows in samples] == [(100.5, 2), (101.5, 0), (102.5, 1)]
    assert director_flows.of_client(samples[0][1], "10.213.1.130", 51000)[0].vip == "10.213.1.10:80"
    assert director_flows.of_client(samples[1][1], "10.213.1.130", 51000) == []


def test_a_port_names_a_connection_only_with_its_clients_address():
    two_clients = IPVS + "TCP 14:58  ESTABLISHED 10.213.1.20:43210 10.213.1.10:3306   10.213.2.22:3306\n"
    flows = director_flows.parse_table(two_clients)
    assert [f.backend for f in director_flows.of_client(flows, "10.213.1.20", 43210)] == ["10.213.2.22:3306"]
    assert [f.backend for f in director_flows.of_client(flows, "10.213.1.129", 43210)] == ["10.213.2.21:3306"]
    assert director_flows.of_client(flows, "10.213.1.21", 43210) == []
