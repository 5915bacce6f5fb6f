//! Small helpers for messages about user input.

/// `text` for an error message: whole when short, else its first `max`
/// characters and how many more there were, so that a 100 KB position or
/// record line never floods a terminal.
pub fn clip(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}… ({} more characters)", n - max)
}

#[cfg(test)]
mod tests {
    #[test]
    fn clip_keeps_short_text_and_cuts_long() {
        assert_eq!(super::clip("abc", 5), "abc");
        assert_eq!(super::clip("abcdef", 3), "abc… (3 more characters)");
        assert_eq!(super::clip("ééééé", 2), "éé… (3 more characters)");
    }
}
