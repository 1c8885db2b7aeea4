"""lbctl: the lab director's control interface (same commands on both datapaths).

  lbctl init                              configure from LB_DATAPATH, LB_SERVICES, LB_IDLE_TIMEOUT
  lbctl add VIP:PORT BACKEND:PORT         add a real server
  lbctl remove VIP:PORT BACKEND:PORT [--nodest drop|reset] [--drain SECONDS]
  lbctl swap VIP:PORT OLD:PORT NEW:PORT [--nodest ...] [--drain ...]   remove + add, one transaction
  lbctl idle-timeout SECONDS              how long the LB remembers an idle flow
  lbctl list                              the state as JSON (datapath, services, removed)
  lbctl flows                             the kernel's flow table (conntrack -L / ipvsadm -Lnc)
  lbctl sync [--at T]                     re-apply the state (at unix time T: how a drain ends)
"""
import argparse
import json
import os
import sys
import time

from . import ipvs
from .ipvs import IpvsDatapath
from .nftables import NftablesDatapath
from .state import FORGOTTEN_POLICIES, NODEST_POLICIES, STATE_FILE, locked_state, parse_endpoint

READY_FILE = os.path.join(os.path.dirname(STATE_FILE), "ready")

DATAPATHS = {"ipvs": IpvsDatapath, "nftables": NftablesDatapath}


def choose_datapath(requested):
    if requested == "auto":
        return "ipvs" if ipvs.available() else "nftables"
    if requested == "ipvs" and not ipvs.available():
        raise SystemExit("lbctl: LB_DATAPATH=ipvs but this kernel has no IPVS (/proc/net/ip_vs is "
                         "missing; load ip_vs on the host or use LB_DATAPATH=auto|nftables)")
    if requested not in DATAPATHS:
        raise SystemExit(f"lbctl: LB_DATAPATH must be auto, ipvs or nftables, not {requested!r}")
    return requested


def parse_services(text):
    """'VIP:PORT=BACKEND:PORT,...' -> [(vip, backend)]."""
    pairs = []
    for item in filter(None, (s.strip() for s in text.split(","))):
        vip, sep, backend = item.partition("=")
        if not sep:
            raise SystemExit(f"lbctl: LB_SERVICES item {item!r} is not VIP:PORT=BACKEND:PORT")
        parse_endpoint(vip), parse_endpoint(backend)
        pairs.append((vip, backend))
    return pairs


def main(argv=None):
    parser = argparse.ArgumentParser(prog="lbctl", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("init")
    for name in ("add", "remove", "swap"):
        p = sub.add_parser(name)
        p.add_argument("vip")
        p.add_argument("backend")
        if name == "swap":
            p.add_argument("new_backend")
        if name != "add":
            p.add_argument("--nodest", choices=NODEST_POLICIES, default="drop")
            p.add_argument("--drain", type=float, default=0.0, metavar="SECONDS")
    sub.add_parser("idle-timeout").add_argument("seconds", type=int)
    for name in ("list", "flows"):
        sub.add_parser(name)
    sub.add_parser("sync").add_argument("--at", type=float, default=0.0, metavar="UNIX_TIME")
    args = parser.parse_args(argv)
    if args.command == "sync" and args.at:
        time.sleep(max(0.0, args.at - time.time()))     # started early, so its start-up is not late

    with locked_state() as state:
        if args.command == "init":
            state.datapath = choose_datapath(os.environ.get("LB_DATAPATH", "auto"))
            state.idle_timeout_s = int(os.environ.get("LB_IDLE_TIMEOUT", "900"))
            state.forgotten_flows = os.environ.get("LB_FORGOTTEN_FLOWS", "reset")
            if state.forgotten_flows not in FORGOTTEN_POLICIES:
                raise SystemExit(f"lbctl: LB_FORGOTTEN_FLOWS must be one of {FORGOTTEN_POLICIES}, "
                                 f"not {state.forgotten_flows!r}")
            if state.forgotten_flows == "drop" and state.datapath != "nftables":
                raise SystemExit("lbctl: LB_FORGOTTEN_FLOWS=drop (a silent drop of forgotten flows) is emulated on "
                                 f"the nftables datapath only, not {state.datapath}")
            state.services, state.removed = {}, {}
            for vip, backend in parse_services(os.environ.get("LB_SERVICES", "")):
                state.add(vip, backend)
        elif not state.datapath:
            raise SystemExit("lbctl: not initialised (run 'lbctl init')")
        datapath = DATAPATHS[state.datapath]()
        try:
            if args.command == "add":
                state.add(args.vip, args.backend)
            elif args.command in ("remove", "swap"):
                state.remove(args.vip, args.backend, args.nodest, args.drain)
                if args.command == "swap":
                    state.add(args.vip, args.new_backend)
            elif args.command == "idle-timeout":
                state.idle_timeout_s = args.seconds
        except ValueError as exc:
            raise SystemExit(f"lbctl: {exc}")
        if args.command in ("init", "add", "remove", "swap", "idle-timeout", "sync"):
            # When the change landed, on the kernel clock every container shares: between these two.
            applying = time.time()
            try:
                landed = datapath.apply(state)
            except ValueError as exc:
                raise SystemExit(f"lbctl: {exc}")
            applied = time.time()
            if landed:                                   # the datapath knows more closely
                applying, applied = landed
            if args.command == "idle-timeout":
                datapath.age_existing_flows(state)
            print(json.dumps({"applying_t": applying, "applied_t": applied, "datapath": state.datapath}))
            if args.command == "init":
                open(READY_FILE, "w").close()          # the container's healthcheck looks for it
        if args.command == "list":
            print(state.to_json())
        elif args.command == "flows":
            sys.stdout.write(datapath.flows())
    return 0


if __name__ == "__main__":
    sys.exit(main())
