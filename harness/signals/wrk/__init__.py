"""wrk's HTTP load through the VIP (nginx scenarios): requests per second, before and after the fault."""
from ...load import wrk
from ..base import Load, LoadPlan, Signal


class Wrk(Signal):
    name = "wrk"
    files = {"log": "load/wrk.log"}

    def loads(self, plan: LoadPlan) -> list[Load]:
        s = plan.scenario
        if not s.wrk:
            return []
        return [Load(s.cells[0].service, self.file(plan.run, "log"), tuple(wrk.command(s.wrk, plan.vip, plan.duration_s)),
                     wrk.PROCESS)]
