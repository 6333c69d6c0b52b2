//! `partialFingerprints.primaryLocationLineHash`, computed as GitHub's `codeql-action/upload-sarif`
//! computes it (its `src/fingerprints.ts`), so that a SARIF log uploaded through the REST API
//! and one uploaded by the action give the same alerts.
//!
//! The hash of a line is a polynomial rolling hash (base 37, wrapping 64-bit arithmetic) over
//! the 100 characters that start at the line, counting UTF-16 code units, skipping spaces and
//! tabs, with every line break (`\r\n`, `\r`, `\n`) read as one `\n`, an end-of-file marker
//! (65535) after the last character and zeros after that. It is written in lower-case hex
//! without leading zeros, followed by `:<n>` where `n` counts the lines with the same hash so
//! far. Editing a line (or one of the next lines within 100 characters) changes its hash;
//! adding or removing lines elsewhere does not.

use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;

/// How many characters each line's hash covers.
const BLOCK: usize = 100;
const BASE: u64 = 37;
const END_OF_FILE: u16 = 65535;

/// The hash of every line of `text`: element `i` is line `i + 1`'s. There is one more line
/// than line breaks (the text after the last break, empty or not).
pub fn line_hashes(text: &str) -> Vec<String> {
    let mut raw: Vec<u64> = Vec::new();
    let mut hasher = Hasher::new();
    hasher.feed(text, &mut |_, hash| raw.push(hash));
    hasher.finish(&mut |_, hash| raw.push(hash));
    let mut counts: HashMap<u64, usize> = HashMap::new();
    raw.into_iter()
        .map(|h| {
            let n = counts.entry(h).or_default();
            *n += 1;
            format!("{h:x}:{n}")
        })
        .collect()
}

/// The hashes of some lines of a text read twice from `open` (once for the lines' hashes,
/// once to count the lines before them with the same hash), by 1-based line number: the
/// elements of [`line_hashes`] for those lines, with memory for those lines only, whatever the
/// length of the text. `lines` need not be sorted; lines past the end have none.
pub fn hashes_of_lines<R: BufRead>(
    mut open: impl FnMut() -> std::io::Result<R>,
    lines: &[usize],
) -> std::io::Result<BTreeMap<usize, LineHash>> {
    let mut wanted: Vec<usize> = lines.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    // The hash of each wanted line.
    let mut hashes: BTreeMap<usize, u64> = BTreeMap::new();
    let mut next = wanted.iter().peekable();
    each_line_hash(open()?, &mut |line, hash| {
        while next.next_if(|&&l| l < line).is_some() {}
        if next.next_if(|&&l| l == line).is_some() {
            hashes.insert(line, hash);
        }
    })?;
    // How often each of those hashes occurs up to each wanted line.
    let mut counts: HashMap<u64, usize> = hashes.values().map(|&h| (h, 0)).collect();
    let mut out = BTreeMap::new();
    each_line_hash(open()?, &mut |line, hash| {
        if let Some(count) = counts.get_mut(&hash) {
            *count += 1;
            if hashes.get(&line) == Some(&hash) {
                out.insert(line, LineHash { hash, count: *count });
            }
        }
    })?;
    Ok(out)
}

/// A line's hash as numbers: written (`Display`) as [`line_hashes`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineHash {
    hash: u64,
    /// The lines up to this one with the same hash.
    count: usize,
}

impl std::fmt::Display for LineHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:x}:{}", self.hash, self.count)
    }
}

/// Calls `each` with every line's number (1-based) and hash, in order, reading `reader` a line
/// at a time.
fn each_line_hash(mut reader: impl BufRead, each: &mut dyn FnMut(usize, u64)) -> std::io::Result<()> {
    let mut hasher = Hasher::new();
    let mut text = String::new();
    while reader.read_line(&mut text)? > 0 {
        hasher.feed(&text, each);
        text.clear();
    }
    hasher.finish(each);
    Ok(())
}

/// The rolling hash over a text fed in pieces: each line's hash is known once the 100
/// characters after its start are (or the text ends).
struct Hasher {
    /// BASE^BLOCK: the weight of the character that leaves the window.
    leaving_weight: u64,
    window: [u16; BLOCK],
    /// The line that starts at each window slot, if one does.
    starts: [Option<usize>; BLOCK],
    slot: usize,
    hash: u64,
    line: usize,
    at_line_start: bool,
    after_cr: bool,
}

impl Hasher {
    fn new() -> Self {
        Hasher {
            leaving_weight: (0..BLOCK).fold(1u64, |w, _| w.wrapping_mul(BASE)),
            window: [0; BLOCK],
            starts: [None; BLOCK],
            slot: 0,
            hash: 0,
            line: 0,
            at_line_start: true,
            after_cr: false,
        }
    }

    fn feed(&mut self, text: &str, each: &mut dyn FnMut(usize, u64)) {
        for unit in text.encode_utf16() {
            self.unit(unit, each);
        }
    }

    /// Ends the text: the hashes of the lines whose window runs past the end.
    fn finish(mut self, each: &mut dyn FnMut(usize, u64)) {
        self.unit(END_OF_FILE, each);
        for _ in 0..BLOCK {
            if let Some(started) = self.starts.get_mut(self.slot).and_then(Option::take) {
                each(started, self.hash);
            }
            let leaving = self.window.get(self.slot).copied().unwrap_or(0);
            if let Some(w) = self.window.get_mut(self.slot) {
                *w = 0;
            }
            self.hash = self
                .hash
                .wrapping_mul(BASE)
                .wrapping_sub(self.leaving_weight.wrapping_mul(u64::from(leaving)));
            self.slot = (self.slot + 1) % BLOCK;
        }
    }

    fn unit(&mut self, unit: u16, each: &mut dyn FnMut(usize, u64)) {
        let is_cr = unit == u16::from(b'\r');
        if unit == u16::from(b' ') || unit == u16::from(b'\t') || (self.after_cr && unit == u16::from(b'\n')) {
            self.after_cr = false;
            return;
        }
        self.after_cr = is_cr;
        let c = if is_cr { u16::from(b'\n') } else { unit };
        if let Some(started) = self.starts.get_mut(self.slot).and_then(Option::take) {
            each(started, self.hash);
        }
        if self.at_line_start {
            self.at_line_start = false;
            self.line += 1;
            if let Some(s) = self.starts.get_mut(self.slot) {
                *s = Some(self.line);
            }
        }
        if c == u16::from(b'\n') {
            self.at_line_start = true;
        }
        let leaving = self.window.get(self.slot).copied().unwrap_or(0);
        if let Some(w) = self.window.get_mut(self.slot) {
            *w = c;
        }
        self.hash = self
            .hash
            .wrapping_mul(BASE)
            .wrapping_add(u64::from(c))
            .wrapping_sub(self.leaving_weight.wrapping_mul(u64::from(leaving)));
        self.slot = (self.slot + 1) % BLOCK;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vectors of codeql-action's own tests (`src/fingerprints.test.ts`).
    #[test]
    fn the_upload_actions_vectors() {
        assert_eq!(line_hashes(""), ["c129715d7a2bc9a3:1"]);
        assert_eq!(
            line_hashes(" a\nb\n  \t\tc\n d"),
            [
                "271789c17abda88f:1",
                "54703d4cd895b18:1",
                "180aee12dab6264:1",
                "a23a3dc5e078b07b:1"
            ]
        );
        assert_eq!(
            line_hashes(" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End"),
            [
                "8b7cf3e952e7aeb2:1",
                "b1ae1287ec4718d9:1",
                "bff680108adb0fcc:1",
                "c6805c5e1288b612:1",
                "b86d3392aea1be30:1",
                "e6ceba753e1a442:1",
            ]
        );
        let with_final_break = [
            "e9496ae3ebfced30:1",
            "fb7c023a8b9ccb3f:1",
            "ce8ba1a563dcdaca:1",
            "e20e36e16fcb0cc8:1",
            "b3edc88f2938467e:1",
            "c8e28b0b4002a3a0:1",
            "c129715d7a2bc9a3:1",
        ];
        for text in [
            " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n",
            " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r",
            " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n",
            " hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n",
        ] {
            assert_eq!(line_hashes(text), with_final_break, "{text:?}");
        }
        assert_eq!(
            line_hashes(&"Lorem ipsum dolor sit amet.\n".repeat(10)),
            [
                "a7f2ff13bc495cf2:1",
                "a7f2ff13bc495cf2:2",
                "a7f2ff13bc495cf2:3",
                "a7f2ff13bc495cf2:4",
                "a7f2ff13bc495cf2:5",
                "a7f2ff13bc495cf2:6",
                "a7f2ff1481e87703:1",
                "a9cf91f7bbf1862b:1",
                "55ec222b86bcae53:1",
                "cc97dc7b1d7d8f7b:1",
                "c129715d7a2bc9a3:1",
            ]
        );
    }

    #[test]
    fn a_line_keeps_its_hash_when_lines_far_above_change() {
        let body = "kind: Pod\nspec:\n  hostNetwork: true\n";
        let a = line_hashes(&format!("# one\n{body}"));
        let b = line_hashes(&format!("# one\n# two\n# three\n{body}"));
        assert_eq!(a.get(3), b.get(5));
        // Characters beyond the BMP count as two code units, as in JavaScript.
        assert_eq!(line_hashes("😀\n").len(), 2);
        assert_ne!(line_hashes("😀\n")[0], line_hashes("\u{fffd}\n")[0]);
    }

    /// Some lines, read twice a line at a time: the same as hashing the whole text.
    #[test]
    fn some_lines_are_hashed_as_the_whole_text_is() {
        let text = format!("{}kind: Pod\r\n\r\nlast", "Lorem ipsum dolor sit amet.\n".repeat(10));
        let all = line_hashes(&text);
        let open = || Ok(std::io::Cursor::new(text.as_bytes()));
        let some = hashes_of_lines(open, &[11, 1, 6, 6, 13, 99]).expect("read");
        let some: BTreeMap<usize, String> = some.into_iter().map(|(l, h)| (l, h.to_string())).collect();
        let expected: BTreeMap<usize, String> = [1, 6, 11, 13].iter().map(|&l| (l, all[l - 1].clone())).collect();
        assert_eq!(some, expected);
        assert_eq!(all.len(), 13);
    }
}
