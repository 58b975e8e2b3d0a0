#!/bin/sh
# Fetches the Debian packages listed in tools/debian_packages.txt and unpacks them under
# DEST/root (default build/deps), without installing anything system-wide and without root:
# `apt-get download` + `dpkg -x`. Re-runs only when the package list changed (stamp file).
# If the package lists are missing (a fresh container), runs `apt-get update` once when root.
set -eu
cd "$(dirname "$0")/.."
DEST=$(mkdir -p "${1:-build/deps}" && cd "${1:-build/deps}" && pwd)
LIST=tools/debian_packages.txt
PKGS=$(sed -e 's/#.*//' "$LIST" | tr -s ' \n' ' ')
STAMP="$DEST/root/.packages"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$PKGS" ]; then
  exit 0
fi
mkdir -p "$DEST/debs"
cd "$DEST/debs"
# _apt cannot write into a root-owned build folder; download as the caller instead.
if ! apt-get -q -o APT::Sandbox::User="$(id -un)" download $PKGS >/dev/null 2>../apt.log; then
  if [ "$(id -u)" = 0 ]; then
    apt-get -q update >/dev/null
    apt-get -q -o APT::Sandbox::User=root download $PKGS >/dev/null
  else
    cat ../apt.log >&2
    echo "fetch_debs: apt-get download failed (see above)" >&2
    exit 1
  fi
fi
cd ..
rm -rf root.new
for p in $PKGS; do
  deb=$(ls debs/${p}_*.deb | tail -n 1)
  dpkg -x "$deb" root.new
done
# A -dev package's absolute symlink (zlib1g-dev's /usr/lib/<arch>/libz.so -> /lib/<arch>/...)
# points at the host; point it at the unpacked file instead.
find root.new -type l -lname '/*' | while read -r link; do
  target=$(readlink "$link")
  rel=$(realpath -m --relative-to="$(dirname "$link")" "root.new$target")
  ln -sfn "$rel" "$link"
done
rm -rf root
mv root.new root
echo "$PKGS" > "$STAMP"
echo "fetch_debs: unpacked $(echo $PKGS | wc -w) packages into $DEST/root"
