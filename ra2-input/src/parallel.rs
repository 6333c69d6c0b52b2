//! Every core: files are linted on a pool of threads, each into its own linter for the run
//! ([`ra2_core::lint::Seed`]), and the calling thread absorbs them in input order as they come,
//! so the report is byte for byte the one a single thread produces (same order, same
//! cross-document findings) and absorbing overlaps with reading. Given paths
//! ([`lint_paths`]), the threads read the files a directory walk finds as it finds them.
//! ra2-core stays free of threads; only this input layer has them.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};

use ra2_core::Linter;
use ra2_core::lint::Seed;

use crate as input;
use crate::{Input, Kept, Progress, ReadProblem, Watch};

/// What reading one input gave.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Its text, when the caller keeps it (standard input keeps what it read even when
    /// reading failed part way).
    pub text: Option<String>,
    /// Why it could not be read (whole or in part).
    pub problem: Option<ReadProblem>,
}

/// Files a run need not read: a linter for the run (see [`Linter::fork`]) that read each, and
/// the text it read, by path (`ra2 lint --fix` read and fixed them already). Each is taken in
/// ([`Linter::absorb`]) in its turn instead of reading the file. With them, what the walk of the
/// run's paths found, when fixing walked them already ([`Prelinted::found`]).
#[derive(Default)]
pub struct Prelinted<'c> {
    files: Mutex<std::collections::HashMap<std::path::PathBuf, (Box<Linter<'c>>, String)>>,
    found: Mutex<Option<Discovered>>,
}

/// What [`input::discover`] found on `paths` walked as `how` says.
struct Discovered {
    paths: Vec<std::path::PathBuf>,
    how: input::Discovery,
    found: (Vec<Input>, Vec<ReadProblem>, Vec<input::Skipped>),
}

impl std::fmt::Debug for Prelinted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files = self.files.lock().map_or(0, |files| files.len());
        f.debug_struct("Prelinted").field("files", &files).finish()
    }
}

impl<'c> Prelinted<'c> {
    /// `linter` read `text` as the file `path`. A path given twice is read by the run.
    pub fn insert(&mut self, path: std::path::PathBuf, linter: Linter<'c>, text: String) {
        let Ok(files) = self.files.get_mut() else { return };
        match files.entry(path) {
            std::collections::hash_map::Entry::Occupied(seen) => {
                seen.remove();
            }
            std::collections::hash_map::Entry::Vacant(new) => {
                new.insert((Box::new(linter), text));
            }
        }
    }

    /// Forgets the files `changed` says were changed since they were read.
    pub fn forget(&mut self, mut changed: impl FnMut(&std::path::Path) -> bool) {
        if let Ok(files) = self.files.get_mut() {
            files.retain(|path, _| !changed(path));
        }
    }

    /// What [`input::discover`] found on `paths` walked as `how` says (fixing walked them, and
    /// changed no name): a run of the same paths, walked the same way, takes it instead of
    /// walking them again.
    pub fn found(
        &mut self,
        paths: &[std::path::PathBuf],
        how: input::Discovery,
        found: (Vec<Input>, Vec<ReadProblem>, Vec<input::Skipped>),
    ) {
        if let Ok(slot) = self.found.get_mut() {
            *slot = Some(Discovered {
                paths: paths.to_vec(),
                how,
                found,
            });
        }
    }

    /// What [`Prelinted::found`] kept, once, for a walk of `paths` as `how` says.
    fn take_found(
        &self,
        paths: &[std::path::PathBuf],
        how: input::Discovery,
    ) -> Option<(Vec<Input>, Vec<ReadProblem>, Vec<input::Skipped>)> {
        let mut slot = self.found.lock().ok()?;
        if slot.as_ref().is_some_and(|d| d.paths == paths && d.how == how) {
            slot.take().map(|d| d.found)
        } else {
            None
        }
    }

    /// The linter that read `item`, if one did, with the outcome of reading it.
    fn take(&self, item: &Input, keep_text: bool) -> Option<(Box<Linter<'c>>, Outcome)> {
        let Input::File { path, .. } = item else { return None };
        let (linter, text) = self.files.lock().ok()?.remove(path)?;
        Some((
            linter,
            Outcome {
                text: keep_text.then_some(text),
                problem: None,
            },
        ))
    }
}

/// The default `--jobs`: the cores available to this process.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Lints `inputs` in order into `linter` on `jobs` threads. `on` sees each input's outcome in
/// input order (the text only when `keep_text`) and returns false to stop. Standard input and
/// large files are streamed on the calling thread, in their turn between the files around
/// them; a linter with object hooks (strict mode) or `jobs` of 1 reads everything on the
/// calling thread.
pub fn lint_inputs(
    inputs: &[Input],
    linter: &mut Linter<'_>,
    jobs: usize,
    keep_text: bool,
    on: impl FnMut(&Input, Outcome) -> bool,
) {
    lint_inputs_with(inputs, linter, jobs, keep_text, on, None);
}

/// [`lint_inputs`], calling `progress` with the linter after each file is read into it and
/// after each document or List item of standard input (with the text kept so far, when
/// `keep_text`): where a caller takes settled results as it goes. A caller that drops kept
/// text gets no `text` in that input's [`Outcome`].
pub fn lint_inputs_with(
    inputs: &[Input],
    linter: &mut Linter<'_>,
    jobs: usize,
    keep_text: bool,
    on: impl FnMut(&Input, Outcome) -> bool,
    progress: Option<Progress<'_>>,
) {
    lint_inputs_prelinted(inputs, linter, jobs, keep_text, on, progress, None);
}

/// [`lint_inputs_with`], taking in what `prelinted` read instead of reading it.
fn lint_inputs_prelinted<'c>(
    inputs: &[Input],
    linter: &mut Linter<'c>,
    jobs: usize,
    keep_text: bool,
    mut on: impl FnMut(&Input, Outcome) -> bool,
    mut progress: Option<Progress<'_>>,
    prelinted: Option<&Prelinted<'c>>,
) {
    if jobs < 2 || inputs.len() < 2 || !linter.can_fork() {
        for item in inputs {
            let outcome = lint_or_take(item, linter, keep_text, &mut progress, prelinted);
            if !on(item, after_file(item, linter, outcome, &mut progress)) {
                return;
            }
        }
        return;
    }
    let board = Board::listing(inputs);
    on_threads(&board, linter, jobs, keep_text, on, progress, prelinted, |_| ());
}

/// What [`lint_paths`] found besides the inputs it read.
#[derive(Debug, Default)]
pub struct Found {
    /// How many inputs were read.
    pub inputs: usize,
    /// Paths that could not be walked ([`input::discover`]).
    pub problems: Vec<ReadProblem>,
    /// Files skipped for their names.
    pub skipped: Vec<input::Skipped>,
}

/// [`input::discover`] and [`lint_inputs_with`] at once: with threads, the files a directory
/// walk finds are read as it finds them.
pub fn lint_paths(
    paths: &[std::path::PathBuf],
    how: input::Discovery,
    linter: &mut Linter<'_>,
    jobs: usize,
    keep_text: bool,
    on: impl FnMut(&Input, Outcome) -> bool,
    progress: Option<Progress<'_>>,
) -> Found {
    lint_paths_prelinted(paths, how, linter, jobs, keep_text, on, progress, None)
}

/// [`lint_paths`], taking in what `prelinted` read instead of reading it again.
#[expect(
    clippy::too_many_arguments,
    reason = "lint_paths' arguments and what was read already"
)]
pub fn lint_paths_prelinted<'c>(
    paths: &[std::path::PathBuf],
    how: input::Discovery,
    linter: &mut Linter<'c>,
    jobs: usize,
    keep_text: bool,
    on: impl FnMut(&Input, Outcome) -> bool,
    progress: Option<Progress<'_>>,
    prelinted: Option<&Prelinted<'c>>,
) -> Found {
    // Walked already (fixing did): read as a list.
    if let Some((inputs, problems, skipped)) = prelinted.and_then(|p| p.take_found(paths, how)) {
        lint_inputs_prelinted(&inputs, linter, jobs, keep_text, on, progress, prelinted);
        return Found {
            inputs: inputs.len(),
            problems,
            skipped,
        };
    }
    // Files named one by one need no walk beside the linting: read them as a list, which lints
    // a single file on this thread (no pool to start for it).
    let walks = paths.iter().any(|path| path.is_dir());
    if jobs < 2 || !linter.can_fork() || !walks {
        let (inputs, problems, skipped) = input::discover(paths, how);
        lint_inputs_prelinted(&inputs, linter, jobs, keep_text, on, progress, prelinted);
        return Found {
            inputs: inputs.len(),
            problems,
            skipped,
        };
    }
    let board = Board::default();
    let mut found = Found::default();
    on_threads(
        &board,
        linter,
        jobs,
        keep_text,
        on,
        progress,
        prelinted,
        |absorb_ready| {
            // The list is complete once the walk is over, whatever happens to the walk.
            let _complete = Completes(&board);
            let (problems, skipped) = input::discover_each(paths, how, &mut |input| {
                found.inputs += 1;
                board.push(input);
                absorb_ready();
            });
            found.problems = problems;
            found.skipped = skipped;
        },
    );
    found
}

/// Lints the inputs listed on `board` on `jobs` threads, absorbing them into `linter` in input
/// order on the calling thread. `list` lists the rest of them, when the board does not list
/// them all yet, calling the function it is given now and then to absorb what is ready.
#[expect(clippy::too_many_arguments, reason = "the run's parts, each needed")]
fn on_threads<'c>(
    board: &Board,
    linter: &mut Linter<'c>,
    jobs: usize,
    keep_text: bool,
    on: impl FnMut(&Input, Outcome) -> bool,
    progress: Option<Progress<'_>>,
    prelinted: Option<&Prelinted<'c>>,
    list: impl FnOnce(&mut dyn FnMut()),
) {
    let seed = linter.seed();
    std::thread::scope(|scope| {
        let (results, done) = mpsc::channel();
        for _ in 0..jobs {
            let results = results.clone();
            let seed = &seed;
            scope.spawn(move || work(seed, keep_text, board, &results, AHEAD_PER_THREAD * jobs, prelinted));
        }
        drop(results);
        let mut absorb = Absorb {
            board,
            linter,
            keep_text,
            on,
            progress,
            early: BTreeMap::new(),
            turn: 0,
            stopped: false,
        };
        list(&mut || {
            while !absorb.stopped {
                let Ok(batch) = done.try_recv() else { break };
                absorb.batch(batch);
            }
        });
        for batch in &done {
            if absorb.stopped {
                break;
            }
            absorb.batch(batch);
        }
    });
}

/// The calling thread's side of [`on_threads`]: takes in what the threads read, in input order.
struct Absorb<'a, 'l, 'c, 'p, On> {
    board: &'a Board,
    linter: &'l mut Linter<'c>,
    keep_text: bool,
    on: On,
    progress: Option<Progress<'p>>,
    /// What came back ahead of its turn, by input index.
    early: BTreeMap<usize, (Arc<Input>, Read<'c>)>,
    /// The next input to take in.
    turn: usize,
    /// `on` said to stop.
    stopped: bool,
}

impl<'c, On: FnMut(&Input, Outcome) -> bool> Absorb<'_, '_, 'c, '_, On> {
    fn batch(&mut self, batch: Vec<(usize, Arc<Input>, Read<'c>)>) {
        self.early
            .extend(batch.into_iter().map(|(index, item, read)| (index, (item, read))));
        while !self.stopped {
            let Some((item, read)) = self.early.remove(&self.turn) else {
                return;
            };
            let outcome = match read {
                Read::Forked(outcome, fork) => {
                    self.linter.absorb(*fork);
                    outcome
                }
                Read::Streamed => lint_one(&item, self.linter, self.keep_text, &mut self.progress),
            };
            self.turn += 1;
            let outcome = after_file(&item, self.linter, outcome, &mut self.progress);
            if (self.on)(&item, outcome) {
                self.board.absorbed(self.turn);
            } else {
                self.stopped = true;
                self.board.stop();
            }
        }
    }
}

/// How far (in inputs) the threads may read ahead of what the calling thread has absorbed, per
/// thread: while it streams a large input, or its caller is slow, memory holds this many read
/// files at most. Files differ in size by a thousand times, so the window must be wide: with 32
/// a thread, a large file near the start left one core idle while the other waited for it
/// (the corpus on two cores: 0.305 s; with 512, 0.260 s). Tests use a narrow one, to reach it.
const AHEAD_PER_THREAD: usize = if cfg!(test) { 4 } else { 512 };

/// Files a thread reads before it hands them over (and before it waits for the window).
const SEND_EVERY: usize = 8;

/// What a thread gives back for one input.
enum Read<'c> {
    /// Read whole into a linter of its own.
    Forked(Outcome, Box<Linter<'c>>),
    /// To be streamed by the calling thread in its turn.
    Streamed,
}

/// What the threads share: the inputs listed so far, the next one to take, how many the calling
/// thread absorbed, and where a thread waits for more.
#[derive(Default)]
struct Board {
    next: AtomicUsize,
    absorbed: AtomicUsize,
    stopped: AtomicBool,
    /// Threads waiting (or about to wait) on `moved`, counted under `list`.
    sleepers: AtomicUsize,
    list: Mutex<Listed>,
    /// More inputs are listed or absorbed, or the run stopped.
    moved: Condvar,
}

/// The inputs of a run, as they are listed.
#[derive(Default)]
struct Listed {
    inputs: Vec<Arc<Input>>,
    /// No more will be.
    complete: bool,
}

/// Completes the board's list when dropped.
struct Completes<'b>(&'b Board);

impl Drop for Completes<'_> {
    fn drop(&mut self) {
        if let Ok(mut list) = self.0.list.lock() {
            list.complete = true;
        }
        self.0.moved.notify_all();
    }
}

impl Board {
    /// A board listing all of `inputs`.
    fn listing(inputs: &[Input]) -> Board {
        Board {
            list: Mutex::new(Listed {
                inputs: inputs.iter().cloned().map(Arc::new).collect(),
                complete: true,
            }),
            ..Board::default()
        }
    }

    fn push(&self, input: Input) {
        let wake = match self.list.lock() {
            Ok(mut list) => {
                list.inputs.push(Arc::new(input));
                self.sleepers.load(Ordering::SeqCst) > 0
            }
            Err(_) => true,
        };
        if wake {
            self.moved.notify_all();
        }
    }

    fn absorbed(&self, count: usize) {
        self.absorbed.store(count, Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            // Taken so that no thread is between its last look and its wait.
            drop(self.list.lock());
            self.moved.notify_all();
        }
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        drop(self.list.lock());
        self.moved.notify_all();
    }

    /// Is input `index` near enough to the absorbed ones to be read now?
    fn is_near(&self, index: usize, ahead: usize) -> bool {
        index < self.absorbed.load(Ordering::SeqCst) + ahead
    }

    /// Input `index`, once it is listed and near enough to the absorbed ones to be read;
    /// `None` when the list ends before it or the run stopped.
    fn take(&self, index: usize, ahead: usize) -> Option<Arc<Input>> {
        let mut list = self.list.lock().ok()?;
        loop {
            if self.stopped.load(Ordering::SeqCst) {
                return None;
            }
            match list.inputs.get(index) {
                Some(item) if self.is_near(index, ahead) => return Some(Arc::clone(item)),
                None if list.complete => return None,
                _ => {}
            }
            self.sleepers.fetch_add(1, Ordering::SeqCst);
            // Looked at again now that the calling thread sees this one waiting.
            let ready =
                self.stopped.load(Ordering::SeqCst) || (index < list.inputs.len() && self.is_near(index, ahead));
            if !ready {
                let Ok(woken) = self.moved.wait(list) else {
                    self.sleepers.fetch_sub(1, Ordering::SeqCst);
                    return None;
                };
                list = woken;
            }
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// One thread: takes the inputs in order, one at a time, until none is left.
fn work<'c>(
    seed: &Seed<'c>,
    keep_text: bool,
    board: &Board,
    results: &mpsc::Sender<Vec<(usize, Arc<Input>, Read<'c>)>>,
    ahead: usize,
    prelinted: Option<&Prelinted<'c>>,
) {
    // Handed over a few at a time: each hand-over may wake the calling thread.
    let mut batch = Vec::with_capacity(SEND_EVERY);
    loop {
        if board.stopped.load(Ordering::Relaxed) {
            return;
        }
        let index = board.next.fetch_add(1, Ordering::Relaxed);
        if !board.is_near(index, ahead) && !batch.is_empty() {
            // The calling thread may be waiting for what this thread holds.
            if results.send(std::mem::take(&mut batch)).is_err() {
                return;
            }
        }
        let Some(item) = board.take(index, ahead) else { break };
        let read = match prelinted.and_then(|p| p.take(&item, keep_text)) {
            Some((fork, outcome)) => Read::Forked(outcome, fork),
            None => match &*item {
                Input::Stdin => Read::Streamed,
                Input::File {
                    path,
                    name,
                    skip_non_k8s,
                } => match read_unless_large(path, name) {
                    Ok(None) => Read::Streamed,
                    whole => {
                        let mut fork = seed.linter();
                        let outcome = lint_read(
                            whole.map(Option::unwrap_or_default),
                            name,
                            *skip_non_k8s,
                            &mut fork,
                            keep_text,
                        );
                        Read::Forked(outcome, Box::new(fork))
                    }
                },
            },
        };
        // What the calling thread streams, it is given at once.
        let now = matches!(read, Read::Streamed);
        batch.push((index, item, read));
        if (now || batch.len() >= SEND_EVERY) && results.send(std::mem::take(&mut batch)).is_err() {
            return;
        }
    }
    if !batch.is_empty() {
        let _ = results.send(batch);
    }
}

/// Calls `progress` once a file is read into `linter` (standard input calls it as it goes).
fn after_file(
    item: &Input,
    linter: &mut Linter<'_>,
    mut outcome: Outcome,
    progress: &mut Option<Progress<'_>>,
) -> Outcome {
    let Some(progress) = progress.as_mut() else {
        return outcome;
    };
    if *item == Input::Stdin {
        return outcome;
    }
    match outcome.text.take() {
        Some(text) => {
            let mut kept = Kept {
                name: item.name().to_owned(),
                text,
                offset: 0,
                line: 0,
            };
            progress(linter, Some(&mut kept));
            outcome.text = (kept.offset == 0).then_some(kept.text);
        }
        None => progress(linter, None),
    }
    outcome
}

/// Files larger than this are read as a stream, like standard input, on the calling thread:
/// memory then holds one document (or List item) of them, and results can be taken as they go.
const STREAM_FILES_OVER: u64 = 16 << 20;

/// Reads a file whole, or gives `None` when it is large enough to be streamed; one open and
/// one `fstat` either way.
fn read_unless_large(path: &std::path::Path, name: &str) -> Result<Option<Vec<u8>>, ReadProblem> {
    let io = |e: std::io::Error| ReadProblem::io(name, &e);
    let mut file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len > STREAM_FILES_OVER {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or_default());
    // Through `take`, which asks the file for no size hint (a second `fstat` and an `lseek`).
    std::io::Read::read_to_end(&mut std::io::Read::take(&mut file, u64::MAX), &mut bytes).map_err(io)?;
    Ok(Some(bytes))
}

/// [`lint_one`], or the linter `prelinted` has for `item` taken in.
fn lint_or_take<'c>(
    item: &Input,
    linter: &mut Linter<'c>,
    keep_text: bool,
    progress: &mut Option<Progress<'_>>,
    prelinted: Option<&Prelinted<'c>>,
) -> Outcome {
    match prelinted.and_then(|p| p.take(item, keep_text)) {
        Some((fork, outcome)) => {
            linter.absorb(*fork);
            outcome
        }
        None => lint_one(item, linter, keep_text, progress),
    }
}

fn lint_one(item: &Input, linter: &mut Linter<'_>, keep_text: bool, progress: &mut Option<Progress<'_>>) -> Outcome {
    let (name, skip) = match item {
        Input::Stdin => (input::STDIN_NAME, None),
        Input::File {
            path,
            name,
            skip_non_k8s,
        } => {
            match read_unless_large(path, name) {
                Ok(None) => {}
                whole => {
                    return lint_read(
                        whole.map(Option::unwrap_or_default),
                        name,
                        *skip_non_k8s,
                        linter,
                        keep_text,
                    );
                }
            }
            match std::fs::File::open(path) {
                // UTF-16 is refused for the whole file, as when it is read whole.
                Ok(file) if !starts_utf16(&file) => (name.as_str(), Some(*skip_non_k8s)),
                _ => return lint_read(input::read_file(path, name), name, *skip_non_k8s, linter, keep_text),
            }
        }
    };
    let mut kept = Kept::default();
    let problem = {
        let mut watch = Watch {
            keep: keep_text.then_some(&mut kept),
            progress: progress.as_mut().map(|p| &mut **p as Progress<'_>),
        };
        if let (Input::File { path, .. }, Some(skip)) = (item, skip) {
            match std::fs::File::open(path) {
                Ok(file) => {
                    let mut reader = std::io::BufReader::new(file);
                    input::lint_stream_skipping(&mut reader, name, linter, skip, &mut watch).err()
                }
                Err(e) => Some(ReadProblem::io(name, &e)),
            }
        } else {
            let mut stdin = std::io::stdin().lock();
            input::lint_stream_with(&mut stdin, name, linter, &mut watch).err()
        }
    };
    Outcome {
        // Text a caller dropped part of is no longer the input's.
        text: (keep_text && kept.offset == 0).then_some(kept.text),
        problem,
    }
}

/// Does the file start with a UTF-16 byte order mark?
fn starts_utf16(file: &std::fs::File) -> bool {
    let mut start = [0_u8; 2];
    std::io::Read::read_exact(&mut &*file, &mut start).is_ok() && matches!(start, [0xFF, 0xFE] | [0xFE, 0xFF])
}

/// Lints a file read whole (or says why it could not be read).
fn lint_read(
    read: Result<Vec<u8>, ReadProblem>,
    name: &str,
    skip_non_k8s: bool,
    linter: &mut Linter<'_>,
    keep_text: bool,
) -> Outcome {
    match read {
        Ok(bytes) => {
            linter.add_file_bytes_with(name, &bytes, skip_non_k8s);
            // Formats without snippets drop each file once linted.
            Outcome {
                text: keep_text.then(|| ra2_core::source::same_length_lossy(&bytes)),
                problem: None,
            }
        }
        Err(problem) => Outcome {
            text: None,
            problem: Some(problem),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory of `count` small files under the system's temporary directory, removed when
    /// dropped; every fifth file has a finding, every seventh cannot be read as UTF-8.
    struct Files {
        dir: std::path::PathBuf,
        inputs: Vec<Input>,
    }

    impl Files {
        fn new(tag: &str, count: usize) -> Files {
            let dir = std::env::temp_dir().join(format!("ra2-parallel-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let mut inputs = Vec::new();
            for i in 0..count {
                let path = dir.join(format!("f{i:04}.yaml"));
                let volume = if i % 5 == 0 {
                    "hostPath: {path: /x}"
                } else {
                    "emptyDir: {}"
                };
                let mut text = format!(
                    "apiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\nspec:\n  volumes: [{{name: v, {volume}}}]\n  containers: [{{name: c, image: r/c:1}}]\n"
                )
                .into_bytes();
                if i % 7 == 3 {
                    text.extend_from_slice(b"---\nbad: \xff\n");
                }
                std::fs::write(&path, text).unwrap();
                inputs.push(Input::File {
                    path,
                    name: format!("f{i:04}.yaml"),
                    skip_non_k8s: false,
                });
            }
            // One that is missing: a problem, in its turn.
            inputs.insert(
                count / 2,
                Input::File {
                    path: dir.join("missing.yaml"),
                    name: "missing.yaml".to_owned(),
                    skip_non_k8s: false,
                },
            );
            Files { dir, inputs }
        }
    }

    impl Drop for Files {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    /// The report and the names `on` saw, in order, stopping after `stop_after` inputs; `on`
    /// sleeps now and then so that the threads run ahead of it.
    fn run(inputs: &[Input], jobs: usize, stop_after: usize) -> (String, Vec<String>) {
        let config = ra2_core::Config::default();
        let mut linter = Linter::new(&config);
        let mut seen = Vec::new();
        lint_inputs(inputs, &mut linter, jobs, true, |item, outcome| {
            if seen.len() % 50 == 0 {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            seen.push(format!(
                "{} {} {:?}",
                item.name(),
                outcome.text.map_or(0, |t| t.len()),
                outcome.problem
            ));
            seen.len() < stop_after
        });
        (linter.finish().to_json(), seen)
    }

    #[test]
    fn threads_give_what_one_thread_gives() {
        // More inputs than the threads may read ahead of the calling thread.
        let files = Files::new("same", AHEAD_PER_THREAD * 3 * 10);
        let one = run(&files.inputs, 1, usize::MAX);
        assert_eq!(one.1.len(), files.inputs.len());
        assert!(one.0.contains("ra2::input::utf8"));
        assert!(
            one.1.iter().any(|s| s.starts_with("missing.yaml 0 Some(")),
            "{:?}",
            one.1
        );
        for jobs in [2, 3] {
            assert!(run(&files.inputs, jobs, usize::MAX) == one, "--jobs {jobs} differs");
        }
    }

    #[test]
    fn files_are_read_as_the_walk_finds_them() {
        let files = Files::new("walk", 150);
        let nested = files.dir.join("sub/deeper");
        std::fs::create_dir_all(&nested).unwrap();
        std::fs::write(
            nested.join("a.yaml"),
            "apiVersion: v1\nkind: Pod\nmetadata: {name: n}\n",
        )
        .unwrap();
        std::fs::write(files.dir.join("Chart.yaml"), "name: c\n").unwrap();
        let paths = [
            files.dir.clone(),
            files.dir.join("f0003.yaml"),
            files.dir.join("missing"),
        ];
        let config = ra2_core::Config::default();
        let read = |jobs: usize| {
            let mut linter = Linter::new(&config);
            let mut seen = Vec::new();
            let found = lint_paths(
                &paths,
                crate::Discovery::default(),
                &mut linter,
                jobs,
                false,
                |item, outcome| {
                    seen.push((item.name().to_owned(), outcome.problem));
                    true
                },
                None,
            );
            let skipped: Vec<_> = found.skipped.iter().map(|s| s.name.clone()).collect();
            (linter.finish().to_json(), seen, found.inputs, found.problems, skipped)
        };
        let one = read(1);
        // Every file once (f0003.yaml named again is not read again), Chart.yaml skipped.
        assert_eq!(one.2, 151);
        assert_eq!(one.3.len(), 1, "{:?}", one.3);
        assert_eq!(one.4.len(), 1);
        for jobs in [2, 3] {
            assert!(read(jobs) == one, "--jobs {jobs} differs");
        }
    }

    #[test]
    fn stopping_reads_no_further() {
        let files = Files::new("stop", 200);
        for jobs in [1, 2, 3] {
            let (report, seen) = run(&files.inputs, jobs, 120);
            assert_eq!(seen.len(), 120, "--jobs {jobs}");
            let report: serde_json::Value = serde_json::from_str(&report).unwrap();
            assert_eq!(
                report["summary"]["files"], 119,
                "--jobs {jobs}: the missing file is no file"
            );
        }
    }
}
