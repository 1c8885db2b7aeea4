"""The lab's look at its containers' states: inspect's lines read back (the format itself is run by
every lab test's health wait against the real engine)."""
import pytest

from harness.lab.container_states import ContainerState, parse_states


def test_each_field_of_a_container_is_read_from_its_row():
    rows = [["db-replica", "running", "starting", "0", "false"], ["client-netns", "running", "", "0", "false"],
            ["db-primary", "exited", "unhealthy", "137", "true"]]
    assert parse_states(rows) == {
        "db-replica": ContainerState("running", "starting", 0, False),
        "client-netns": ContainerState("running", None, 0, False),
        "db-primary": ContainerState("exited", "unhealthy", 137, True)}
    assert parse_states([]) == {}



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
