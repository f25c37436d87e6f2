//! Frames through GStreamer: a source, then two branches. One gives each frame's
//! brightness to the decoder, at the size the source sends (nothing upstream of the
//! split scales, so the preview's size never becomes the decoder's); the other a small JPEG for the screen's preview, at most
//! ten a second. Both queues keep only the newest frame: a slow decode drops frames
//! and never backs up the camera, and no frame waits on the window or the outbox.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use gstreamer_video as gst_video;

use crate::decode::{Code, Decoder};
use crate::luma::Luma;
use crate::seen::Seen;
use crate::source::{Source, images_in};

/// What the camera saw.
#[derive(Debug, Clone)]
pub enum Sight {
    /// A code not seen in the last few seconds, with when its frame arrived.
    Code { code: Code, arrived: Instant },
    /// A small JPEG of the newest frame, for the preview.
    Preview(Vec<u8>),
    /// The camera stopped: the device went away, the file cannot be read…
    Failed(String),
}

/// Why the camera could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum CameraError {
    #[error("GStreamer cannot start: {0}")]
    Gstreamer(String),
    #[error("the camera cannot start: {0}")]
    Pipeline(String),
}

/// Frames a second a folder of images is played at.
const STILLS_PER_SECOND: u64 = 10;

/// An open camera. Dropping it stops the pipeline and releases the device.
#[derive(Debug)]
pub struct Camera {
    pipeline: gst::Pipeline,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

type OnSight = Arc<dyn Fn(Sight) + Send + Sync>;

impl Camera {
    /// Opens `source` and calls `on_sight` (on GStreamer's threads) with what it sees.
    pub fn open(
        source: &Source,
        on_sight: impl Fn(Sight) + Send + Sync + 'static,
    ) -> Result<Self, CameraError> {
        gst::init().map_err(|err| CameraError::Gstreamer(err.to_string()))?;
        let on_sight: OnSight = Arc::new(on_sight);
        let head = match source {
            // At most 720p from the camera (decoding a larger frame costs more than it
            // gains), raw or Motion JPEG, whichever it sends.
            Source::Device(_) => {
                "v4l2src name=source \
                 ! video/x-raw,width=[1,1280],height=[1,720];image/jpeg,width=[1,1280],height=[1,720] \
                 ! decodebin"
            }
            Source::File(_) => "filesrc name=source ! decodebin",
            Source::Folder(_) => "appsrc name=source is-live=true do-timestamp=true format=time",
        };
        let description = format!(
            "{head} ! videoconvert ! tee name=split \
             split. ! queue leaky=downstream max-size-buffers=1 ! videoconvert \
               ! video/x-raw,format=GRAY8 ! appsink name=luma max-buffers=1 drop=true \
             split. ! queue leaky=downstream max-size-buffers=1 ! videorate max-rate=10 \
               ! videoscale ! videoconvert ! video/x-raw,width=320,height=180,format=I420 \
               ! jpegenc quality=70 ! appsink name=preview max-buffers=1 drop=true"
        );
        let pipeline = gst::parse::launch(&description)
            .map_err(|err| CameraError::Pipeline(err.to_string()))?
            .downcast::<gst::Pipeline>()
            .map_err(|_| CameraError::Pipeline("not a pipeline".into()))?;
        let element = |name: &str| {
            pipeline
                .by_name(name)
                .ok_or_else(|| CameraError::Pipeline(format!("no element {name}")))
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut threads = Vec::new();
        let source_element = element("source")?;
        match source {
            Source::Device(path) => source_element.set_property("device", path.to_str()),
            Source::File(path) => source_element.set_property("location", path.to_str()),
            Source::Folder(folder) => {
                let appsrc = source_element
                    .downcast::<gst_app::AppSrc>()
                    .map_err(|_| CameraError::Pipeline("not an appsrc".into()))?;
                let (folder, stop, on_sight) = (folder.clone(), stop.clone(), on_sight.clone());
                threads.push(std::thread::spawn(move || {
                    play_stills(&appsrc, &folder, &stop, &*on_sight)
                }));
            }
        }
        decode_frames(&element("luma")?, on_sight.clone())?;
        send_previews(&element("preview")?, on_sight.clone())?;
        let looping = matches!(source, Source::File(_));
        let bus = pipeline
            .bus()
            .ok_or_else(|| CameraError::Pipeline("no bus".into()))?;
        {
            let (pipeline, stop, on_sight) = (pipeline.clone(), stop.clone(), on_sight.clone());
            threads.push(std::thread::spawn(move || {
                watch(&bus, &pipeline, looping, &stop, &*on_sight)
            }));
        }
        let camera = Self {
            pipeline,
            stop,
            threads,
        };
        camera
            .pipeline
            .set_state(gst::State::Playing)
            .map_err(|_| CameraError::Pipeline(format!("{source} cannot be played")))?;
        Ok(camera)
    }
}

impl Drop for Camera {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = self.pipeline.set_state(gst::State::Null);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Each frame's brightness to the decoder; a code read and not seen lately, out.
fn decode_frames(sink: &gst::Element, on_sight: OnSight) -> Result<(), CameraError> {
    let sink = sink
        .clone()
        .downcast::<gst_app::AppSink>()
        .map_err(|_| CameraError::Pipeline("not an appsink".into()))?;
    let reader = Mutex::new((Decoder, Seen::default()));
    sink.set_callbacks(
        gst_app::AppSinkCallbacks::builder()
            .new_sample(move |sink| {
                let sample = sink.pull_sample().map_err(|_| gst::FlowError::Eos)?;
                let arrived = Instant::now();
                let Some(frame) = luma_of(&sample) else {
                    return Ok(gst::FlowSuccess::Ok);
                };
                let mut reader = reader
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                let (decoder, seen) = &mut *reader;
                if let Some(code) = decoder.decode(&frame)
                    && seen.is_new(&code.text, arrived)
                {
                    on_sight(Sight::Code { code, arrived });
                }
                Ok(gst::FlowSuccess::Ok)
            })
            .build(),
    );
    Ok(())
}

/// A GRAY8 sample's rows, without the padding GStreamer puts at their ends.
fn luma_of(sample: &gst::Sample) -> Option<Luma> {
    let info = gst_video::VideoInfo::from_caps(sample.caps()?).ok()?;
    let buffer = sample.buffer()?;
    let frame = gst_video::VideoFrameRef::from_buffer_ref_readable(buffer, &info).ok()?;
    let (width, height) = (info.width(), info.height());
    let stride = usize::try_from(*info.stride().first()?).ok()?;
    let data = frame.plane_data(0).ok()?;
    let mut pixels = Vec::with_capacity(width as usize * height as usize);
    for row in data.chunks(stride).take(height as usize) {
        pixels.extend_from_slice(row.get(..width as usize)?);
    }
    Luma::new(width, height, pixels)
}

fn send_previews(sink: &gst::Element, on_sight: OnSight) -> Result<(), CameraError> {
    let sink = sink
        .clone()
        .downcast::<gst_app::AppSink>()
        .map_err(|_| CameraError::Pipeline("not an appsink".into()))?;
    sink.set_callbacks(
        gst_app::AppSinkCallbacks::builder()
            .new_sample(move |sink| {
                let sample = sink.pull_sample().map_err(|_| gst::FlowError::Eos)?;
                if let Some(map) = sample.buffer().and_then(|b| b.map_readable().ok()) {
                    on_sight(Sight::Preview(map.as_slice().to_vec()));
                }
                Ok(gst::FlowSuccess::Ok)
            })
            .build(),
    );
    Ok(())
}

/// Errors said once; a file played again from its start when it ends.
fn watch(
    bus: &gst::Bus,
    pipeline: &gst::Pipeline,
    looping: bool,
    stop: &AtomicBool,
    on_sight: &dyn Fn(Sight),
) {
    while !stop.load(Ordering::SeqCst) {
        let Some(message) = bus.timed_pop(gst::ClockTime::from_mseconds(100)) else {
            continue;
        };
        match message.view() {
            gst::MessageView::Eos(_) => {
                let again = looping
                    && pipeline
                        .seek_simple(
                            gst::SeekFlags::FLUSH | gst::SeekFlags::KEY_UNIT,
                            gst::ClockTime::ZERO,
                        )
                        .is_ok();
                if !again {
                    on_sight(Sight::Failed("the camera stopped sending frames".into()));
                    return;
                }
            }
            gst::MessageView::Error(error) => {
                tracing::warn!(error = %error.error(), debug = ?error.debug(), "camera");
                on_sight(Sight::Failed(error.error().to_string()));
                return;
            }
            _ => {}
        }
    }
}

/// A folder's images, in name order and in a loop, as a camera's frames. The folder is
/// read again at each pass: images put there (a demo, a test) are shown from the next.
fn play_stills(
    appsrc: &gst_app::AppSrc,
    folder: &std::path::Path,
    stop: &AtomicBool,
    on_sight: &dyn Fn(Sight),
) {
    let pause = Duration::from_millis(1000 / STILLS_PER_SECOND);
    let mut size = None;
    while !stop.load(Ordering::SeqCst) {
        let mut shown = 0;
        for path in images_in(folder) {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            let image = match image::open(&path) {
                Ok(image) => image.into_rgb8(),
                Err(err) => {
                    tracing::warn!(path = %path.display(), %err, "a still cannot be read");
                    continue;
                }
            };
            let dimensions = image.dimensions();
            if size != Some(dimensions) {
                let caps = gst_video::VideoInfo::builder(
                    gst_video::VideoFormat::Rgb,
                    dimensions.0,
                    dimensions.1,
                )
                .fps(gst::Fraction::new(STILLS_PER_SECOND as i32, 1))
                .build()
                .ok()
                .and_then(|info| info.to_caps().ok());
                appsrc.set_caps(caps.as_ref());
                size = Some(dimensions);
            }
            if appsrc
                .push_buffer(gst::Buffer::from_mut_slice(image.into_raw()))
                .is_err()
            {
                return;
            }
            shown += 1;
            std::thread::sleep(pause);
        }
        if shown == 0 {
            on_sight(Sight::Failed(format!(
                "no image in {} can be read",
                folder.display()
            )));
            return;
        }
    }
}

/// A camera the computer has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundCamera {
    /// Its name, as its driver gives it.
    pub name: String,
    /// Its device, such as `/dev/video0`.
    pub path: String,
}

/// The cameras the computer has, found through GStreamer's device monitor (which
/// leaves out a device's metadata nodes).
pub fn cameras() -> Vec<FoundCamera> {
    if gst::init().is_err() {
        return Vec::new();
    }
    let monitor = gst::DeviceMonitor::new();
    monitor.add_filter(Some("Video/Source"), None);
    if monitor.start().is_err() {
        return Vec::new();
    }
    let found = monitor
        .devices()
        .iter()
        .filter_map(|device| {
            let properties = device.properties()?;
            let path = ["api.v4l2.path", "device.path"]
                .iter()
                .find_map(|key| properties.get::<String>(*key).ok())?;
            Some(FoundCamera {
                name: device.display_name().to_string(),
                path,
            })
        })
        .collect();
    monitor.stop();
    found
}
