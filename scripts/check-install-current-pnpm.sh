#!/usr/bin/env bash
# Proves that a newcomer who already has a newer pnpm than the pinned one (the current 12.x by default) can
# install and start the project: clones HEAD into a temporary directory, installs that pnpm into a private
# prefix (the machine's global pnpm is left alone), runs `pnpm install` and `pnpm start` with it, and waits for
# GET /health-check. Fails when the install fails, rewrites the lockfile or the manifests, or the service does
# not answer. Needs the npm registry. PNPM_CHECK_VERSION picks another pnpm (default: the newest 12.x).
set -euo pipefail

repo="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
version="${PNPM_CHECK_VERSION:-12}"
timeout_s="${PNPM_CHECK_TIMEOUT:-180}"

log() { printf '[check-install-current-pnpm] %s\n' "$*"; }
# SIGTERM to the server's process group, as Ctrl-C in a terminal would; SIGKILL after $1 seconds.
stop_server() {
  kill -TERM -- "-$server_pid" 2>/dev/null || true
  for _ in $(seq 1 $(($1 * 10))); do kill -0 "$server_pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$server_pid" 2>/dev/null || true
  return 1
}

# Run from a `pnpm run` script, the pinned pnpm's npm_config_* settings (node-gyp path, reporter, frozen
# lockfile) would leak into the other pnpm; a newcomer's shell has none of them.
while IFS= read -r name; do unset "$name"; done < <(compgen -e | grep -E '^(npm_|pnpm_config_)|^(PNPM_SCRIPT_SRC_DIR|INIT_CWD)$' || true)
unset CI # the newcomer's plain `pnpm install`, not a CI frozen install; the lockfile check below covers that

work="$(mktemp -d "${TMPDIR:-/tmp}/check-install-current-pnpm.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then stop_server 10 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

log "cloning $(git -C "$repo" rev-parse --short HEAD) into $work/repo"
git clone --quiet "$repo" "$work/repo"

log "installing pnpm@$version into $work/pnpm"
npm install --prefix "$work/pnpm" --no-audit --no-fund --loglevel=error "pnpm@$version" >/dev/null
export PATH="$work/pnpm/node_modules/.bin:$PATH"
cd "$work/repo"
log "node $(node --version), pnpm $(pnpm --version) at $(command -v pnpm)"

pnpm install
if ! git diff --exit-code --stat -- pnpm-lock.yaml pnpm-workspace.yaml package.json; then
  log "FAIL: pnpm $(pnpm --version) rewrote the files above; one lockfile and one set of settings serve both pnpm versions"
  exit 1
fi

port="$(node -e 'const s=require("node:net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})')"
log "pnpm start on port $port, DATA_DIR $work/data"
set -m # its own process group, so that stopping it reaches every process under it
PORT="$port" DATA_DIR="$work/data" pnpm start >"$work/start.log" 2>&1 &
server_pid=$!
set +m

url="http://localhost:$port/health-check"
deadline=$((SECONDS + timeout_s))
until node -e 'fetch(process.argv[1]).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))' "$url"; do
  if ! kill -0 "$server_pid" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
    log "FAIL: $url did not answer 200 (server log below)"
    tail -n 40 "$work/start.log"
    exit 1
  fi
  sleep 1
done
log "OK: $url answered $(node -e 'fetch(process.argv[1]).then((r)=>r.text()).then(console.log)' "$url")"
# The install built the web UI, and the gateway serves it to a browser.
if ! node -e 'fetch(process.argv[1],{headers:{Accept:"text/html"}}).then((r)=>r.text()).then((t)=>process.exit(t.includes("<div id=\"root\">")?0:1),()=>process.exit(1))' "http://localhost:$port/"; then
  log "FAIL: http://localhost:$port/ did not serve the web UI (was it built by pnpm install?)"
  exit 1
fi
log "OK: the web UI is served at /"
if ! stop_server 15; then
  log "FAIL: pnpm start did not stop within 15 s of SIGTERM"
  exit 1
fi
log "OK: stopped on SIGTERM"
