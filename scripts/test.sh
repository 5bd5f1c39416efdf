#!/usr/bin/env bash
# `npm test`: every check, as CI runs it, from a fresh clone (package.json runs this through
# scripts/with-node24.sh, so it is on Node 24 whatever the machine's node). What it needs first comes
# with it: the packages (npm ci, when they are not installed), and Debian's Chromium and PostgreSQL
# when they are missing and this runs as root (scripts/test-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

node scripts/ensure-installed.js
scripts/test-tools.sh

npm run typecheck
npm run lint
npm run format:check
npm run test:unit
npm run build
npm run test:e2e
npm run test:e2e:postgres
