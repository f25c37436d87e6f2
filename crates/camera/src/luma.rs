//! A frame as the decoder and its views read it: its brightness, a byte a pixel.

/// A frame's brightness, one byte a pixel, rows without padding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Luma {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl Luma {
    /// `None` when `pixels` is not `width × height` bytes.
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Option<Self> {
        (width > 0 && height > 0 && pixels.len() == width as usize * height as usize).then_some(
            Self {
                width,
                height,
                pixels,
            },
        )
    }
}
