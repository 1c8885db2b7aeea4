'use strict';
// The lab's other programs stamp with the wall clock (CLOCK_REALTIME). performance.now() runs on the
// monotonic clock from the process's start, so performance.timeOrigin + performance.now() parts from
// the wall clock by every step the wall clock takes after the start (a paused virtual machine's clock
// set again on resume). Date.now() is the wall clock to the millisecond; the monotonic clock gives
// the fraction, anchored again on the wall clock whenever the two part by more than that millisecond.
const { performance } = require('perf_hooks');

let origin = performance.timeOrigin;

function now() {
  const wall = Date.now();                 // the wall clock's millisecond, rounded down
  const elapsed = performance.now();
  if (origin + elapsed < wall - 0.1 || origin + elapsed > wall + 1.1) origin = wall + 0.5 - elapsed;
  return (origin + elapsed) / 1000;
}

module.exports = { now };
