# Helpers of the experiment scripts (connect4-sizes.sh, piratechnics-8x8.sh),
# sourced by them: W (the work folder), TRIAD, say and die come from the caller.

# publish_cfg OUT [LINES...]: appends LINES to OUT.tmp (the preset with its
# keys changed, written by the caller), has `triad config` check it, and
# renames it OUT.
publish_cfg() {
    local out=$1
    shift
    for line in "$@"; do echo "$line" >> "$out.tmp"; done
    "$TRIAD" config "$out.tmp" > /dev/null || die "the config $out.tmp is refused (above)"
    mv "$out.tmp" "$out"
}

# net NAME GEN: the network of generation GEN of the run W/NAME.
net() { printf '%s/%s/networks/gen-%04d.safetensors' "$W" "$1" "$2"; }

# run NAME GENS: the loop of W/NAME.toml in W/NAME, unless its last network
# is there; a killed run resumes.
run() {
    local name=$1 gens=$2 last
    last=$(net "$name" "$gens")
    if [ -f "$last" ]; then say "$name: done ($last)"; return; fi
    say "$name: $gens generations"
    local resume=()
    [ -f "$W/$name/state.json" ] && resume=(--resume)
    "$TRIAD" loop --config "$W/$name.toml" --run "$W/$name" "${resume[@]}"
}
