//! Where the bundled content lives: `--content DIR`, else `$GRAIL_CONTENT`, else the
//! `content/` folder of the source tree this binary was built from.

use std::path::{Path, PathBuf};

pub fn content_dir(flag: Option<&Path>) -> PathBuf {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("GRAIL_CONTENT").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../content")))
}
