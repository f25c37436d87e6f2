//! Frames a camera would see of a customer's phone showing a wallet pass, for the tests
//! and benchmarks of the till's camera.
//!
//! The code is drawn by zxing-cpp's own writers (never by hand), put on a phone's white
//! screen inside a dark body, and the phone placed in a 1280×720 scene the way a hand
//! holds it up to a tablet: turned up to 30° away from the camera about both axes and
//! rolled, at a distance that makes the code small or large, then blurred (focus,
//! movement), lit by a glare spot and covered in sensor noise. Every frame is made from
//! a seed, so a failure names the frame that failed.
//!
//! ```
//! use camera_frames::{Scene, Symbology};
//!
//! let frame = Scene::plain(Symbology::Qr, "card_demo_01").draw();
//! assert_eq!(frame.dimensions(), (1280, 720));
//! ```

use std::f32::consts::PI;

use image::{GrayImage, Luma};
use imageproc::geometric_transformations::{Interpolation, Projection, warp_into};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The frame's size: a 720p camera.
pub const WIDTH: u32 = 1280;
pub const HEIGHT: u32 = 720;

pub use symbology::{Symbology, WALLET_SYMBOLOGIES};

/// The code's modules, one `bool` each (true: dark), as zxing-cpp's writer draws them
/// (a linear code as one row of bars).
fn modules(symbology: Symbology, text: &str) -> (u32, u32, Vec<bool>) {
    let image = zxingcpp::create(symbology.format())
        .from_str(text)
        .and_then(|barcode| {
            barcode.to_image_with(&zxingcpp::write().scale(1).add_quiet_zones(false))
        })
        .unwrap_or_else(|err| panic!("zxing-cpp cannot write {text:?} as {symbology:?}: {err}"));
    let (width, height) = (image.width() as u32, image.height() as u32);
    let rows = if symbology == Symbology::Code128 {
        1
    } else {
        height
    };
    let dark = image.data()[..(width * rows) as usize]
        .iter()
        .map(|&level| level < 128)
        .collect();
    (width, rows, dark)
}

/// One frame: what the phone shows and how the camera sees it.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The code on the phone's screen, or none (a phone showing something else).
    pub code: Option<(Symbology, String)>,
    /// A module's (the code's smallest bar or square) width on the frame, in pixels,
    /// before tilting.
    pub module: f32,
    /// How far the phone is turned away from the camera, in degrees, and about which
    /// axis in the frame's plane (0°: about the vertical axis).
    pub tilt: f32,
    pub tilt_axis: f32,
    /// Rolled in the frame's plane, in degrees.
    pub roll: f32,
    /// Gaussian blur's sigma, in pixels.
    pub blur: f32,
    /// Sensor noise's standard deviation, in grey levels.
    pub noise: f32,
    /// A glare spot's strength on the screen, 0 to 1.
    pub glare: f32,
    /// Where the phone's centre is, as shares of the frame.
    pub centre: (f32, f32),
    pub seed: u64,
}

impl Scene {
    /// The code held straight in the middle of the frame, sharp and clean.
    pub fn plain(symbology: Symbology, text: &str) -> Self {
        Self {
            code: Some((symbology, text.to_owned())),
            module: 4.0,
            tilt: 0.0,
            tilt_axis: 0.0,
            roll: 0.0,
            blur: 0.0,
            noise: 0.0,
            glare: 0.0,
            centre: (0.5, 0.5),
            seed: 0,
        }
    }

    /// A frame as a hand holds a phone: drawn from `seed`, turned up to 30° away from
    /// the camera in any direction, rolled, near or far (a module 2.5 to 6 pixels wide),
    /// blurred, noisy, with glare. `code: None` makes a phone showing no code.
    ///
    /// The customer aims the code at the camera: when a phone that near would put part
    /// of the code (or its quiet zone) outside the frame, it is held further away until
    /// the whole code is in view, as a person looking at the preview does.
    pub fn held(code: Option<(Symbology, &str)>, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut scene = Self {
            code: code.map(|(symbology, text)| (symbology, text.to_owned())),
            module: rng.random_range(2.5..6.0),
            tilt: rng.random_range(0.0..=30.0),
            tilt_axis: rng.random_range(0.0..360.0),
            roll: rng.random_range(-20.0..=20.0),
            blur: rng.random_range(0.0..1.2),
            noise: rng.random_range(2.0..8.0),
            glare: rng.random_range(0.0..0.6),
            centre: (rng.random_range(0.38..0.62), rng.random_range(0.4..0.6)),
            seed,
        };
        while scene.module > 2.5 && !scene.code_in_view() {
            scene.module = (scene.module * 0.95).max(2.5);
        }
        scene
    }

    /// Whether the code and a quiet zone of 2 modules around it land inside the frame.
    fn code_in_view(&self) -> bool {
        let Some((symbology, text)) = &self.code else {
            return true;
        };
        let (columns, rows, _) = modules(*symbology, text);
        let layout = Layout::of(self.module, *symbology, columns, rows);
        let quiet = 2.0 * self.module;
        let (left, top) = (layout.code_left - quiet, layout.code_top - quiet);
        let (right, bottom) = (
            layout.code_left + layout.code_width + quiet,
            layout.code_top + layout.code_height + quiet,
        );
        [(left, top), (right, top), (right, bottom), (left, bottom)]
            .into_iter()
            .map(|corner| self.place(corner, layout.phone))
            .all(|(x, y)| (0.0..WIDTH as f32).contains(&x) && (0.0..HEIGHT as f32).contains(&y))
    }

    /// The frame, in grey levels.
    pub fn draw(&self) -> GrayImage {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ 0x5eed);
        let phone = self.phone(&mut rng);
        let mut frame = background(&mut rng);
        let (w, h) = (phone.width() as f32, phone.height() as f32);
        let corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
        let placed = corners.map(|corner| self.place(corner, (w, h)));
        let projection = Projection::from_control_points(corners, placed)
            .expect("a phone's corners, placed, make a projection");
        // The scene stays where the phone is not: warp onto a copy and keep what the
        // phone covers (its pixels are never pure 1, the scene's grey is never 1).
        let mut over = GrayImage::from_pixel(WIDTH, HEIGHT, Luma([1]));
        warp_into(
            &phone,
            &projection,
            Interpolation::Bilinear,
            Luma([1]),
            &mut over,
        );
        for (pixel, above) in frame.pixels_mut().zip(over.pixels()) {
            if above.0[0] != 1 {
                *pixel = *above;
            }
        }
        if self.glare > 0.0 {
            glare(&mut frame, self, &mut rng);
        }
        if self.blur > 0.05 {
            frame = imageproc::filter::gaussian_blur_f32(&frame, self.blur);
        }
        if self.noise > 0.0 {
            frame = imageproc::noise::gaussian_noise(&frame, 0.0, self.noise.into(), self.seed);
        }
        frame
    }

    /// The phone, flat: a dark body around a white screen with the code in its middle.
    fn phone(&self, rng: &mut ChaCha8Rng) -> GrayImage {
        let (columns, rows, dark) = match &self.code {
            Some((symbology, text)) => modules(*symbology, text),
            None => (40, 40, Vec::new()),
        };
        let layout = match &self.code {
            Some((symbology, _)) => Layout::of(self.module, *symbology, columns, rows),
            None => Layout::of(self.module, Symbology::Qr, columns, rows),
        };
        let (body_w, body_h) = layout.phone;
        let (w, h) = (body_w.round() as u32, body_h.round() as u32);
        let mut phone = GrayImage::from_pixel(w, h, Luma([28]));
        let bezel = (body_w * 0.06).round() as u32;
        let screen = rng.random_range(225..=250);
        for y in bezel..h - bezel {
            for x in bezel..w - bezel {
                phone.put_pixel(x, y, Luma([screen]));
            }
        }
        let Some((_, text)) = &self.code else {
            // A screen of text-like grey lines instead of a code.
            for line in 0..12 {
                let y = bezel + 20 + line * (h - 2 * bezel - 40) / 12;
                let length = rng.random_range(0.3..0.9) * (w - 2 * bezel - 20) as f32;
                for dy in 0..4.min(h - y) {
                    for x in bezel + 10..bezel + 10 + length as u32 {
                        phone.put_pixel(x, y + dy, Luma([90]));
                    }
                }
            }
            return phone;
        };
        debug_assert!(!text.is_empty());
        let module = self.module;
        let (row_height, code_width, code_height) =
            (layout.row_height, layout.code_width, layout.code_height);
        let (left, top) = (layout.code_left, layout.code_top);
        for y in 0..code_height.ceil() as u32 {
            for x in 0..code_width.ceil() as u32 {
                let (column, row) = ((x as f32 / module) as u32, (y as f32 / row_height) as u32);
                if column < columns && row < rows && dark[(row * columns + column) as usize] {
                    let (px, py) = (left as u32 + x, top as u32 + y);
                    if px < w && py < h {
                        phone.put_pixel(px, py, Luma([20]));
                    }
                }
            }
        }
        phone
    }

    /// Where a point of the flat phone lands on the frame: rolled, turned away from the
    /// camera by `tilt` about an axis in its plane, and seen through a pinhole camera.
    fn place(&self, (x, y): (f32, f32), (w, h): (f32, f32)) -> (f32, f32) {
        let (tilt, axis, roll) = (
            self.tilt.to_radians(),
            self.tilt_axis.to_radians(),
            self.roll.to_radians(),
        );
        let (px, py) = (x - w / 2.0, y - h / 2.0);
        let (px, py) = (
            px * roll.cos() - py * roll.sin(),
            px * roll.sin() + py * roll.cos(),
        );
        // Rodrigues' rotation of (px, py, 0) by `tilt` about the unit axis (ax, ay, 0).
        let (ax, ay) = (axis.sin(), axis.cos());
        let along = ax * px + ay * py;
        let (cross_x, cross_y, cross_z) = (0.0, 0.0, ax * py - ay * px);
        let (c, s) = (tilt.cos(), tilt.sin());
        let px = px * c + cross_x * s + ax * along * (1.0 - c);
        let py = py * c + cross_y * s + ay * along * (1.0 - c);
        let pz = cross_z * s;
        // A focal length of about a webcam's 70° field of view.
        let focal = WIDTH as f32 / (2.0 * (35.0_f32 * PI / 180.0).tan());
        let depth = focal;
        let scale = focal / (depth + pz);
        (
            self.centre.0 * WIDTH as f32 + px * scale,
            self.centre.1 * HEIGHT as f32 + py * scale,
        )
    }
}

/// Where the code sits on the flat phone, in the phone's pixels.
struct Layout {
    /// The phone's body, width and height.
    phone: (f32, f32),
    code_left: f32,
    code_top: f32,
    code_width: f32,
    code_height: f32,
    /// One row of modules' height (a linear code is one tall row).
    row_height: f32,
}

impl Layout {
    fn of(module: f32, symbology: Symbology, columns: u32, rows: u32) -> Self {
        let code_width = module * columns as f32;
        let phone = (
            (code_width * 1.35 + 40.0).round(),
            (code_width * 2.1).max(code_width * 0.8 + 200.0).round(),
        );
        // A linear code's bars are tall; the writer draws them one module high.
        let row_height = match symbology {
            Symbology::Code128 => code_width * 0.3,
            Symbology::Pdf417 => module * 3.0,
            _ => module,
        };
        let code_height = row_height * rows as f32;
        Self {
            phone,
            code_left: ((phone.0 - code_width) / 2.0).floor(),
            code_top: ((phone.1 - code_height) / 2.0).floor(),
            code_width,
            code_height,
            row_height,
        }
    }
}

/// A room behind the phone: a slow gradient with a few darker shapes.
fn background(rng: &mut ChaCha8Rng) -> GrayImage {
    let base = rng.random_range(70.0..130.0_f32);
    let slope = rng.random_range(-40.0..40.0_f32);
    let mut frame = GrayImage::from_fn(WIDTH, HEIGHT, |x, y| {
        let t = (x as f32 / WIDTH as f32 + y as f32 / HEIGHT as f32) / 2.0;
        Luma([(base + slope * t).clamp(2.0, 250.0) as u8])
    });
    for _ in 0..4 {
        let (x0, y0) = (rng.random_range(0..WIDTH), rng.random_range(0..HEIGHT));
        let (w, h) = (rng.random_range(60..300), rng.random_range(60..300));
        let shade = rng.random_range(30..200);
        for y in y0..(y0 + h).min(HEIGHT) {
            for x in x0..(x0 + w).min(WIDTH) {
                frame.put_pixel(x, y, Luma([shade]));
            }
        }
    }
    frame
}

/// A bright spot where a lamp reflects in the phone's glass.
fn glare(frame: &mut GrayImage, scene: &Scene, rng: &mut ChaCha8Rng) {
    let radius = scene.module * 40.0 * rng.random_range(0.3..0.6);
    let cx = scene.centre.0 * WIDTH as f32 + rng.random_range(-0.5..0.5) * radius;
    let cy = scene.centre.1 * HEIGHT as f32 + rng.random_range(-0.5..0.5) * radius;
    let strength = scene.glare * 110.0;
    for (x, y, pixel) in frame.enumerate_pixels_mut() {
        let d = ((x as f32 - cx).powi(2) + (y as f32 - cy).powi(2)).sqrt() / radius;
        if d < 1.0 {
            let lift = strength * (1.0 - d * d);
            pixel.0[0] = (pixel.0[0] as f32 + lift).min(255.0) as u8;
        }
    }
}
