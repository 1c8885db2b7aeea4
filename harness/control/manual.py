"""The manual control plane: the harness itself changes the director when a scenario step says
so (the seed's `ipvsadm -d old; ipvsadm -a new`, an LB idle timeout), through lbctl in the
director's container (images/director/lbctl), the same over both datapaths."""

from .base import ControlPlane, DirectorChange, NoticeWindow, RunFiles

# The fault steps that are this control plane's commands (harness/faults/).
COMMANDS = ("ipvs_swap", "lb_idle_timeout")


class Manual(ControlPlane):
    name = "manual"

    def changes(self, run: RunFiles) -> list[DirectorChange]:
        changes = []
        for event in run.events():
            if event.get("source") == "harness" and event["event"] == "fault" and event["name"] in COMMANDS:
                params = event["params"]          # what the step recorded it did (never a made-up 'None')
                what = (f"swap {params['service']}: {params['old']} -> {params['new']}"
                        if event["name"] == "ipvs_swap" else f"idle timeout {params['seconds']} s")
                changes.append(DirectorChange(event["t"], event.get("uncertainty_s", 0.0), what,
                                              f"scenario step {event.get('step')}"))
        return changes

    def change_by_model(self, director: str | None = None, node_grace_s: float | None = None) -> NoticeWindow:
        """The seed's own story: the operator swaps the director at the death (lvs-switchover)."""
        return NoticeWindow(0.0, 0.0, 0.0, "the harness swaps the director at the death")

    def lb_noticed(self, change: DirectorChange, death_t: float) -> NoticeWindow:
        """An operator's command is the change itself: it notices when it is typed."""
        delay = max(0.0, change.t - death_t)
        return NoticeWindow(delay, delay, delay + change.uncertainty_s, "the operator's own command")
