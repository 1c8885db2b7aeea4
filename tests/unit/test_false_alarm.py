"""One model from the control plane's change to each client: a fault that killed nothing (a SYN
limit) after which keepalived took the live primary out all the same. Deleted with
expire_nodest_conn=0, the client waits out its kernel's budget counted from the removal
(kernel_facts' table, shifted); with =1 it is reset at its next packet; kept at weight 0
(inhibit_on_failure) it never notices. A removal on an extra virtual server's port is not the
client's."""
from harness.control import control_plane
from harness.control.base import DirectorChange
from harness.measure.effects import BLACKHOLE, NONE, RESET, Effect
from harness.measure.predict import predict
from harness.scenario.parser import read_cell
from tests.kernel_facts import RETRIES2

T_FAULT = 1000.0
REMOVED = DirectorChange(T_FAULT + 3.4, 0.4, "removed 10.213.2.21:3306 from 10.213.1.10:3306", "TCP_CHECK failed",
                         "director", "10.213.2.21:3306")
EXTRA = DirectorChange(T_FAULT + 1.0, 0.1, "removed 10.213.2.21:3306 from 10.213.1.10:13307", "TCP_CHECK failed",
                       "director", "10.213.2.21:3306")


def effect_for(**settings):
    plane = control_plane("keepalived", tuple(settings.items()))
    return plane.effect_on(Effect(NONE), "director", [EXTRA, REMOVED], T_FAULT)


def test_a_live_server_deleted_blackholes_its_flows_from_the_removal():
    effect = effect_for()
    assert (effect.kind, effect.starts_at_s, effect.starts_by_s) == (BLACKHOLE, 3.4, 3.8)
    window = predict(read_cell({"tcp_retries2": 5}, "cell"), effect, 0.1, 0.0)
    _, low, high = RETRIES2[5]
    assert 3.4 + low - 0.5 <= window.earliest_s and window.latest_s <= 3.8 + high + 1.0, window
    assert window.basis.startswith("from the control plane's change at 3.40-3.80 s: tcp_retries2=5")


def test_expire_nodest_conn_resets_and_inhibit_on_failure_leaves_the_flow_alone():
    assert effect_for(expire_nodest_conn=1).kind == RESET
    assert effect_for(inhibit_on_failure=True) == Effect(NONE)
    window = predict(read_cell({"tcp_retries2": 5}, "cell"), effect_for(expire_nodest_conn=1), 0.1, 0.0)
    assert 3.4 <= window.earliest_s and window.latest_s <= 3.8 + 1.0


def test_no_removal_no_effect():
    plane = control_plane("keepalived", ())
    assert plane.effect_on(Effect(NONE), "director", [EXTRA], T_FAULT) == Effect(NONE)
