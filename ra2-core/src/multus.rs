//! TEMPORARY stand-in; replaced by the real parser.
pub struct NetworkSelection { pub elements: Vec<NetworkElement> }
pub struct NetworkElement { pub name: String, pub namespace: Option<String> }
impl NetworkElement { pub fn effective_namespace<'a>(&'a self, pod_namespace: &'a str) -> &'a str { self.namespace.as_deref().unwrap_or(pod_namespace) } }
pub fn parse_networks(value: &str) -> NetworkSelection {
    NetworkSelection { elements: value.split(',').map(|s| s.trim()).filter(|s| !s.is_empty()).map(|s| { let (ns, n) = s.split_once('/').map_or((None, s), |(a, b)| (Some(a.to_owned()), b)); NetworkElement { name: n.split('@').next().unwrap_or(n).to_owned(), namespace: ns } }).collect() }
}
