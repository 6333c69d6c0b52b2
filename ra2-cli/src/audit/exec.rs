//! Exec credential plugins (`users[].user.exec` of a kubeconfig), run as client-go runs them:
//! the command with its `args`, the process environment plus the plugin's `env`, and
//! `KUBERNETES_EXEC_INFO` holding an `ExecCredential` whose `spec.interactive` says whether the
//! plugin may talk to the user (and `spec.cluster` when `provideClusterInfo` is set). The plugin
//! prints an `ExecCredential` on standard output whose `status` has a `token`, or a
//! `clientCertificateData` and `clientKeyData` (PEM). Its standard error is the user's.
//!
//! `interactiveMode`: `Never` gives the plugin no standard input; `IfAvailable` gives it ours
//! when that is a terminal; `Always` refuses to run without one. A relative command with a path
//! separator is relative to the kubeconfig file that names it; a bare name is searched in PATH.
//! The credential is used for the whole audit (one run lasts less than any usual expiry), so
//! `expirationTimestamp` is not read.

use std::io::IsTerminal;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::ClusterInfo;

/// The API versions of `ExecCredential` that client-go still speaks.
const VERSIONS: &[&str] = &[
    "client.authentication.k8s.io/v1",
    "client.authentication.k8s.io/v1beta1",
];

/// What the plugin returned.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Credential {
    pub token: Option<String>,
    /// Client certificate chain and key, PEM.
    pub client: Option<(Vec<u8>, Vec<u8>)>,
}

/// The plugin's settings, read from the kubeconfig's `exec` mapping.
#[derive(Debug, PartialEq, Eq)]
struct Plugin {
    api_version: String,
    command: String,
    args: Vec<String>,
    env: Vec<(String, String)>,
    interactive_mode: Mode,
    provide_cluster_info: bool,
    install_hint: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Never,
    IfAvailable,
    Always,
}

fn plugin(exec: &Value) -> Result<Plugin, String> {
    let string = |key: &str| exec.get(key).and_then(Value::as_str).map(str::to_owned);
    let api_version = string("apiVersion").ok_or("exec has no apiVersion")?;
    if !VERSIONS.contains(&api_version.as_str()) {
        return Err(format!(
            "exec apiVersion {api_version:?} is not one ra2 speaks ({})",
            VERSIONS.join(", ")
        ));
    }
    let command = string("command")
        .filter(|c| !c.is_empty())
        .ok_or("exec has no command")?;
    let args = match exec.get("args") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|a| a.as_str().map(str::to_owned).ok_or("exec args must be strings"))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("exec args must be a list".to_owned()),
    };
    let env = match exec.get("env") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|e| {
                let name = e.get("name").and_then(Value::as_str);
                let value = e.get("value").and_then(Value::as_str);
                name.zip(value)
                    .map(|(n, v)| (n.to_owned(), v.to_owned()))
                    .ok_or("exec env entries need a name and a value")
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("exec env must be a list".to_owned()),
    };
    let interactive_mode = match string("interactiveMode").as_deref() {
        Some("Never") => Mode::Never,
        Some("IfAvailable") => Mode::IfAvailable,
        Some("Always") => Mode::Always,
        // v1beta1 defaults to IfAvailable; v1 requires the field, as client-go does.
        None if api_version.ends_with("/v1beta1") => Mode::IfAvailable,
        None => return Err("exec of client.authentication.k8s.io/v1 must set interactiveMode".to_owned()),
        Some(other) => {
            return Err(format!(
                "exec interactiveMode {other:?} is not Never, IfAvailable or Always"
            ));
        }
    };
    Ok(Plugin {
        api_version,
        command,
        args,
        env,
        interactive_mode,
        provide_cluster_info: exec.get("provideClusterInfo").and_then(Value::as_bool) == Some(true),
        install_hint: string("installHint"),
    })
}

/// Runs the plugin of a kubeconfig's `exec` mapping; `base` is the directory of the kubeconfig
/// file that names it.
pub(super) fn run(exec: &Value, base: &Path, cluster: &ClusterInfo<'_>) -> Result<Credential, String> {
    let plugin = plugin(exec)?;
    let terminal = std::io::stdin().is_terminal();
    let interactive = match plugin.interactive_mode {
        Mode::Never => false,
        Mode::IfAvailable => terminal,
        Mode::Always if terminal => true,
        Mode::Always => {
            return Err(format!(
                "the exec plugin {} needs an interactive terminal (interactiveMode: Always), and standard input is not one",
                plugin.command
            ));
        }
    };
    let mut spec = json!({"interactive": interactive});
    if plugin.provide_cluster_info {
        let mut info = json!({"server": cluster.server, "insecure-skip-tls-verify": cluster.insecure});
        if let Some(ca) = cluster.ca_pem {
            info["certificate-authority-data"] = Value::from(base64_encode(ca));
        }
        if let Some(config) = cluster.exec_config {
            info["config"] = config.clone();
        }
        spec["cluster"] = info;
    }
    let exec_info = json!({"apiVersion": plugin.api_version, "kind": "ExecCredential", "spec": spec});
    let command = if plugin.command.contains(std::path::MAIN_SEPARATOR) && Path::new(&plugin.command).is_relative() {
        base.join(&plugin.command)
    } else {
        Path::new(&plugin.command).to_owned()
    };
    let output = Command::new(&command)
        .args(&plugin.args)
        .envs(plugin.env.iter().map(|(k, v)| (k, v)))
        .env("KUBERNETES_EXEC_INFO", exec_info.to_string())
        .stdin(if interactive { Stdio::inherit() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| {
            let hint = plugin
                .install_hint
                .as_deref()
                .map(|h| format!("\n{}", h.trim()))
                .unwrap_or_default();
            format!("cannot run the exec plugin {}: {e}{hint}", command.display())
        })?;
    if !output.status.success() {
        return Err(format!(
            "the exec plugin {} failed ({})",
            command.display(),
            output.status
        ));
    }
    parse(&output.stdout, &plugin.api_version).map_err(|e| format!("the exec plugin {} printed {e}", command.display()))
}

/// Reads the `ExecCredential` a plugin printed.
fn parse(stdout: &[u8], api_version: &str) -> Result<Credential, String> {
    let value: Value = serde_json::from_slice(stdout).map_err(|e| format!("no ExecCredential JSON: {e}"))?;
    if value.get("kind").and_then(Value::as_str) != Some("ExecCredential") {
        return Err("JSON that is not an ExecCredential".to_owned());
    }
    let version = value.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
    if version != api_version {
        return Err(format!(
            "an ExecCredential of apiVersion {version:?}, but the kubeconfig asked for {api_version:?}"
        ));
    }
    let status = value.get("status").ok_or("an ExecCredential without status")?;
    let string = |key: &str| status.get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    let token = string("token").map(str::to_owned);
    let client = match (string("clientCertificateData"), string("clientKeyData")) {
        (Some(cert), Some(key)) => Some((cert.as_bytes().to_vec(), key.as_bytes().to_vec())),
        (None, None) => None,
        _ => return Err("an ExecCredential with only one of clientCertificateData and clientKeyData".to_owned()),
    };
    if token.is_none() && client.is_none() {
        return Err("an ExecCredential with neither a token nor a client certificate".to_owned());
    }
    Ok(Credential { token, client })
}

/// Standard base64 with padding.
fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_as_client_go_reads_them() {
        let exec = json!({
            "apiVersion": "client.authentication.k8s.io/v1",
            "command": "./bin/get-token",
            "args": ["--cluster", "edge-1"],
            "env": [{"name": "REGION", "value": "eu-west-1"}],
            "interactiveMode": "Never",
            "provideClusterInfo": true,
        });
        let p = plugin(&exec).unwrap();
        assert_eq!(p.args, ["--cluster", "edge-1"]);
        assert_eq!(p.env, [("REGION".to_owned(), "eu-west-1".to_owned())]);
        assert_eq!(p.interactive_mode, Mode::Never);
        assert!(p.provide_cluster_info);
        let beta = json!({"apiVersion": "client.authentication.k8s.io/v1beta1", "command": "aws"});
        assert_eq!(plugin(&beta).unwrap().interactive_mode, Mode::IfAvailable);
        let v1 = json!({"apiVersion": "client.authentication.k8s.io/v1", "command": "aws"});
        assert!(plugin(&v1).unwrap_err().contains("interactiveMode"));
        let alpha = json!({"apiVersion": "client.authentication.k8s.io/v1alpha1", "command": "aws"});
        assert!(plugin(&alpha).is_err());
        assert!(plugin(&json!({"apiVersion": VERSIONS[0], "interactiveMode": "Never"})).is_err());
        let bad_env =
            json!({"apiVersion": VERSIONS[0], "command": "x", "interactiveMode": "Never", "env": [{"name": "A"}]});
        assert!(plugin(&bad_env).is_err());
    }

    #[test]
    fn credentials_printed_by_plugins() {
        let v1 = "client.authentication.k8s.io/v1";
        let token = br#"{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"token": "abc", "expirationTimestamp": "2030-01-01T00:00:00Z"}}"#;
        assert_eq!(parse(token, v1).unwrap().token.as_deref(), Some("abc"));
        let cert = br#"{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"clientCertificateData": "C", "clientKeyData": "K"}}"#;
        assert_eq!(parse(cert, v1).unwrap().client, Some((b"C".to_vec(), b"K".to_vec())));
        assert!(parse(token, "client.authentication.k8s.io/v1beta1").is_err());
        assert!(parse(b"not json", v1).is_err());
        assert!(
            parse(
                br#"{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {}}"#,
                v1
            )
            .is_err()
        );
        assert!(parse(br#"{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"clientKeyData": "K"}}"#, v1).is_err());
    }

    #[test]
    fn base64() {
        assert_eq!(base64_encode(b"hello world"), "aGVsbG8gd29ybGQ=");
        assert_eq!(base64_encode(b"ab"), "YWI=");
        assert_eq!(base64_encode(b""), "");
        assert_eq!(
            super::super::base64_decode(&base64_encode(b"\x00\xff\x10")).unwrap(),
            b"\x00\xff\x10"
        );
    }
}
