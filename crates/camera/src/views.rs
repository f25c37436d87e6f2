//! Other views of a frame, for when zxing-cpp reads nothing in the frame at half size.
//!
//! - **Bars held at a slant, turned upright.** zxing-cpp reads a linear code (Code 128)
//!   and a PDF417 along the frame's rows, so their bars must stand within a few degrees
//!   of upright: a Code 128 three times wider than it is tall and rolled 17° has no row
//!   that crosses it from end to end. A hand holding a phone up to a tablet rolls it that
//!   much and more. [`bars_roll`] finds how far the bars near the frame's middle lean
//!   (the direction most of its edges share), and a [`View`] turns them back.
//! - **A small code, seen closer.** A code whose modules are 2.5 to 3.5 pixels wide is
//!   often missed at the camera's size and read when the frame's middle, where the
//!   customer aims it, is enlarged twice.
//! - **A blurred code, sharpened** ([`sharpened`]): modules a blur ran together, apart.
//! - **A code held near, at half size** ([`halved`]): the quickest read, and the first.

use crate::luma::Luma;

/// Bins of the edges' directions, 2° each over 180°.
const BINS: usize = 90;

/// A Sobel response that counts as an edge: a step of 48 grey levels, well above a
/// webcam's noise (σ up to 8 levels).
const EDGE: i32 = 4 * 48;

/// The share of the middle's edges that must lean the same way for them to be bars: a
/// code's bars are most of the edges where it is held; a room's, a face's or a screen
/// of text's lean every way, or along the rows.
const BARS_SHARE: f32 = 0.25;

/// Rolls smaller than this are read well enough without turning the frame.
const STRAIGHT_ENOUGH: f32 = 3.0 * std::f32::consts::PI / 180.0;

/// How far the bars near the middle of `frame` lean from upright, in radians (positive:
/// turned clockwise on the screen), when many edges there share one direction, closer
/// to upright than to lying, and twice as many as run across it.
pub(crate) fn bars_roll(frame: &Luma) -> Option<f32> {
    let (width, height) = (frame.width as usize, frame.height as usize);
    if width < 8 || height < 8 {
        return None;
    }
    let pixel = |x: usize, y: usize| i32::from(frame.pixels[y * width + x]);
    let mut bins = [0u32; BINS];
    let mut edges = 0u32;
    // The middle four fifths, every other pixel each way: the code is where the
    // customer aims it, and a quarter of the pixels shows its edges well enough.
    for y in ((height / 10).max(1)..(height * 9 / 10).min(height - 1)).step_by(2) {
        for x in ((width / 10).max(1)..(width * 9 / 10).min(width - 1)).step_by(2) {
            // Sobel's kernels: their directions hold better on a pixel staircase.
            let gx = pixel(x + 1, y - 1) + 2 * pixel(x + 1, y) + pixel(x + 1, y + 1)
                - pixel(x - 1, y - 1)
                - 2 * pixel(x - 1, y)
                - pixel(x - 1, y + 1);
            let gy = pixel(x - 1, y + 1) + 2 * pixel(x, y + 1) + pixel(x + 1, y + 1)
                - pixel(x - 1, y - 1)
                - 2 * pixel(x, y - 1)
                - pixel(x + 1, y - 1);
            if gx * gx + gy * gy < EDGE * EDGE {
                continue;
            }
            // The gradient's direction, folded onto half a turn: a dark-to-light and a
            // light-to-dark edge of the same bar count the same.
            let mut direction = half_turn_direction(gx as f32, gy as f32);
            if direction < 0.0 {
                direction += 1.0;
            }
            let bin = ((direction * BINS as f32) as usize).min(BINS - 1);
            bins[bin] += 1;
            edges += 1;
        }
    }
    if edges == 0 {
        return None;
    }
    // The peak over three neighbouring bins (6°), which wrap around half a turn.
    let around = |bin: usize| bins[(bin + BINS - 1) % BINS] + bins[bin] + bins[(bin + 1) % BINS];
    let peak = (0..BINS).max_by_key(|&bin| around(bin))?;
    // Bars have few edges across their own: a QR code's or a Data Matrix's squares
    // have as many one way as the other.
    let across = around((peak + BINS / 2) % BINS);
    if (around(peak) as f32) < BARS_SHARE * edges as f32 || around(peak) < 2 * across {
        return None;
    }
    // The weighted mean of the three bins' centres, unwrapped around the peak.
    let centre = |offset: isize| {
        let bin = (peak as isize + offset).rem_euclid(BINS as isize) as usize;
        let weight = bins[bin] as f32;
        (weight, weight * (peak as f32 + offset as f32 + 0.5))
    };
    let (weight, sum) = [-1, 0, 1]
        .map(centre)
        .into_iter()
        .fold((0.0, 0.0), |(w, s), (dw, ds)| (w + dw, s + ds));
    let mut direction = sum / weight / BINS as f32 * std::f32::consts::PI;
    // Upright bars have edges across the rows (direction 0 or half a turn).
    if direction > std::f32::consts::FRAC_PI_2 {
        direction -= std::f32::consts::PI;
    }
    // Edges along the rows are a code standing on end, or lines of text: not bars.
    (direction.abs() < std::f32::consts::FRAC_PI_4).then_some(direction)
}

/// The direction of (`x`, `y`) in half turns, -1 to 1: `atan2` within a fifth of a
/// degree (a 2° bin needs no better), a few times faster.
fn half_turn_direction(x: f32, y: f32) -> f32 {
    let (ax, ay) = (x.abs(), y.abs());
    if ax == 0.0 && ay == 0.0 {
        return 0.0;
    }
    // atan(t) for t in [0, 1] (Rajan, Wang, Inkol and Joyal's fit), in half turns.
    let t = ax.min(ay) / ax.max(ay);
    let radians = std::f32::consts::FRAC_PI_4 * t + t * (1.0 - t) * (0.2447 + 0.0663 * t);
    let mut angle = radians / std::f32::consts::PI;
    if ay > ax {
        angle = 0.5 - angle;
    }
    if x < 0.0 {
        angle = 1.0 - angle;
    }
    if y < 0.0 { -angle } else { angle }
}

/// Fixed-point arithmetic's unit: 16 bits of fraction.
const ONE: i32 = 1 << 16;

/// A part of a frame, turned and enlarged: its middle, `share` of its width and height
/// around its centre, turned back by `roll` radians, `zoom` times larger.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct View {
    pub share: f32,
    pub roll: f32,
    pub zoom: f32,
}

impl View {
    /// The middle `share` of a frame, as it is.
    pub(crate) fn middle(share: f32) -> Self {
        Self {
            share,
            roll: 0.0,
            zoom: 1.0,
        }
    }

    /// The same view, `zoom` times larger.
    pub(crate) fn zoomed(self, zoom: f32) -> Self {
        Self { zoom, ..self }
    }

    /// The same view, of the middle `share` of the frame.
    pub(crate) fn shared(self, share: f32) -> Self {
        Self { share, ..self }
    }

    /// The same view, turned back by `roll` (not at all when that is so little that
    /// rows read as well without it).
    pub(crate) fn turned(self, roll: f32) -> Self {
        let roll = if roll.abs() < STRAIGHT_ENOUGH {
            0.0
        } else {
            roll
        };
        Self { roll, ..self }
    }

    /// The view of `frame`; what turns in from outside it is mid-grey. Bilinear, in
    /// fixed point: a few milliseconds for a 1280×720 view.
    pub(crate) fn of(self, frame: &Luma) -> Luma {
        if self.roll == 0.0 && self.zoom == 1.0 {
            return self.cropped(frame);
        }
        if self.roll == 0.0 && self.zoom == 2.0 {
            return self.doubled(frame);
        }
        let (width, height) = (frame.width as usize, frame.height as usize);
        let (columns, rows) = self.size(frame, self.zoom);
        let (sin, cos) = self.roll.sin_cos();
        let fixed = |value: f32| (value * ONE as f32).round() as i32;
        let (cx, cy) = (width as f32 / 2.0, height as f32 / 2.0);
        // One pixel of the view is this far along the frame's rows and columns.
        let (step_x, step_y) = (fixed(cos / self.zoom), fixed(sin / self.zoom));
        let source = &frame.pixels;
        let mut pixels = vec![128u8; columns * rows];
        for (v, row) in pixels.chunks_exact_mut(columns.max(1)).enumerate() {
            // The row's first pixel, from the view's centre, in the frame's pixels; and
            // where it comes from.
            let dx = (0.5 - columns as f32 / 2.0) / self.zoom;
            let dy = (v as f32 + 0.5 - rows as f32 / 2.0) / self.zoom;
            let mut sx = fixed(cx + cos * dx - sin * dy - 0.5);
            let mut sy = fixed(cy + sin * dx + cos * dy - 0.5);
            for out in row.iter_mut() {
                let (x0, y0) = (sx >> 16, sy >> 16);
                if x0 >= 0 && y0 >= 0 && (x0 as usize) + 1 < width && (y0 as usize) + 1 < height {
                    // Weights in 256ths: a level weighted twice stays within 24 bits.
                    let (fx, fy) = ((sx >> 8) & 255, (sy >> 8) & 255);
                    let at = y0 as usize * width + x0 as usize;
                    let (above, below) = (&source[at..at + 2], &source[at + width..at + width + 2]);
                    let top = i32::from(above[0]) * (256 - fx) + i32::from(above[1]) * fx;
                    let bottom = i32::from(below[0]) * (256 - fx) + i32::from(below[1]) * fx;
                    *out = ((top * (256 - fy) + bottom * fy + (1 << 15)) >> 16) as u8;
                }
                sx += step_x;
                sy += step_y;
            }
        }
        luma(columns, rows, pixels)
    }

    /// The view when it is neither turned nor enlarged: the frame's own pixels, rows
    /// copied.
    fn cropped(self, frame: &Luma) -> Luma {
        let width = frame.width as usize;
        let (columns, rows) = self.size(frame, 1.0);
        let (left, top) = ((width - columns) / 2, (frame.height as usize - rows) / 2);
        let mut pixels = Vec::with_capacity(columns * rows);
        for y in top..top + rows {
            pixels.extend_from_slice(&frame.pixels[y * width + left..][..columns]);
        }
        luma(columns, rows, pixels)
    }

    /// The middle `share` of `frame`, `zoom` times larger: its width and height.
    fn size(self, frame: &Luma, zoom: f32) -> (usize, usize) {
        let side = |pixels: u32| (pixels as f32 * self.share * zoom) as usize;
        (side(frame.width), side(frame.height))
    }

    /// The view twice as large, not turned: each of the frame's pixels, and between
    /// two of them their mean (a tenth of the general way's time).
    fn doubled(self, frame: &Luma) -> Luma {
        let (width, height) = (frame.width as usize, frame.height as usize);
        let (columns, rows) = self.size(frame, 1.0);
        let (left, top) = ((width - columns) / 2, (height - rows) / 2);
        let out_width = columns * 2;
        let mean = |a: u8, b: u8| (u16::from(a) + u16::from(b)).div_ceil(2) as u8;
        let line = |y: usize, out: &mut [u8]| {
            let y = y.min(height - 1);
            let source = &frame.pixels[y * width + left..][..(columns + 1).min(width - left)];
            for (x, pair) in out.chunks_exact_mut(2).enumerate() {
                let next = source.get(x + 1).copied().unwrap_or(source[x]);
                pair[0] = source[x];
                pair[1] = mean(source[x], next);
            }
        };
        let mut pixels = vec![0u8; out_width * rows * 2];
        for (y, twin) in pixels.chunks_exact_mut(2 * out_width).enumerate() {
            let (even, odd) = twin.split_at_mut(out_width);
            line(top + y, even);
            line(top + y + 1, odd);
            for (pixel, above) in odd.iter_mut().zip(even.iter()) {
                *pixel = mean(*pixel, *above);
            }
        }
        luma(out_width, rows * 2, pixels)
    }
}

/// A frame of `columns` × `rows` pixels.
fn luma(columns: usize, rows: usize, pixels: Vec<u8>) -> Luma {
    debug_assert_eq!(pixels.len(), columns * rows);
    Luma {
        width: columns as u32,
        height: rows as u32,
        pixels,
    }
}

/// `frame` with its edges sharpened (an unsharp mask): each pixel pushed away from
/// the mean around it (a binomial blur over 9×9 pixels, σ = 1.4) by as much again. A
/// blurred code's modules, run together, come apart.
pub(crate) fn sharpened(frame: &Luma) -> Luma {
    const WEIGHTS: [u32; 9] = [1, 8, 28, 56, 70, 56, 28, 8, 1];
    let (width, height) = (frame.width as usize, frame.height as usize);
    let clamp = |i: usize, offset: usize, side: usize| (i + offset).saturating_sub(4).min(side - 1);
    // The blur along rows, then along columns: each sum is 256 times a mean.
    let mut across = vec![0u32; width * height];
    for (row, sums) in frame
        .pixels
        .chunks_exact(width)
        .zip(across.chunks_exact_mut(width))
    {
        for (x, sum) in sums.iter_mut().enumerate() {
            *sum = (WEIGHTS.iter().enumerate())
                .map(|(offset, weight)| weight * u32::from(row[clamp(x, offset, width)]))
                .sum();
        }
    }
    let mut pixels = vec![0u8; width * height];
    let mut blur = vec![0u32; width];
    for (y, out) in pixels.chunks_exact_mut(width).enumerate() {
        blur.fill(0);
        for (offset, weight) in WEIGHTS.iter().enumerate() {
            let row = &across[clamp(y, offset, height) * width..][..width];
            for (sum, level) in blur.iter_mut().zip(row) {
                *sum += weight * level;
            }
        }
        let own = &frame.pixels[y * width..][..width];
        for ((pixel, &level), &sum) in out.iter_mut().zip(own).zip(&blur) {
            let mean = ((sum + (1 << 15)) >> 16) as i32;
            *pixel = (2 * i32::from(level) - mean).clamp(0, 255) as u8;
        }
    }
    luma(width, height, pixels)
}

/// `frame` at half its width and height, each pixel the mean of four.
pub(crate) fn halved(frame: &Luma) -> Luma {
    let (width, height) = (frame.width as usize, frame.height as usize);
    let (out_width, out_height) = (width / 2, height / 2);
    let mut pixels = vec![0u8; out_width * out_height];
    for (y, out) in pixels.chunks_exact_mut(out_width).enumerate() {
        let top = &frame.pixels[2 * y * width..][..2 * out_width];
        let bottom = &frame.pixels[(2 * y + 1) * width..][..2 * out_width];
        for ((pixel, above), below) in out
            .iter_mut()
            .zip(top.chunks_exact(2))
            .zip(bottom.chunks_exact(2))
        {
            let sum = u16::from(above[0])
                + u16::from(above[1])
                + u16::from(below[0])
                + u16::from(below[1]);
            *pixel = ((sum + 2) / 4) as u8;
        }
    }
    luma(out_width, out_height, pixels)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vertical bars 6 px wide with soft edges (as a lens draws them), turned by `roll`
    /// about the frame's centre.
    fn bars(roll: f32) -> Luma {
        let (width, height) = (320u32, 200u32);
        let (sin, cos) = roll.sin_cos();
        let pixels = (0..height)
            .flat_map(|y| {
                (0..width).map(move |x| {
                    let (dx, dy) = (x as f32 - 160.0, y as f32 - 100.0);
                    // The coordinate across the bars, in the bars' own frame.
                    let across = dx * cos + dy * sin;
                    let wave = (across * std::f32::consts::PI / 6.0).sin();
                    (127.5 + 107.5 * (1.5 * wave).clamp(-1.0, 1.0)) as u8
                })
            })
            .collect();
        Luma::new(width, height, pixels).expect("a whole frame")
    }

    #[test]
    fn the_quick_direction_is_atan2_within_a_fifth_of_a_degree() {
        for step in 0..=720 {
            let angle = (step as f32 / 2.0 - 180.0).to_radians();
            let (y, x) = angle.sin_cos();
            let quick = half_turn_direction(x * 50.0, y * 50.0) * 180.0;
            let exact = y.atan2(x).to_degrees();
            let error = (quick - exact).abs();
            assert!(
                error < 0.2 || (error - 360.0).abs() < 0.2,
                "{exact}° as {quick}°"
            );
        }
    }

    #[test]
    fn bars_rolled_by_some_degrees_are_found_that_far_from_upright() {
        for degrees in [-20.0f32, -12.0, 0.0, 2.0, 9.0, 17.0] {
            let roll = bars_roll(&bars(degrees.to_radians())).expect("bars are found");
            assert!(
                (roll.to_degrees() - degrees).abs() < 2.0,
                "{degrees}° read as {}°",
                roll.to_degrees()
            );
        }
    }

    #[test]
    fn flat_frames_and_lines_of_text_have_no_bars() {
        assert_eq!(
            bars_roll(&Luma::new(64, 64, vec![200; 64 * 64]).unwrap()),
            None
        );
        // Bars lying along the rows are text, or a code on its end.
        assert_eq!(bars_roll(&bars(80.0f32.to_radians())), None);
        // Squares, turned or not, have as many edges one way as the other.
        for degrees in [0.0f32, 12.0] {
            let (rows, columns) = (
                bars(degrees.to_radians()),
                bars((degrees + 90.0).to_radians()),
            );
            let squares = rows
                .pixels
                .iter()
                .zip(&columns.pixels)
                .map(|(a, b)| if (*a < 128) == (*b < 128) { 20 } else { 235 })
                .collect();
            assert_eq!(
                bars_roll(&Luma::new(rows.width, rows.height, squares).unwrap()),
                None
            );
        }
    }

    /// A frame whose pixels say where they are: 10 levels a column, 100 below row 4.
    fn ramp() -> Luma {
        let (width, height) = (16u32, 8u32);
        let pixels = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x * 10 + u32::from(y >= 4) * 100) as u8))
            .collect();
        Luma::new(width, height, pixels).unwrap()
    }

    #[test]
    fn sharpening_leaves_flat_grey_and_steepens_a_soft_edge() {
        let flat = Luma::new(9, 9, vec![120; 81]).unwrap();
        assert_eq!(sharpened(&flat), flat);
        // A soft step from 60 to 180 across columns 3 to 5.
        let levels = [60u8, 60, 60, 90, 120, 150, 180, 180, 180];
        let soft = Luma::new(9, 3, levels.repeat(3)).unwrap();
        let sharp = sharpened(&soft);
        let middle = &sharp.pixels[9..18];
        assert!(middle[3] < 90 && middle[5] > 150, "{middle:?}");
        assert_eq!(middle[4], 120, "the edge stays where it was");
    }

    #[test]
    fn the_middle_is_the_frames_own_pixels() {
        let middle = View::middle(0.5).of(&ramp());
        assert_eq!((middle.width, middle.height), (8, 4));
        // From column 4 and row 2; rows 2 and 3 are above the step, 4 and 5 below.
        assert_eq!(&middle.pixels[..3], &[40, 50, 60]);
        assert_eq!(middle.pixels[2 * 8], 140);
    }

    #[test]
    fn a_zoomed_middle_is_the_middle_twice_as_large() {
        let zoomed = View::middle(0.5).zoomed(2.0).of(&ramp());
        assert_eq!((zoomed.width, zoomed.height), (16, 8));
        let at = |x: usize, y: usize| zoomed.pixels[y * 16 + x];
        // Each pixel a quarter of the frame's; along a row the levels climb 5 a pixel.
        assert_eq!(at(3, 0) - at(2, 0), 5);
        assert_eq!(at(5, 1) - at(4, 1), 5);
        // The view's column 4 is the frame's column 6; the step between the frame's
        // rows 3 and 4 is the view's row 3, half way.
        assert_eq!((at(4, 2), at(4, 3), at(4, 4)), (60, 110, 160));
    }

    #[test]
    fn straightening_turns_the_bars_upright() {
        let rolled = bars(15.0f32.to_radians());
        let roll = bars_roll(&rolled).expect("bars are found");
        let straight = View::middle(1.0).turned(roll).of(&rolled);
        let roll = bars_roll(&straight).expect("bars are still found");
        assert!(roll.abs() < STRAIGHT_ENOUGH, "the bars stand upright");
        // The middle row crosses bars: dark and light alternate along it.
        let middle = &straight.pixels[100 * 320 + 60..100 * 320 + 260];
        let changes = middle
            .windows(2)
            .filter(|w| (w[0] < 128) != (w[1] < 128))
            .count();
        assert!(changes >= 25, "{changes} changes along the middle row");
    }
}
