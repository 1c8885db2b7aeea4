"""sysbench prepare through a VIP that refuses at first, as a cluster's VIP does until kube-proxy's
sync programs the Service's endpoint: the run asks again until the VIP takes the connection, and
the tables are made. The refusal here is the director's own: the mysql service pointed at web-a,
where nothing listens on 3306 (its kernel answers with a reset), then back at the primary."""
import threading

from harness import scenario
from harness.load import sysbench
from harness.run import loads

SWAP_BACK_LIMIT_S = 120


def test_prepare_is_asked_again_while_the_vip_refuses_then_makes_its_tables(lab, director):
    spec = scenario.load("lvs-switchover")[0].sysbench
    vip = director.director.vip_address()
    prepare = sysbench.prepare_command(spec, vip)
    cleanup = [*prepare[:-1], "cleanup"]
    lab.exec("client", cleanup, check=False)
    director.swap("mysql", old="db-primary", new="web-a")
    told, refused, swapped_back = [], threading.Event(), threading.Event()

    def say(line):
        told.append(line)
        refused.set()

    def swap_back_once_refused():
        if refused.wait(SWAP_BACK_LIMIT_S):
            director.swap("mysql", old="web-a", new="db-primary")
            swapped_back.set()
    swapper = threading.Thread(target=swap_back_once_refused)
    swapper.start()
    try:
        loads.prepare_sysbench(lab, "client", prepare, 120, say)
    finally:
        refused.set()
        swapper.join()
        made = lab.exec("client", ["mariadb", "-h", vip, "-usbtest", "-psbtest", "-N", "-e",
                                   f"SELECT COUNT(*) FROM sbtest.sbtest{spec.tables}"], check=False)
        lab.exec("client", cleanup, check=False)
    assert len(told) == 1 and "takes no connection" in told[0], told
    assert swapped_back.is_set()
    assert made.stdout.strip() == str(spec.table_size), made
