#!/bin/bash
test -f /run/lab-ready && mysql -N -e 'SELECT 1' >/dev/null
