# Timing helpers shared by the whole-process benches (sourced, not run): each run appends
# "wall cpu peak_kib" to a file, and the report prints medians and the median of per-round
# ratios. The caller sets $work, a scratch folder.
#
#   . "$here/bench/timed_runs.sh"
#   timed "$work/t_floe" floe scan ...       # one run
#   report "floe" "$work/t_floe"             # medians of wall, cpu, peak
#   ratio "$work/t_floe" "$work/t_duck" floe DuckDB

# One timed run: appends "wall cpu peak_kib" to the file $1; a failing command stops the bench.
timed() {
  local into=$1
  shift
  /usr/bin/time -o "$work/time" -f '%e %U %S %M' "$@" >/dev/null 2>"$work/stderr" || {
    cat "$work/stderr" >&2
    exit 1
  }
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/time" >>"$into"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

report() {  # name file
  printf '  %-22s wall %6.2f s  cpu %6.2f s  peak %5d MiB\n' "$1" "$(cut -d' ' -f1 "$2" | median)" \
    "$(cut -d' ' -f2 "$2" | median)" "$(( $(cut -d' ' -f3 "$2" | median | cut -d. -f1) / 1024 ))"
}

ratio() {  # a_file b_file a_name b_name: median of the per-round wall and cpu ratios
  printf '  %s / %s: wall %.2fx  cpu %.2fx (median of per-round ratios)\n' "$3" "$4" \
    "$(paste -d' ' "$1" "$2" | awk '{ print $1 / $4 }' | median)" \
    "$(paste -d' ' "$1" "$2" | awk '{ print $2 / $5 }' | median)"
}
