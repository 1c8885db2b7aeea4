"""Which datapath the director runs: what was asked for, as the kernel under the lab allows."""
from ..errors import LabError
from ..topology import DATAPATHS, DEFAULT_DATAPATH


def resolve_datapath(requested: str | None, has_ipvs: bool) -> str:
    requested = requested or DEFAULT_DATAPATH        # unset or empty (an exported, unset make variable)
    if requested not in DATAPATHS:
        raise LabError(f"LB_DATAPATH must be one of {', '.join(DATAPATHS)}, not {requested!r}")
    if requested == "ipvs" and not has_ipvs:
        raise LabError("LB_DATAPATH=ipvs, but this kernel has no IPVS (/proc/net/ip_vs missing): "
                       "load ip_vs on the host, or use LB_DATAPATH=auto or nftables")
    if requested == "auto":
        return "ipvs" if has_ipvs else "nftables"
    return requested
