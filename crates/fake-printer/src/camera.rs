//! A printed QR code as a scanner sees it: drawn from the data the printer was sent
//! (as the printer draws it on paper), then read back from the pixels.

/// Draws `data` as a QR code image (a quiet zone around it, 5 pixels a module) and
/// reads it back as a camera-based scanner would; the text it reads.
///
/// # Errors
///
/// The data does not fit a QR code, or the drawing holds no readable code.
pub fn read_drawn_qr(data: &str) -> Result<String, String> {
    let code = qrcode::QrCode::new(data.as_bytes()).map_err(|e| e.to_string())?;
    let width = code.width();
    let colors = code.to_colors();
    let (scale, quiet) = (5, 4);
    let side = (width + 2 * quiet) * scale;
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
        let (mx, my) = (
            (x / scale).wrapping_sub(quiet),
            (y / scale).wrapping_sub(quiet),
        );
        if mx < width && my < width && colors[my * width + mx] == qrcode::Color::Dark {
            0
        } else {
            255
        }
    });
    let grids = image.detect_grids();
    let grid = grids.first().ok_or("no QR code found in the drawing")?;
    grid.decode()
        .map(|(_, text)| text)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_drawn_code_reads_back_as_its_data() {
        assert_eq!(
            super::read_drawn_qr("gc_8DusGgu2aGMAgCuvw2wXnYYy").unwrap(),
            "gc_8DusGgu2aGMAgCuvw2wXnYYy"
        );
    }
}
