# Counting shared by .ci/run and .ci/checks (sourced; both keep `passed` and `failed` totals).
# shellcheck shell=bash

check() { # name, exit status
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "ok: $1"; else failed=$((failed + 1)); echo "FAILED: $1"; fi
}
add_counts() { # passed, failed, exit status, label: a suite's own counts; a failing exit with none failed is one more
  passed=$((passed + $1)); failed=$((failed + $2))
  echo "$4: $1 passed, $2 failed"
  if [ "$3" -ne 0 ] && [ "$2" -eq 0 ]; then check "$4 exit status" 1; fi
}
count_jest() { # results file, exit status, label: adds jest's counts to the totals
  local j_passed j_failed
  if [ ! -f "$1" ]; then check "$3 produced results" 1; return; fi
  read -r j_passed j_failed < <(node -e "const r=require('./$1'); console.log(r.numPassedTests, r.numFailedTests + r.numRuntimeErrorTestSuites)")
  add_counts "$j_passed" "$j_failed" "$2" "$3"
}
count_summary_line() { # log whose last "N passed, M failed" line counts, exit status, label
  local line s_passed s_failed
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
  if [ -z "$line" ]; then check "$3 printed its totals" 1; return; fi
  read -r s_passed _ s_failed _ <<<"$line"
  add_counts "$s_passed" "$s_failed" "$2" "$3"
}
count_summary_json() { # summary.json with passed/failed, exit status, label
  local s_passed s_failed
  if [ ! -f "$1" ]; then check "$3 produced a summary" 1; return; fi
  read -r s_passed s_failed < <(node -e "const s=require('./$1'); console.log(s.passed, s.failed)")
  add_counts "$s_passed" "$s_failed" "$2" "$3"
}
