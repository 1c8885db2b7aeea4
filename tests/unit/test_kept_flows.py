"""Reconnects into a flow the director kept, from ss samples and the director's table
(signals/director_flows/kept_flows.py), and ss_log's first connection of a port taken again."""
from harness.measure import director_flows, ss_log
from harness.signals.director_flows import kept_flows, section as kept_flows_section

INFO = "\t bbr rto:1000 mss:524 cwnd:10 unacked:1\n"
OLD = "ESTAB 0 70 10.213.5.128:51548 10.213.5.10:3306 timer:(on,1.6sec,5)\n\t rto:6784 backoff:5\n"


def syn(port, resent):
    return f"SYN-SENT 0 1 10.213.5.128:{port} 10.213.5.10:3306 timer:(on,400ms,{resent})\n{INFO}"


SS = (f"@ 100.0\n{OLD}"                      # the blackholed connection, before the kernel gives up
      f"@ 114.5\n{syn(51548, 0)}{syn(51600, 0)}"
      f"@ 115.5\n{syn(51548, 1)}{syn(51600, 1)}"
      f"@ 117.5\n{syn(51548, 2)}"
      "@ 118.0\nESTAB 0 0 10.213.5.128:51600 10.213.5.10:3306 timer:(keepalive,119min,0)\n\t rto:204\n")
TABLE = ("tcp 6 299 ESTABLISHED src=10.213.5.128 dst=10.213.5.10 sport=51548 dport=3306 "
         "src=10.213.6.21 dst=10.213.6.10 sport=3306 dport=51548 [ASSURED] mark=0 use=1\n"
         "TCP 14:59  ESTABLISHED 10.213.5.128:51600 10.213.5.10:3306   10.213.6.21:3306\n")


def test_a_resent_syn_from_an_address_the_director_holds_is_a_reconnect_into_its_kept_flow():
    found = kept_flows.reconnects_into_kept_flows(ss_log.parse(SS), director_flows.parse_table(TABLE), 99.0)
    assert [(f.client, f.backend, f.first_resent_s, f.last_seen_s, f.got_through) for f in found] == [
        ("10.213.5.128:51548", "10.213.6.21:3306", 16.5, 18.5, False),
        ("10.213.5.128:51600", "10.213.6.21:3306", 16.5, 16.5, True)]


def test_no_kept_flow_or_no_resent_syn_is_no_finding():
    samples = ss_log.parse(SS)
    assert kept_flows.reconnects_into_kept_flows(samples, [], 99.0) == []
    first_syn_only = ss_log.parse(f"@ 114.5\n{syn(51548, 0)}")
    assert kept_flows.reconnects_into_kept_flows(first_syn_only, director_flows.parse_table(TABLE), 99.0) == []
    assert kept_flows.reconnects_into_kept_flows(samples, director_flows.parse_table(TABLE), 120.0) == []


def test_the_first_connection_of_a_port_ends_where_a_new_socket_takes_it():
    samples = [s for s in ss_log.parse(SS) if s.local_port == 51548]
    assert [s.state for s in samples] == ["ESTAB", "SYN-SENT", "SYN-SENT", "SYN-SENT"]
    assert [(s.t, s.local) for s in ss_log.first_connection(samples)] == [(100.0, "10.213.5.128:51548")]
    assert [s.t for s in ss_log.first_connection([s for s in ss_log.parse(SS) if s.local_port == 51600])] == [118.0]


def test_the_page_section_lists_each_reconnect_and_how_many_still_waited():
    found = [{"namespace": "r5", **f.as_record()} for f in kept_flows.reconnects_into_kept_flows(
        ss_log.parse(SS), director_flows.parse_table(TABLE), 99.0)]
    summary = {"signals": {"director_flows": {"kept_flow_reconnects": found}}}
    assert kept_flows_section.part_of(summary) == found and kept_flows_section.part_of({}) is None
    assert kept_flows_section.rows(found)[0] == ["r5", "10.213.5.128:51548", "10.213.6.21:3306", "ESTABLISHED",
                                                 "16.5 s", "18.5 s", "no"]
    assert kept_flows_section.explanation(found).startswith("2 reconnect(s)") and "(1 still waiting" in \
        kept_flows_section.explanation(found)


def test_a_flow_the_reconnect_itself_made_is_not_a_kept_one():
    """keepalived's run: the director scheduled r5-ut3000's new SYN to the dead primary before the
    check took it out; its table shows that flow in SYN_RECV, not an old connection's flow."""
    own_flow = ("TCP 00:59  SYN_RECV    10.213.5.128:51548 10.213.5.10:3306   10.213.6.21:3306\n"
                "TCP 14:59  ESTABLISHED 10.213.5.128:51600 10.213.5.10:3306   10.213.6.21:3306\n")
    found = kept_flows.reconnects_into_kept_flows(ss_log.parse(SS), director_flows.parse_table(own_flow), 99.0)
    assert [f.client for f in found] == ["10.213.5.128:51600"]
