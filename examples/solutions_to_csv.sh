#!/usr/bin/env sh
# Pipe nqueens' JSON lines into another program: here, every 8-queens solution as a CSV row of
# 1-based rows, one column per board column. Needs only the nqueens command and python3.
set -eu
nqueens solve 8 --format json | python3 -c '
import json, sys
for line in sys.stdin:
    print(",".join(str(row + 1) for row in json.loads(line)["rows"]))
'
