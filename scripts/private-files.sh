#!/usr/bin/env bash
# After the end-to-end suite: what each app kept is its user's alone. In every app data
# folder the tests' homes hold, the folder itself, its tills, its demo and its logs are
# 0700 (no one else may enter), and each till's database, WAL and index are 0600.
#
#   scripts/private-files.sh DIR...
set -euo pipefail
status=0
checked=0
for dir in "$@"; do
  [ -d "$dir" ] || continue
  while IFS= read -r -d '' root; do
    checked=$((checked + 1))
    tills=()
    for till in "$root/till" "$root/demo/till"; do
      [ -d "$till" ] && tills+=("$till")
    done
    while IFS= read -r -d '' open; do
      echo "readable by others: $open ($(stat -c %a "$open"))" >&2
      status=1
    done < <(find "$root" -maxdepth 0 -perm /077 -print0
             find "$root" -mindepth 1 -maxdepth 1 -type d \( -name till -o -name demo -o -name logs \) -perm /077 -print0
             [ "${#tills[@]}" -eq 0 ] || find "${tills[@]}" \( -type d -o -name 'till.db*' \) -perm /077 -print0)
  done < <(find "$dir" -type d -name app.loyaltycounter.desktop -path '*/data/*' -print0)
done
[ "$status" = 0 ] && echo "the app's data are their user's alone in $checked data folders"
exit "$status"
