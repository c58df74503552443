//! The content hash: what replays record to know they are replayed against the same content.
//!
//! It digests a canonical serialization of the *resolved* pack (JSON of [`Pack`]: ids, values,
//! conditions as written, params and conditions sorted by name), not file bytes, so comments,
//! formatting and splitting a pack over files do not change it.

use sha2::{Digest, Sha256};

use crate::pack::Pack;

pub fn content_hash(pack: &Pack) -> String {
    // Serializing plain data to JSON cannot fail; an empty digest input would still be stable.
    let canonical = serde_json::to_vec(pack).unwrap_or_default();
    let digest = Sha256::digest(&canonical);
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}
