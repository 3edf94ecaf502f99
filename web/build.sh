#!/bin/sh
# sh web/build.sh DIR: the static site, written into DIR: the page (index.html, `awari serve`'s
# own page with the transport that takes its requests to a worker, transport.js), the engine
# compiled to WebAssembly (awari.wasm), the JavaScript module that drives it (engine.js), the
# Web Workers that run it beside a page (page-worker.js, which answers the page's API, and
# worker.js, the engine's requests alone), and the endgame tables of
# oware, kalah and kalah-empty to 12 seeds (tables/, 5.4 MB a rule set, fetched by the page for
# the rule set in play). Any static file server, web host or file share can serve DIR; `node
# web/perft.mjs DIR ...` and `node web/bench.mjs DIR` run its engine under node.
#
# The tables are built by `awari tables build`, with the program $AWARI names, or else one
# built here (cargo build --release); they are kept in target/web/tables for the next build.
#
# The module is built by Debian's rustc-web (the only Rust here with the wasm32 target) from
# the standard library's source (rust-web-src), linked by lld-22; where they are missing they
# are installed with apt-get (as root, or through sudo). The crate's own builds keep their
# toolchain.
set -eu

usage="usage: sh web/build.sh DIR"
[ $# -eq 1 ] || { echo "$usage" >&2; exit 2; }
case $1 in -h|--help) echo "$usage"; exit 0 ;; -*) echo "$usage" >&2; exit 2 ;; esac
dir=$1
root=$(cd "$(dirname "$0")/.." && pwd)
# The tables' reach: every layer to this many seeds on the board.
SEEDS=12

# The first linker for WebAssembly found.
linker() {
    for l in rust-lld lld-22 wasm-ld-22 wasm-ld; do
        if command -v "$l" >/dev/null 2>&1; then command -v "$l"; return 0; fi
    done
    return 1
}

# Whether the toolchain is all here.
toolchain() {
    [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] \
        && /usr/bin/rustc --print target-list 2>/dev/null | grep -qx wasm32-unknown-unknown \
        && [ -d /usr/lib/rustlib/src/rust/library/std ] \
        && linker >/dev/null
}

if ! toolchain; then
    packages="rustc-web cargo-web rust-web-src lld-22"
    echo "web/build.sh: installing $packages (the compiler for WebAssembly)" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo=sudo; else
        echo "error: $packages are missing, and installing them needs root: apt-get install $packages" >&2
        exit 1
    fi
    if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $packages >/dev/null; }; then
        echo "error: apt-get could not install $packages" >&2
        exit 1
    fi
    toolchain || { echo "error: $packages are installed but the wasm32 toolchain is still incomplete" >&2; exit 1; }
fi

mkdir -p "$dir" || { echo "error: $dir: cannot make the directory" >&2; exit 1; }
[ -w "$dir" ] || { echo "error: $dir: not writable" >&2; exit 1; }

# Nightly features of a release compiler (RUSTC_BOOTSTRAP) for -Zbuild-std; 128-bit vectors,
# which every current browser and node run, for the network's sums.
echo "web/build.sh: building the engine for wasm32-unknown-unknown" >&2
RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=$(linker) \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128" \
    /usr/bin/cargo build --quiet --release --locked \
    --manifest-path "$root/web/engine/Cargo.toml" \
    --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort \
    --target-dir "$root/target/web"

awari=${AWARI:-}
if [ -z "$awari" ]; then
    echo "web/build.sh: building awari, for the tables" >&2
    cargo build --quiet --release --locked --manifest-path "$root/Cargo.toml" --bin awari
    awari="$root/target/release/awari"
fi
tables="$root/target/web/tables"
for variant in oware kalah kalah-empty; do
    "$awari" tables build --variant "$variant" --seeds $SEEDS --dir "$tables" >/dev/null
done
mkdir -p "$dir/tables"
for variant in oware kalah kalah-empty; do
    n=0
    while [ $n -le $SEEDS ]; do
        cp "$tables/$(printf '%s-%02d.awtb' "$variant" $n)" "$dir/tables/"
        n=$((n + 1))
    done
done

printf '{"seeds": %d, "variants": ["oware", "kalah", "kalah-empty"]}\n' $SEEDS > "$dir/tables/index.json"

cp "$root/target/web/wasm32-unknown-unknown/release/awari_web.wasm" "$dir/awari.wasm"
cp "$root/web/engine.js" "$root/web/worker.js" "$root/web/page-worker.js" "$dir/"

# The page: `awari serve`'s own files, with the transport that takes its requests to the
# worker (page-worker.js) in place of the server's.
page="$root/src/serve"
cp "$page/page.html" "$dir/index.html"
for f in serve.js review.js tables.js tree.js variations.js records.js lines.js puzzles.js serve.css; do
    cp "$page/$f" "$dir/$f"
done
cp "$root/src/referee/report/board.js" "$root/src/referee/report/board.css" "$dir/"
cp "$root/web/transport.js" "$dir/transport.js"
echo "web/build.sh: wrote $dir" >&2
