"""The data accounting's part of summary.json: what the writer was told of each write beside
what the servers held after the run (ledger.account's figures, the run's settings around them)."""
from typing import NotRequired, TypedDict


class Attempts(TypedDict):
    ack: int
    failed: int
    in_doubt: int


class Second(TypedDict):
    t: int                           # whole seconds after the fault the writes were sent in
    ack: int
    lost: int
    in_doubt: int
    failed: int


class Refused(TypedDict):
    """Writes one server answered with one error (nothing committed): ledger.refused."""
    error: str                       # MYSQL_1290, PG_25006, ...
    server: str
    count: int
    first_s: float                   # when the first was sent, s from the fault (negative: before it)
    last_s: float


class Accounting(TypedDict):
    """ledger.account's figures."""
    writes: int
    attempts: Attempts
    acknowledged: int
    in_doubt: int
    never_written: int
    retried: int
    read_back: bool                  # the new primary was read after the run
    lost: NotRequired[int]
    lost_seqs: NotRequired[list[int]]
    in_doubt_committed: NotRequired[int]
    duplicates: NotRequired[int]
    duplicate_seqs: NotRequired[list[int]]
    unknown_rows: NotRequired[list[int]]     # rows the new primary holds that no write made
    only_on_old_primary: NotRequired[list[int]]


class DataRun(Accounting):
    per_second: list[Second]
    rate_per_s: float
    by_default: bool                 # the writer every failover has, not asked for
    attempts_per_write: int
    replication: str
    semi_sync_timeout_ms: int | None
    semi_sync_on_first_primary: dict[str, int | str] | None
    new_primary: str
    old_primary: str | None
    position_at_promotion: str | None
    unreadable: list[str]
    in_doubt_sent_at_s: list[float]
    unwritten_s: NotRequired[float]          # the longest stretch after the fault with no write acknowledged
    writes_resumed: NotRequired[bool]        # an acknowledged write ended it (False: it ran to the end)
    unwritten_from_s: NotRequired[float]     # when it began, s after the fault
    refused: NotRequired[list[Refused]]      # writes a server answered with an error, by error and server
    writer_log: NotRequired[str]             # 'missing' or 'empty': the writer made no attempt to account for
