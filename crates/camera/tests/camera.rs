//! The camera's pipeline, fed recorded frames as a camera would send them: a folder of
//! still images and a video file, through GStreamer, read by the decoder.

use std::path::Path;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use camera_frames::Scene;
use counter_camera::{Camera, Sight, Source, Symbology};
use gstreamer as gst;
use gstreamer::prelude::*;

/// Frames of `code` in `folder`, held still as a customer does (a sharp, straight one
/// first, then hands that move).
fn frames(folder: &Path, code: Option<(Symbology, &str)>, count: u64) {
    std::fs::create_dir_all(folder).unwrap();
    for seed in 0..count {
        let frame = match (seed, code) {
            (0, Some((symbology, text))) => Scene::plain(symbology, text).draw(),
            _ => Scene::held(code, seed).draw(),
        };
        frame.save(folder.join(format!("{seed:03}.png"))).unwrap();
    }
}

fn open(source: &Source) -> (Camera, Receiver<Sight>) {
    let (tx, rx) = mpsc::channel();
    let camera = Camera::open(source, move |sight| {
        let _ = tx.send(sight);
    })
    .unwrap();
    (camera, rx)
}

/// What the camera saw within `time`: the codes, and how many previews.
fn watch(rx: &Receiver<Sight>, time: Duration) -> (Vec<String>, usize) {
    let end = Instant::now() + time;
    let (mut codes, mut previews) = (Vec::new(), 0);
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(Sight::Code { code, .. }) => codes.push(code.text),
            Ok(Sight::Preview(jpeg)) => {
                assert!(jpeg.starts_with(&[0xff, 0xd8]), "a preview is a JPEG");
                previews += 1;
            }
            Ok(Sight::Failed(reason)) => panic!("the camera failed: {reason}"),
            Err(_) => break,
        }
    }
    (codes, previews)
}

#[test]
fn a_folder_of_frames_of_a_held_code_is_read_once_with_a_preview() {
    let dir = tempfile::tempdir().unwrap();
    frames(dir.path(), Some((Symbology::Qr, "card_held_0001")), 4);
    let (camera, rx) = open(&Source::parse(dir.path().to_str().unwrap()).unwrap());
    // Four frames at ten a second, looped for three seconds: the code is in ~30 frames.
    let (codes, previews) = watch(&rx, Duration::from_secs(3));
    drop(camera);
    assert_eq!(
        codes,
        ["card_held_0001"],
        "one scan for a code held in view"
    );
    assert!(previews >= 10, "previews at about ten a second: {previews}");
}

#[test]
fn frames_without_a_code_read_nothing() {
    let dir = tempfile::tempdir().unwrap();
    frames(dir.path(), None, 5);
    let (camera, rx) = open(&Source::parse(dir.path().to_str().unwrap()).unwrap());
    let (codes, previews) = watch(&rx, Duration::from_secs(2));
    drop(camera);
    assert!(
        codes.is_empty(),
        "read from frames without a code: {codes:?}"
    );
    assert!(previews > 0);
}

#[test]
fn each_wallet_symbology_is_read_through_the_pipeline() {
    for symbology in [
        Symbology::Pdf417,
        Symbology::Aztec,
        Symbology::Code128,
        Symbology::DataMatrix,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let text = format!("gc_{}_0042", symbology.name());
        frames(dir.path(), Some((symbology, &text)), 1);
        let (tx, rx) = mpsc::channel();
        let camera = Camera::open(
            &Source::parse(dir.path().to_str().unwrap()).unwrap(),
            move |sight| {
                if let Sight::Code { code, .. } = sight {
                    let _ = tx.send(code);
                }
            },
        )
        .unwrap();
        let code = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("a code read");
        drop(camera);
        assert_eq!(
            (code.text.as_str(), code.symbology),
            (text.as_str(), symbology)
        );
    }
}

#[test]
fn a_video_file_is_played_in_a_loop_as_a_camera() {
    let dir = tempfile::tempdir().unwrap();
    let stills = dir.path().join("stills");
    frames(&stills, Some((Symbology::Qr, "card_video_0007")), 3);
    // The video made by GStreamer itself: the stills as Motion JPEG in an AVI file.
    let video = dir.path().join("clip.avi");
    gst::init().unwrap();
    let encode = gst::parse::launch(&format!(
        "multifilesrc location={}/%03d.png index=0 stop-index=2 caps=image/png,framerate=5/1 \
         ! pngdec ! videoconvert ! jpegenc ! avimux ! filesink location={}",
        stills.display(),
        video.display()
    ))
    .unwrap();
    encode.set_state(gst::State::Playing).unwrap();
    let bus = encode.bus().unwrap();
    let done = bus.timed_pop_filtered(
        gst::ClockTime::from_seconds(20),
        &[gst::MessageType::Eos, gst::MessageType::Error],
    );
    encode.set_state(gst::State::Null).unwrap();
    assert!(matches!(
        done.map(|m| m.type_()),
        Some(gst::MessageType::Eos)
    ));

    let source = Source::parse(video.to_str().unwrap()).unwrap();
    assert_eq!(source, Source::File(video.clone()));
    let (camera, rx) = open(&source);
    // 0.6 s of video, watched for 2.5 s: it loops, and the code stays one scan.
    let (codes, previews) = watch(&rx, Duration::from_millis(2500));
    drop(camera);
    assert_eq!(codes, ["card_video_0007"]);
    assert!(
        previews >= 5,
        "the video played past its end: {previews} previews"
    );
}

#[test]
fn a_camera_that_cannot_be_played_is_said_and_a_missing_one_refused() {
    assert!(Source::parse("/dev/video93").is_err());
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("not-a-video.mp4");
    std::fs::write(&garbage, b"this is no video at all").unwrap();
    let (tx, rx) = mpsc::channel();
    let camera = Camera::open(
        &Source::parse(garbage.to_str().unwrap()).unwrap(),
        move |sight| {
            let _ = tx.send(sight);
        },
    );
    let failed = match camera {
        Err(_) => true,
        Ok(_camera) => matches!(
            rx.recv_timeout(Duration::from_secs(5)),
            Ok(Sight::Failed(_))
        ),
    };
    assert!(failed, "a file that is no video is said to fail");
}
