//! Writes frames of a wallet code as the camera would see them, as PNG files: for the
//! demo (`--camera FOLDER`) and for looking at what the benchmark reads.
//!
//!   cargo run -p counter-camera --example frames -- FOLDER SYMBOLOGY TEXT [COUNT] [FIRST_SEED]
//!
//! SYMBOLOGY is qr, pdf417, aztec, code128, datamatrix, or none (a phone without a code).

use camera_frames::{Scene, WALLET_SYMBOLOGIES};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [folder, symbology, text, rest @ ..] = args.as_slice() else {
        eprintln!("usage: frames FOLDER SYMBOLOGY TEXT [COUNT] [FIRST_SEED]");
        std::process::exit(2);
    };
    let count: u64 = rest.first().and_then(|n| n.parse().ok()).unwrap_or(10);
    let first: u64 = rest.get(1).and_then(|n| n.parse().ok()).unwrap_or(0);
    let symbology = WALLET_SYMBOLOGIES
        .into_iter()
        .find(|s| s.name() == symbology);
    std::fs::create_dir_all(folder).expect("the folder can be made");
    for seed in first..first + count {
        let frame = Scene::held(symbology.map(|s| (s, text.as_str())), seed).draw();
        let path = format!("{folder}/{seed:04}.png");
        frame.save(&path).expect("the frame can be written");
        println!("{path}");
    }
}
