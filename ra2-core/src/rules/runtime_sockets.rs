//! ra2.app.028: no container runtime socket reaches a pod through a host path, neither the
//! socket itself nor a directory above it.

use crate::model::{Object, PodSpec};
use crate::parse::view::Located;
use crate::rules::params::RuleParams;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check_pod),
    object: Some(check_object),
    params: Some(super::params::decoder::<Params>),
    ..Checks::NONE
};

/// The runtime sockets no pod may reach.
#[derive(Clone, Debug)]
struct Params {
    sockets: Vec<String>,
}

impl RuleParams for Params {
    fn decode(params: &mut super::params::Params<'_>) -> Self {
        Params {
            sockets: params.list("sockets"),
        }
    }
}

fn check_pod(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let sockets = cx.params::<Params>().sockets.clone();
    for volume in pod.volumes() {
        let Some(path) = volume.path(&["hostPath", "path"]) else {
            continue;
        };
        let name = volume.str_at("name").unwrap_or("?");
        report(&path, &format!("volume {name:?} mounts"), &sockets, cx);
    }
}

/// A `PersistentVolume` whose host path exposes a socket gives it to every pod using the claim.
fn check_object(object: &Object<'_>, cx: &mut Context<'_>) {
    if !object.is("", "PersistentVolume") {
        return;
    }
    let Some(path) = object.root.path(&["spec", "hostPath", "path"]) else {
        return;
    };
    let sockets = cx.params::<Params>().sockets.clone();
    let name = object.name.unwrap_or("?");
    report(&path, &format!("persistent volume {name:?} is backed by"), &sockets, cx);
}

fn report(path: &Located<'_>, subject: &str, sockets: &[String], cx: &mut Context<'_>) {
    let Some(written) = path.as_str() else { return };
    let cleaned = super::mounts::runtime_path(written);
    let Some(socket) = sockets.iter().find(|s| exposes(&cleaned, s)) else {
        return;
    };
    let message = if same_file(&cleaned, socket) {
        format!("{subject} the container runtime socket {written}")
    } else {
        format!("{subject} host path {written}, which contains the container runtime socket {socket}")
    };
    cx.report("runtime-socket", path, message);
}

/// `/var/run` is a symbolic link to `/run` on current Linux distributions, so a socket is
/// reachable under either name.
fn spellings(path: &str) -> [String; 2] {
    let other = if let Some(rest) = path.strip_prefix("/var/run/") {
        format!("/run/{rest}")
    } else if let Some(rest) = path.strip_prefix("/run/") {
        format!("/var/run/{rest}")
    } else {
        path.to_owned()
    };
    [path.to_owned(), other]
}

fn same_file(cleaned: &str, socket: &str) -> bool {
    spellings(socket).iter().any(|s| s == cleaned)
}

/// The cleaned host path is the socket or a directory above it, compared element by element
/// (`/var/run` exposes `/var/run/docker.sock`; `/var/r` and `/var/run/docker` do not).
fn exposes(cleaned: &str, socket: &str) -> bool {
    spellings(socket)
        .iter()
        .any(|s| s == cleaned || cleaned == "/" || s.strip_prefix(cleaned).is_some_and(|rest| rest.starts_with('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancestors_and_both_run_directories_expose_a_socket() {
        let docker = "/var/run/docker.sock";
        for path in [
            "/var/run/docker.sock",
            "/run/docker.sock",
            "/var/run",
            "/run",
            "/var",
            "/",
        ] {
            assert!(exposes(path, docker), "{path}");
        }
        for path in ["/var/r", "/var/run/docker", "/var/lib/docker", "/run/containerd"] {
            assert!(!exposes(path, docker), "{path}");
        }
        assert!(exposes("/var/run/containerd", "/run/containerd/containerd.sock"));
        assert!(same_file("/run/docker.sock", docker));
        assert!(!same_file("/var/run", docker));
    }
}
