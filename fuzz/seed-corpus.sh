#!/usr/bin/env bash
# Regenerates the fuzz seeds from the test suite: every `sparse_kernel! { ... }`
# body in tests/ui/**/*.rs, tests/tests/*.rs, examples/ and sparse-core's docs
# becomes
#   fuzz/corpus/expand_tokens/<file>-<n>.kernel  (the text: expand_tokens' seeds,
#                                                 and what build.rs embeds for
#                                                 expand_grammar's splicer)
#   fuzz/corpus/expand_grammar/seed-<k>          (splice mode, seed k)
# Bodies larger than 4 KiB are skipped (they only slow the fuzzer down and
# swell the committed corpus). libFuzzer's own corpus files (hash names, no
# .kernel extension) are left alone.
# Run it after adding tests; commit the result.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT=..

rm -f corpus/expand_tokens/*.kernel corpus/expand_grammar/seed-*
mkdir -p corpus/expand_tokens corpus/expand_grammar corpus/runtime_assemble

# Brace matching that skips string literals and line comments,
# so a `}` in a doc string does not end a body early.
find "$ROOT/tests/ui" "$ROOT/tests/tests" "$ROOT/examples" "$ROOT/sparse-core/docs" \
    "$ROOT/sparse-core/src" -name '*.rs' -o -name '*.md' | sort |
    while read -r f; do
        perl -0777 -ne '
            my $src = $_;
            my $name = $ARGV;
            $name =~ s{^\.\./}{}; $name =~ s{[/.]}{_}g;
            my $n = 0;
            while ($src =~ /sparse_kernel!\s*\{/g) {
                my $start = pos($src);
                my ($depth, $i, $len) = (1, $start, length $src);
                while ($i < $len && $depth > 0) {
                    my $c = substr($src, $i, 1);
                    if ($c eq q{"}) {
                        $i++;
                        while ($i < $len && substr($src, $i, 1) ne q{"}) {
                            $i++ if substr($src, $i, 1) eq "\\";
                            $i++;
                        }
                    } elsif ($c eq "/" && substr($src, $i + 1, 1) eq "/") {
                        $i++ while $i < $len && substr($src, $i, 1) ne "\n";
                    } elsif ($c eq "{") { $depth++ }
                    elsif ($c eq "}") { $depth-- }
                    $i++;
                }
                next if $depth != 0;
                my $body = substr($src, $start, $i - 1 - $start);
                next if length($body) > 4096;
                $n++;
                open(my $out, ">", "corpus/expand_tokens/$name-$n.kernel") or die;
                print $out $body;
                close $out;
            }
        ' "$f" </dev/null
    done

n=$(find corpus/expand_tokens -name '*.kernel' | wc -l)
for ((k = 0; k < n; k++)); do
    # Splice mode (odd first byte), then the seed's index: one byte while
    # there are at most 256 seeds (`Unstructured::choose_index`), two above.
    if [[ $n -le 256 ]]; then
        printf "\\x01\\x$(printf %02x "$k")" >"corpus/expand_grammar/seed-$k"
    else
        printf "\\x01\\x$(printf %02x $((k / 256)))\\x$(printf %02x $((k % 256)))" >"corpus/expand_grammar/seed-$k"
    fi
done
echo "$n seeds ($(cat corpus/expand_tokens/*.kernel | wc -c) bytes) in fuzz/corpus/expand_tokens"
