//! The barcode symbologies a wallet pass may carry (QR, PDF417, Aztec, Code 128, Data
//! Matrix), with zxing-cpp's name for each: one list for the till's camera, which reads
//! them, and for the tests' frames, which draw them.
//!
//! ```
//! use symbology::{Symbology, WALLET_SYMBOLOGIES};
//!
//! assert_eq!(WALLET_SYMBOLOGIES.len(), 5);
//! assert_eq!(Symbology::of(Symbology::Qr.format()), Some(Symbology::Qr));
//! ```

use zxingcpp::BarcodeFormat;

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

    /// The symbology zxing-cpp read as `format`, if the till reads it.
    pub fn of(format: BarcodeFormat) -> Option<Self> {
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
