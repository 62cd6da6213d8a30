//! Reading a file that a stranger (or a mistake) may have replaced with something else: a
//! FIFO that would block until someone writes, a device that never ends. Only a regular
//! file is read, opened so that it cannot block, and never more than a bound.

use std::fs;
use std::io::Read;
use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub enum Unread {
    /// Nothing is there.
    Missing,
    /// Something other than a regular file is: what it is ("a FIFO").
    NotAFile(&'static str),
    /// It is larger than the bound: its size, as far as it was read.
    TooLarge(u64),
    /// Reading failed.
    Io(std::io::Error),
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing => write!(f, "no such file"),
            Self::NotAFile(what) => write!(f, "{what}, not a regular file: not read"),
            Self::TooLarge(size) => write!(f, "{size} bytes or more: too large, not read"),
            Self::Io(error) => write!(f, "{error}"),
        }
    }
}

/// Reads `path` (following symlinks) if it is a regular file of at most `max` bytes.
/// Never blocks on a FIFO and never reads without limit.
///
/// # Errors
/// [`Unread`]: what is there instead, or why it could not be read.
pub fn read_regular(path: &Path, max: u64) -> Result<Vec<u8>, Unread> {
    let metadata = match fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(if fs::symlink_metadata(path).is_ok() {
                Unread::NotAFile("a symlink to nothing")
            } else {
                Unread::Missing
            });
        }
        Err(error) => return Err(Unread::Io(error)),
    };
    check(&metadata, max)?;
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Whatever was swapped in since the check, opening it must not wait for a writer.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(Unread::Io)?;
    check(&file.metadata().map_err(Unread::Io)?, max)?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(Unread::Io)?;
    if bytes.len() as u64 > max {
        return Err(Unread::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

fn check(metadata: &fs::Metadata, max: u64) -> Result<(), Unread> {
    if !metadata.is_file() {
        return Err(Unread::NotAFile(kind_of(metadata.file_type())));
    }
    if metadata.len() > max {
        return Err(Unread::TooLarge(metadata.len()));
    }
    Ok(())
}

/// What a non-regular file is, for the message.
pub fn kind_of(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_within_the_bound_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.toml");
        std::fs::write(&file, "x = 1\n").unwrap();
        assert_eq!(read_regular(&file, 100).unwrap(), b"x = 1\n");
        assert!(matches!(read_regular(&file, 3), Err(Unread::TooLarge(6))));
        assert!(matches!(
            read_regular(&dir.path().join("none"), 100),
            Err(Unread::Missing)
        ));
        assert!(matches!(
            read_regular(dir.path(), 100),
            Err(Unread::NotAFile("a directory"))
        ));
        #[cfg(unix)]
        {
            assert!(matches!(
                read_regular(Path::new("/dev/zero"), 100),
                Err(Unread::NotAFile("a character device"))
            ));
            let fifo = dir.path().join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            assert!(made.is_ok_and(|s| s.success()), "mkfifo");
            assert!(matches!(
                read_regular(&fifo, 100),
                Err(Unread::NotAFile("a FIFO"))
            ));
        }
    }
}
