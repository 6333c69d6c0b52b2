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

/// How many characters each line's hash covers.
const BLOCK: usize = 100;
const BASE: u64 = 37;
const END_OF_FILE: u16 = 65535;

/// The hash of every line of `text`: element `i` is line `i + 1`'s. There is one more line
/// than line breaks (the text after the last break, empty or not).
pub fn line_hashes(text: &str) -> Vec<String> {
    // BASE^BLOCK: the weight of the character that leaves the window.
    let leaving_weight = (0..BLOCK).fold(1u64, |w, _| w.wrapping_mul(BASE));
    let mut window = [0u16; BLOCK];
    // The line that starts at each window slot, if one does.
    let mut starts: [Option<usize>; BLOCK] = [None; BLOCK];
    let mut slot = 0;
    let mut hash: u64 = 0;
    let mut line = 0;
    let mut at_line_start = true;
    let mut after_cr = false;
    let mut raw: Vec<(usize, u64)> = Vec::new();
    let mut push =
        |c: u16, window: &mut [u16; BLOCK], starts: &mut [Option<usize>; BLOCK], slot: &mut usize, hash: &mut u64| {
            if let Some(started) = starts.get_mut(*slot).and_then(Option::take) {
                raw.push((started, *hash));
            }
            if at_line_start {
                at_line_start = false;
                line += 1;
                if let Some(s) = starts.get_mut(*slot) {
                    *s = Some(line);
                }
            }
            if c == u16::from(b'\n') {
                at_line_start = true;
            }
            let leaving = window.get(*slot).copied().unwrap_or(0);
            if let Some(w) = window.get_mut(*slot) {
                *w = c;
            }
            *hash = hash
                .wrapping_mul(BASE)
                .wrapping_add(u64::from(c))
                .wrapping_sub(leaving_weight.wrapping_mul(u64::from(leaving)));
            *slot = (*slot + 1) % BLOCK;
        };
    for unit in text.encode_utf16().chain(std::iter::once(END_OF_FILE)) {
        let is_cr = unit == u16::from(b'\r');
        if unit == u16::from(b' ') || unit == u16::from(b'\t') || (after_cr && unit == u16::from(b'\n')) {
            after_cr = false;
            continue;
        }
        after_cr = is_cr;
        let c = if is_cr { u16::from(b'\n') } else { unit };
        push(c, &mut window, &mut starts, &mut slot, &mut hash);
    }
    // Flush: the lines whose window still runs past the end.
    for _ in 0..BLOCK {
        if let Some(started) = starts.get_mut(slot).and_then(Option::take) {
            raw.push((started, hash));
        }
        let leaving = window.get(slot).copied().unwrap_or(0);
        if let Some(w) = window.get_mut(slot) {
            *w = 0;
        }
        hash = hash
            .wrapping_mul(BASE)
            .wrapping_sub(leaving_weight.wrapping_mul(u64::from(leaving)));
        slot = (slot + 1) % BLOCK;
    }
    raw.sort_by_key(|&(line, _)| line);
    let mut counts: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    raw.into_iter()
        .map(|(_, h)| {
            let n = counts.entry(h).or_default();
            *n += 1;
            format!("{h:x}:{n}")
        })
        .collect()
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
}
