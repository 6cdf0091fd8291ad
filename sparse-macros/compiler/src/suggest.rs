//! "Did you mean" hints for misspelt keywords.

/// `"; did you mean `best`?"` when one of `candidates` is within two edits
/// of `word`, else the empty string.
pub(crate) fn did_you_mean(word: &str, candidates: &[&str]) -> String {
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), *c))
        .filter(|(d, _)| *d <= 2 && *d < word.len().max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

/// Levenshtein distance over chars, case-insensitive.
/// The names a message lists, each in backquotes: `` `a`, `b` ``.
pub(crate) fn backquoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_words_are_suggested_and_far_ones_are_not() {
        assert_eq!(edit_distance("compresed", "compressed"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(
            did_you_mean("compresed", &["dense", "compressed"]),
            "; did you mean `compressed`?"
        );
        assert_eq!(did_you_mean("sparse", &["dense", "compressed"]), "");
    }
}
