#!/usr/bin/env bash
# After the soak and the end-to-end suite: no API key in any file the app or the soak
# wrote (SQLite files and their WAL, logs, settings, captured output) except a till's
# own key file, which must be readable by its owner only (0600).
#
#   scripts/no-key-outside-key-files.sh DIR...
# A key is its prefix and 32 base62 characters; the visible 12-character prefix alone
# (kept with a message, as the dashboard shows it) is not a key.
set -euo pipefail
status=0
pattern='lc_(test|live)_[A-Za-z0-9]{32}'
for dir in "$@"; do
  [ -d "$dir" ] || continue
  while IFS= read -r -d '' file; do
    if [ "$(basename "$file")" = api-key ]; then
      mode=$(stat -c %a "$file")
      if [ "$mode" != 600 ]; then
        echo "key file $file has mode $mode, not 600" >&2
        status=1
      fi
    else
      echo "an API key is in $file" >&2
      status=1
    fi
  done < <(grep -rlaEZ "$pattern" "$dir" || true)
done
[ "$status" = 0 ] && echo "no API key outside the key files (mode 600) in: $*"
exit "$status"
