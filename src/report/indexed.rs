//! PNG files with a palette (issue 28: reports light enough to send).
//!
//! A chart is a few flat colours (background, text, grid, one per series) plus the
//! anti-aliased pixels between them. Its palette keeps the most frequent colours exactly,
//! so a series' colour, the white background and black text are never shifted; any rarer
//! colour (an edge pixel) takes its nearest palette colour. A photo quantiser (NeuQuant)
//! would blur the flat colours a legend relies on, so this one is kept here, on purpose.
//! Everything is sorted on values, never on hash order: the same chart gives the same
//! bytes.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const MAX_COLOURS: usize = 256;

/// A colour map keyed by packed RGB. The keys are the image's own colours (no untrusted
/// input to flood it), and every order read from it is sorted on values, so a plain
/// multiplicative hash does: SipHash was a third of a chart's quantising.
type ColourMap<V> = HashMap<u32, V, BuildHasherDefault<ColourHash>>;

#[derive(Default)]
struct ColourHash(u64);

impl Hasher for ColourHash {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    fn write_u32(&mut self, c: u32) {
        self.0 = (self.0 ^ u64::from(c)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        // A product's high half mixes every input bit; folded into the low half (the
        // bucket index) too, so colours differing only in red do not share buckets.
        self.0 ^ (self.0 >> 32)
    }
}

fn pack(p: &[u8]) -> u32 {
    (u32::from(p[0]) << 16) | (u32::from(p[1]) << 8) | u32::from(p[2])
}

fn unpack(c: u32) -> [u8; 3] {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

fn distance(a: u32, b: u32) -> u32 {
    let (a, b) = (unpack(a), unpack(b));
    (0..3)
        .map(|i| {
            let d = i32::from(a[i]) - i32::from(b[i]);
            (d * d) as u32
        })
        .sum()
}

/// The palette (most frequent first, ties by colour value) and each pixel's index.
pub fn quantise(rgb: &[u8]) -> (Vec<u32>, Vec<u8>) {
    // A chart is long runs of one colour: count runs, not pixels, to spare the hashing.
    let mut counts: ColourMap<u32> = ColourMap::default();
    let mut run: Option<(u32, u32)> = None;
    for c in rgb.chunks_exact(3).map(pack) {
        run = match run {
            Some((r, n)) if r == c => Some((r, n + 1)),
            Some((r, n)) => {
                *counts.entry(r).or_default() += n;
                Some((c, 1))
            }
            None => Some((c, 1)),
        };
    }
    if let Some((r, n)) = run {
        *counts.entry(r).or_default() += n;
    }
    let mut by_use: Vec<(u32, u32)> = counts.into_iter().collect();
    by_use.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<u32> = by_use.iter().take(MAX_COLOURS).map(|c| c.0).collect();
    let mut index: ColourMap<u8> =
        ColourMap::with_capacity_and_hasher(by_use.len(), Default::default());
    for (i, &c) in palette.iter().enumerate() {
        index.insert(c, i as u8);
    }
    for &(c, _) in by_use.iter().skip(MAX_COLOURS) {
        // The first of equally near colours: ties follow the palette's order.
        let (best, _) = palette
            .iter()
            .enumerate()
            .fold((0usize, u32::MAX), |acc, (i, &p)| {
                let d = distance(c, p);
                if d < acc.1 {
                    (i, d)
                } else {
                    acc
                }
            });
        index.insert(c, best as u8);
    }
    let mut last = (u32::MAX, 0u8);
    let pixels = rgb
        .chunks_exact(3)
        .map(|p| {
            let c = pack(p);
            if c != last.0 {
                last = (c, index[&c]);
            }
            last.1
        })
        .collect();
    (palette, pixels)
}

/// The PNG file of an RGB image `w` × `h`, stored with a palette.
pub fn encode(rgb: &[u8], w: u32, h: u32) -> anyhow::Result<Vec<u8>> {
    let (palette, pixels) = quantise(rgb);
    let idat = zlib_rows(&pixels, w as usize)?;
    let mut out = Vec::with_capacity(idat.len() + 3 * palette.len() + 64);
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(palette.iter().flat_map(|&c| unpack(c)).collect::<Vec<u8>>());
        // The image data is one IDAT chunk written below, not through write_image_data.
        enc.validate_sequence(false);
        let mut writer = enc.write_header()?;
        writer.write_chunk(png::chunk::IDAT, &idat)?;
        writer.finish()?;
    }
    Ok(out)
}

/// The zlib stream of the PNG's image data: each row of `width` palette indices after
/// its filter byte (0, no filter), at the best compression, the stream `png`'s own
/// `Compression::Best` / `FilterType::NoFilter` writes.
///
/// Why not `png`'s `write_image_data`: it feeds the compressor two writes a row, and
/// flate2 zeroes its 32 KB output buffer on each, which cost a third of a chart's
/// encoding. One write of the whole filtered image gives the same stream (deflate does
/// not see how its input was split; `tests::same_bytes_as_png_crate` holds it).
fn zlib_rows(pixels: &[u8], width: usize) -> anyhow::Result<Vec<u8>> {
    use std::io::Write;
    let rows = pixels.len().checked_div(width).unwrap_or(0);
    let mut filtered = Vec::with_capacity(pixels.len() + rows);
    for row in pixels.chunks_exact(width.max(1)) {
        filtered.push(0);
        filtered.extend_from_slice(row);
    }
    let mut z = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(filtered.len() / 8),
        flate2::Compression::best(),
    );
    z.write_all(&filtered)?;
    Ok(z.finish()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `encode` wrote before `zlib_rows`: `png`'s own row-by-row image data.
    fn png_crate_bytes(rgb: &[u8], w: u32, h: u32) -> Vec<u8> {
        let (palette, pixels) = quantise(rgb);
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(palette.iter().flat_map(|&c| unpack(c)).collect::<Vec<u8>>());
        enc.set_compression(png::Compression::Best);
        enc.set_filter(png::FilterType::NoFilter);
        let mut writer = enc.write_header().unwrap();
        writer.write_image_data(&pixels).unwrap();
        writer.finish().unwrap();
        out
    }

    #[test]
    fn same_bytes_as_png_crate() {
        // A chart-like image (flat areas, lines, a gradient, noise) large enough for the
        // compressor to fill and flush its buffers several times, and tiny ones.
        let (w, h) = (701u32, 389u32);
        let mut rgb = Vec::with_capacity((w * h * 3) as usize);
        let mut x: u32 = 12345;
        for y in 0..h {
            for c in 0..w {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let p = if y % 50 == 0 || c % 97 == 0 {
                    [0, 0, 0]
                } else if (c / 40 + y / 30) % 5 == 0 {
                    [31, 119, 180]
                } else if y > 300 {
                    [(c % 256) as u8, (y % 256) as u8, 128]
                } else if (x >> 16).is_multiple_of(13) {
                    [(x >> 8) as u8, (x >> 16) as u8, (x >> 24) as u8]
                } else {
                    [255, 255, 255]
                };
                rgb.extend(p);
            }
        }
        assert_eq!(encode(&rgb, w, h).unwrap(), png_crate_bytes(&rgb, w, h));
        for (w, h) in [(1, 1), (3, 2), (4, 3)] {
            let rgb: Vec<u8> = (0..w * h * 3).map(|i| (i * 37) as u8).collect();
            assert_eq!(encode(&rgb, w, h).unwrap(), png_crate_bytes(&rgb, w, h));
        }
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let rgb = [255, 255, 255, 31, 119, 180, 255, 255, 255, 0, 0, 0];
        let (palette, pixels) = quantise(&rgb);
        assert_eq!(palette, vec![0xFFFFFF, 0x000000, 0x1F77B4]);
        assert_eq!(pixels, vec![0, 2, 0, 1]);
    }

    #[test]
    fn rare_colours_take_the_nearest_frequent_one() {
        // 256 frequent greys (twice each), then one rare near-white pixel.
        let mut rgb = Vec::new();
        for g in 0..=255u8 {
            rgb.extend([g, g, g, g, g, g]);
        }
        rgb.extend([254, 255, 253]);
        let (palette, pixels) = quantise(&rgb);
        assert_eq!(palette.len(), 256);
        let last = *pixels.last().unwrap() as usize;
        assert_eq!(unpack(palette[last]), [254, 254, 254]);
    }

    #[test]
    fn encodes_a_readable_indexed_png() {
        let rgb: Vec<u8> = (0..4 * 3 * 3).map(|i| (i * 7) as u8).collect();
        let bytes = encode(&rgb, 4, 3).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: colour type 3 (indexed), depth 8.
        assert_eq!((bytes[24], bytes[25]), (8, 3));
        assert_eq!(encode(&rgb, 4, 3).unwrap(), bytes);
    }
}
