//! The camera a manager chose for this till (the shell opens it; what it reads takes
//! the path of a wedge scan).

use super::*;

/// Whether `device` names a V4L2 camera: `/dev/video` and a number.
pub fn is_camera_device(device: &str) -> bool {
    device
        .strip_prefix("/dev/video")
        .is_some_and(|n| !n.is_empty() && n.len() <= 4 && n.bytes().all(|b| b.is_ascii_digit()))
}

impl Counter {
    /// The camera a manager chose, if any (any screen of the till may open it: the
    /// kiosk's customer as much as the cashier).
    pub fn chosen_camera(&self) -> Result<Option<String>, Error> {
        Ok(self.settings()?.camera)
    }

    /// The camera a manager chose, for Settings (staff only).
    pub fn camera_choice(&self) -> Result<Option<String>, Error> {
        self.staff()?;
        self.chosen_camera()
    }

    /// Chooses this till's camera, or none: the first one found (a manager's).
    pub fn set_camera(&self, device: Option<String>) -> Result<(), Error> {
        self.staff()?;
        let device = device
            .map(|d| d.trim().to_owned())
            .filter(|d| !d.is_empty());
        if let Some(device) = &device
            && !is_camera_device(device)
        {
            return Err(CameraError::NotACamera {
                given: input::shown(device),
            }
            .into());
        }
        self.permit(Action::SetCamera)?;
        self.change_settings(|saved| saved.camera = device)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_camera_is_a_numbered_video_device() {
        for camera in ["/dev/video0", "/dev/video12"] {
            assert!(is_camera_device(camera), "{camera}");
        }
        for not in [
            "/dev/video",
            "/dev/videoX",
            "/dev/sda",
            "video0",
            "/dev/video0/../sda",
            "/dev/video99999",
        ] {
            assert!(!is_camera_device(not), "{not}");
        }
    }
}
