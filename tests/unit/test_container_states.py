"""The lab's look at its containers' states: inspect's lines read back (the format itself is run by
every lab test's health wait against the real engine)."""
from harness.lab.container_states import ContainerState, parse_states


def test_each_field_of_a_container_is_read_from_its_row():
    rows = [["mysql-replica", "running", "starting", "0", "false"], ["client-netns", "running", "", "0", "false"],
            ["mysql-primary", "exited", "unhealthy", "137", "true"]]
    assert parse_states(rows) == {
        "mysql-replica": ContainerState("running", "starting", 0, False),
        "client-netns": ContainerState("running", None, 0, False),
        "mysql-primary": ContainerState("exited", "unhealthy", 137, True)}
    assert parse_states([]) == {}

