//! A class join code: one secret a teacher gives a whole class, typed at the SSH
//! keyboard-interactive prompt with any name as the user. Pure: the code, how it is made,
//! read back and compared, when it expires, and which names are accepted. The prompt
//! itself is in `session.rs`; the flags in `cli/serve.rs`.
//!
//! A generated code is three groups of four symbols from [`ALPHABET`] (no 0/O, 1/I/l), so
//! it reads aloud and types without doubt: `K7QF-M2XD-9HRT`, 60 bits drawn from the
//! operating system's random source (never from the game seed, which is printed and
//! repeatable). Codes are compared ignoring case, dashes and spaces, in constant time.

use rand::TryRng as _;
use rand::rngs::SysRng;
use std::fmt;
use std::time::Duration;
use subtle::ConstantTimeEq as _;

/// The symbols of a generated code: digits 2-9 and the capital letters but I and O, 32 in
/// all, so each symbol is five bits of one random byte, with no bias.
pub const ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// Groups in a generated code, and symbols in a group.
pub const GROUPS: usize = 3;
/// Symbols in each group of a generated code.
pub const GROUP_LENGTH: usize = 4;

/// The length a given code may have, as typed.
pub const GIVEN_LENGTH: std::ops::RangeInclusive<usize> = 6..=64;

/// The fewest symbols a given code keeps once dashes and spaces are left out (the part
/// that is compared).
pub const MIN_SYMBOLS: usize = 6;

/// The longest answer compared; anything longer is wrong without being read.
pub const MAX_ANSWER_BYTES: usize = 256;

/// The longest student name, in characters, after trimming.
pub const MAX_NAME_CHARS: usize = 32;

/// The prompt the client shows (echo off).
pub const PROMPT: &str = "Class code: ";

/// What the client is told, and the log says, when the code has expired.
pub const EXPIRED: &str = "the class code has expired";

/// The code the server lets a class in with.
#[derive(Clone)]
pub struct ClassCode {
    /// As the teacher reads it out (the generated form, or the given text).
    shown: String,
    /// What is compared: [`normalise`]d.
    compared: Vec<u8>,
    /// Whether it was generated here (the banner prints it) or given.
    generated: bool,
    /// How long after the server's start it stops letting anyone in.
    expires_after: Option<Duration>,
}

/// Never prints the code itself: settings are debug-printed in errors and tests.
impl fmt::Debug for ClassCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClassCode")
            .field("generated", &self.generated)
            .field("expires_after", &self.expires_after)
            .finish_non_exhaustive()
    }
}

/// The result of comparing an answer at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The code, in time.
    Right,
    /// Not the code.
    Wrong,
    /// Too late, whatever was typed.
    Expired,
}

/// Why a code could not be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CodeError {
    /// A given code is too short, too long, or has characters that cannot be typed alike
    /// everywhere.
    #[error(
        "--class-code: {0}; give 6 to 64 printable ASCII characters (at least 6 besides dashes and spaces), or --class-code alone to have one made"
    )]
    Weak(String),
    /// The operating system's random source failed.
    #[error("--class-code: no random numbers from the operating system: {0}")]
    Random(String),
}

impl ClassCode {
    /// A fresh code from the operating system's random source, `K7QF-M2XD-9HRT`.
    pub fn generate() -> Result<Self, CodeError> {
        let mut bytes = [0u8; GROUPS * GROUP_LENGTH];
        SysRng
            .try_fill_bytes(&mut bytes)
            .map_err(|error| CodeError::Random(error.to_string()))?;
        Ok(Self::from_random_bytes(bytes))
    }

    /// The code `bytes` give: each byte's low five bits pick a symbol.
    fn from_random_bytes(bytes: [u8; GROUPS * GROUP_LENGTH]) -> Self {
        let groups: Vec<String> = bytes
            .chunks(GROUP_LENGTH)
            .map(|group| {
                group
                    .iter()
                    .map(|&b| char::from(ALPHABET[usize::from(b & 31)]))
                    .collect()
            })
            .collect();
        let shown = groups.join("-");
        Self {
            compared: normalise(shown.as_bytes()),
            shown,
            generated: true,
            expires_after: None,
        }
    }

    /// The teacher's own code, checked: 6 to 64 printable ASCII characters, at least 6 of
    /// them neither dashes nor spaces.
    pub fn given(text: &str) -> Result<Self, CodeError> {
        let length = text.chars().count();
        if let Some(bad) = text.chars().find(|c| !(' '..='~').contains(c)) {
            return Err(CodeError::Weak(format!(
                "{bad:?} is not a printable ASCII character"
            )));
        }
        if !GIVEN_LENGTH.contains(&length) {
            return Err(CodeError::Weak(format!("it has {length} characters")));
        }
        let compared = normalise(text.as_bytes());
        if compared.len() < MIN_SYMBOLS {
            return Err(CodeError::Weak(format!(
                "only {} of its characters are neither dashes nor spaces",
                compared.len()
            )));
        }
        Ok(Self {
            shown: text.to_string(),
            compared,
            generated: false,
            expires_after: None,
        })
    }

    /// The same code, expiring `after` the server's start (`None`: never).
    #[must_use]
    pub fn expiring(mut self, after: Option<Duration>) -> Self {
        self.expires_after = after;
        self
    }

    /// The code as the teacher reads it out.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// Whether it was generated here rather than given.
    pub fn generated(&self) -> bool {
        self.generated
    }

    /// How long after the server's start it expires.
    pub fn expires_after(&self) -> Option<Duration> {
        self.expires_after
    }

    /// Whether it has expired `elapsed` after the server's start.
    pub fn expired(&self, elapsed: Duration) -> bool {
        self.expires_after.is_some_and(|after| elapsed >= after)
    }

    /// Compares `answer` (as the client sent it) with the code, `elapsed` after the
    /// server's start. The comparison takes the same time wherever the two first differ.
    pub fn check(&self, answer: &[u8], elapsed: Duration) -> Verdict {
        if self.expired(elapsed) {
            return Verdict::Expired;
        }
        if answer.len() > MAX_ANSWER_BYTES {
            return Verdict::Wrong;
        }
        if bool::from(normalise(answer).ct_eq(&self.compared)) {
            Verdict::Right
        } else {
            Verdict::Wrong
        }
    }
}

/// What is compared of a code or an answer: capitals for small letters, dashes and
/// whitespace left out (`k7qf m2xd-9hrt` is `K7QFM2XD9HRT`). Other bytes stay as they are.
pub fn normalise(text: &[u8]) -> Vec<u8> {
    text.iter()
        .filter(|b| !(**b == b'-' || b.is_ascii_whitespace()))
        .map(u8::to_ascii_uppercase)
        .collect()
}

/// Why a name was refused, in words for the student.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing but spaces.
    #[error("the name is empty; log in as NAME@host, e.g. ada@host")]
    Empty,
    /// Over [`MAX_NAME_CHARS`].
    #[error("the name has {0} characters; at most 32 are allowed")]
    TooLong(usize),
    /// A character that is not printed: control, formatting, bidirectional or zero-width.
    #[error(
        "the name has a character that is not printed (U+{0:04X}); use letters, digits and spaces"
    )]
    Unprinted(u32),
    /// Begins with something other than a letter or a digit: a name that begins with `-`
    /// becomes an option to the teacher's `tar` or `rm` in the collect folder.
    #[error("the name must begin with a letter or a digit")]
    BadStart,
}

/// The student's name from the SSH user name: trimmed, 1 to 32 characters, every one of
/// them printed (no control characters, no line or paragraph separators, no zero-width,
/// bidirectional or other formatting characters that would disguise the name on the
/// teacher's screen), beginning with a letter or a digit (never `-`, `.` or `=`). Spaces
/// inside are kept.
pub fn student_name(user: &str) -> Result<&str, NameError> {
    let name = user.trim();
    if let Some(bad) = name.chars().find(|&c| !printed(c)) {
        return Err(NameError::Unprinted(u32::from(bad)));
    }
    match name.chars().count() {
        0 => Err(NameError::Empty),
        n if n > MAX_NAME_CHARS => Err(NameError::TooLong(n)),
        _ if !name.starts_with(char::is_alphanumeric) => Err(NameError::BadStart),
        _ => Ok(name),
    }
}

/// Whether `c` shows as itself: not a control character, not whitespace other than the
/// plain space, and not one of Unicode's invisible formatting characters.
fn printed(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    let invisible = matches!(
        u32::from(c),
        0xAD                    // soft hyphen
        | 0x034F                // combining grapheme joiner
        | 0x061C                // Arabic letter mark
        | 0x115F | 0x1160       // Hangul fillers
        | 0x180E                // Mongolian vowel separator
        | 0x200B..=0x200F       // zero-width space, joiners, LRM, RLM
        | 0x202A..=0x202E       // bidirectional embeddings and overrides
        | 0x2060..=0x206F       // word joiner, invisible operators, isolates
        | 0x3164 | 0xFFA0       // Hangul fillers
        | 0xFE00..=0xFE0F       // variation selectors
        | 0xFEFF                // byte order mark
        | 0xFFF0..=0xFFFB       // specials, interlinear annotation
        | 0xE0000..=0xE0FFF     // tags, variation selectors supplement
    );
    // Private use: drawn as whatever a font makes of it, so not the same name everywhere.
    let private = matches!(u32::from(c), 0xE000..=0xF8FF | 0xF_0000..=0x10_FFFF);
    !(c.is_control() || c.is_whitespace() || invisible || private)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_code_is_three_groups_of_four_from_the_alphabet() {
        let code = ClassCode::generate().unwrap();
        let shown = code.shown();
        assert_eq!(shown.len(), 14, "{shown}");
        let groups: Vec<&str> = shown.split('-').collect();
        assert_eq!(groups.len(), GROUPS, "{shown}");
        for group in groups {
            assert_eq!(group.len(), GROUP_LENGTH, "{shown}");
            assert!(group.bytes().all(|b| ALPHABET.contains(&b)), "{shown}");
        }
        assert!(code.generated());
        assert_eq!(code.check(shown.as_bytes(), Duration::ZERO), Verdict::Right);
    }

    #[test]
    fn the_alphabet_has_no_look_alikes_and_every_byte_value_maps_evenly() {
        for confusing in *b"0O1Il" {
            assert!(!ALPHABET.contains(&confusing), "{}", char::from(confusing));
        }
        let mut sorted = ALPHABET.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 32, "32 different symbols");
        // Every byte value picks a symbol; each symbol is picked by 8 of the 256 values.
        let mut counts = [0u32; 32];
        for byte in 0..=255u8 {
            let code = ClassCode::from_random_bytes([byte; 12]);
            let symbol = code.shown().as_bytes()[0];
            let at = ALPHABET.iter().position(|&s| s == symbol).unwrap();
            counts[at] += 1;
        }
        assert!(counts.iter().all(|&n| n == 8), "{counts:?}");
    }

    #[test]
    fn codes_from_the_os_differ() {
        let codes: std::collections::HashSet<String> = (0..50)
            .map(|_| ClassCode::generate().unwrap().shown().to_string())
            .collect();
        assert_eq!(codes.len(), 50, "60 random bits each: no two alike");
    }

    #[test]
    fn answers_are_compared_ignoring_case_dashes_and_spaces() {
        let code = ClassCode::from_random_bytes([0, 1, 2, 3, 8, 9, 10, 11, 30, 31, 12, 13]);
        assert_eq!(code.shown(), "2345-ABCD-YZEF");
        for right in [
            "2345-ABCD-YZEF",
            "2345abcdyzef",
            " 2345 abcd yzef ",
            "2345-aBcD yZeF\n",
        ] {
            assert_eq!(
                code.check(right.as_bytes(), Duration::ZERO),
                Verdict::Right,
                "{right:?}"
            );
        }
        for wrong in [
            "",
            "2345-ABCD-YZE",
            "2345-ABCD-YZEFF",
            "2345-ABCD-YZEG",
            "2345_ABCD_YZEF",
        ] {
            assert_eq!(
                code.check(wrong.as_bytes(), Duration::ZERO),
                Verdict::Wrong,
                "{wrong:?}"
            );
        }
        let long = format!("{}{}", code.shown(), " ".repeat(MAX_ANSWER_BYTES));
        assert_eq!(code.check(long.as_bytes(), Duration::ZERO), Verdict::Wrong);
        assert_eq!(
            code.check(b"2345\xffABCDYZEF", Duration::ZERO),
            Verdict::Wrong
        );
        assert_eq!(normalise(b"k7qf m2xd-9hrt"), b"K7QFM2XD9HRT");
    }

    #[test]
    fn a_code_expires_its_time_after_the_start_and_then_refuses_even_the_right_answer() {
        let code = ClassCode::given("python-club").unwrap();
        assert_eq!(
            code.check(b"PYTHONCLUB", Duration::from_secs(86_400 * 365)),
            Verdict::Right
        );
        let code = code.expiring(Some(Duration::from_secs(7200)));
        let before = Duration::from_secs(7199);
        assert_eq!(code.check(b"python club", before), Verdict::Right);
        assert_eq!(code.check(b"nope-nope", before), Verdict::Wrong);
        let at = Duration::from_secs(7200);
        assert_eq!(code.check(b"python club", at), Verdict::Expired);
        assert_eq!(code.check(b"nope-nope", at), Verdict::Expired);
        assert!(code.expired(at) && !code.expired(before));
    }

    #[test]
    fn a_given_code_must_be_six_to_sixty_four_printable_ascii_characters() {
        assert!(ClassCode::given("abcdef").is_ok());
        assert!(ClassCode::given(&"x".repeat(64)).is_ok());
        assert!(ClassCode::given("Maths Club!").is_ok());
        let refused = |text: &str, why: &str| {
            let error = ClassCode::given(text).unwrap_err().to_string();
            assert!(error.contains(why), "{text:?}: {error}");
            assert!(error.starts_with("--class-code: "), "{error}");
        };
        refused("abcde", "it has 5 characters");
        refused(&"x".repeat(65), "it has 65 characters");
        refused("--a-b-c-d-e--", "only 5 of its characters");
        refused("      ", "only 0 of its characters");
        refused("abcdéf", "'é' is not a printable ASCII character");
        refused("abc\tdef", "'\\t' is not a printable ASCII character");
        assert!(!ClassCode::given("abcdef").unwrap().generated());
    }

    #[test]
    fn debug_never_shows_the_code() {
        let code = ClassCode::given("secret-words").unwrap();
        let shown = format!("{code:?}");
        assert!(!shown.contains("secret"), "{shown}");
    }

    #[test]
    fn names_are_trimmed_printed_and_at_most_thirty_two_characters() {
        assert_eq!(student_name("Ada"), Ok("Ada"));
        assert_eq!(student_name("  Ada Lovelace "), Ok("Ada Lovelace"));
        assert_eq!(student_name("Zoë Ødegård"), Ok("Zoë Ødegård"));
        assert_eq!(student_name("王小明"), Ok("王小明"));
        assert_eq!(student_name(&"é".repeat(32)).map(str::len), Ok(64));
        assert_eq!(student_name(&"é".repeat(33)), Err(NameError::TooLong(33)));
        assert_eq!(student_name(""), Err(NameError::Empty));
        assert_eq!(student_name("   "), Err(NameError::Empty));
        for (bad, code) in [
            ("a\u{1b}[31mb", 0x1B),
            ("a\nb", 0x0A),
            ("a\u{7f}", 0x7F),
            ("a\u{85}b", 0x85),
            ("Ada\u{202e}nimda", 0x202E),
            ("A\u{200b}da", 0x200B),
            ("a\u{2028}b", 0x2028),
            ("a\tb", 0x09),
            ("\u{feff}Ada", 0xFEFF),
            ("Ad\u{e000}a", 0xE000),
        ] {
            assert_eq!(
                student_name(bad),
                Err(NameError::Unprinted(code)),
                "{bad:?}"
            );
        }
        let why = student_name("a\u{1b}b").unwrap_err().to_string();
        assert!(why.contains("U+001B"), "{why}");
        // Issue 35 §3: `--remove-files` became an option to the teacher's `tar`.
        for bad in [
            "--remove-files",
            "-rf",
            ".hidden",
            "=HYPERLINK(1)",
            "_x",
            " -x",
        ] {
            assert_eq!(student_name(bad), Err(NameError::BadStart), "{bad:?}");
        }
        assert_eq!(student_name("2ada"), Ok("2ada"));
    }
}
