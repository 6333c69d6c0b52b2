//! TEMPORARY stand-in; replaced by the real validators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceName { Cpu, Memory, EphemeralStorage, HugePages { size: String }, Extended, Reserved, Invalid }
pub fn classify_resource_name(name: &str) -> ResourceName {
    match name { "cpu" => ResourceName::Cpu, "memory" => ResourceName::Memory, "ephemeral-storage" => ResourceName::EphemeralStorage,
      n if n.starts_with("hugepages-") => ResourceName::HugePages { size: n["hugepages-".len()..].to_owned() },
      n if n.contains('/') => ResourceName::Extended, _ => ResourceName::Invalid }
}
