//! The position file `awari datagen` writes and `awari train` reads (doc/network.md): a
//! header (magic, version, rule set, record size, count, checksum), then records of 24 bytes.
//! The checks on reading are here, so every reader refuses a damaged file alike.

use crate::rules::{Board, Side, Variant};
use std::path::Path;

/// The first eight bytes of a data file.
pub const MAGIC: [u8; 8] = *b"AWARIPOS";
/// The format's version.
pub const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEADER: usize = 32;
/// Bytes of one record.
pub const RECORD: usize = 24;
/// The table value of a record beyond the tables' reach.
pub const NO_TABLE: u8 = 255;

/// One position of a self-play game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The houses, South's `A`-`F` then North's `a`-`f` ([`Board::houses`]).
    pub houses: [u8; 12],
    /// The stores, South's then North's.
    pub stores: [u8; 2],
    /// The side to move.
    pub side: Side,
    /// The game's result for the side to move in half points: 2 won, 1 drawn, 0 lost.
    pub result: u8,
    /// Seeds of the board the side to move takes with best play, by the tables;
    /// [`NO_TABLE`] beyond their reach.
    pub table: u8,
    /// Plies played since the start position.
    pub ply: u16,
    /// The search's score for the side to move (score units, 100 = one seed; mate and table
    /// scores as the search gives them, clamped to `i16`).
    pub score: i16,
    /// The game's number in its run.
    pub game: u32,
}

impl Record {
    /// The record's 24 bytes: houses (12), stores (2), side (bit 0: 1 = North) and result
    /// (bits 1-2), table value, ply (u16 LE), score (i16 LE), game (u32 LE).
    pub fn to_bytes(&self) -> [u8; RECORD] {
        let mut b = [0u8; RECORD];
        b[..12].copy_from_slice(&self.houses);
        b[12..14].copy_from_slice(&self.stores);
        b[14] = u8::from(self.side == Side::North) | (self.result << 1);
        b[15] = self.table;
        b[16..18].copy_from_slice(&self.ply.to_le_bytes());
        b[18..20].copy_from_slice(&self.score.to_le_bytes());
        b[20..24].copy_from_slice(&self.game.to_le_bytes());
        b
    }

    /// The record of [`Record::to_bytes`]'s bytes; `None` for bytes no record gives.
    pub fn from_bytes(b: &[u8]) -> Option<Record> {
        if b.len() != RECORD || b[14] >> 3 != 0 || (b[14] >> 1) > 2 {
            return None;
        }
        let total: u32 = b[..14].iter().map(|&n| u32::from(n)).sum();
        if total > crate::rules::MAX_SEEDS {
            return None;
        }
        Some(Record {
            houses: b[..12].try_into().ok()?,
            stores: [b[12], b[13]],
            side: if b[14] & 1 == 1 {
                Side::North
            } else {
                Side::South
            },
            result: b[14] >> 1,
            table: b[15],
            ply: u16::from_le_bytes([b[16], b[17]]),
            score: i16::from_le_bytes([b[18], b[19]]),
            game: u32::from_le_bytes([b[20], b[21], b[22], b[23]]),
        })
    }

    /// The board (checked), in `variant`.
    pub fn board(&self, variant: Variant) -> Option<Board> {
        Board::from_parts(
            variant,
            self.houses,
            self.stores,
            self.side,
            false,
            self.ply,
        )
        .ok()
    }

    /// Seeds on the board.
    pub fn on_board(&self) -> u32 {
        self.houses.iter().map(|&n| u32::from(n)).sum()
    }
}

/// FNV-1a, 64 bits, over `bytes`: the records' checksum.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A data file's bytes: the header (magic, version, rule set, record size, count, checksum)
/// then the records.
pub fn file_bytes(variant: Variant, records: &[Record]) -> Vec<u8> {
    let mut body = Vec::with_capacity(records.len() * RECORD);
    for r in records {
        body.extend_from_slice(&r.to_bytes());
    }
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(variant_code(variant));
    out.push(RECORD as u8);
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(records.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

fn variant_code(variant: Variant) -> u8 {
    Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0) as u8
}

/// Reads the data file `path`: its rule set and records. A file of another format, of
/// another version, cut short, too long or whose checksum differs is refused, by name.
pub fn read(path: &Path) -> Result<(Variant, Vec<Record>), String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let bytes = crate::sys::files::read_regular(path).map_err(|e| at(e.to_string()))?;
    parse(&bytes).map_err(at)
}

/// [`read`] on bytes in memory.
pub fn parse(bytes: &[u8]) -> Result<(Variant, Vec<Record>), String> {
    if bytes.len() < HEADER || bytes[..8] != MAGIC {
        return Err("not an awari position file (awari datagen writes them)".into());
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(format!(
            "position file version {version}; this awari reads version {VERSION}"
        ));
    }
    let variant = *Variant::ALL
        .get(usize::from(bytes[10]))
        .ok_or_else(|| format!("unknown rule set code {}", bytes[10]))?;
    if usize::from(bytes[11]) != RECORD {
        return Err(format!(
            "records of {} bytes; this awari reads {RECORD}",
            bytes[11]
        ));
    }
    let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let sum = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    let body = &bytes[HEADER..];
    let want = count.checked_mul(RECORD as u64);
    if want != Some(body.len() as u64) {
        let have = body.len() / RECORD;
        let how = if (body.len() as u64) < want.unwrap_or(u64::MAX) {
            "cut short"
        } else {
            "longer than its header says"
        };
        return Err(format!(
            "{how}: the header counts {count} records, the file holds {have} ({} bytes)",
            bytes.len()
        ));
    }
    if checksum(body) != sum {
        return Err("the records' checksum differs from the header's: damaged".into());
    }
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, b)| Record::from_bytes(b).ok_or_else(|| format!("record {i} is malformed")))
        .collect::<Result<Vec<_>, _>>()
        .map(|records| (variant, records))
}
