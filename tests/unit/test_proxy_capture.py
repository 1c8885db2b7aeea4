"""What a proxy director sent its clients, read from tcpdump's lines on the director."""
from harness.signals.proxy import proxy_capture
from harness.topology import SERVICE_PORTS

# A client at .20 and another at .21 with the same local port, and the director's own leg to the
# old primary whose local port is that number too (the primary's FIN comes *in* from 3306).
CAPTURE = """\
1795935113.750123 eth0  Out IP 10.213.1.10.3306 > 10.213.1.20.56330: Flags [F.], seq 1, ack 1, win 502, length 0
1795935113.750201 eth0  Out IP 10.213.1.10.3306 > 10.213.1.20.56330: Flags [R.], seq 2, ack 1, win 502, length 0
1795935114.100000 eth0  Out IP 10.213.1.10.3306 > 10.213.1.21.56330: Flags [F.], seq 1, ack 1, win 502, length 0
1795935115.000000 eth1  In  IP 10.213.2.21.3306 > 10.213.2.10.56330: Flags [F.], seq 9, ack 4, win 509, length 0
1795935115.500000 eth0  Out IP 10.213.1.10.3306 > 10.213.1.20.56330: Flags [.], ack 2, win 502, length 0
"""


def test_the_closes_sent_one_client_are_its_address_and_port_only():
    found = proxy_capture.segments(CAPTURE)
    assert len(found) == 4, "a segment without FIN or RST is no close"
    sent = proxy_capture.closes_to(found, "10.213.1.20:56330", set(SERVICE_PORTS.values()))
    assert [(s.t, s.flags) for s in sent] == [(1795935113.750123, "F."), (1795935113.750201, "R.")]
    assert proxy_capture.told(sent) == "FIN then RST"
    other = proxy_capture.closes_to(found, "10.213.1.21:56330", set(SERVICE_PORTS.values()))
    assert proxy_capture.told(other) == "FIN"
    assert proxy_capture.told([]) is None
