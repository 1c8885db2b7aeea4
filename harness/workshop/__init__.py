"""The workshop kit: exercises (exercises/*.yaml), the narration of a workshop run, and the
answers filled in from a run's own figures. docs/workshop/ is the participants' guide."""
