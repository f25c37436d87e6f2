//! Where the frames come from: a camera device, or a recording played as one.

use std::fmt;
use std::path::{Path, PathBuf};

/// A camera, or something played in a loop as if it were one (demos and tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A V4L2 device, such as `/dev/video0`.
    Device(PathBuf),
    /// A video file.
    File(PathBuf),
    /// A folder of still images (PNG or JPEG), shown in name order.
    Folder(PathBuf),
}

/// Why a source cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    #[error("{0}: no such file, folder or device")]
    Missing(PathBuf),
    #[error("{0}: no PNG or JPEG image in this folder")]
    EmptyFolder(PathBuf),
    #[error("{0}: not a camera device (expected /dev/video followed by a number)")]
    NotACamera(PathBuf),
}

impl Source {
    /// The source `text` names: a device under `/dev/`, a folder or a file. It must exist.
    pub fn parse(text: &str) -> Result<Self, SourceError> {
        let path = PathBuf::from(text.trim());
        if path.starts_with("/dev") {
            return Self::device(&path);
        }
        if path.is_dir() {
            return if images_in(&path).is_empty() {
                Err(SourceError::EmptyFolder(path))
            } else {
                Ok(Self::Folder(path))
            };
        }
        if path.is_file() {
            return Ok(Self::File(path));
        }
        Err(SourceError::Missing(path))
    }

    /// A V4L2 device: `/dev/video` and a number, present.
    pub fn device(path: &Path) -> Result<Self, SourceError> {
        let numbered = path
            .to_str()
            .and_then(|p| p.strip_prefix("/dev/video"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !numbered {
            return Err(SourceError::NotACamera(path.to_owned()));
        }
        if !path.exists() {
            return Err(SourceError::Missing(path.to_owned()));
        }
        Ok(Self::Device(path.to_owned()))
    }

    pub fn path(&self) -> &Path {
        match self {
            Self::Device(path) | Self::File(path) | Self::Folder(path) => path,
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.path().display().fmt(f)
    }
}

/// The still images of a folder, in name order.
pub(crate) fn images_in(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut images: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.extension()
                .and_then(|ext| ext.to_str())
                .is_some_and(|ext| {
                    matches!(ext.to_ascii_lowercase().as_str(), "png" | "jpg" | "jpeg")
                })
        })
        .collect();
    images.sort();
    images
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_is_a_numbered_video_device_an_image_folder_or_a_file_that_exists() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Source::parse(dir.path().to_str().unwrap()),
            Err(SourceError::EmptyFolder(dir.path().to_owned()))
        );
        std::fs::write(dir.path().join("b.png"), b"").unwrap();
        std::fs::write(dir.path().join("a.JPG"), b"").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"").unwrap();
        assert_eq!(
            Source::parse(dir.path().to_str().unwrap()),
            Ok(Source::Folder(dir.path().to_owned()))
        );
        assert_eq!(
            images_in(dir.path()),
            [dir.path().join("a.JPG"), dir.path().join("b.png")]
        );
        let file = dir.path().join("notes.txt");
        assert_eq!(
            Source::parse(file.to_str().unwrap()),
            Ok(Source::File(file.clone()))
        );
        assert!(matches!(
            Source::parse("/nowhere/clip.webm"),
            Err(SourceError::Missing(_))
        ));
        for not_a_camera in [
            "/dev/sda",
            "/dev/video",
            "/dev/videoX",
            "/dev/../etc/passwd",
        ] {
            assert!(
                matches!(Source::parse(not_a_camera), Err(SourceError::NotACamera(_))),
                "{not_a_camera}"
            );
        }
        assert!(matches!(
            Source::parse("/dev/video97"),
            Err(SourceError::Missing(_))
        ));
    }
}
