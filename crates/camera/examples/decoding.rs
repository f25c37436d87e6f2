//! `make bench`'s camera figures: how many frames with a wallet code are read, whether
//! a frame without one is ever read as something, and the decode time of a 1280×720
//! frame.
//!
//! The frames are drawn by `camera-frames` (zxing-cpp's writers, a phone held up to the
//! camera: tilted up to 30°, blurred, noisy, with glare, at several sizes), and decoded
//! by the till's own `Decoder`, one at a time on one thread as the camera does.
//!
//!   cargo run --release -p counter-camera --example decoding [FRAMES_PER_SYMBOLOGY]

use std::time::Instant;

use camera_frames::{Scene, WALLET_SYMBOLOGIES};
use counter_camera::{Decoder, Luma};

fn main() {
    let per_symbology: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let decoder = Decoder;
    let mut times = Vec::new();
    let mut decode = |frame: image::GrayImage| {
        let (width, height) = frame.dimensions();
        let luma = Luma::new(width, height, frame.into_raw()).expect("a whole frame");
        let start = Instant::now();
        let code = decoder.decode(&luma);
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        code
    };
    println!(
        "camera: {per_symbology} frames a symbology, 1280x720, tilted up to 30 degrees, blur, noise, glare"
    );
    let (mut with_code, mut read, mut wrong) = (0, 0, 0);
    for symbology in WALLET_SYMBOLOGIES {
        let mut read_here = 0;
        for seed in 0..per_symbology {
            let text = format!("card_{:012x}", seed * 7919 + 17);
            let frame = Scene::held(Some((symbology, &text)), seed).draw();
            with_code += 1;
            match decode(frame) {
                Some(code) if code.text == text => read_here += 1,
                Some(code) => {
                    wrong += 1;
                    eprintln!(
                        "{} seed {seed}: read {:?}, not {text:?}",
                        symbology.name(),
                        code.text
                    );
                }
                None => {}
            }
        }
        read += read_here;
        println!(
            "  {:<10} read {read_here}/{per_symbology} ({:.1} %)",
            symbology.name(),
            100.0 * read_here as f64 / per_symbology as f64
        );
    }
    let mut false_reads = 0;
    let empty = per_symbology;
    for seed in 0..empty {
        if let Some(code) = decode(Scene::held(None, 1_000_000 + seed).draw()) {
            false_reads += 1;
            eprintln!("no code, seed {seed}: read {:?}", code.text);
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "  read {read}/{with_code} frames with a code ({:.2} %; goal >= 98 %), {wrong} read wrong (goal 0)",
        100.0 * read as f64 / with_code as f64
    );
    println!("  false reads: {false_reads}/{empty} frames without a code (goal 0)");
    println!(
        "  decode time per frame: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (goal p99 <= 30 ms)",
        at(0.5),
        at(0.99),
        times[times.len() - 1]
    );
}
