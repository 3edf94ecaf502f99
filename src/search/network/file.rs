//! The network's weights file: a 32-byte header, then the integer weights, little-endian.
//!
//! Header: `AWARINET` (8 bytes), version (u16), rule set (u8, 0 = oware), 0 (u8), inputs
//! (u16), hidden units (u16), `QA` (u16), `QB` (u16), house buckets (u8), store buckets (u8),
//! output buckets (u8), 0 (u8), the FNV-1a 64 checksum of the rest of the file (u64). Then the
//! first layer's weights (`i16`, input by input, each input's `HIDDEN` in a row), its biases
//! (`i16`), the output weights (`i16`, bucket by bucket) and the output biases (`i32`, score
//! units). A file whose shape is not
//! this program's is refused, as is one cut short, too long or damaged, and one holding a
//! weight beyond the bounds `awari train` keeps (a checksum proves no more than that the
//! file is whole: beyond them, the integer sums could overflow).

use super::{
    Network, HIDDEN, HOUSE_BUCKETS, INPUTS, MAX_BIAS, MAX_FIRST, MAX_OUTPUT, OUTPUT_BUCKETS, QA,
    QB, STORE_BUCKETS,
};
use std::fmt;
use std::io::Read;

/// The first eight bytes of a weights file.
pub const MAGIC: [u8; 8] = *b"AWARINET";
/// The format's version.
pub const VERSION: u16 = 2;
/// Bytes of the header.
pub const HEADER: usize = 32;
/// Bytes of the weights after the header.
const BODY: usize = 2 * (INPUTS * HIDDEN + HIDDEN + OUTPUT_BUCKETS * HIDDEN) + 4 * OUTPUT_BUCKETS;
/// Bytes of a whole weights file.
pub const LENGTH: usize = HEADER + BODY;

/// The first format's shape, still read: 16 house buckets (the last "15 or more"), one output
/// layer. Its network is this one's with the "15 or more" row copied into every bucket from
/// 15 up and its output layer into every output bucket: it evaluates every position as it did.
mod v1 {
    /// House buckets.
    pub const HOUSE_BUCKETS: usize = 16;
    /// Inputs.
    pub const INPUTS: usize = 12 * HOUSE_BUCKETS + 2 * super::STORE_BUCKETS;
    /// Bytes after the header.
    pub const BODY: usize = 2 * (INPUTS * super::HIDDEN + 2 * super::HIDDEN) + 4;
}

/// Why a weights file is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// Not a weights file at all.
    NotANetwork,
    /// Another version of the format.
    Version(u16),
    /// A network of another shape (inputs, hidden units, scales or buckets).
    Shape(String),
    /// Fewer or more bytes than its shape needs.
    Length {
        /// Bytes there.
        found: usize,
        /// Bytes its shape needs.
        wanted: usize,
    },
    /// The checksum differs: damaged.
    Checksum,
    /// A weight beyond the bounds the trainer keeps.
    Weight {
        /// Which weight: `first-layer weight of input 3, unit 7`.
        which: String,
        /// Its value.
        value: i64,
        /// The bound (either sign).
        bound: i64,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::NotANetwork => write!(f, "not an awari network file (awari train writes them)"),
            FileError::Version(v) => {
                write!(f, "network file version {v}; this awari reads versions 1 and {VERSION}")
            }
            FileError::Shape(s) => write!(f, "a network of another shape ({s}); this awari's is {INPUTS} inputs, {HIDDEN} hidden units, {OUTPUT_BUCKETS} output buckets"),
            FileError::Length { found, wanted } if found < wanted => {
                write!(f, "cut short: {found} bytes of the {wanted} its header's shape needs")
            }
            FileError::Length { found, wanted } => {
                write!(f, "{found} bytes, more than the {wanted} its header's shape needs")
            }
            FileError::Checksum => write!(f, "the weights' checksum differs from the header's: damaged"),
            FileError::Weight { which, value, bound } => write!(
                f,
                "the {which} is {value}, beyond ±{bound}, the bound awari train keeps (past it the evaluation's sums could overflow)"
            ),
        }
    }
}

/// FNV-1a, 64 bits.
pub(super) fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The weights file of `net`.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut body = Vec::with_capacity(BODY);
    for row in net.w1.iter().chain([&net.b1]).chain(&net.w2) {
        for w in row {
            body.extend_from_slice(&w.to_le_bytes());
        }
    }
    for b in &net.b2 {
        body.extend_from_slice(&b.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER + BODY);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    for n in [INPUTS, HIDDEN, QA as usize, QB as usize] {
        out.extend_from_slice(&(n as u16).to_le_bytes());
    }
    out.extend_from_slice(&[
        HOUSE_BUCKETS as u8,
        STORE_BUCKETS as u8,
        OUTPUT_BUCKETS as u8,
        0,
    ]);
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Checks a weights file's header (its first [`HEADER`] bytes, or fewer if the file is
/// shorter): the magic, the version and the shape. Returns the length of the body its
/// version's shape needs.
fn check_header(bytes: &[u8]) -> Result<usize, FileError> {
    if bytes.len() < HEADER || bytes[..8] != MAGIC {
        return Err(FileError::NotANetwork);
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let version = u16_at(8);
    let (shape, body) = match version {
        1 => ([v1::INPUTS, v1::HOUSE_BUCKETS, 1], v1::BODY),
        VERSION => ([INPUTS, HOUSE_BUCKETS, OUTPUT_BUCKETS], BODY),
        v => return Err(FileError::Version(v)),
    };
    let found = [u16_at(12), u16_at(14), u16_at(16), u16_at(18)].map(usize::from);
    let buckets = [bytes[20], bytes[21], bytes[22]].map(usize::from);
    // Version 1 left byte 22 zero: it had one output layer.
    let outputs = match version {
        1 if buckets[2] == 0 => 1,
        _ => buckets[2],
    };
    if bytes[10] != 0
        || found != [shape[0], HIDDEN, QA as usize, QB as usize]
        || [buckets[0], buckets[1], outputs] != [shape[1], STORE_BUCKETS, shape[2]]
    {
        return Err(FileError::Shape(format!(
            "rule set {}, {} inputs, {} hidden units, scales {} and {}, buckets {}, {} and {}",
            bytes[10], found[0], found[1], found[2], found[3], buckets[0], buckets[1], outputs
        )));
    }
    Ok(body)
}

/// The network of a weights file's bytes, checked. A version 1 file is read as the network
/// that evaluates as it did (see the `v1` module).
pub fn from_bytes(bytes: &[u8]) -> Result<Network, FileError> {
    let length = check_header(bytes)?;
    let body = &bytes[HEADER..];
    if body.len() != length {
        return Err(FileError::Length {
            found: bytes.len(),
            wanted: HEADER + length,
        });
    }
    let sum = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    if checksum(body) != sum {
        return Err(FileError::Checksum);
    }
    let mut words = body
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut row = || -> [i16; HIDDEN] { std::array::from_fn(|_| words.next().unwrap_or(0)) };
    let network = match length {
        BODY => {
            let w1 = (0..INPUTS).map(|_| row()).collect();
            let b1 = row();
            let w2 = std::array::from_fn(|_| row());
            let biases = &body[BODY - 4 * OUTPUT_BUCKETS..];
            let b2 = std::array::from_fn(|b| {
                i32::from_le_bytes(biases[4 * b..4 * b + 4].try_into().expect("4 bytes"))
            });
            Network { w1, b1, w2, b2 }
        }
        _ => {
            let old: Vec<[i16; HIDDEN]> = (0..v1::INPUTS).map(|_| row()).collect();
            let b1 = row();
            let w2 = row();
            let b2 = i32::from_le_bytes(body[v1::BODY - 4..].try_into().expect("4 bytes"));
            let w1 = (0..INPUTS)
                .map(|i| match i < 12 * HOUSE_BUCKETS {
                    true => {
                        let (house, bucket) = (i / HOUSE_BUCKETS, i % HOUSE_BUCKETS);
                        old[house * v1::HOUSE_BUCKETS + bucket.min(v1::HOUSE_BUCKETS - 1)]
                    }
                    false => old[i - 12 * HOUSE_BUCKETS + 12 * v1::HOUSE_BUCKETS],
                })
                .collect();
            Network {
                w1,
                b1,
                w2: [w2; OUTPUT_BUCKETS],
                b2: [b2; OUTPUT_BUCKETS],
            }
        }
    };
    check_bounds(&network)?;
    Ok(network)
}

/// Refuses a network holding a weight beyond the bounds the quantizer keeps, naming the first.
fn check_bounds(net: &Network) -> Result<(), FileError> {
    let beyond = |which: String, value: i64, bound: i64| -> Result<(), FileError> {
        match value.abs() > bound {
            true => Err(FileError::Weight {
                which,
                value,
                bound,
            }),
            false => Ok(()),
        }
    };
    let first = i64::from(MAX_FIRST);
    for (i, row) in net.w1.iter().enumerate() {
        for (j, &w) in row.iter().enumerate() {
            beyond(
                format!("first-layer weight of input {i}, unit {j}"),
                w.into(),
                first,
            )?;
        }
    }
    for (j, &w) in net.b1.iter().enumerate() {
        beyond(format!("first-layer bias of unit {j}"), w.into(), first)?;
    }
    for (b, row) in net.w2.iter().enumerate() {
        for (j, &w) in row.iter().enumerate() {
            let which = format!("output weight of bucket {b}, unit {j}");
            beyond(which, w.into(), MAX_OUTPUT.into())?;
        }
    }
    let bias = (MAX_BIAS * 100.0) as i64;
    for (b, &w) in net.b2.iter().enumerate() {
        beyond(format!("output bias of bucket {b}"), w.into(), bias)?;
    }
    Ok(())
}

/// Reads the weights file `file` (`size` bytes long, by its metadata) without holding more
/// than a weights file's length, whatever its size: a file of another length is refused after
/// its header alone is read.
pub fn read(file: &mut impl Read, size: u64) -> Result<Result<Network, FileError>, std::io::Error> {
    let mut header = Vec::with_capacity(HEADER);
    file.by_ref().take(HEADER as u64).read_to_end(&mut header)?;
    let body = match check_header(&header) {
        Ok(body) => body,
        Err(e) => return Ok(Err(e)),
    };
    if size != (HEADER + body) as u64 {
        return Ok(Err(FileError::Length {
            found: usize::try_from(size).unwrap_or(usize::MAX),
            wanted: HEADER + body,
        }));
    }
    let mut bytes = header;
    bytes.reserve(body);
    // One byte more than the length: a file that grew since its size was asked is refused.
    file.take(body as u64 + 1).read_to_end(&mut bytes)?;
    Ok(from_bytes(&bytes))
}
