//! A frame's barcode, read with zxing-cpp.

use std::sync::OnceLock;

use zxingcpp::{BarcodeFormat, BarcodeReader, ImageFormat, ImageView};

use crate::luma::Luma;
use crate::views::{View, bars_roll, halved, sharpened};
pub use symbology::{Symbology, WALLET_SYMBOLOGIES};

/// A code read from a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    /// What it says, as a wedge scanner would type it.
    pub text: String,
    pub symbology: Symbology,
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
    ///
    /// First the frame at half size, every symbology: a code held near, or large, is
    /// read there in a millisecond or two. When that reads nothing, other views of it
    /// (see [`crate::views`]), on two threads (a tablet has cores to spare, and the
    /// window's thread is not one of them), each only until a code is read:
    ///
    /// - at full size, Code 128: a small Code 128 is wide, and its reader is quick;
    /// - the middle half sharpened, the square symbologies (QR, Data Matrix, Aztec): a
    ///   blurred code;
    /// - the middle half enlarged twice, the square symbologies: a small code;
    /// - when most edges near the middle lean one way (bars), turned upright: the
    ///   middle four fifths for Code 128 and PDF417, its middle enlarged twice for a
    ///   small PDF417, and the whole frame at half size for a large Code 128.
    ///
    /// `make bench` (the `decoding` example) gives the share of frames read and the
    /// time a frame takes.
    pub fn decode(&self, frame: &Luma) -> Option<Code> {
        use BarcodeFormat::{Aztec, Code128, DataMatrix, PDF417, QRCode};
        // A frame a camera (or a folder of images) sends at any size: one too small for
        // its views, or whose pixels are not its size, holds no code to read.
        let whole = frame.pixels.len() == frame.width as usize * frame.height as usize;
        if !whole || frame.width < SMALLEST || frame.height < SMALLEST {
            return None;
        }
        if let Some(code) = read(&halved(frame), Self::reader()) {
            return Some(code);
        }
        // The other views are read at their own size only: zxing-cpp's pass over a
        // view made smaller would repeat the look at half size.
        let reader =
            |formats: &[BarcodeFormat]| Self::reader().formats(formats).try_downscale(false);
        let squares = [QRCode, DataMatrix, Aztec];
        let whole_code128 = || read(frame, reader(&[Code128]));
        let sharp_squares = || read(&sharpened(&View::middle(0.5).of(frame)), reader(&squares));
        let zoomed_squares = || read(&View::middle(0.5).zoomed(2.0).of(frame), reader(&squares));
        let Some(roll) = bars_roll(frame) else {
            return first_read(&[&whole_code128, &zoomed_squares], &[&sharp_squares]);
        };
        let upright = View::middle(0.8).turned(roll);
        let upright_bars = || {
            read(
                &upright.of(frame),
                Self::reader().formats([PDF417, Code128]),
            )
        };
        let closer = upright.shared(0.5).zoomed(2.0);
        let closer_pdf417 = || read(&closer.of(frame), reader(&[PDF417]));
        // Halved first, so that each pixel is the mean of four, not one of them.
        let whole = View::middle(1.0).turned(roll);
        let whole_bars = || read(&whole.of(&halved(frame)), reader(&[PDF417, Code128]));
        // Edges that lean one way may be a square code's too.
        first_read(
            &[&upright_bars, &sharp_squares],
            &[&whole_bars, &closer_pdf417, &whole_code128],
        )
    }
}

/// The fewest pixels on a side of a frame that is read: a wallet code needs more, and the
/// frame's views (halved, then a middle half zoomed) must not come out empty.
const SMALLEST: u32 = 16;

/// One way of looking at a frame: a view of it, read for some symbologies.
type Way<'a> = &'a (dyn Fn() -> Option<Code> + Sync);

/// The first code read by two lists of ways, each looked at in order on its own thread,
/// and only until either reads a code.
fn first_read(one: &[Way], other: &[Way]) -> Option<Code> {
    let found = OnceLock::new();
    let look = |ways: &[Way]| {
        for way in ways {
            if found.get().is_some() {
                return;
            }
            if let Some(code) = way() {
                let _ = found.set(code);
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        scope.spawn(|| look(other));
        look(one);
    });
    found.into_inner()
}

/// The first wallet code `reader` finds in `frame`.
fn read(frame: &Luma, reader: BarcodeReader) -> Option<Code> {
    let view =
        ImageView::from_slice(&frame.pixels, frame.width, frame.height, ImageFormat::Lum).ok()?;
    let read = reader.from(view).ok()?;
    let barcode = read.into_iter().find(|barcode| barcode.is_valid())?;
    let symbology = Symbology::of(barcode.format())?;
    let text = barcode.text().trim().to_owned();
    (!text.is_empty()).then_some(Code { text, symbology })
}
