# Run first in each document's shell by e2e/docs.e2e.mjs (not a script of its own).
set -euo pipefail

# __docs_status WANT curl ARGS...: prints what curl printed, and fails unless the API answered WANT.
# The runner puts it in front of a curl command whose comment gives a status (`# 204`, `# 404: a draft`).
__docs_status() {
  local want=$1 out code
  shift
  if printf '%s\n' "$@" | grep -q -- '%{http_code}'; then
    out=$("$@")
    printf '%s\n' "$out"
    code=${out##*$'\n'}
  else
    out=$("$@" -w '\n%{http_code}')
    code=${out##*$'\n'}
    out=${out%$'\n'*}
    if [ "$out" != "$code" ] && [ -n "$out" ]; then printf '%s\n' "$out"; fi
  fi
  if [ "$code" != "$want" ]; then
    echo "docs-test: the text says HTTP $want, the API answered $code" >&2
    return 1
  fi
}

# __docs_open URL LOG: waits (20 s at most) for a server started in the background to answer URL, then
# prints the page, as opening it in a browser shows it; on failure prints the server's LOG.
__docs_open() {
  local url=$1 log=$2 i
  for i in $(seq 100); do
    if curl -s -o /dev/null "$url"; then
      curl -s -f "$url" || { echo "docs-test: $url answered with an error status" >&2; cat "$log" >&2; return 1; }
      echo
      return 0
    fi
    sleep 0.2
  done
  echo "docs-test: nothing answered $url within 20 s" >&2
  cat "$log" >&2
  return 1
}
