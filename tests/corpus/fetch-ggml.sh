#!/bin/sh
# Fetches ggml's Metal kernels for the corpus.ggml test: the npm package llama.rn 0.12.9, which ships
# cpp/ggml-metal/ggml-metal.metal (ggml-common.h embedded) and its headers. Checks the tarball's sha512 against the
# integrity pinned here and unpacks it outside the source tree, into
#   ${MTL2GLSL_CORPUS_DIR:-$HOME/.cache/mtl2glsl/corpus}/llama.rn-0.12.9   (or the folder given as $1)
# Idempotent: a folder already unpacked from the same verified tarball is left alone. Prints the folder.
# Downloads with `npm pack` (Debian's npm); without npm, with python3 from the registry's tarball address.
set -eu
NAME=llama.rn
VERSION=0.12.9
INTEGRITY=sha512-uRsTVARp1KnDkDg00FvOGIrN6SZfMqYVJfCOdxN9FSyGufLC+Aad6oFWZVEO8vmtNqu+JBlsCGevP4sJGifAvg==
URL=https://registry.npmjs.org/llama.rn/-/llama.rn-$VERSION.tgz

if [ -z "${1:-}" ] && [ -z "${MTL2GLSL_CORPUS_DIR:-}" ] && [ -z "${HOME:-}" ]; then
    echo "fetch-ggml.sh: error: no HOME: set MTL2GLSL_CORPUS_DIR or give the folder" >&2
    exit 1
fi
DEST=${1:-${MTL2GLSL_CORPUS_DIR:-$HOME/.cache/mtl2glsl/corpus}/$NAME-$VERSION}
STAMP=$DEST/.mtl2glsl-integrity

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$INTEGRITY" ] && [ -f "$DEST/cpp/ggml-metal/ggml-metal.metal" ]; then
    echo "$DEST"
    exit 0
fi

# sha512-BASE64 of a file, as npm writes integrity
integrity_of() {
    python3 -c 'import base64, hashlib, sys; print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$1"
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mtl2glsl-fetch.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
TGZ=$TMP/$NAME-$VERSION.tgz
if command -v npm >/dev/null 2>&1; then
    (cd "$TMP" && npm pack --silent --cache "$TMP/npm-cache" "$NAME@$VERSION" >/dev/null)
else
    echo "fetch-ggml.sh: no npm (apt-get install npm): downloading $URL with python3" >&2
    python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$URL" "$TGZ"
fi
[ -f "$TGZ" ] || { echo "fetch-ggml.sh: error: no $TGZ after the download" >&2; exit 1; }
GOT=$(integrity_of "$TGZ")
if [ "$GOT" != "$INTEGRITY" ]; then
    echo "fetch-ggml.sh: error: $NAME-$VERSION.tgz has integrity $GOT, expected $INTEGRITY" >&2
    exit 1
fi

mkdir -p "$TMP/unpacked"
tar -xzf "$TGZ" -C "$TMP/unpacked" --strip-components=1 --no-same-owner
[ -f "$TMP/unpacked/cpp/ggml-metal/ggml-metal.metal" ] || {
    echo "fetch-ggml.sh: error: the package has no cpp/ggml-metal/ggml-metal.metal" >&2; exit 1; }
echo "$INTEGRITY" >"$TMP/unpacked/.mtl2glsl-integrity"
mkdir -p "$(dirname "$DEST")"
rm -rf "$DEST"
mv "$TMP/unpacked" "$DEST"
echo "$DEST"
