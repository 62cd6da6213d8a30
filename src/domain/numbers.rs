//! Number formats shared by the screen and the messages, so a value or a count reads the
//! same everywhere.

use crate::domain::search::INFINITY;

/// A count with thousands separators: `549,946`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A minimax value or window bound with its sign (`+7`, `-4`, `0`, `±∞`), because the
/// sign is the meaning: good or bad for MAX.
pub fn signed(value: i32) -> String {
    if value >= INFINITY {
        "+∞".into()
    } else if value <= -INFINITY {
        "-∞".into()
    } else if value == 0 {
        "0".into()
    } else {
        format!("{value:+}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_get_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(549_946), "549,946");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn values_carry_their_sign() {
        assert_eq!(signed(7), "+7");
        assert_eq!(signed(-4), "-4");
        assert_eq!(signed(0), "0");
        assert_eq!(signed(INFINITY), "+∞");
        assert_eq!(signed(-INFINITY), "-∞");
    }
}
