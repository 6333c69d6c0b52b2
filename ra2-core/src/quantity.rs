//! TEMPORARY stand-in; replaced by the exact implementation.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Quantity { nanos: i128 }
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuantityError { Empty, Format, Suffix(String) }
impl std::fmt::Display for QuantityError { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "invalid quantity") } }
impl std::error::Error for QuantityError {}
impl Quantity {
    pub fn parse(s: &str) -> Result<Quantity, QuantityError> { s.parse::<i128>().map(|v| Quantity { nanos: v * 1_000_000_000 }).map_err(|_| QuantityError::Format) }
    pub fn parse_json_text(s: &str) -> Result<Quantity, QuantityError> { Self::parse(s.trim()) }
    pub fn zero() -> Quantity { Quantity { nanos: 0 } }
    pub fn is_zero(&self) -> bool { self.nanos == 0 }
    pub fn is_integer(&self) -> bool { self.nanos % 1_000_000_000 == 0 }
    pub fn is_negative(&self) -> bool { self.nanos < 0 }
    pub fn value(&self) -> i128 { self.nanos / 1_000_000_000 }
    pub fn saturating_add(&self, o: &Quantity) -> Quantity { Quantity { nanos: self.nanos.saturating_add(o.nanos) } }
}
impl std::fmt::Display for Quantity { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "{}", self.value()) } }
