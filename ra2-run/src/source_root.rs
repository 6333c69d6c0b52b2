//! Paths for uploads: the outputs meant for code review (SARIF, GitHub annotations, GitLab Code
//! Quality) name files relative to the source root — `--source-root`, else the git work tree
//! that holds the working directory (found by looking for `.git` upwards; no git needed), else
//! the working directory — so that a file gets the same path however it was named on the
//! command line (`.`, a subdirectory, an absolute path, `./x/../x`).

use std::path::{Component, Path, PathBuf};

use ra2_core::Report;

/// The source root and the working directory the report's file names are relative to.
#[derive(Clone, Debug)]
pub struct SourceRoot {
    root: PathBuf,
    cwd: PathBuf,
}

impl SourceRoot {
    /// `explicit` (`--source-root`), else the git work tree around the working directory,
    /// else the working directory.
    pub fn new(explicit: Option<&Path>) -> Self {
        let cwd = std::env::current_dir().unwrap_or_default();
        let root = match explicit {
            Some(dir) => normalize(&cwd.join(dir)),
            None => git_work_tree(&cwd).unwrap_or_else(|| cwd.clone()),
        };
        SourceRoot { root, cwd }
    }

    /// For tests: explicit directories.
    pub fn with(root: &Path, cwd: &Path) -> Self {
        SourceRoot {
            root: normalize(root),
            cwd: normalize(cwd),
        }
    }

    /// The source root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `name` (as the report names a file: relative to the working directory, or absolute)
    /// relative to the source root, with `/` separators; `None` for a name that is not a
    /// path (`<stdin>`) or lies outside the root.
    pub fn relative(&self, name: &str) -> Option<String> {
        if name.starts_with('<') {
            return None;
        }
        let path = normalize(&self.cwd.join(name));
        let inside = |root: &Path, path: &Path| path.strip_prefix(root).ok().map(Path::to_path_buf);
        let relative = inside(&self.root, &path).or_else(|| {
            // Symbolic links (a temporary directory under /var vs /private/var, a checkout
            // reached through a link): compare the resolved paths.
            let root = self.root.canonicalize().ok()?;
            let path = path.canonicalize().ok()?;
            inside(&root, &path)
        })?;
        let parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        (!parts.is_empty()).then(|| parts.join("/"))
    }

    /// The file's path on disk.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// Renames every file in `report` relative to the source root (those outside it keep
    /// their names).
    pub fn rebase(&self, report: &mut Report) {
        report.rename_files(|name| self.relative(name));
    }
}

/// `path` without `.` and with `..` applied, lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The nearest directory at or above `dir` that holds `.git` (a directory, or the file a
/// worktree or submodule has).
fn git_work_tree(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find(|d| d.join(".git").exists()).map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_file_gets_the_same_path_however_it_is_named() {
        let root = SourceRoot::with(Path::new("/repo"), Path::new("/repo/charts"));
        assert_eq!(root.relative("cnf/x.yaml").as_deref(), Some("charts/cnf/x.yaml"));
        assert_eq!(
            root.relative("./cnf/../cnf/x.yaml").as_deref(),
            Some("charts/cnf/x.yaml")
        );
        assert_eq!(
            root.relative("/repo/charts/cnf/x.yaml").as_deref(),
            Some("charts/cnf/x.yaml")
        );
        assert_eq!(root.relative("../README.md").as_deref(), Some("README.md"));
        assert_eq!(root.relative("<stdin>"), None);
        assert_eq!(root.relative("/elsewhere/x.yaml"), None);
    }

    #[test]
    fn the_git_work_tree_is_found_upwards() {
        let dir = std::env::temp_dir().join(format!("ra2-srcroot-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        std::fs::write(dir.join(".git"), "gitdir: elsewhere\n").unwrap();
        assert_eq!(git_work_tree(&dir.join("a/b")), Some(dir.clone()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
