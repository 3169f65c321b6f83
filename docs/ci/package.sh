#!/usr/bin/env bash
# Packs one built cosmosim binary for a release (docs/ci/release.yml runs it on every
# platform; tests/release_recipe.rs runs it on the binary the tests built).
#   package.sh BINARY TARGET OUT_DIR
# writes OUT_DIR/cosmosim-<version>-<TARGET>.tar.gz holding the binary, the README and
# the licence note, and a .sha256 file beside it in the format `sha256sum -c` reads.
set -euo pipefail
bin="$1"
target="$2"
out="$3"
root="$(cd "$(dirname "$0")/../.." && pwd)"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)"
name="cosmosim-${version}-${target}"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name" "$out"
cp "$bin" "$stage/$name/"
cp "$root/README.md" "$stage/$name/"
printf 'cosmosim %s, MIT licence (see Cargo.toml).\n' "$version" > "$stage/$name/LICENSE.txt"
archive="$name.tar.gz"
tar -C "$stage" -czf "$stage/$archive" "$name"
mv "$stage/$archive" "$out/"
cd "$out"
if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$archive" > "$archive.sha256"
else
    shasum -a 256 "$archive" > "$archive.sha256"
fi
echo "$out/$archive"
