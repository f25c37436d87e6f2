//! A frame's barcode, read with zxing-cpp.

use zxingcpp::{BarcodeFormat, BarcodeReader, ImageFormat, ImageView};

/// The symbologies a wallet pass may carry.
pub const WALLET_SYMBOLOGIES: [Symbology; 5] = [
    Symbology::Qr,
    Symbology::Pdf417,
    Symbology::Aztec,
    Symbology::Code128,
    Symbology::DataMatrix,
];

/// A barcode symbology the till reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symbology {
    Qr,
    Pdf417,
    Aztec,
    Code128,
    DataMatrix,
}

impl Symbology {
    /// Its short name (`qr`, `pdf417`, `aztec`, `code128`, `datamatrix`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Qr => "qr",
            Self::Pdf417 => "pdf417",
            Self::Aztec => "aztec",
            Self::Code128 => "code128",
            Self::DataMatrix => "datamatrix",
        }
    }

    /// zxing-cpp's name for it.
    pub fn format(self) -> BarcodeFormat {
        match self {
            Self::Qr => BarcodeFormat::QRCode,
            Self::Pdf417 => BarcodeFormat::PDF417,
            Self::Aztec => BarcodeFormat::Aztec,
            Self::Code128 => BarcodeFormat::Code128,
            Self::DataMatrix => BarcodeFormat::DataMatrix,
        }
    }

    fn of(format: BarcodeFormat) -> Option<Self> {
        // An Aztec rune carries one byte, no pass uses one, and noise makes them up: the
        // benchmark's frames read one as "190".
        if format == BarcodeFormat::AztecRune {
            return None;
        }
        // A variant (a model 2 QR code, a full-range Aztec) reads as its symbology.
        WALLET_SYMBOLOGIES
            .into_iter()
            .find(|s| s.format() == format || s.format() == format.symbology())
    }
}

/// A code read from a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    /// What it says, as a wedge scanner would type it.
    pub text: String,
    pub symbology: Symbology,
}

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

/// Reads the wallet symbologies in frames.
#[derive(Debug, Default, Clone, Copy)]
pub struct Decoder;

impl Decoder {
    /// zxing-cpp's options (a C++ object, which may not move between threads: made for
    /// each frame, which costs a few microseconds).
    fn reader() -> BarcodeReader {
        zxingcpp::read()
            .formats(WALLET_SYMBOLOGIES.map(Symbology::format))
            // A phone's screen is dark on light, and its bars never stand on end in
            // front of a tablet: looking for inverted or turned codes would double
            // and triple each frame's time for codes nobody shows.
            .try_invert(false)
            .try_rotate(false)
            .max_number_of_symbols(1)
    }

    /// The code in `frame`, if one can be read.
    pub fn decode(&self, frame: &Luma) -> Option<Code> {
        let view =
            ImageView::from_slice(&frame.pixels, frame.width, frame.height, ImageFormat::Lum)
                .ok()?;
        let read = Self::reader().from(view).ok()?;
        let barcode = read.into_iter().find(|barcode| barcode.is_valid())?;
        let symbology = Symbology::of(barcode.format())?;
        let text = barcode.text().trim().to_owned();
        (!text.is_empty()).then_some(Code { text, symbology })
    }
}
