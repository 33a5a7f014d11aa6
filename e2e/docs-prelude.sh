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
