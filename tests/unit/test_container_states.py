"""The lab's look at its containers' states: inspect's lines read back (the format itself is run by
every lab test's health wait against the real engine)."""
import pytest

from harness.lab.container_states import ContainerState, health_of, parse_states


STARTED = "2026-12-04T17:01:02.123456789Z"
AGAIN = "2026-12-04T17:03:00.5Z"


def test_each_field_of_a_container_is_read_from_its_row():
    rows = [["db-replica", "running", "starting", "0", "false", STARTED], ["client-netns", "running", "", "0", "false", STARTED],
            ["db-primary", "exited", "unhealthy", "137", "true", STARTED]]
    assert parse_states(rows) == {
        "db-replica": ContainerState("running", "starting", 0, False, STARTED),
        "client-netns": ContainerState("running", None, 0, False, STARTED),
        "db-primary": ContainerState("exited", "unhealthy", 137, True, STARTED)}
    assert parse_states([]) == {}


def test_a_check_the_lab_ran_itself_counts_until_docker_checks_and_only_for_that_run_of_the_container():
    states = {"db-primary": ContainerState("running", "starting", 0, False, STARTED),
              "db-replica": ContainerState("running", "starting", 0, False, AGAIN),       # restarted since its pass
              "web-a": ContainerState("running", "unhealthy", 0, False, STARTED),         # Docker's own word stands
              "web-b": ContainerState("running", "starting", 0, False, STARTED),          # not passed yet
              "client": ContainerState("running", None, 0, False, STARTED)}
    passed = {"db-primary": STARTED, "db-replica": STARTED, "web-a": STARTED}
    assert health_of(states, passed) == {"db-primary": "healthy", "db-replica": "starting", "web-a": "unhealthy",
                                         "web-b": "starting", "client": "running"}



def test_a_container_gone_between_the_listing_and_the_inspect_is_looked_for_again():
    from harness.errors import LabError
    from harness.lab.docker_lists import ContainerVanished, listed_again_if_one_vanished
    looks = []

    def look():
        looks.append(1)
        if len(looks) == 1:
            raise ContainerVanished("`docker inspect` failed (1): Error: No such container: 3f2a")
        return [["db-replica", "running"]]
    assert listed_again_if_one_vanished(look) == [["db-replica", "running"]] and len(looks) == 2
    other = []

    def fails():
        other.append(1)
        raise LabError("`docker ps` failed (1): permission denied")
    with pytest.raises(LabError, match="permission denied"):
        listed_again_if_one_vanished(fails)
    assert other == [1]                 # any other failure is not asked again
